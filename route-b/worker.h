/* The worker library two plugins vendor in different versions under the
 * same names (duckdb.node's and classic-level.node's C++ class OpenWorker):
 * WORKER_SLOTS 8 is version X, 12 is version Y. The object layout and the
 * vtable size differ; the names do not. */
#ifndef WORKER_H
#define WORKER_H

#define WORKER_STR_(x) #x
#define WORKER_STR(x) WORKER_STR_(x)

struct worker;
struct worker_ops {
	int (*run)(struct worker *);
	void (*spare[WORKER_SLOTS - 1])(void);
};

#if WORKER_SLOTS == 8
struct worker { const struct worker_ops *ops; int id; int n; };
#else
struct worker { const struct worker_ops *ops; long total; int n; int items[8]; };
#endif

/* Exported, interposable: the "constructor" and the vtable. */
void worker_init(struct worker *w, const char *caller);
extern const struct worker_ops worker_vtable;

/* The same definitions under hidden names: this copy's own, whatever the
 * loader binds the exported names to. */
__attribute__((visibility("hidden"))) void worker_own_init(struct worker *w, const char *caller);
__attribute__((visibility("hidden"))) extern const struct worker_ops worker_own_vtable;
/* What worker_init does to an object, without the report line. */
__attribute__((visibility("hidden"))) void worker_own_fill(struct worker *w);

#endif
