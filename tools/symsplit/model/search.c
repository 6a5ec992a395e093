/* Finding a file for a NEEDED name the way ld.so does, and the per-run cache
 * that makes every file parsed once however many images share it: a path cache
 * (path -> file or "absent") in front of an inode cache (two paths, one file).
 * A file's entry outlives its module: module_cache_trim frees the modules no
 * image has held for a while (their maps and tables), and a later image that
 * needs one parses it again, from the path it was first found by. */
#include "base/symsplit.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static struct strmap by_path, by_inode;
static char absent;     /* sentinel value: path is not usable (ENOENT, wrong arch...) */
struct file { struct module *m; char *path; int is_main; unsigned uses; };   /* by_inode's values */
static unsigned images_done;   /* module_cache_trim calls: one per image */

/* The sweep reads ~800 executables in path order: neighbours share most
 * libraries (libc in all, libLLVM in a run of llvm-* tools), an executable
 * is read once.  A module is kept while it has been idle for fewer than
 * KEEP images, plus PER_USE more for each other image that needed it: what
 * many images need is worth keeping longer.  Measured on the sweep (841
 * executables; tools/symsplit/README.md): keeping every module peaks at
 * 231 MiB and 0.48 CPU-s; KEEP 16 alone at 66 MiB, 0.61 CPU-s (small
 * libraries parsed again 876 times); KEEP 8 with PER_USE 4 at 68 MiB,
 * 0.52 CPU-s; PER_USE 8 or 16 costs 5 or 10 MiB more for no measurable
 * gain. */
enum { KEEP = 8, PER_USE = 4 };

static struct module *file_module(struct file *f, char **err)
{
    if (!f->m) {   /* trimmed: the same file, from the same path, parses the same */
        int wrong;
        f->m = module_open(f->path, f->is_main, err, &wrong);
        if (!f->m) return NULL;
    }
    if (f->m->used != images_done || !f->uses) f->uses++;   /* once per image */
    f->m->used = images_done;
    return f->m;
}

void module_hold(struct module *m) { m->pins++; m->used = images_done; }
void module_unhold(struct module *m) { m->pins--; }

void module_cache_trim(void)
{
    for (size_t i = 0; i < by_inode.cap; i++) {
        struct file *f = by_inode.keys[i] ? by_inode.vals[i] : NULL;
        if (f && f->m && !f->m->pins && images_done - f->m->used >= KEEP + PER_USE * (f->uses - 1)) {
            module_free(f->m);
            f->m = NULL;
        }
    }
    images_done++;
}

/* *skip: the candidate is not usable but searching may go on. */
struct module *load_path(const char *path, int is_main, char **err, int *skip)
{
    *skip = 0;
    *err = NULL;
    char *key = is_main ? xasprintf("main:%s", path) : xstrdup(path);
    void *hit = strmap_get(&by_path, key);
    if (hit) { free(key); if (hit == &absent) *skip = 1; return hit == &absent ? NULL : file_module(hit, err); }
    struct stat st;
    if (stat_input(path, &st) < 0) {   /* a process's file: inside its root */
        if (errno == ENOENT || errno == ENOTDIR || errno == EACCES) {
            if (is_main) *err = xasprintf("%s: %s", path, strerror(errno));
            *skip = 1;
            strmap_put(&by_path, key, &absent);
        } else
            *err = xasprintf("%s: %s", path, strerror(errno));   /* ELOOP and friends */
        free(key);
        return NULL;
    }
    char ino[64];
    snprintf(ino, sizeof ino, "%s%llx:%llx", is_main ? "m" : "", (unsigned long long)st.st_dev,
             (unsigned long long)st.st_ino);
    struct file *f = strmap_get(&by_inode, ino);
    if (!f) {
        int wrong = 0;
        struct module *m = module_open(path, is_main, err, &wrong);
        if (!m) {
            if (wrong && !is_main) {   /* ld.so skips other-class files and keeps searching */
                free(*err);
                *err = NULL;
                *skip = 1;
                strmap_put(&by_path, key, &absent);
            }
            free(key);
            return NULL;
        }
        f = xcalloc(1, sizeof *f);
        *f = (struct file){ m, xstrdup(path), is_main, 0 };
        strmap_put(&by_inode, ino, f);
    }
    strmap_put(&by_path, key, f);
    free(key);
    return file_module(f, err);
}

/* $ORIGIN, $LIB, $PLATFORM (also in ${} form). */
static char *expand(const char *s, const char *origin)
{
    const char *const tok[][2] = {   /* the run's machine's (machine.c) */
        { "ORIGIN", NULL }, { "LIB", machine()->lib }, { "PLATFORM", machine()->platform },
    };
    size_t cap = strlen(s) + 1, n = 0;
    char *out = xcalloc(cap, 1);
    while (*s) {
        const char *val = NULL;
        size_t used = 0;
        if (*s == '$')
            for (size_t t = 0; t < sizeof tok / sizeof tok[0] && !val; t++) {
                size_t l = strlen(tok[t][0]);
                if (!strncmp(s + 1, tok[t][0], l)) used = 1 + l;
                else if (s[1] == '{' && !strncmp(s + 2, tok[t][0], l) && s[2 + l] == '}') used = 3 + l;
                else continue;
                val = tok[t][1] ? tok[t][1] : origin;
            }
        const char *piece = val ? val : s;
        size_t len = val ? strlen(val) : 1;
        if (n + len + 1 > cap) { cap = 2 * (n + len + 1); out = xrealloc(out, cap); }
        memcpy(out + n, piece, len);
        n += len;
        s += val ? used : 1;
    }
    out[n] = 0;
    return out;
}

/* Try every directory of a colon list; returns module, NULL (not here), or sets *err. */
struct module *find_in_dirs(const char *list, const char *origin, const char *name, char **err)
{
    if (!list) return NULL;
    char *dirs = expand(list, origin), *save = NULL, *d;
    struct module *m = NULL;
    for (char *p = dirs; !m && !*err && (d = strtok_r(p, ":", &save)); p = NULL) {
        char *path = xasprintf("%s/%s", *d ? d : ".", name);
        int skip;
        m = load_path(path, 0, err, &skip);
        free(path);
    }
    free(dirs);
    return m;
}

/* The search order of glibc's _dl_map_object for a name without a slash. */
struct module *find_library(const struct image *im, int req, const char *name, char **err)
{
    const struct module *r = im->mods[req].m;
    struct module *m = NULL;
    *err = NULL;
    if (strchr(name, '/')) {
        char *p = expand(name, r->origin);
        int skip;
        m = load_path(p, 0, err, &skip);
        free(p);
        return m;
    }
    /* RPATH of the requester and of each loader up the chain (which ends at the
     * executable); an object with RUNPATH has its RPATH ignored */
    if (!r->runpath)
        for (int l = req; l >= 0 && !m && !*err; l = im->mods[l].loader)
            if (!im->mods[l].m->runpath) m = find_in_dirs(im->mods[l].m->rpath, im->mods[l].m->origin, name, err);
    if (!m && !*err) m = find_in_dirs(getenv("LD_LIBRARY_PATH"), im->mods[0].m->origin, name, err);
    if (!m && !*err) m = find_in_dirs(r->runpath, r->origin, name, err);   /* direct dependencies only */
    if (!m && !*err && !r->nodeflib) {
        const char *c = ldcache_lookup(name);
        int skip;
        if (c) m = load_path(c, 0, err, &skip);
        if (!m && !*err) m = find_in_dirs(machine()->dirs, "/", name, err);
    }
    return m;
}
