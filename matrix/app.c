/* The executable: byte-identical source in every row. Its own direct call
 * is what pulls the archive member (copy STATIC) into the link. */
#include <stdio.h>
#include "verbs.h"

void collective_discover(void);

int main(void)
{
	collective_discover();
	printf("app: discovered %d device(s)\n", vx_get_device_list());
	return 0;
}
