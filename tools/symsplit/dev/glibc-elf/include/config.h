/* What glibc's build includes before every file of its tree (config.h and
 * libc-symbols.h, by -include), for a test built outside it against the
 * installed glibc: only the macro the elf/ tests' shared header
 * (sysdeps/generic/ifunc-sel.h) uses. An IFUNC resolver runs before the
 * stack protector's guard is set up. */
#define inhibit_stack_protector __attribute__ ((__optimize__ ("-fno-stack-protector")))
