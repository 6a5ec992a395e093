/* The job: uses both collectives, collective_a first. */
void collective_a_run(void);
void collective_b_run(void);

int main(void)
{
	collective_a_run();
	collective_b_run();
	return 0;
}
