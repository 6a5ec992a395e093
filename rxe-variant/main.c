/* One row of the rxe lab: both consumers list devices (this is when libibverbs
 * loads the rxe provider and its constructor registers), then the writes are
 * read back from the provider, then each consumer reports what its copy holds. */
#include <stdio.h>
#include "consumer.h"
#include "got_probe.h"

void inhouse_discover(struct consumer_result *r);
void inhouse_report_writes(void);
int nccl_like_discover(struct consumer_result *r);

int main(void)
{
	struct consumer_result inhouse, nccl;
	int nccl_ok;

	setvbuf(stdout, NULL, _IOLBF, 0);
	inhouse_discover(&inhouse);
	nccl_ok = nccl_like_discover(&nccl) == 0;
	inhouse_report_writes();
	report_provider_slot();
	report_consumer(&inhouse);
	if (nccl_ok)
		report_consumer(&nccl);
	return 0;
}
