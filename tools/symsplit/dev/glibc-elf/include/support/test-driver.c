/* The main function glibc's test driver gives a test built in its tree, for
 * a test built outside it (check-glibc-elf): it calls the test's function
 * (defined above, where this file is included) and returns its status.
 * Nothing more: no fork, no time-out (the runner sets the time limit), so
 * the loader's record is the test's own process. */
#ifdef TEST_FUNCTION
int main(void) { return TEST_FUNCTION; }
#else
int main(void) { return do_test(); }
#endif
