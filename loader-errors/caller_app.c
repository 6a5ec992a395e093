#include <stdio.h>
int call_plugin(void);
int main(void)
{
	int v = call_plugin();

	if (v < 0)
		return 1;
	printf("app: libcaller.so's plugin returned %d\n", v);
	return 0;
}
