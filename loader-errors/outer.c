/* libouter.so: needs libinner.so, which lives next to it. */
int inner_value(void);
int outer_value(void) { return inner_value() * 6; }
