#include <stdio.h>
int add(int, int);
int main(void)
{
	printf("app: add(2, 3) = %d\n", add(2, 3));
	return 0;
}
