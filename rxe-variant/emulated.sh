#!/bin/sh
# Emulated tier: real rdma-core against a synthetic device. libibverbs reads the
# synthetic sysfs (SYSFS_PATH), finds /dev/infiniband/uverbs0 (which exists in
# a private mount namespace only) and loads the real rxe provider.
# usage: emulated.sh <rxe build dir> row...     exit 77 = tier cannot run here
set -eu
here=$(dirname "$0")
b=$1
shift
export SYSFS_PATH="$(cd "$b/sysfs" && pwd)"
exec "$here/sandbox.sh" "$b/dev-stage" "$b/no-rdma-netlink" \
	sh "$here/run-rows.sh" emulated "$here/rows" "$b" "$@"
