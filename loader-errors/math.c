/* libmath.so, built without a SONAME: whatever name the link line gives it
 * becomes the executable's NEEDED entry. */
int add(int a, int b) { return a + b; }
