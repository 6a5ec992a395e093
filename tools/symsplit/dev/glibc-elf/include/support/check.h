/* The checks glibc's elf/ tests call (support/check.h in its tree), for a
 * test built outside it: a failed one prints where and exits 1. Only what
 * the tests check-glibc-elf builds use. */
#ifndef CHECK_GLIBC_ELF_CHECK_H
#define CHECK_GLIBC_ELF_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define FAIL_EXIT1(...) do { printf("%s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); putchar('\n'); exit(1); } while (0)
#define FAIL_RET(...) do { printf("%s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); putchar('\n'); return 1; } while (0)
#define TEST_VERIFY(e) do { if (!(e)) FAIL_EXIT1("not true: %s", #e); } while (0)
#define TEST_VERIFY_EXIT(e) TEST_VERIFY(e)
#define TEST_COMPARE(a, b) do { if ((a) != (b)) FAIL_EXIT1("%s != %s", #a, #b); } while (0)
#define TEST_COMPARE_STRING(a, b) do { if (strcmp((a), (b))) FAIL_EXIT1("\"%s\" != \"%s\"", (a), (b)); } while (0)
#endif
