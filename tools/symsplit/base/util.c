/* Allocation helpers and a small string hash map. Out of memory is fatal:
 * the tool is a short-lived scanner, there is nothing sensible to unwind. */
#include "base/symsplit.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *oom(void *p)
{
    if (!p) { fputs("symsplit: out of memory\n", stderr); exit(2); }
    return p;
}
void *xcalloc(size_t n, size_t sz) { return oom(calloc(n ? n : 1, sz ? sz : 1)); }
void *xrealloc(void *p, size_t sz) { return oom(realloc(p, sz ? sz : 1)); }
char *xstrdup(const char *s) { return oom(strdup(s)); }

char *xvasprintf(const char *fmt, va_list ap)
{
    char *s;
    if (vasprintf(&s, fmt, ap) < 0) oom(NULL);
    return s;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    return s;
}

uint32_t name_hash(const char *s)
{
    uint32_t h = 5381;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        h = h * 33 + *p;
    return h;
}

static size_t slot(const struct strmap *m, const char *key)
{
    size_t i = name_hash(key) & (m->cap - 1);
    while (m->keys[i] && strcmp(m->keys[i], key) != 0)
        i = (i + 1) & (m->cap - 1);
    return i;
}

void *strmap_get(const struct strmap *m, const char *key)
{
    if (!m->cap) return NULL;
    size_t i = slot(m, key);
    return m->keys[i] ? m->vals[i] : NULL;
}

void strmap_free(struct strmap *m)
{
    for (size_t i = 0; i < m->cap; i++) free(m->keys[i]);
    free(m->keys);
    free(m->vals);
    *m = (struct strmap){ 0 };
}

void strmap_put(struct strmap *m, const char *key, void *val)
{
    if (2 * (m->n + 1) > m->cap) {      /* keep load <= 1/2 */
        struct strmap old = *m;
        m->cap = old.cap ? 2 * old.cap : 64;
        m->keys = xcalloc(m->cap, sizeof *m->keys);
        m->vals = xcalloc(m->cap, sizeof *m->vals);
        m->n = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.keys[i]) {
                size_t j = slot(m, old.keys[i]);
                m->keys[j] = old.keys[i];
                m->vals[j] = old.vals[i];
                m->n++;
            }
        free(old.keys);
        free(old.vals);
    }
    size_t i = slot(m, key);
    if (!m->keys[i]) { m->keys[i] = xstrdup(key); m->n++; }
    m->vals[i] = val;
}
