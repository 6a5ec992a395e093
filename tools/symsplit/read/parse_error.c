/* A refusal of module_parse is one line naming the file and the defect
 * (elf_module.c checks the layout, elf_dynamic.c what ld.so reads). */
#include "read/parse.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int bad(struct parse *p, const char *fmt, ...)
{
    va_list ap;
    char *what;
    va_start(ap, fmt);
    if (vasprintf(&what, fmt, ap) < 0) what = NULL;
    va_end(ap);
    *p->err = xasprintf("%s: %s", p->path, what ? what : "corrupt");
    free(what);
    return -1;
}

const char *elf_why(const char *fallback)
{
    return elf_errno() ? elf_errmsg(-1) : fallback;
}
