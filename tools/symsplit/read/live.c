/* --pid PID: read a live process.  The loader keeps its own record in the
 * process: the executable's DT_DEBUG (or ld.so's _r_debug) points at r_debug,
 * whose link-map chain lists every loaded object in load order, one chain per
 * dlmopen namespace (r_version 2: r_next, glibc >= 2.35).  Each object's
 * GOT/PLT slots hold what ld.so bound its references to.  Both are read
 * through /proc/PID/mem; the files behind them as the process sees them:
 * through /proc/PID/root (a chroot or container) and, for a file replaced on
 * disk since it was mapped ("(deleted)" in maps), /proc/PID/map_files.
 *
 * The image built here is the process's: its modules in link-map order, the
 * global scope as ld.so holds it (its main searchlist, when the loader's
 * _rtld_global can be read and checked), and every binding a slot shows
 * marked observed.  What has not happened yet (a lazy slot still pointing
 * into its PLT, a promotion, a --dlopen what-if) is left to the model. */
#include "read/live.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elf.h>
#include <link.h>

#define MAX_OBJECTS 65536   /* a chain longer than this is a loop or garbage */
#define MAX_NS 64           /* glibc has 16 (DL_NNS) */

int live_read(const struct live *lv, uint64_t addr, void *buf, size_t n)
{
    return pread(lv->fd, buf, n, (off_t)addr) == (ssize_t)n ? 0 : -1;
}

/* A NUL-terminated string of the process (at most max - 1 bytes): read
 * a page at a time, never across a page boundary in one read (the next page
 * may be unmapped: /proc/PID/mem fails the whole read), not a byte per
 * system call (65,536 names of 5,000 bytes took 206 s). */
static char *rd_str(const struct live *lv, uint64_t addr, size_t max)
{
    char buf[PATH_MAX];
    if (max > sizeof buf) max = sizeof buf;
    size_t n = 0;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0) page = 4096;
    while (n < max - 1) {
        uint64_t a = addr + n;
        size_t want = page - (size_t)(a % (uint64_t)page);
        if (want > max - 1 - n) want = max - 1 - n;
        ssize_t got = pread(lv->fd, buf + n, want, (off_t)a);
        if (got <= 0) break;
        char *nul = memchr(buf + n, 0, (size_t)got);
        if (nul) { n = (size_t)(nul - buf); break; }
        n += (size_t)got;
    }
    buf[n] = 0;
    return xstrdup(buf);
}

static int read_maps(struct live *lv, char **err)
{
    char *p = xasprintf("/proc/%s/maps", lv->pid), *line = NULL;
    FILE *f = fopen(p, "r");
    free(p);
    if (!f) { *err = xasprintf("--pid %s: cannot read /proc/%s/maps", lv->pid, lv->pid); return -1; }
    size_t cap = 0, mcap = 0;
    while (getline(&line, &cap, f) > 0) {
        unsigned long long lo, hi;
        char *path = strchr(line, '/');
        if (sscanf(line, "%llx-%llx", &lo, &hi) != 2 || !path) continue;
        path[strcspn(path, "\n")] = 0;
        char *del = strstr(path, " (deleted)");
        if (del) *del = 0;
        GROW(lv->maps, lv->nmaps, mcap);
        lv->maps[lv->nmaps++] = (struct mapping){ lo, hi, xstrdup(path), del != NULL };
    }
    free(line);
    fclose(f);
    return 0;
}

static const struct mapping *mapping_at(const struct live *lv, uint64_t a)
{
    for (int i = 0; i < lv->nmaps; i++)
        if (a >= lv->maps[i].lo && a < lv->maps[i].hi) return &lv->maps[i];
    return NULL;
}

/* The file behind a mapping, as the process sees it: replaced on disk, the
 * mapped one (map_files); the name the process opened (l_name; the
 * executable's is "") inside its own root, resolved there (open_input:
 * "/proc/PID/root/NAME" never leads out of it); maps' paths are written from
 * the reader's root, and a container's mounts may not be reachable from ours. */
static char *file_of(const struct live *lv, const struct mapping *m, const char *name)
{
    if (m->deleted || (*name && *name != '/'))
        return xasprintf("/proc/%s/map_files/%llx-%llx", lv->pid, (unsigned long long)m->lo, (unsigned long long)m->hi);
    if (!*lv->root) return xstrdup(*name ? name : m->path);
    return *name ? xasprintf("%s%s", lv->root, name) : xasprintf("/proc/%s/exe", lv->pid);
}

static uint64_t auxv(const struct live *lv, unsigned long type)
{
    char *p = xasprintf("/proc/%s/auxv", lv->pid);
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    free(p);
    ElfW(auxv_t) a;
    uint64_t v = 0;
    while (fd >= 0 && read(fd, &a, sizeof a) == sizeof a && a.a_type != AT_NULL)
        if (a.a_type == type) { v = a.a_un.a_val; break; }
    if (fd >= 0) close(fd);
    return v;
}

/* A symbol of ld.so's own .dynsym, at its load address (AT_BASE). */
static uint64_t ldso_symbol(const struct live *lv, const char *name, char **why)
{
    uint64_t base = auxv(lv, AT_BASE);
    const struct mapping *m = base ? mapping_at(lv, base) : NULL;
    if (!base && (m = mapping_at(lv, auxv(lv, AT_PHDR)))) {   /* ld.so run as the program: its own lowest mapping */
        for (int i = 0; i < lv->nmaps; i++)
            if (!strcmp(lv->maps[i].path, m->path) && lv->maps[i].lo < m->lo) m = &lv->maps[i];
        base = m->lo;
    }
    if (!m) { *why = xstrdup("no AT_BASE mapping (no ld.so: a static executable?)"); return 0; }
    /* maps' path is ours to open only when the process shares our root
     * and the file is still there (deleted: the mapped one, map_files) */
    char *f = *lv->root || m->deleted ? file_of(lv, &(struct mapping){ m->lo, m->hi, m->path, 1 }, "") : xstrdup(m->path), *err = NULL;
    int wrong_arch;
    /* parsed here and let go: the image (image_live.c) loads it through the cache */
    struct module *ld = module_open(f, 0, &err, &wrong_arch);
    free(f);
    int d = ld ? module_find_defs(ld, name, name_hash(name)) : -1;
    uint64_t v = d >= 0 ? base + ld->defs[d].value : 0;
    module_free(ld);
    if (d < 0) { *why = err ? err : xasprintf("%s has no %s", m->path, name); return 0; }
    free(err);
    return v;
}

/* r_debug: the executable's DT_DEBUG, read from its dynamic section in
 * memory (AT_PHDR gives the load bias through PT_PHDR); ld.so's _r_debug
 * when DT_DEBUG is 0 (ld.so fills DT_DEBUG only when the tag exists). */
static uint64_t find_r_debug(const struct live *lv, char **err)
{
    uint64_t phdr = auxv(lv, AT_PHDR), phnum = auxv(lv, AT_PHNUM), bias = 0, dyn = 0, dbg = 0;
    int have_bias = 0;
    for (uint64_t i = 0; phdr && i < phnum && i < 256; i++) {
        ElfW(Phdr) ph;
        if (live_read(lv, phdr + i * sizeof ph, &ph, sizeof ph)) break;
        if (ph.p_type == PT_PHDR) { bias = phdr - ph.p_vaddr; have_bias = 1; }
        if (ph.p_type == PT_DYNAMIC) dyn = ph.p_vaddr;
    }
    for (int i = 0; have_bias && dyn && i < 4096; i++) {
        ElfW(Dyn) d;
        if (live_read(lv, bias + dyn + i * sizeof d, &d, sizeof d) || d.d_tag == DT_NULL) break;
        if (d.d_tag == DT_DEBUG) { dbg = d.d_un.d_ptr; break; }
    }
    if (dbg) return dbg;
    char *why = NULL;
    if (!(dbg = ldso_symbol(lv, "_r_debug", &why)))
        *err = xasprintf("--pid %s: no loader record: DT_DEBUG is 0 and %s", lv->pid, why);
    free(why);
    return dbg;
}

/* One namespace's chain, in load order.  No loader makes two entries of one
 * dynamic section in one namespace: such an entry is garbage (a process
 * writing its own record), kept in the chain's count but not read further,
 * so that a chain of 65,536 copies costs what its distinct objects cost. */
static int walk_chain(struct live *lv, uint64_t lm, int ns, int *cap, struct strmap *seen)
{
    while (lm && lv->n < MAX_OBJECTS) {
        struct link_map l;   /* the public head: l_addr, l_name, l_ld, l_next, l_prev */
        char key[48];
        if (live_read(lv, lm, &l, sizeof l)) return -1;
        snprintf(key, sizeof key, "%d %llx", ns, (unsigned long long)(uint64_t)l.l_ld);
        int repeat = l.l_ld && strmap_get(seen, key);
        if (!repeat) strmap_put(seen, key, lv);
        lv->nrepeat += repeat;
        GROW(lv->o, lv->n, *cap);
        /* a name is a path only for an object with a file (its dynamic section mapped) */
        char *name = repeat ? NULL : rd_str(lv, (uint64_t)l.l_name, mapping_at(lv, (uint64_t)l.l_ld) ? PATH_MAX : NAME_MAX + 1);
        lv->o[lv->n++] = (struct lobj){ lm, l.l_addr, (uint64_t)l.l_ld, name, ns, NULL, NULL, -1, 0, 0, NULL };
        snprintf(key, sizeof key, "%llx", (unsigned long long)lm);
        if (!strmap_get(&lv->at, key)) strmap_put(&lv->at, key, (void *)(intptr_t)lv->n);
        lm = (uint64_t)l.l_next;
    }
    return lm ? -1 : 0;
}

/* DT_SONAME from the object's dynamic section in memory: the name ld.so
 * matches a NEEDED against (libc's NEEDED ld-linux-x86-64.so.2 is the
 * loader whatever its file is called: a PT_INTERP elsewhere, a deleted
 * file).  ld.so has relocated DT_STRTAB in place; where it has not (a
 * read-only dynamic section), the value is still an offset from l_addr. */
static char *soname_of(const struct live *lv, const struct lobj *o)
{
    uint64_t strtab = 0, off = 0;
    int have = 0;
    for (int i = 0; o->ld && i < 4096; i++) {
        ElfW(Dyn) d;
        if (live_read(lv, o->ld + i * sizeof d, &d, sizeof d) || d.d_tag == DT_NULL) break;
        if (d.d_tag == DT_STRTAB) strtab = d.d_un.d_ptr;
        if (d.d_tag == DT_SONAME) { off = d.d_un.d_val; have = 1; }
    }
    if (!have || !strtab) return NULL;
    if (strtab < o->addr) strtab += o->addr;
    char *s = rd_str(lv, strtab + off, PATH_MAX);
    if (*s) return s;
    free(s);
    return NULL;
}

static int obj_at(const struct live *lv, uint64_t lm)
{
    char key[24];
    snprintf(key, sizeof key, "%llx", (unsigned long long)lm);
    return (int)(intptr_t)strmap_get(&lv->at, key) - 1;
}

/* The global scope as ld.so searches it: _rtld_global._dl_ns[0]'s
 * _ns_loaded (the chain's head: checked) and _ns_main_searchlist, the first
 * three members of the first member (unchanged since dlmopen came, 2.3.4).
 * Private to glibc: anything that does not check out leaves it unread. */
static void read_global(struct live *lv)
{
    char *why = NULL;
    uint64_t g = ldso_symbol(lv, "_rtld_global", &why), w[3], sl[2];
    free(why);
    int n0 = 0;   /* ld.so's count: repeats are none of its objects */
    for (int i = 0; i < lv->n; i++) n0 += lv->o[i].ns == 0 && lv->o[i].name;
    lv->nglobal = -1;
    if (!g || live_read(lv, g, w, sizeof w) || !lv->n || w[0] != lv->o[0].lm || (uint32_t)w[1] != (uint32_t)n0) return;
    if (!w[2] || live_read(lv, w[2], sl, sizeof sl) || (uint32_t)sl[1] > (uint32_t)n0) return;
    int nl = (uint32_t)sl[1];
    uint64_t *list = xcalloc(nl, sizeof *list);
    int *idx = xcalloc(nl, sizeof *idx), ok = !live_read(lv, sl[0], list, nl * sizeof *list);
    for (int i = 0; ok && i < nl; i++) ok = (idx[i] = obj_at(lv, list[i])) >= 0 && lv->o[idx[i]].ns == 0;
    free(list);
    if (!ok) { free(idx); return; }
    lv->global = idx;
    lv->nglobal = nl;
}

/* Are a and b two files (both there, another device or inode)? */
static int other_file(const char *a, const char *b)
{
    struct stat x, y;
    return stat(a, &x) == 0 && stat(b, &y) == 0 && (x.st_dev != y.st_dev || x.st_ino != y.st_ino);
}

struct live *live_open(const char *pid, char **err)
{
    struct live *lv = xcalloc(1, sizeof *lv);
    lv->pid = xstrdup(pid);
    char *p = xasprintf("/proc/%s/mem", pid);
    lv->fd = open(p, O_RDONLY | O_CLOEXEC);
    free(p);
    if (lv->fd < 0) {
        *err = xasprintf("--pid %s: cannot read /proc/%s/mem: %s (root, or the same user with ptrace allowed)", pid, pid,
                         strerror(errno));
        goto fail;
    }
    /* another root (chroot, container) or another mount namespace (the
     * same path, another file): its files, not ours, each resolved inside
     * its root (open_input: a name it wrote cannot lead out of it) */
    p = xasprintf("/proc/%s/root", pid);
    char *ns = xasprintf("/proc/%s/ns/mnt", pid);
    lv->root = other_file(p, "/") || other_file(ns, "/proc/self/ns/mnt") ? p : (free(p), xstrdup(""));
    free(ns);
    if (read_maps(lv, err)) goto fail;
    uint64_t dbg = find_r_debug(lv, err);
    if (!dbg) goto fail;
    int cap = 0;
    struct strmap seen = { 0 };   /* namespace and l_ld of each entry read */
    for (int ns = 0; dbg && ns < MAX_NS; ns++) {
        struct r_debug_extended r;
        if (live_read(lv, dbg, &r, sizeof r.base) || (r.base.r_version >= 2 && live_read(lv, dbg, &r, sizeof r))) {
            *err = xasprintf("--pid %s: unreadable r_debug at 0x%llx", pid, (unsigned long long)dbg);
            goto fail;
        }
        if (r.base.r_state != RT_CONSISTENT)
            fprintf(stderr, "symsplit: note: --pid %s: namespace %d is being changed (a dlopen or dlclose in progress)\n", pid, ns);
        if (walk_chain(lv, (uint64_t)r.base.r_map, ns, &cap, &seen)) {
            *err = xasprintf("--pid %s: unreadable link map in namespace %d", pid, ns);
            goto fail;
        }
        lv->nns = ns + 1;
        dbg = r.base.r_version >= 2 ? (uint64_t)r.r_next : 0;
    }
    for (size_t i = 0; i < seen.cap; i++) free(seen.keys[i]);
    free(seen.keys);
    free(seen.vals);
    if (!lv->n) { *err = xasprintf("--pid %s: empty link map (the process is still starting?)", pid); goto fail; }
    for (int i = 0; i < lv->n; i++) {
        struct lobj *o = &lv->o[i];
        if (!o->name) continue;   /* a repeat: no file, no module */
        /* the executable's l_name is ""; the vDSO's dynamic section is in no file */
        if ((o->map = mapping_at(lv, o->ld))) o->file = file_of(lv, o->map, o->name);
        if (o->map) o->soname = soname_of(lv, o);
    }
    read_global(lv);
    return lv;
fail:
    if (lv->fd >= 0) close(lv->fd);
    free(lv);
    return NULL;
}
