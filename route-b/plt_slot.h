#ifndef PLT_SLOT_H
#define PLT_SLOT_H
/* plt_slot HANDLE NAME: the address of the module's GOT entry that its PLT
 * stub for NAME jumps through, or NULL if it has none. */
void **plt_slot(void *handle, const char *name);
#endif
