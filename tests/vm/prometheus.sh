#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kstats -> node_exporter -> Prometheus end to end (prometheus/75-prometheus.sh),
# then kstats serve -> Prometheus with native histograms beside the
# classic path (prometheus/76-serve.sh), in one VM session (vm/session.sh):
# the host root shared read-only over 9p so that the guest runs Debian's
# prometheus-node-exporter, prometheus and curl from this machine, and the
# source tree named on the kernel command line (ks.repo=) for the export
# unit's command and settings and for tools/kstats (serve is not in the
# guest's static build: make -C tools).
#
#   tests/vm/prometheus.sh [KVER]     default: the newest 6.12 kernel, else
#                                     the newest one
#
# The modules and the guest's kstats come from vm/out (make
# vm-stage-KVER vm-tools, make tools).  About two and a half minutes on 2
# cores (135 s measured).

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
kver=${1:-$("$top/scripts/kernels.sh" list | grep '^6\.12\.' | tail -n 1)}
[ -n "$kver" ] || kver=$("$top/scripts/kernels.sh" newest)
KS_VM_SCENARIO_TIMEOUT=${KS_VM_SCENARIO_TIMEOUT:-300} \
	exec "$top/vm/session.sh" -k "$kver" --scenarios "$here/prometheus" \
	--9p-host-root --append "ks.repo=$top"
