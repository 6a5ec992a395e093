/* dlopen and dlsym that exit on failure (support/xdlfcn.h in glibc's tree),
 * for a test built outside it: static inline, so a test links nothing more
 * than its own objects and the system's C library. */
#ifndef CHECK_GLIBC_ELF_XDLFCN_H
#define CHECK_GLIBC_ELF_XDLFCN_H
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
static inline void *xdlopen(const char *f, int flags)
{
    void *h = dlopen(f, flags);
    if (!h) { printf("dlopen %s: %s\n", f, dlerror()); exit(1); }
    return h;
}
static inline void *xdlmopen(Lmid_t ns, const char *f, int flags)
{
    void *h = dlmopen(ns, f, flags);
    if (!h) { printf("dlmopen %s: %s\n", f, dlerror()); exit(1); }
    return h;
}
static inline void *xdlsym(void *h, const char *s)
{
    void *p = dlsym(h, s);
    if (!p) { printf("dlsym %s: %s\n", s, dlerror()); exit(1); }
    return p;
}
static inline void xdlclose(void *h)
{
    if (dlclose(h)) { printf("dlclose: %s\n", dlerror()); exit(1); }
}
#endif
