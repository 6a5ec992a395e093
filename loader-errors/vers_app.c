/* Uses the function release 2 added: linked against release 2, the
 * executable records "v_new needs LIB_2.0 from libv.so.1" (.gnu.version_r). */
#include "called.h"
int v_base(void);
int v_new(void);
int main(int argc, char **argv)
{
	int b = v_base(), n = v_new();
	(void)argc;
	called(argv[0], "v_new", (void *)v_new);
	printf("v_base() = %d, v_new() = %d\n", b, n);
	return 0;
}
