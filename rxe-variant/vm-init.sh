#!/bin/busybox sh
# /init of the rxe VM guest (busybox sh). Loads the modules, creates rxe0 on
# dummy0, runs the rows named on the kernel command line (rxe.rows=a,b,...)
# between two markers the host looks for, and powers off. Every failure
# prints one "vm: ..." line that the host reports.
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mkdir -p /proc /sys /dev /tmp
mount -t proc proc /proc
mount -t sysfs sysfs /sys
# devtmpfs: the kernel itself creates /dev/infiniband/uverbs0 here.
mount -t devtmpfs devtmpfs /dev
off() { poweroff -f; reboot -f; }
fail() { echo "vm: $1"; off; }
arg() { tr ' ' '\n' < /proc/cmdline | sed -n "s/^$1=//p"; }

[ "$(arg rxe.probe)" = 1 ] && { echo "vm: probe ok"; off; }
for m in $(cat /lib/modules/load-order); do
	insmod "/lib/modules/$m.ko" || fail "module load failed: insmod $m"
done
ip link set dummy0 up || fail "no dummy0 (dummy module loaded?)"
rdma link add rxe0 type rxe netdev dummy0 || fail "link add failed: rdma link add rxe0 type rxe netdev dummy0"
i=0
while [ ! -e /dev/infiniband/uverbs0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -e /dev/infiniband/uverbs0 ] || fail "device open impossible: no /dev/infiniband/uverbs0 after rdma link add"
# Kernel messages stop here: they would land between the rows' lines.
dmesg -n 1
echo "vm: rows begin"
sh /lab/run-rows.sh vm /lab/rows /lab $(arg rxe.rows | tr , ' ')
echo "vm: rows end"
off
