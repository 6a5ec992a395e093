/* Function bounds from .eh_frame: every function the unwinder must walk
 * through has a frame description (FDE) that names its first address and its
 * length, whether or not a symbol does.  A stripped library's local
 * functions have no symbol, so without this the disassembly stops at the
 * first call into one (funcstate.c: "unknown"); with it, the cells they
 * touch are known too (a split of state then needs no guess).
 *
 * Read: the CIEs' 'R' augmentation (how an FDE encodes its addresses) and
 * each FDE's initial location and range.  Encodings: absolute or
 * PC-relative, 4 or 8 bytes, signed or not (what GNU, LLVM and mold
 * toolchains write); an FDE in any other encoding is left out (its function
 * stays unbounded: the answer stays unknown, never wrong). */
#include "base/symsplit.h"
#include <gelf.h>
#include <string.h>

enum { PE_ABS = 0x00, PE_ULEB = 0x01, PE_U2 = 0x02, PE_U4 = 0x03, PE_U8 = 0x04, PE_S2 = 0x0a, PE_S4 = 0x0b,
       PE_S8 = 0x0c, PE_PCREL = 0x10, PE_OMIT = 0xff };

struct cur { const unsigned char *p, *end; };

static int take(struct cur *c, void *out, size_t n)
{
    if ((size_t)(c->end - c->p) < n) return -1;
    memcpy(out, c->p, n);
    c->p += n;
    return 0;
}

static int uleb(struct cur *c, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; c->p < c->end && shift < 64; shift += 7) {
        unsigned char b = *c->p++;
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return 0;
    }
    return -1;
}

/* One encoded value (the format bits only); "absolute" is an address: 8
 * bytes in ELF64, 4 in ELF32 (wide: the file's class). */
static int encoded(struct cur *c, int enc, int wide, int64_t *v)
{
    union { uint16_t u2; int16_t s2; uint32_t u4; int32_t s4; uint64_t u8; int64_t s8; } x;
    if ((enc & 0x0f) == PE_ABS) enc = wide ? PE_U8 : PE_U4;
    switch (enc & 0x0f) {
    case PE_U8: if (take(c, &x.u8, 8)) return -1; *v = (int64_t)x.u8; return 0;
    case PE_S8: if (take(c, &x.s8, 8)) return -1; *v = x.s8; return 0;
    case PE_U4: if (take(c, &x.u4, 4)) return -1; *v = x.u4; return 0;
    case PE_S4: if (take(c, &x.s4, 4)) return -1; *v = x.s4; return 0;
    case PE_U2: if (take(c, &x.u2, 2)) return -1; *v = x.u2; return 0;
    case PE_S2: if (take(c, &x.s2, 2)) return -1; *v = x.s2; return 0;
    case PE_ULEB: { uint64_t u; if (uleb(c, &u)) return -1; *v = (int64_t)u; return 0; }
    }
    return -1;
}

/* The FDE pointer encoding a CIE declares ('R'), -1 where it cannot be read. */
static int cie_encoding(struct cur c, int wide)
{
    unsigned char version;
    uint64_t skip;
    if (take(&c, &version, 1)) return -1;
    const char *aug = (const char *)c.p;
    const unsigned char *nul = memchr(c.p, 0, c.end - c.p);
    if (!nul) return -1;
    c.p = nul + 1;
    if (strchr(aug, 'e')) return -1;   /* the old "eh" augmentation carries a pointer first */
    if (version == 4 && (size_t)(c.end - c.p) < 2) return -1;   /* v4: address and segment sizes first */
    if (version == 4) c.p += 2;
    if (uleb(&c, &skip) || uleb(&c, &skip)) return -1;   /* code, data alignment (sleb: skipped alike) */
    if (version == 1) { if (take(&c, &version, 1)) return -1; } else if (uleb(&c, &skip)) return -1;
    if (aug[0] != 'z') return PE_ABS;
    if (uleb(&c, &skip)) return -1;   /* augmentation data length */
    for (const char *a = aug + 1; *a; a++) {
        unsigned char enc;
        int64_t ptr;
        switch (*a) {
        case 'R': return take(&c, &enc, 1) ? -1 : enc;
        case 'L': if (take(&c, &enc, 1)) return -1; break;
        case 'P': if (take(&c, &enc, 1) || encoded(&c, enc, wide, &ptr)) return -1; break;
        case 'S': case 'B': break;
        default: return -1;
        }
    }
    return PE_ABS;
}

/* Calls add(lo, hi, arg) for every FDE of m's .eh_frame; the count added. */
int eh_frame_functions(struct module *m, void (*add)(uint64_t lo, uint64_t hi, void *arg), void *arg)
{
    Elf *e = m->elf;
    size_t shstrndx;
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;
    int n = 0, wide = gelf_getclass(e) == ELFCLASS64;
    if (elf_getshdrstrndx(e, &shstrndx) != 0) return 0;
    while ((scn = elf_nextscn(e, scn))) {
        const char *nm;
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS && (nm = elf_strptr(e, shstrndx, sh.sh_name)) &&
            !strcmp(nm, ".eh_frame"))
            break;
    }
    if (!scn || sh.sh_offset > m->size || sh.sh_size > m->size - sh.sh_offset) return 0;
    const unsigned char *base = (const unsigned char *)m->map + sh.sh_offset;
    struct cur all = { base, base + sh.sh_size };
    while (all.p < all.end) {
        uint32_t len4, id;
        uint64_t len;
        if (take(&all, &len4, 4) || len4 == 0) break;   /* 0: the terminator */
        len = len4;
        if (len4 == 0xffffffffu && take(&all, &len, 8)) break;
        if (len > (uint64_t)(all.end - all.p) || len < 4) break;
        struct cur body = { all.p, all.p + len };
        all.p += len;
        const unsigned char *idp = body.p;
        if (take(&body, &id, 4) || id == 0) continue;   /* a CIE: read when an FDE points to it */
        if (id > (uint64_t)(idp - base)) continue;
        const unsigned char *cie = idp - id;
        uint32_t clen;
        struct cur cc = { cie, all.end };
        if (take(&cc, &clen, 4) || clen == 0xffffffffu || clen < 4 || clen > (uint64_t)(all.end - cc.p)) continue;
        cc.end = cc.p + clen;
        uint32_t cid;
        if (take(&cc, &cid, 4) || cid != 0) continue;
        int enc = cie_encoding(cc, wide);
        if (enc < 0 || enc == PE_OMIT || (enc & 0x70 & ~PE_PCREL) || (enc & 0x80)) continue;
        uint64_t at = sh.sh_addr + (uint64_t)(body.p - base);   /* the field's own address, for pcrel */
        int64_t start, range;
        if (encoded(&body, enc, wide, &start) || encoded(&body, enc & 0x0f, wide, &range) || range <= 0) continue;
        uint64_t lo = (enc & PE_PCREL) ? at + (uint64_t)start : (uint64_t)start;
        add(lo, lo + (uint64_t)range, arg);
        n++;
    }
    return n;
}
