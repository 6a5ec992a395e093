/* Route B: one library present in two or more copies in one image, each
 * bound by its own users (a partition, harmless only if the library holds no
 * process-wide state).  A copy is recognised by its names (exported, or
 * hidden in .symtab), renamed or namespaced names, or a version string in
 * read-only data (the only trace a stripped, statically embedded copy
 * leaves), or a message string only that library carries.  The fingerprints
 * are one table; each row of it says what state such a copy holds, which
 * ranks the finding.  Within a group the more specific variant comes first
 * (BoringSSL also defines OpenSSL's names). */
#include "analyse/analyse.h"
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

struct family {
    const char *group, *variant;
    const char *names;       /* exact names, space-separated */
    const char *prefixes;    /* renamed/namespaced/versioned names */
    const char *infixes;     /* inside a longer name: a C++ namespace, a vendor prefix */
    const char *anchor;      /* version string in .rodata: the version follows it */
    const char *sev, *state;
    const char *marker;      /* a string only this library carries (its own messages) */
};

static const struct family F[] = {
    { "zlib", "zlib", "zlibVersion deflateInit2_ inflateInit2_", "Cr_z_ zng_", "", " deflate ", "low",
      "no process-wide state (per-stream state only)", "invalid distance too far back" },
    { "zlib", "miniz", "mz_deflateInit2 mz_version", "", "10mz_versionE", NULL, "low", "no process-wide state", NULL },
    { "TLS", "BoringSSL", "BORINGSSL_self_test", "BORINGSSL_", "", "BoringSSL", "med", "RNG, error queues", NULL },
    { "TLS", "OpenSSL", "OPENSSL_init_crypto OpenSSL_version", "", "", "OpenSSL ", "med",
      "RNG, error queues, provider/engine registry", NULL },
    /* marker: the name its debug messages carry (a stripped copy keeps no
     * "mbed TLS" version string: libonnxruntime's) */
    { "TLS", "mbedTLS", "", "mbedtls_", "", "mbed TLS ", "med", "RNG and entropy state per context; debug hooks",
      "mbedtls_ssl_handshake" },
    { "ICU", "ICU", "u_init u_getVersion", "u_init_ ucol_open_ ubrk_open_ u_getVersion_", "", "icudt", "med",
      "default locale, data and converter caches", NULL },
    { "OpenMP runtime", "libgomp", "GOMP_parallel GOMP_barrier", "", "", NULL, "med", "a thread pool", NULL },
    { "OpenMP runtime", "libomp", "__kmpc_fork_call", "", "", NULL, "med", "a thread pool", NULL },
    { "libgfortran", "libgfortran", "", "_gfortran_", "", NULL, "med", "I/O units, error handling", NULL },
    { "libquadmath", "libquadmath", "quadmath_snprintf", "", "", NULL, "low", "no process-wide state", NULL },
    { "protobuf", "protobuf", "", "_ZN6google8protobuf", "", NULL, "med",
      "the generated descriptor pool (one .proto registered twice aborts)", NULL },
    { "abseil", "abseil", "", "_ZN4absl", "", NULL, "med", "flags, logging and other process registries", "absl/" },
    { "libsodium", "libsodium", "sodium_init", "", "", NULL, "med", "RNG implementation choice", NULL },
    /* marker: one of its error messages (php8.2 carries its own "Corrupt JPEG data: ...") */
    { "libjpeg", "libjpeg-turbo", "jpeg_CreateDecompress tjInitDecompress", "", "", "libjpeg-turbo version ", "low",
      "no process-wide state", "Bogus marker length" },
    { "libpng", "libpng", "png_create_read_struct png_get_libpng_ver", "", "", "libpng version ", "low",
      "no process-wide state", NULL },
    { "libpng", "spng", "spng_ctx_new", "", "", NULL, "low", "no process-wide state", NULL },
    { "libwebp", "libwebp", "WebPGetDecoderVersion WebPDecode", "", "", NULL, "low", "no process-wide state",
      "cannot parse filter header" },
    /* marker: the environment variable it reads */
    { "harfbuzz", "harfbuzz", "hb_buffer_create hb_version_string", "", "", NULL, "low", "no process-wide state",
      "HB_SHAPER_LIST" },
    /* marker: the environment variable it reads */
    { "FreeType", "FreeType", "FT_Init_FreeType", "", "", NULL, "low", "no process-wide state (a handle per user)",
      "FREETYPE_PROPERTIES" },
    /* infix: also duckdb's renamed copies (duckdb_LZ4_..., duckdb_snappy::) */
    { "lz4", "lz4", "", "", "LZ4_compress_default", NULL, "low", "no process-wide state", NULL },
    { "snappy", "snappy", "", "", "snappy11RawCompress snappy10Uncompress", NULL, "low", "no process-wide state", NULL },
    { "expat", "expat", "XML_ParserCreate XML_ExpatVersion", "", "", "expat_", "low", "no process-wide state", NULL },
    { "allocator", "jemalloc", "je_malloc je_mallocx mallocx", "", "je_a0malloc je_mallocx", NULL, "high",
      "the heap: memory freed through another copy corrupts it", "<jemalloc>" },
    { "allocator", "mimalloc", "mi_malloc", "", "", NULL, "high", "the heap: memory freed through another copy corrupts it",
      "mimalloc: " },
    { "allocator", "tcmalloc", "tc_malloc", "", "", NULL, "high", "the heap: memory freed through another copy corrupts it", NULL },
    /* glibc's last: mimalloc and tcmalloc define its internal aliases
     * (__libc_malloc ...) so that glibc's own calls reach them; that makes
     * them no copy of glibc's malloc */
    { "allocator", "glibc malloc", "__libc_malloc", "", "", NULL, "high",
      "the heap: memory freed through another copy corrupts it", NULL },
    /* libc++ first: libc++abi defines libstdc++'s __cxa_ names too. Its
     * inline namespace is std::__1, Chromium's std::Cr (wrtc.node, skia);
     * libc++abi's own type and message prefix find a stripped copy. */
    { "C++ runtime", "libc++", "", "_ZNSt3__1 _ZNSt2Cr", "16__shim_type_info", NULL, "med",
      "exception runtime, locale, iostreams", "libc++abi: " },
    { "C++ runtime", "libstdc++", "__cxa_throw __cxa_get_globals", "", "", NULL, "med",
      "exception runtime, terminate handler, locale, iostreams", NULL },
};
#define NF (sizeof F / sizeof F[0])

struct copy { int found; int kind; char version[32]; };   /* kind: 0 exported, 1 hidden, 2 embedded */
static const char *const KIND[] = { "exported", "hidden", "embedded" };

/* how: 0 exact, 1 prefix, 2 anywhere in the name */
static int word_in(const char *list, const char *name, int how)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ' ');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l && how == 2 && memmem(name, n, p, l)) return 1;
        if (l && how < 2 && (how ? l <= n && !strncmp(p, name, l) : l == n && !strncmp(p, name, l))) return 1;
        p += l + (e != NULL);
    }
    return 0;
}

static void version_after(const char *buf, size_t n, const char *anchor, char *out, size_t cap)
{
    const char *p = memmem(buf, n, anchor, strlen(anchor));
    while (p) {
        const char *v = p + strlen(anchor), *end = buf + n;
        size_t k = 0;
        if (v < end && *v >= '0' && *v <= '9') {
            while (v + k < end && k + 1 < cap && v[k] && strchr("0123456789.", v[k])) k++;
            while (k && v[k - 1] == '.') k--;
            memcpy(out, v, k);
            out[k] = 0;
            return;
        }
        p = memmem(v, end - v, anchor, strlen(anchor));
    }
}

/* Which families module m carries a copy of; cached on the module. */
static struct copy *fingerprint(struct module *m)
{
    if (m->copies) return m->copies;
    struct copy *c = m->copies = xcalloc(NF, sizeof *c);
    for (int i = 0; i < m->ndefs; i++) {
        const struct def *d = &m->defs[i];
        for (size_t f = 0; f < NF; f++) {
            if (c[f].found && c[f].kind == 0) continue;
            if (!word_in(F[f].names, d->name, 0) && !word_in(F[f].prefixes, d->name, 1) && !word_in(F[f].infixes, d->name, 2))
                continue;
            if (!c[f].found || !d->hidden_vis) c[f].kind = d->hidden_vis;
            c[f].found = 1;
        }
    }
    /* version strings in read-only data: embedded copies, and versions */
    Elf_Scn *scn = NULL;
    size_t shstrndx;
    if (elf_getshdrstrndx(m->elf, &shstrndx) != 0) return c;
    while ((scn = elf_nextscn(m->elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_ALLOC) ||
            (sh.sh_flags & (SHF_WRITE | SHF_EXECINSTR)) || sh.sh_offset + sh.sh_size > m->size)
            continue;
        const char *n = elf_strptr(m->elf, shstrndx, sh.sh_name);
        if (!n || strncmp(n, ".rodata", 7)) continue;
        const char *buf = (const char *)m->map + sh.sh_offset;
        for (size_t f = 0; f < NF; f++) {
            if (F[f].anchor && !c[f].version[0])
                version_after(buf, sh.sh_size, F[f].anchor, c[f].version, sizeof c[f].version);
            int seen = c[f].version[0] || (F[f].marker && memmem(buf, sh.sh_size, F[f].marker, strlen(F[f].marker)));
            if (seen && !c[f].found) { c[f].found = 1; c[f].kind = 2; }
        }
    }
    return c;
}


/* The variant of group f (its first row) a module exports or hides: the
 * first of the group's rows it carries, as find_copies names it; -1 for none. */
static long variant_of(const struct copy *c, size_t f)
{
    for (size_t g = f; g < NF && !strcmp(F[g].group, F[f].group); g++)
        if (c[g].found && c[g].kind != 2) return (long)g;
    return -1;
}

/* One library's copies: the same variant of one group.  Another variant is
 * other code that implements the same names (BoringSSL's OpenSSL names, a
 * replacement allocator's __libc_malloc). */
int common_family(struct module *a, struct module *b)
{
    const struct copy *ca = fingerprint(a), *cb = fingerprint(b);
    for (size_t f = 0; f < NF; f++) {
        if (f && !strcmp(F[f].group, F[f - 1].group)) continue;
        long va = variant_of(ca, f);
        if (va >= 0 && va == variant_of(cb, f)) return 1;
    }
    return 0;
}

/* The variant of the named group (the fingerprint table's first column) m
 * exports or hides, NULL for none: "jemalloc", "glibc malloc" ... */
const char *family_variant(struct module *m, const char *group)
{
    for (size_t f = 0; f < NF; f++)
        if (!strcmp(F[f].group, group)) {
            long v = variant_of(fingerprint(m), f);
            return v < 0 ? NULL : F[v].variant;
        }
    return NULL;
}

static int rank(const char *sev) { return !strcmp(sev, "high") ? 2 : !strcmp(sev, "med"); }

/* A module that only carries the library's strings (a version macro from
 * its headers) while it links against an exported copy of that same library
 * is a user of it; one that an exported copy links against is a part of it
 * (libicudata, ICU's data blob, which libicuuc needs). The same variant, not
 * only the same group: every module links libc, whose malloc is exported,
 * and an embedded mimalloc is no user of it. */
static int user_of(const struct image *im, int i, size_t g, const struct copy *c)
{
    if (c->kind != 2) return 0;
    for (int k = 0; k < im->mods[i].ndeps; k++) {
        const struct copy *d = &fingerprint(im->mods[im->mods[i].deps[k]].m)[g];
        if (d->found && d->kind != 2) return 1;
    }
    for (int j = 0; j < im->n; j++) {
        if (j == i || !module_needs(im->mods[j].m, im->mods[i].m)) continue;
        const struct copy *d = &fingerprint(im->mods[j].m)[g];
        if (d->found && d->kind != 2) return 1;
    }
    return 0;
}

/* Exported copies of one variant joined by a DT_NEEDED are parts of one
 * library, not copies of it: libicui18n needs libicuuc, abseil's sixteen
 * libraries need one another (a bundled copy binds its own, it does not need
 * another). Another variant is another library: libduckdb's jemalloc needs
 * libc, whose malloc is glibc's. Keeps the first module of each part-group
 * in cp[0..n), returns their number. */
static int one_per_library(const struct image *im, struct copyof *cp, int n)
{
    int *up = xcalloc(n, sizeof *up), k = 0;
    for (int i = 0; i < n; i++) up[i] = i;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (i == j || strcmp(cp[i].kind, KIND[0]) || strcmp(cp[j].kind, KIND[0]) || strcmp(cp[i].variant, cp[j].variant) ||
                !module_needs(im->mods[cp[i].mod].m, im->mods[cp[j].mod].m)) continue;
            int a = i, b = j;
            while (up[a] != a) a = up[a];
            while (up[b] != b) b = up[b];
            if (a != b) up[a > b ? a : b] = a < b ? a : b;
        }
    for (int i = 0; i < n; i++) {
        int r = i;
        while (up[r] != r) r = up[r];
        if (r == i) cp[k++] = cp[i];
    }
    free(up);
    return k;
}

void find_copies(struct findings *fs, const struct image *im)
{
    for (size_t f = 0; f < NF; f++) {
        if (f && !strcmp(F[f].group, F[f - 1].group)) continue;   /* one row per group */
        struct copyof *cp = xcalloc(im->n, sizeof *cp);
        int n = 0;
        const char *sev = "low";
        for (int i = 0; i < im->n; i++)
            for (size_t g = f; g < NF && !strcmp(F[g].group, F[f].group); g++) {
                const struct copy *c = &fingerprint(im->mods[i].m)[g];
                if (!c->found || user_of(im, i, g, c)) continue;
                cp[n++] = (struct copyof){ i, KIND[c->kind], F[g].variant, c->version };
                if (rank(F[g].sev) > rank(sev)) sev = F[g].sev;
                break;   /* one copy per module and group */
            }
        n = one_per_library(im, cp, n);
        if (n < 2) { free(cp); continue; }
        struct item *it = findings_add(fs, F_COPY, F[f].group);
        it->cp = findings_own(fs, cp);
        it->n = n;
        it->sev = sev;
        it->state = F[f].state;
    }
}

/* The modules a COPY row names: its copies. */
int names_copy(const struct item *it, int i)
{
    for (int j = 0; j < it->n; j++)
        if (it->cp[j].mod == i) return 1;
    return 0;
}
