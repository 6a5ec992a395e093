#!/bin/sh
# Writes the synthetic sysfs tree libibverbs reads when netlink is unavailable:
# one uverbs char device (uverbs0) belonging to an rxe IB device (rxe0).
# usage: make-sysfs.sh <dir>     (the dir becomes SYSFS_PATH)
set -eu
d=$1
rm -rf "$d"
mkdir -p "$d/class/infiniband_verbs/uverbs0" "$d/class/infiniband/rxe0"
# Two different ABI numbers: the uverbs ABI of the char device class (6, what
# kernels report since 2.6.x) and the driver ABI of this device, which the rxe
# provider checks against its own range (1..2; a wrong value makes libibverbs
# warn "does not support the kernel ABI").
echo 6 > "$d/class/infiniband_verbs/abi_version"
echo 1 > "$d/class/infiniband_verbs/uverbs0/abi_version"
echo rxe0 > "$d/class/infiniband_verbs/uverbs0/ibdev"
# major:minor of the node the sandbox creates (231 is the uverbs major,
# 192 the first uverbs minor); libibverbs opens the node and checks its rdev.
echo 231:192 > "$d/class/infiniband_verbs/uverbs0/dev"
echo "1: CA" > "$d/class/infiniband/rxe0/node_type"
