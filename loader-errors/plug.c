/* libplug.so: the plugin libcaller.so opens by name. */
int plug_value(void) { return 42; }
