#include "called.h"
int outer_value(void);
int main(int argc, char **argv)
{
	int v = outer_value();
	(void)argc;
	called(argv[0], "outer_value", (void *)outer_value);
	printf("outer_value() = %d\n", v);
	return 0;
}
