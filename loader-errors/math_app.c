#include "called.h"
int add(int, int);
int main(int argc, char **argv)
{
	int sum = add(2, 3);
	(void)argc;
	called(argv[0], "add", (void *)add);
	printf("add(2, 3) = %d\n", sum);
	return 0;
}
