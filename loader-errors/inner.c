/* libinner.so: the dependency of a dependency. */
int inner_value(void) { return 7; }
