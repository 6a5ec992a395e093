/* Stands in for the line of main() that loads plugins: app.c is the
 * matrix's, byte for byte. An executable's constructors run after those of
 * the libraries it needs, so the provider has registered by then. */
void host_load_plugins(void);

__attribute__((constructor)) static void host_boot(void)
{
	host_load_plugins();
}
