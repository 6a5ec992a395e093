/* C++ names for people: the loader matches mangled names, so those stay in
 * --json's "symbol" and in the allowlist; the table shows the demangled form
 * next to it.  The demangler is the C++ runtime's own (__cxa_demangle). */
#include "base/symsplit.h"
#include <stdlib.h>
#include <string.h>

char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *demangle(const char *name)
{
    int st = -1;
    if (strncmp(name, "_Z", 2)) return NULL;
    char *d = __cxa_demangle(name, NULL, NULL, &st);
    if (st != 0) { free(d); return NULL; }
    return d;
}
