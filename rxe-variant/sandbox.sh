#!/bin/sh
# Emulated tier sandbox: runs a command where /dev/infiniband/uverbs0 exists,
# but only inside a private mount namespace, and RDMA netlink is denied.
# usage: sandbox.sh <stage-dir> <no-rdma-netlink launcher> command [args...]
# Needs root, or unprivileged user namespaces (then as mapped root). The
# host's /dev is never written: a fresh tmpfs replaces /dev inside the
# namespace and dies with it.
set -eu
if [ "${RXE_IN_SANDBOX:-}" != 1 ]; then
	command -v unshare >/dev/null || { echo "emulated tier needs unshare (apt-get install util-linux)" >&2; exit 77; }
	command -v mount >/dev/null || { echo "emulated tier needs mount (apt-get install mount)" >&2; exit 77; }
	# --propagation private: nothing mounted below leaks back to the host.
	# It needs / to be a mount point, which it is not in a plain chroot:
	# then the tier cannot run, and says why (a skip, not a failure).
	if [ "$(id -u)" = 0 ]; then
		if ! why=$(sh "$(dirname "$0")/../scripts/private-mounts"); then
			echo "emulated tier needs a private mount namespace: $why" >&2
			exit 77
		fi
		RXE_IN_SANDBOX=1 exec unshare --mount --propagation private "$0" "$@"
	fi
	unshare --user --map-root-user --mount true 2>/dev/null ||
		{ echo "emulated tier needs root or unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1)" >&2; exit 77; }
	RXE_IN_SANDBOX=1 exec unshare --user --map-root-user --mount --propagation private "$0" "$@"
fi
stage=$1 launcher=$2
shift 2
mkdir -p "$stage"
mount -t tmpfs -o mode=755 rxe-lab-dev "$stage"
# The few host nodes a process may touch, bind-mounted in (not copied).
for n in null zero full random urandom tty; do
	[ -e "/dev/$n" ] || continue
	: > "$stage/$n"
	mount --bind "/dev/$n" "$stage/$n"
done
mkdir "$stage/infiniband"
# 231:192 is what the synthetic sysfs says uverbs0 is; no driver answers it
# here. In a user namespace mknod is refused: bind an existing char device
# instead; listing only stats the node, and opening it fails either way.
if ! mknod -m 666 "$stage/infiniband/uverbs0" c 231 192 2>/dev/null; then
	: > "$stage/infiniband/uverbs0"
	mount --bind /dev/null "$stage/infiniband/uverbs0"
fi
mount --rbind "$stage" /dev
exec "$launcher" "$@"
