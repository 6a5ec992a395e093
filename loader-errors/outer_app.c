#include <stdio.h>
int outer_value(void);
int main(void)
{
	printf("app: outer_value() = %d\n", outer_value());
	return 0;
}
