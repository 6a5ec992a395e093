/* One consumer's walk through real rdma-core: list devices, then open the first
 * one and go as far as a QP. Every step prints what happened; nothing here knows
 * what the row is expected to show. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "consumer.h"
#include "abi_name.h"

void discover(const struct verbs_api *api, struct consumer_result *r)
{
	r->api = api;
	r->n = 0;
	r->list = api->get_device_list(&r->n);
	if (!r->list)
		r->n = 0;
}

static void print_consumer_line(struct consumer_result *r)
{
	printf("%s sees %d device(s)", r->api->who, r->n);
	for (int i = 0; i < r->n; i++)
		printf("%s%s", i ? " " : ": ", r->api->get_device_name(r->list[i]));
	printf("\n");
}

/* A local name table: calling ibv_port_state_str here would give the
 * NCCL-like DSO a link-time import from libibverbs, which it must not have. */
static const char *port_state(enum ibv_port_state s)
{
	static const char *const names[] = { "NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER" };

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

/* Stops at the first failing step and names it with errno's text, so a device
 * without a kernel behind it reads as exactly that. */
static void walk_device(const struct verbs_api *a, struct ibv_device *dev)
{
	const char *name = a->get_device_name(dev);
	struct ibv_device_attr dattr;
	struct ibv_port_attr pattr;
	struct ibv_context *ctx;
	struct ibv_pd *pd = NULL;
	struct ibv_cq *cq = NULL;
	struct ibv_qp *qp = NULL;

	errno = 0;
	ctx = a->open_device(dev);
	if (!ctx) {
		printf("%s: ibv_open_device(%s) failed: %s\n", a->who, name,
		       errno ? strerror(errno) : "no error code");
		return;
	}
	printf("%s: ibv_open_device(%s) ok\n", a->who, name);
	if (a->query_device(ctx, &dattr))
		printf("%s: ibv_query_device failed: %s\n", a->who, strerror(errno));
	else
		printf("%s: ibv_query_device ok (%d physical port(s))\n", a->who,
		       dattr.phys_port_cnt);
	memset(&pattr, 0, sizeof(pattr));
	if (a->query_port(ctx, 1, &pattr))
		printf("%s: ibv_query_port(1) failed: %s\n", a->who, strerror(errno));
	else
		printf("%s: ibv_query_port(1) ok (%s)\n", a->who,
		       port_state(pattr.state));
	pd = a->alloc_pd(ctx);
	if (pd)
		cq = a->create_cq(ctx, 16, NULL, NULL, 0);
	if (cq) {
		struct ibv_qp_init_attr qa = {
			.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = 4, .max_recv_wr = 4,
				 .max_send_sge = 1, .max_recv_sge = 1 },
		};
		qp = a->create_qp(pd, &qa);
	}
	printf("%s: PD %s, CQ %s, RC QP %s\n", a->who, pd ? "ok" : "failed",
	       cq ? "ok" : (pd ? "failed" : "not tried"),
	       qp ? "ok" : (cq ? "failed" : "not tried"));
	if (qp)
		a->destroy_qp(qp);
	if (cq)
		a->destroy_cq(cq);
	if (pd)
		a->dealloc_pd(pd);
	a->close_device(ctx);
}

void report_consumer(struct consumer_result *r)
{
	printf("[%s get_device_list <- %s: %s@%p]\n", r->api->who, r->api->copy,
	       r->api->register_name, r->api->own_register);
	print_consumer_line(r);
	if (r->n > 0)
		walk_device(r->api, r->list[0]);
	if (r->list)
		r->api->free_device_list(r->list);
}
