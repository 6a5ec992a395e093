/* libaccel: stands for a driver library (CUDA's libcuda.so.1, WSL2's copy of
 * it). Its SONAME carries the ABI number: libaccel.so.1. */
const char *accel_driver(void) { return "accel driver 1"; }
