#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run every test suite and print one total.  Each suite prints TAP-like
# lines (ok N - ... / not ok N - ...); pytest's -rA report lines are mapped
# to the same.  An ok line holding "# SKIP" (a check that could not run
# here) counts as skipped, not passed.  A suite that fails without a
# 'not ok' line counts as one failure, so a crash never passes silently.
# Last line: N passed, N failed, N skipped.
#
#   tests/run-all.sh [SUITE...]     suites: unit fuzz cli plots vm quickstart cpu-default arm64
#                                   prometheus fleet bpf stress sweep ab kbuild bench
#                                   (default: all)
#                                   quickstart: the README's quick start as
#                                   written, on 6.1 then 6.12, two boots
#                                   (tests/quickstart/run.sh, about 1.5 min)
#                                   cpu-default: the clock's scenarios on
#                                   QEMU's default CPU model, no invariant
#                                   TSC (tests/vm/cpu-default.sh)
#                                   layers: kmod/'s files call only those
#                                   below them, read from the objects the
#                                   vm and arm64 suites built (tests/layers.py)
#                                   arm64: the selftest and the exact counts
#                                   on the arm64 kernels (make test-arm64: all)
#                                   prometheus: kstats -> node_exporter ->
#                                   Prometheus in one VM boot (about a minute)
#                                   fleet: two VMs (6.1, 6.12) scraped by
#                                   one Prometheus on the host, compare
#                                   --prometheus on them (about a minute)
#                                   bpf: kstats beside bpftrace's kfunc:, one
#                                   boot per kernel (make test-bpf: about
#                                   25 s a kernel once staged)
#                                   stress: tests/vm/stress on 4 vCPUs,
#                                   with the modules vm staged, two CPU
#                                   hogs beside the VM (tests/vm/stress.sh)
#                                   sweep: a seeded sample of 2,000 functions
#                                   traced in batches under a workload, each
#                                   kernel (tests/vm/sweep.sh --short), with
#                                   the modules vm staged; always the same
#                                   sample (KS_SWEEP_SEED, so that a run can
#                                   be repeated); make vm-sweep draws anew
#                                   kbuild: the kernel-build pipeline on
#                                   the tiny config (tests/kbuild)
#                                   deb: the packages in clean Debian roots
#                                   (make deb-test, about 8 minutes): only by name
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
# shellcheck source=vm/tap.sh
. vm/tap.sh
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
passed=0 failed=0 skipped=0 times=
start=$(date +%s)

suite() { # name command...
	name=$1
	shift
	echo "# ---- $name: $*"
	t0=$(date +%s)
	"$@" > "$logs/$name" 2>&1
	rc=$?
	took=$(($(date +%s) - t0))
	times="$times $name ${took}s"
	# each suite numbered from 1; pytest's report lines as TAP
	tap_n=0 tap_failed=0 tap_skipped=0
	sed -e 's/^PASSED /ok - /' -e 's/^FAILED /not ok - /' -e 's/^ERROR /not ok - /' \
		-e 's/^SKIPPED \(.*\)/ok - \1 # SKIP/' "$logs/$name" > "$logs/$name.tap"
	tap_relay < "$logs/$name.tap"
	if [ "$rc" -ne 0 ] && [ "$tap_failed" -eq 0 ]; then
		notok "$name: exited with status $rc"
	fi
	if [ "$tap_n" -eq 0 ]; then
		notok "$name: ran no tests"
	fi
	s=$tap_skipped f=$tap_failed p=$((tap_n - tap_failed - tap_skipped))
	echo "# $name: $p passed, $f failed, $s skipped (${took} s)"
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
}

suites=${*:-unit fuzz cli plots vm quickstart cpu-default arm64 layers prometheus fleet bpf stress sweep ab kbuild bench}
for s in $suites; do
	case $s in
	unit)	suite unit make -s -C tests/unit run ;;
	fuzz)	suite fuzz make -s -C tests/fuzz run FUZZ_TIME=${FUZZ_TIME:-20} ;;
	cli)	[ -f tests/cli/Makefile ] && suite cli make -s -C tests/cli run ;;
	plots)	[ -d plots/tests ] && suite plots /usr/bin/python3 -m pytest -q -rA -p no:cacheprovider plots/tests ;;
	vm)	suite vm make -s -j2 vm ;;
	quickstart) suite quickstart make -s test-quickstart ;;
	cpu-default) suite cpu-default tests/vm/cpu-default.sh ;;
	arm64)	suite arm64 make -s vm-arm64-quick ;;
	layers)	suite layers /usr/bin/python3 tests/layers.py ;;
	prometheus) suite prometheus make -s test-prometheus ;;
	fleet)	suite fleet make -s test-fleet ;;
	bpf)	suite bpf make -s test-bpf ;;
	stress)	suite stress env KS_VM_SCENARIO_TIMEOUT=300 tests/vm/stress.sh ;;
	sweep)	suite sweep tests/vm/sweep.sh --short --no-hotplug --seed "${KS_SWEEP_SEED:-708565993}" ;;
	ab)	suite ab tests/ab/run.sh ;;
	kbuild)	suite kbuild tests/kbuild/run.sh ;;
	bench)	suite bench tests/bench-check.sh ;;
	deb)	suite deb make -s deb-test ;;
	*)	echo "run-all: unknown suite '$s'" >&2; exit 2 ;;
	esac
done
echo "# time: $(($(date +%s) - start)) s in all;$times"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
