/* The model registry: the state that splits. Compiled into every copy from
 * registry.c; REG_WHO names the library a copy ships in and REG_COPY the
 * copy (A: the bundled one, B: the system one), both at compile time. */
#ifndef REGISTRY_H
#define REGISTRY_H

#define REG_STR_(x) #x
#define REG_STR(x) REG_STR_(x)

#define REG_MAX_DEVICES 8

/* Exported under the version node VERB_1.0 (verb.map, bundle-*.map). */
void register_driver(const char *name);
int get_device_list(void);

#endif
