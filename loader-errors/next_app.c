/* A tool that parses a number. Built with NEXT_LIBC_HEADERS it stands for a
 * build on a newer distribution: newer C library headers redirect strtoul to
 * a new symbol (glibc 2.38 did this with __isoc23_strtoul and friends), which
 * only the newer libc defines, under its newest version node. */
#include <stdio.h>
#include <stdlib.h>
#ifdef NEXT_LIBC_HEADERS
unsigned long lab_strtoul_next(const char *, char **, int);
#define strtoul lab_strtoul_next
#endif
int main(void)
{
	printf("app: strtoul(\"42\") = %lu\n", strtoul("42", NULL, 10));
	return 0;
}
