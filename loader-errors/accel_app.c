/* A probe that links the driver library and asks it for its name. */
#include "called.h"
const char *accel_driver(void);
int main(int argc, char **argv)
{
	const char *name = accel_driver();
	(void)argc;
	called(argv[0], "accel_driver", (void *)accel_driver);
	printf("found %s\n", name);
	return 0;
}
