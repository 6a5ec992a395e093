/* /etc/ld.so.cache, read directly (never by running ldconfig -p): a sorted
 * table soname -> path written by ldconfig.  Only the "glibc-ld.so.cache1.1"
 * layout is understood; entries tagged with hwcaps are ignored (the base
 * entry of the same soname is what a baseline CPU would get). */
#include "symsplit.h"
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "glibc-ld.so.cache1.1"
#define HDR 48          /* magic+version, nlibs, len_strings, flags, pad, ext_off, unused[3] */
#define ENT 24          /* flags, key, value, osversion, hwcap */
#define FLAG_ELF_LIBC6 0x0003
#if defined(__x86_64__)
#define FLAG_ARCH 0x0300
#elif defined(__aarch64__)
#define FLAG_ARCH 0x0a00
#else
#define FLAG_ARCH 0x0000
#endif

static struct strmap cache;
static int loaded;

static void load(void)
{
    loaded = 1;
    const char *path = getenv("SYMSPLIT_LDCACHE");   /* tests point this at a fixture */
    int fd = open(path ? path : "/etc/ld.so.cache", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st;
    if (fstat(fd, &st) < 0 || st.st_size < HDR) { close(fd); return; }
    size_t size = st.st_size;
    const char *f = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (f == MAP_FAILED) return;
    /* an old "ld.so-1.7.0" table may precede the new one: find the new magic */
    const char *base = memmem(f, size, MAGIC, strlen(MAGIC));
    if (!base || (size_t)(f + size - base) < HDR) return;
    size_t left = f + size - base;
    uint32_t nlibs;
    memcpy(&nlibs, base + 20, 4);
    if (nlibs > (left - HDR) / ENT) return;
    for (uint32_t i = 0; i < nlibs; i++) {
        const char *e = base + HDR + (size_t)i * ENT;
        int32_t flags;
        uint32_t key, value;
        uint64_t hwcap;
        memcpy(&flags, e, 4); memcpy(&key, e + 4, 4); memcpy(&value, e + 8, 4); memcpy(&hwcap, e + 16, 8);
        if ((flags & 0xff) != FLAG_ELF_LIBC6 || (flags & 0xff00) != FLAG_ARCH || hwcap) continue;
        if (key >= left || value >= left || !memchr(base + key, 0, left - key) || !memchr(base + value, 0, left - value))
            continue;
        if (!strmap_get(&cache, base + key)) strmap_put(&cache, base + key, xstrdup(base + value));
    }
}

const char *ldcache_lookup(const char *soname)
{
    if (!loaded) load();
    return strmap_get(&cache, soname);
}
