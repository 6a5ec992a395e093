/* The model verbs API that two vendored stacks implement differently.
 * Each stack is compiled with its compile-time identity, -DVX_STACK=vendor
 * or -DVX_STACK=bundled; so is each collective, naming the stack it was
 * built against. */
#ifndef VERBS_H
#define VERBS_H

#define VX_STR_(x) #x
#define VX_STR(x) VX_STR_(x)
#define VX_CAT_(a, b) a##b
#define VX_CAT(a, b) VX_CAT_(a, b)
#define VX_STACK_NAME VX_STR(VX_STACK)

/* The one difference between the stacks: the order in which they
 * enumerate the same two NICs. Logical device 0 is the training NIC for
 * the vendor stack and the storage NIC for the bundled one. */
#define VX_ORDER_vendor  "mlx5_0 (training NIC)", "mlx5_1 (storage NIC)"
#define VX_ORDER_bundled "mlx5_1 (storage NIC)", "mlx5_0 (training NIC)"
#define VX_ORDER(stack) VX_CAT(VX_ORDER_, stack)

struct vx_device {
	const char *stack;   /* identity compiled into the code that ran */
	const char *name;
};

/* Same name, same signature in both stacks: the colliding entry point. */
const struct vx_device *vx_open_device(int logical);

/* A name only one stack has (vx_abi_vendor, vx_abi_bundled): what its
 * collective checks first. Where it lives decides whether the stack's
 * vx_open_device is dragged into the link with it. */
#define VX_ABI_FN VX_CAT(vx_abi_, VX_STACK)
int VX_ABI_FN(void);
#define VX_ABI 1

#endif
