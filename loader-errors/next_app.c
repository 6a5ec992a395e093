/* A tool that parses a number. Built with NEXT_LIBC_HEADERS it stands for a
 * build on a newer distribution: newer C library headers redirect strtoul to
 * a new symbol (glibc 2.38 did this with __isoc23_strtoul and friends), which
 * only the newer libc defines, under its newest version node. */
#include "called.h"
#include <stdlib.h>
#ifdef NEXT_LIBC_HEADERS
unsigned long lab_strtoul_next(const char *, char **, int);
#define strtoul lab_strtoul_next
#endif
int main(int argc, char **argv)
{
	unsigned long n = strtoul("42", NULL, 10);
	(void)argc;
	called(argv[0], "strtoul", (void *)strtoul);
	printf("strtoul(\"42\") = %lu\n", n);
	return 0;
}
