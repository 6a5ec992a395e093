/* libv.so.1: a library that grew a function. Built twice from this file:
 * without LIBV_2 it is release 1 (version node LIB_1.0 only); with LIBV_2 it
 * is release 2, whose new function sits in a new node LIB_2.0 (vers-2.map). */
int v_base(void) { return 1; }
#ifdef LIBV_2
int v_new(void) { return 2; }
#endif
