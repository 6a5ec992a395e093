/* A probe that links the driver library and asks it for its name. */
#include <stdio.h>
const char *accel_driver(void);
int main(void)
{
	printf("app: found %s\n", accel_driver());
	return 0;
}
