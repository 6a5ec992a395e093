/* The verbs entry points a consumer uses, as a table of pointers: the in-house
 * side fills it by linking, the NCCL-like side by dlvsym, so one exercise routine
 * serves both and the only difference left is which copy answers. */
#ifndef CONSUMER_H
#define CONSUMER_H
#include <infiniband/verbs.h>

struct verbs_api {
	const char *who;	/* consumer name printed in `<who> sees ...` */
	const char *copy;	/* compile-time identity of the copy it calls */
	const char *register_name; /* that copy's name for verbs_register_driver_N */
	void *own_register;	/* run-time address of that copy's verbs_register_driver_N */
	struct ibv_device **(*get_device_list)(int *n);
	void (*free_device_list)(struct ibv_device **list);
	const char *(*get_device_name)(struct ibv_device *dev);
	struct ibv_context *(*open_device)(struct ibv_device *dev);
	int (*close_device)(struct ibv_context *ctx);
	int (*query_device)(struct ibv_context *ctx, struct ibv_device_attr *attr);
	/* the exported ibv_query_port (verbs.h wraps it in a macro) */
	int (*query_port)(struct ibv_context *ctx, uint8_t port, void *attr);
	struct ibv_pd *(*alloc_pd)(struct ibv_context *ctx);
	int (*dealloc_pd)(struct ibv_pd *pd);
	struct ibv_cq *(*create_cq)(struct ibv_context *ctx, int cqe, void *cq_ctx,
				    struct ibv_comp_channel *ch, int vec);
	int (*destroy_cq)(struct ibv_cq *cq);
	struct ibv_qp *(*create_qp)(struct ibv_pd *pd, struct ibv_qp_init_attr *attr);
	int (*destroy_qp)(struct ibv_qp *qp);
};

/* Lists devices through api (phase 1); keeps the list for report_consumer(). */
struct consumer_result {
	const struct verbs_api *api;
	struct ibv_device **list;
	int n;
};
void discover(const struct verbs_api *api, struct consumer_result *r);
/* Prints the read line, the consumer line, then walks open/query/PD/CQ/QP. */
void report_consumer(struct consumer_result *r);

#endif
