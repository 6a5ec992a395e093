/* /etc/ld.so.cache, read directly (never by running ldconfig -p): a sorted
 * table soname -> path written by ldconfig.  Only the "glibc-ld.so.cache1.1"
 * layout is understood; entries tagged with hwcaps are ignored (the base
 * entry of the same soname is what a baseline CPU would get). */
#include "base/symsplit.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAGIC "glibc-ld.so.cache1.1"
#define HDR 48          /* magic+version, nlibs, len_strings, flags, pad, ext_off, unused[3] */
#define ENT 24          /* flags, key, value, osversion, hwcap */
#define FLAG_ELF_LIBC6 0x0003

static struct strmap cache;
static int loaded;
static char *load_err;

/* Reads the cache; returns NULL or what is wrong with it. */
static char *load(const char *path)
{
    struct stat st;
    char *err = NULL;
    char *f = map_input(path, &st, &err);
    if (!f) return err;
    size_t size = st.st_size;
    /* an old "ld.so-1.7.0" table may precede the new one: find the new magic */
    const char *base = memmem(f, size, MAGIC, strlen(MAGIC));
    if (!base || (size_t)(f + size - base) < HDR) return xasprintf("%s: not an ld.so cache (no \"" MAGIC "\" table)", path);
    size_t left = f + size - base;
    uint32_t nlibs;
    memcpy(&nlibs, base + 20, 4);
    if (nlibs > (left - HDR) / ENT) return xasprintf("%s: corrupt ld.so cache (%u entries in %zu bytes)", path, nlibs, left);
    for (uint32_t i = 0; i < nlibs; i++) {
        const char *e = base + HDR + (size_t)i * ENT;
        int32_t flags;
        uint32_t key, value;
        uint64_t hwcap;
        memcpy(&flags, e, 4); memcpy(&key, e + 4, 4); memcpy(&value, e + 8, 4); memcpy(&hwcap, e + 16, 8);
        if ((flags & 0xff) != FLAG_ELF_LIBC6 || hwcap) continue;
        if (key >= left || value >= left || !memchr(base + key, 0, left - key) || !memchr(base + value, 0, left - value))
            continue;
        /* keyed by machine tag and name: the run's machine is chosen by
         * its first executable, after the cache is read */
        char *k = xasprintf("%x/%s", (unsigned)(flags & 0xff00), base + key);
        if (!strmap_get(&cache, k)) strmap_put(&cache, k, xstrdup(base + value));
        free(k);
    }
    return NULL;
}

/* SYMSPLIT_LDCACHE names a cache the user wants read: missing or garbage is
 * an error.  The system's own cache may be absent or unusable, as ld.so
 * allows: then only the search paths count. */
int ldcache_open(char **err)
{
    const char *path = getenv("SYMSPLIT_LDCACHE");   /* tests point this at a fixture */
    loaded = 1;
    load_err = load(path ? path : "/etc/ld.so.cache");
    if (load_err && path) {
        *err = xasprintf("SYMSPLIT_LDCACHE=%s", load_err);
        return -1;
    }
    return 0;
}

const char *ldcache_lookup(const char *soname)
{
    if (!loaded) { char *e = NULL; if (ldcache_open(&e)) free(e); }
    char *k = xasprintf("%x/%s", (unsigned)machine()->cache_flag, soname);
    const char *v = strmap_get(&cache, k);
    free(k);
    return v;
}
