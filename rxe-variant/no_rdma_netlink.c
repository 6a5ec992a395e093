/* Launcher: runs a command with RDMA netlink sockets denied. libibverbs asks
 * NETLINK_RDMA for devices first and reads sysfs (SYSFS_PATH) only when that
 * fails; denying the socket makes the emulated tier take the sysfs path on
 * every kernel, with or without RDMA netlink. */
#include <errno.h>
#include <linux/netlink.h>
#include <seccomp.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	scmp_filter_ctx ctx;

	if (argc < 2) {
		fprintf(stderr, "usage: %s command [args...]\n", argv[0]);
		return 2;
	}
	/* Allow everything, except socket(AF_NETLINK, *, NETLINK_RDMA), which
	 * fails the way it does on a kernel without RDMA netlink. libseccomp sets
	 * no_new_privs, so this needs no privilege. */
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx ||
	    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPROTONOSUPPORT), SCMP_SYS(socket), 2,
			     SCMP_A0(SCMP_CMP_EQ, AF_NETLINK),
			     SCMP_A2(SCMP_CMP_EQ, NETLINK_RDMA)) ||
	    seccomp_load(ctx)) {
		fprintf(stderr, "%s: cannot install the seccomp filter\n", argv[0]);
		return 1;
	}
	seccomp_release(ctx);
	execvp(argv[1], argv + 1);
	fprintf(stderr, "%s: cannot run %s\n", argv[0], argv[1]);
	return 127;
}
