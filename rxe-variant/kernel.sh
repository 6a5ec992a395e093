#!/bin/sh
# Kernel tier: a real soft-RoCE device. Creates a private network namespace, a
# veth pair inside it and rxe0 on one end (never on the host's interfaces),
# runs the rows there, and removes all of it on any exit.
# usage: kernel.sh <rxe build dir> row...     exit 77 = tier cannot run here
set -u
here=$(dirname "$0")
b=$1
shift

skip() { echo "$1" >&2; exit 77; }
[ "$(id -u)" = 0 ] || skip "kernel tier needs root (netns, veth, rdma link add)"
for t in ip rdma; do
	command -v $t >/dev/null || skip "kernel tier needs '$t' (apt-get install iproute2)"
done
loaded_here=
if [ ! -d /sys/module/rdma_rxe ]; then
	modprobe -q rdma_rxe 2>/dev/null ||
		skip "kernel $(uname -r) has no rdma_rxe (not loaded, no module to load)"
	loaded_here=1
fi
rdma link show rxe0 >/dev/null 2>&1 && skip "an rxe0 already exists on this host; not touching it"

ns=rxe-lab-$$
cleanup() {
	ip netns exec "$ns" rdma link delete rxe0 2>/dev/null
	ip netns delete "$ns" 2>/dev/null
	# A module this run loaded is part of what it created.
	[ -n "$loaded_here" ] && modprobe -r -q rdma_rxe 2>/dev/null
	return 0
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() { echo "kernel tier: $1" >&2; exit 1; }

ip netns add "$ns" || fail "cannot create network namespace $ns"
ip -n "$ns" link add rxe-lab-a type veth peer name rxe-lab-b || fail "cannot create veth pair"
for l in lo rxe-lab-a rxe-lab-b; do ip -n "$ns" link set "$l" up; done
ip netns exec "$ns" rdma link add rxe0 type rxe netdev rxe-lab-a ||
	fail "rdma link add rxe0 type rxe netdev rxe-lab-a failed"
ip netns exec "$ns" sh "$here/run-rows.sh" kernel "$here/rows" "$b" "$@"
