/* Names of rdma-core's private registration entry point. VERBS_ABI is the
 * private ABI number the build read from the installed libibverbs.so.1
 * (lab.mk); it is never written in a source file. */
#ifndef ABI_NAME_H
#define ABI_NAME_H
#ifndef VERBS_ABI
#error "build with -DVERBS_ABI=<N> read from libibverbs.so.1"
#endif
#define ABI_STR2(x) #x
#define ABI_STR(x) ABI_STR2(x)
#define REGISTER_NAME "verbs_register_driver_" ABI_STR(VERBS_ABI)
#define PRIVATE_VERSION "IBVERBS_PRIVATE_" ABI_STR(VERBS_ABI)
#endif
