/* One version of the worker library (WORKER_COPY names it). worker_init is
 * the constructor: it installs this version's vtable and fills the object
 * in this version's layout, so whichever definition runs decides how the
 * caller's object is read from then on. */
#define _GNU_SOURCE             /* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include "worker.h"

static int run(struct worker *w)
{
#if WORKER_SLOTS == 8
	return w->id * 100 + w->n;
#else
	long sum = 0;
	for (int i = 0; i < w->n; i++)
		sum += w->items[i];
	return (int)(sum + w->total);
#endif
}

const struct worker_ops worker_vtable = { .run = run };

static void fill(struct worker *w)
{
	w->ops = &worker_own_vtable;
#if WORKER_SLOTS == 8
	w->id = 7;
	w->n = 0;
#else
	w->total = 0;
	w->n = 8;
	for (int i = 0; i < w->n; i++)
		w->items[i] = i + 1;
#endif
}

void worker_init(struct worker *w, const char *caller)
{
	Dl_info self;

	/* The name the loader knows this definition by (renamed rows differ). */
	if (!dladdr((void *)worker_own_init, &self) || !self.dli_sname)
		self.dli_sname = "?";
	printf("[call %s from copy=%s ran copy=%s fn@%p]\n",
	       self.dli_sname, caller, WORKER_STR(WORKER_COPY), (void *)worker_own_init);
	fflush(stdout);
	fill(w);
}

void worker_own_fill(struct worker *w)
{
	fill(w);
}

extern void worker_own_init(struct worker *, const char *) __attribute__((alias("worker_init")));
extern const struct worker_ops worker_own_vtable __attribute__((alias("worker_vtable")));
