/* The application: DT_NEEDED on libbundle.so (so copy A is in the global
 * scope from startup) and on libnccl_like.so. -DINHOUSE_FIRST swaps the
 * order in which the two consumers initialise (row "order"). */
void inhouse_discover(void);
void nccl_discover(void);

int main(void)
{
#ifdef INHOUSE_FIRST
	inhouse_discover();
	nccl_discover();
#else
	nccl_discover();
	inhouse_discover();
#endif
	return 0;
}
