#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the kstats test initramfs (built by vm/session.sh).  Mounts
# the pseudo file systems, then either runs the scenarios named on the
# kernel command line (ks.scenarios=a,b,c) or, with ks.interactive=1,
# gives a shell on the console.  Always ends with poweroff -f (reboot -f
# without ACPI); if that fails, init exits, the kernel panics and
# -no-reboot ends QEMU.  ks.slack=NS: see KS_SLACK in lib.sh.

/bin/busybox --install -s
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t tmpfs tmpfs /tmp
mkdir -p /dev/pts && mount -t devpts devpts /dev/pts
hostname vm
ip link set lo up 2>/dev/null

scenarios="*"
interactive=0
for arg in $(cat /proc/cmdline); do
	case $arg in
	ks.scenarios=*)		scenarios=${arg#*=} ;;
	ks.interactive=*)	interactive=${arg#*=} ;;
	ks.timeout=*)		export KS_TIMEOUT=${arg#*=} ;;
	ks.icount=*)		export KS_ICOUNT=${arg#*=} ;;
	ks.slack=*)		export KS_SLACK=${arg#*=} ;;
	ks.faults=*)		export KS_FAULT_SWEEPS=${arg#*=} ;;
	ks.collect=*)		export KS_COLLECT_ON=${arg#*=} ;;
	ks.lockdown=*)		export KS_LOCKDOWN_PASS=${arg#*=} ;;
	esac
done

# In-tree modules the host staged (KS_VM_KMODS), in dependency order.
if [ -f /modules/kernel/order ]; then
	while read -r m; do
		insmod "/modules/kernel/$m" || echo "init: insmod $m failed"
	done < /modules/kernel/order
fi

if [ "$interactive" = 1 ]; then
	cat <<'MSG'

kstats test VM: scenarios in /scenarios, helpers in /ks/lib.sh, modules in /modules,
staged files in /ks/files; files under /ks/collect go back with ks_publish.
  ks-run [NAME,...]        run scenarios as the harness does (then the dmesg check)
  sh /scenarios/NAME.sh    run one scenario
  exit                     power off (or Ctrl-A x to kill QEMU)
MSG
	setsid cttyhack sh -l
else
	ks-run "$scenarios"
fi
# Without ACPI (the tiny kernel) power-off halts the CPU and QEMU waits for
# ever: reboot instead, which -no-reboot turns into QEMU's exit.
if [ -d /sys/firmware/acpi ]; then
	poweroff -f
else
	reboot -f
fi
