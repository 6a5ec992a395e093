/* The field report's shim: provides the missing function (forwarding to the
 * old one), exported under the version node the program asks for
 * (shim.map, generated). The constructor line shows whether any of its code
 * ever ran. */
#include <stdio.h>
#include <stdlib.h>
__attribute__((constructor)) static void shim_ctor(void) { puts("[shim constructor ran]"); }
unsigned long lab_strtoul_next(const char *s, char **end, int base) { return strtoul(s, end, base); }
