/* The model "verbs" library: a device registry and two entry points.
 * Compiled twice from verbs_copy.c: once into the executable's archive
 * (copy STATIC), once into libverbs_shared.so (copy SHARED). */
#ifndef VERBS_H
#define VERBS_H

/* VX_API sets the visibility of the entry points; rows C and C-hidden
 * change it, every other row leaves it default. */
#ifndef VX_API_VISIBILITY
#define VX_API_VISIBILITY default
#endif
#define VX_STR_(x) #x
#define VX_STR(x) VX_STR_(x)
#define VX_API __attribute__((visibility(VX_STR(VX_API_VISIBILITY))))

/* VX_COPY is the copy's compile-time identity (-DVX_COPY=STATIC). */
#define VX_COPY_NAME VX_STR(VX_COPY)

#define VX_MAX_DEVICES 8

struct vx_table {
	int count;
	const char *name[VX_MAX_DEVICES];
};

VX_API void vx_register_device(const char *name);
VX_API int vx_get_device_list(void);

#endif
