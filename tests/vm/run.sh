#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The VM suite: the scenarios of tests/vm/scenarios (KS_VM_SCENARIOS for
# another folder: tests/vm/stress, tests/vm/prometheus) on each installed
# Debian kernel, through the VM harness (vm/session.sh, vm/README.md).
#
#   tests/vm/run.sh [-k KVER] [-s SCENARIO_GLOB] [-i] [--smp N] [--icount]
#
# Takes every vm/session.sh option and KS_VM_* knob.  See tests/vm/README.md.
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../vm/session.sh" --scenarios "${KS_VM_SCENARIOS:-$here/scenarios}" "$@"
