/* The stateful runtime every plugin carries (a registry of devices): the
 * state that partitions. RT_COPY names a copy at compile time; addresses
 * and counts are printed at run time. */
#ifndef RT_H
#define RT_H

#define RT_STR_(x) #x
#define RT_STR(x) RT_STR_(x)
#define RT_MAX_DEVICES 8

/* Default visibility: interposable, so which copy a call reaches is decided
 * by the loader's lookup scope alone. */
void rt_register(const char *device);
int rt_get_list(void);

#endif
