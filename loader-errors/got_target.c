/* libgot.so: the function whose GOT slot the executable watches. */
int got_target(int x) { return x + 1; }
