/* A shim to LD_PRELOAD: it defines the driver's function itself, so the
 * program's proof line names this file when the loader preloaded it, and
 * libaccel.so.1 when it did not. */
const char *accel_driver(void) { return "accel driver from the preloaded shim"; }
