/* Uses the function release 2 added: linked against release 2, the
 * executable records "v_new needs LIB_2.0 from libv.so.1" (.gnu.version_r). */
#include <stdio.h>
int v_base(void);
int v_new(void);
int main(void)
{
	printf("app: v_base() = %d, v_new() = %d\n", v_base(), v_new());
	return 0;
}
