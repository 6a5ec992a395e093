/* The global-deps module (torch's libtorch_global_deps.so): no code of its
 * own worth calling; it exists to be opened RTLD_GLOBAL so that its
 * dependencies, the runtime copy among them, join the global scope. The
 * reference keeps the runtime in DT_NEEDED whatever --as-needed says. */
#include "rt.h"

int (*deps_keep_runtime)(void) = rt_get_list;
