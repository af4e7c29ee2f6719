#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kstats -> node_exporter -> Prometheus end to end (prometheus/75-prometheus.sh)
# in one boot of tests/vm/run.sh: the host root shared read-only over 9p so
# that the guest runs Debian's prometheus-node-exporter, prometheus and
# curl from this machine, and the source tree named on the kernel command
# line (ks.repo=) for the export unit's command and settings.
#
#   tests/vm/prometheus.sh [KVER]     default: the newest 6.12 kernel, else
#                                     the newest one
#
# The modules and the guest's kstats come from tests/vm/out (make
# vm-stage-KVER vm-tools).  About a minute on 2 cores.

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
kver=${1:-$("$top/scripts/kernels.sh" list | grep '^6\.12\.' | tail -n 1)}
[ -n "$kver" ] || kver=$("$top/scripts/kernels.sh" newest)
KS_VM_SCENARIOS="$here/prometheus" \
KS_VM_SCENARIO_TIMEOUT=${KS_VM_SCENARIO_TIMEOUT:-300} \
KS_VM_KMODS="9p 9pnet_virtio virtio_pci" \
KS_VM_APPEND="${KS_VM_APPEND:+$KS_VM_APPEND }ks.repo=$top" \
KS_VM_QEMU_ARGS="-m 2G -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap ${KS_VM_QEMU_ARGS:-}" \
	exec "$here/run.sh" -k "$kver"
