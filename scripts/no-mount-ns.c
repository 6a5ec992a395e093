/* no-mount-ns COMMAND [ARGS...]: runs COMMAND where no mount namespace can
 * be made and nothing can be mounted, as in an unprivileged container or a
 * build sandbox that filters these system calls: unshare and clone asking
 * for CLONE_NEWNS fail with EPERM, as do setns into a mount namespace and
 * every mount system call (mount, umount2, the fsopen/fsmount/move_mount/
 * open_tree family, mount_setattr). clone3 fails with ENOSYS: a filter
 * cannot read its flags (they are in memory), and glibc then falls back to
 * clone, whose flags it can read.
 * The filter is inherited by every descendant and cannot be removed: make
 * test under it shows what a machine without private mounts gets.
 * As root the filter is loaded without no_new_privs (root may: it holds
 * CAP_SYS_ADMIN), so set-ID programs keep their effect and the secure-mode
 * rows run as elsewhere; as a user the kernel requires no_new_privs.
 * Exit: 125 when the filter cannot be set up (one line), 127 when COMMAND
 * cannot be run, otherwise COMMAND's. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const mount_calls[] = {
	"mount", "umount2", "fsopen", "fsconfig", "fsmount", "fspick",
	"move_mount", "open_tree", "mount_setattr", "pivot_root",
};

static int deny(scmp_filter_ctx ctx, const char *name, unsigned int n, const struct scmp_arg_cmp *arg)
{
	int nr = seccomp_syscall_resolve_name(name);

	if (nr == __NR_SCMP_ERROR)
		return 0;               /* not a system call of this libseccomp's table: nothing to deny */
	return n ? seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM), nr, n, arg)
		 : seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
}

int main(int argc, char **argv)
{
	const struct scmp_arg_cmp newns = SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWNS, CLONE_NEWNS);
	/* setns(fd, 0) joins whatever fd names, a mount namespace included */
	const struct scmp_arg_cmp setns_mnt = SCMP_A1(SCMP_CMP_EQ, CLONE_NEWNS);
	const struct scmp_arg_cmp setns_any = SCMP_A1(SCMP_CMP_EQ, 0);
	scmp_filter_ctx ctx;
	size_t i;
	int rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: no-mount-ns command [args...]\n");
		return 125;
	}
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx) {
		fprintf(stderr, "no-mount-ns: seccomp_init failed\n");
		return 125;
	}
	if (geteuid() == 0)
		rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	rc = rc ? rc : deny(ctx, "unshare", 1, &newns);
	rc = rc ? rc : deny(ctx, "clone", 1, &newns);   /* flags: its first argument (x86-64, aarch64) */
	rc = rc ? rc : deny(ctx, "setns", 1, &setns_mnt);
	rc = rc ? rc : deny(ctx, "setns", 1, &setns_any);
	for (i = 0; !rc && i < sizeof mount_calls / sizeof *mount_calls; i++)
		rc = deny(ctx, mount_calls[i], 0, NULL);
	if (!rc && seccomp_syscall_resolve_name("clone3") != __NR_SCMP_ERROR)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), seccomp_syscall_resolve_name("clone3"), 0);
	rc = rc ? rc : seccomp_load(ctx);
	seccomp_release(ctx);
	if (rc) {
		fprintf(stderr, "no-mount-ns: cannot install the seccomp filter: %s\n", strerror(-rc));
		return 125;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "no-mount-ns: cannot run %s: %s\n", argv[1], strerror(errno));
	return 127;
}
