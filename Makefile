# SPDX-License-Identifier: GPL-2.0
#
# kstats top-level Makefile.
#   make                 build kmod/kstats.ko (KDIR=/lib/modules/<release>/build)
#                        and tools/kstats; ARCH=arm64 cross-builds them for arm64
#                        (tools/aarch64-linux-gnu/kstats)
#   make install         module (updates/, depmod), CLI, man page, kstats-plot
#   make uninstall       remove what install wrote (same KDIR=, PREFIX=)
#   make test            unit, fuzz (1 min) and VM tests on every installed Debian kernel,
#                        the kernel-build pipeline on a tiny kernel
#   make fuzz            the parser fuzzers, FUZZ_TIME seconds each (default 20)
#   make test-arm64      VM tests and the SMP stress on Debian's arm64 kernels
#                        (qemu-system-aarch64); make test runs a part of them
#   make test-stress     SMP stress on 4 vCPUs, STRESS (10) times make test's
#   make test-rt         VM tests on the PREEMPT_RT kernels
#   make test-debug      VM tests and fault injection on a KASAN/lockdep/kmemleak kernel
#   make test-prometheus kstats -> node_exporter -> Prometheus in a VM, and kstats serve's
#                        native histograms in Prometheus 2.42 (6.12, Debian 12's) and
#                        2.53 (7.x, Debian 13's); test-prometheus-arm64: serve in an
#                        arm64 guest, Debian 13's arm64 Prometheus 2.53 (both in make test)
#   make test-fleet      two VMs (6.1, 6.12) scraped by one Prometheus, compare --prometheus
#                        on them (in make test)
#   make test-bpf        kstats beside bpftrace's kfunc: (BPF trampolines) in a VM, every kernel
#   make test-whole      every function at once on the direct backend, a VM each kernel
#   make test-sweep      kstats on every function ftrace offers, in batches under a mixed
#                        workload, every kernel, x86-64 then arm64 (40 minutes or so a kernel);
#                        make test sweeps a seeded sample of 2,000 and 10,000 at once (--short)
#   make test-sweep-debug the sweep's short form on the KASAN/lockdep kernel of test-debug
#   make test-mttcg      the short sweep under parallel TCG: how often QEMU, not kstats, traps
#   make demo            the three kernel-thread measurements in a VM
#   make bench           overhead benchmark under QEMU -icount (bench-short: quick;
#                        bench-arm64: the arm64 kernels; bench-whole: every
#                        function at once against ftrace's function tracer)
#   make deps            install what the above need (Debian packages, root)
#   make checkpatch      checkpatch.pl --strict on the kernel code
#   make clean           build products only (modules, CLI, tests' objects)
#   make distclean       that, and the VM staging cache (vm/out), the results
#                        of bench, demo and deb, and .cache

# Cross-building for arm64 on another machine (make ARCH=arm64): Debian's
# cross compiler, and by default the newest arm64 headers that
# scripts/deps.sh unpacked (the 7.x ones build in their root:
# scripts/kernels.sh make KVER $$PWD kmod).
KSTATS_CACHE ?= /var/cache/kstats
ifeq ($(ARCH),arm64)
ifneq ($(shell uname -m),aarch64)
export CROSS_COMPILE ?= aarch64-linux-gnu-
KDIR ?= $(lastword $(sort $(wildcard $(KSTATS_CACHE)/arm64/root/lib/modules/*/build)))
endif
endif
# Headers of the running kernel, else the newest installed ones.
KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
	  $(lastword $(sort $(wildcard /lib/modules/*/build))))
# Debian kernels that can boot in the VM: installed here, or in a build
# root for kernels newer than this machine (scripts/kernels.sh).
KVERS ?= $(shell scripts/kernels.sh list)
VMOUT := $(or $(KS_VM_OUT),vm/out)
PYTHON := /usr/bin/python3

all: module tools

module:
	@test -n "$(KDIR)" || { echo "no kernel headers: run 'make deps' or pass KDIR=" >&2; exit 1; }
	$(MAKE) -C kmod KDIR=$(KDIR)
	@test "$(KRELEASE)" = "$$(uname -r)" || echo "note: kmod/kstats.ko is for $(KRELEASE), not" \
		"the running kernel $$(uname -r): insmod needs a module built with its headers" >&2

# The host-side builds take the folder's lock (flock): suites running at
# once (tests/run-all.sh's lanes) build each folder one at a time.
tools:
	flock tools $(MAKE) -C tools

include install.mk

# DEPS: what else to install (rt: PREEMPT_RT kernels, deb: packaging);
# 'make deps' installs everything, the test targets what they need.
deps:
	./scripts/deps.sh all

# Install only when something is missing, so 'make test' works first.
deps-check:
	@./scripts/deps-check.sh $(DEPS) || ./scripts/deps.sh $(DEPS)

# Modules for each kernel, built in a copy of the sources (so kernels
# build in parallel and kmod/ keeps no objects), staged for the VM
# harness (vm/stage.sh, vm/README.md).
vm-stage: $(addprefix vm-stage-,$(KVERS)) vm-tools

# The CLI, static, in the guest's PATH (tests/vm/scenarios/60-cli.sh), and
# its test build as kstats-test (watch and top --test-tick), published
# into $(VMOUT)/bin as sessions of other suites may be reading it
# (scripts/publish.sh).
vm-tools:
	@flock tools $(MAKE) -s -C tools static
	@scripts/publish.sh tools/kstats.static:kstats tools/kstats-test.static:kstats-test $(VMOUT)/bin
	@flock tests/vm/tools $(MAKE) -s -C tests/vm/tools stage KS_VM_OUT=$(abspath $(VMOUT))

vm-stage-%:
	@+vm/stage.sh build $*

# arm64: Debian's arm64 kernels (KSTATS_ARCH=arm64 scripts/kernels.sh
# list) under qemu-system-aarch64, with the CLI and the helpers built
# static for arm64 (cross-built on another machine, into $(VMOUT)/bin-arm64).
ARM64_KVERS = $(shell KSTATS_ARCH=arm64 scripts/kernels.sh list)
ifeq ($(shell uname -m),aarch64)
ARM64_CROSS :=
ARM64_BIN := $(VMOUT)/bin
else
ARM64_CROSS := aarch64-linux-gnu-
ARM64_BIN := $(VMOUT)/bin-arm64
endif

vm-tools-arm64:
	@flock tools $(MAKE) -s -C tools static CROSS_COMPILE=$(ARM64_CROSS)
	@scripts/publish.sh tools/$(if $(ARM64_CROSS),aarch64-linux-gnu/)kstats.static:kstats \
		tools/$(if $(ARM64_CROSS),aarch64-linux-gnu/)kstats-test.static:kstats-test $(ARM64_BIN)
	@flock tests/vm/tools $(MAKE) -s -C tests/vm/tools stage CROSS_COMPILE=$(ARM64_CROSS) KS_VM_BIN=$(abspath $(ARM64_BIN))

vm-stage-arm64:
	@$(MAKE) -s -j2 $(addprefix vm-stage-,$(ARM64_KVERS)) vm-tools-arm64

# The whole VM suite on the arm64 kernels (about 10 minutes here, 2
# cores) and the SMP stress with CPU hotplug on 4 vCPUs (12.5), and the part that
# make test runs (about 3): the selftest, doctor, and the exact counts of
# each backend, of compiler clones, of sections and of the annotation API,
# the last three again under lockdown (vm/runner.sh's lockdown pass).
ARM64_QUICK = 00-selftest,05-doctor,10-trace,20-clones,40-sections,70-api
test-arm64: DEPS = arm64
test-arm64: deps-check vm-stage-arm64
	KSTATS_ARCH=arm64 tests/vm/run.sh
	KSTATS_ARCH=arm64 KS_VM_SCENARIO_TIMEOUT=600 KS_VM_TIMEOUT=900 $(STRESS_RUN)

# and on an ARMv8.0 CPU (no LSE atomics: the trampoline's gate takes its
# exclusive loop), sampling and the direct backend on the newest kernel
vm-arm64-quick: vm-stage-arm64
	KSTATS_ARCH=arm64 tests/vm/run.sh -s $(ARM64_QUICK)
	KSTATS_ARCH=arm64 KS_VM_ARM64_CPU=cortex-a57 tests/vm/run.sh \
		-k $(lastword $(ARM64_KVERS)) -s 30-options,50-direct

.PHONY: vm-tools-arm64 vm-stage-arm64 test-arm64 vm-arm64-quick vm-all

unit:
	$(MAKE) -s -C tests/unit run

# libFuzzer + ASan/UBSan on the command, node-text and snapshot parsers
# (tests/fuzz): FUZZ_TIME seconds per target (default 20).
fuzz:
	$(MAKE) -s -C tests/fuzz run $(if $(FUZZ_TIME),FUZZ_TIME=$(FUZZ_TIME))

# The VM suite, VM_JOBS kernels at a time: each boot is one host thread
# (single-threaded TCG), so two keep both cores busy (tests/vm/run-jobs.sh).
VM_JOBS ?= 2
vm: vm-stage
	tests/vm/run-jobs.sh $(VM_JOBS) $(KVERS)

# make test's vm suite: the VM suite and the arm64 kernels' part
# (vm-arm64-quick, its boots one after another) in one pool of VM_JOBS:
# the x86-64 kernels newest first (the longest), the arm64 boots on the
# core the last x86-64 kernel leaves idle.
reverse = $(if $(1),$(call reverse,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))
vm-all: vm-stage vm-stage-arm64
	tests/vm/run-jobs.sh $(VM_JOBS) $(call reverse,$(KVERS)) make:vm-arm64-quick

# SMP stress (tests/vm/stress/85-stress.sh) on 4 vCPUs: make test runs it
# once per kernel; test-stress with STRESS times the iterations (default
# 10).  test-rt: the VM suite and the stress on the PREEMPT_RT kernels
# (scripts/kernels.sh list --rt), which make test leaves out.
STRESS_RUN = tests/vm/stress.sh
RT_KVERS = $(shell scripts/kernels.sh list --rt)

vm-stress: vm-stage
	KS_VM_SCENARIO_TIMEOUT=300 $(STRESS_RUN)

test-stress: deps-check vm-stage
	KS_VM_SCENARIO_TIMEOUT=$$((300 * $(or $(STRESS),10))) KS_VM_TIMEOUT=$$((400 * $(or $(STRESS),10))) \
		KS_VM_APPEND=ks.stress=$(or $(STRESS),10) $(STRESS_RUN)

test-rt: DEPS = rt
test-rt: deps-check
	@test -n "$(RT_KVERS)" || { echo "no PREEMPT_RT kernel: run 'make deps'" >&2; exit 1; }
	@$(MAKE) -s -j2 vm-stage KVERS="$(RT_KVERS)"
	KSTATS_KERNELS=rt tests/vm/run.sh
	KSTATS_KERNELS=rt KS_VM_SCENARIO_TIMEOUT=300 $(STRESS_RUN)

# kstats -> node_exporter -> Prometheus end to end in one boot of the newest
# 6.12 kernel (tests/vm/prometheus.sh: Debian 12's prometheus 2.42 and
# prometheus-node-exporter from this machine over 9p), and kstats serve ->
# Prometheus with native histograms beside it (tools/kstats, run from this
# machine's root over 9p too); then kstats serve alone on the newest 7.x
# kernel with Debian 13's userspace (the root of scripts/deps.sh,
# Prometheus 2.53; tests/vm/prometheus.sh --trixie builds serve there).
# test-prometheus-arm64: the same serve checks in an arm64 guest of each
# arm64 kernel (PROM_ARM64_KVERS, default all three: 30 to 45 s each),
# with Debian 13's arm64 Prometheus and a cross-built serve.  make test
# runs both.
PROM_KVER ?= $(or $(lastword $(filter 6.12.%,$(KVERS))),$(lastword $(KVERS)))
PROM7_KVER ?= $(lastword $(filter 7.%,$(KVERS)))
test-prometheus: deps-check vm-stage-$(PROM_KVER) $(addprefix vm-stage-,$(PROM7_KVER)) vm-tools tools
	@rc=0; tests/vm/prometheus.sh $(PROM_KVER) || rc=1; \
	$(if $(PROM7_KVER),tests/vm/prometheus.sh --trixie $(PROM7_KVER) || rc=1;) exit $$rc

PROM_ARM64_KVERS ?= $(ARM64_KVERS)
test-prometheus-arm64: DEPS = arm64
test-prometheus-arm64: deps-check $(addprefix vm-stage-,$(PROM_ARM64_KVERS)) vm-tools-arm64
	tests/vm/prometheus.sh --trixie $(PROM_ARM64_KVERS)

# A fleet of two: the newest 6.1 and 6.12 kernels boot at once, each with
# Debian's node_exporter serving kstats' export through a QEMU port
# forward, one Prometheus on this machine's loopback scrapes both, and
# kstats compare --prometheus judges the two releases (tests/vm/fleet.sh,
# about a minute); make test runs it.
FLEET_KVERS ?= $(lastword $(filter 6.1.%,$(KVERS))) $(lastword $(filter 6.12.%,$(KVERS)))
test-fleet: deps-check
	@$(MAKE) -s -j2 $(addprefix vm-stage-,$(FLEET_KVERS))
	@$(MAKE) -s vm-tools tools
	tests/vm/fleet.sh $(FLEET_KVERS)

# The whole kernel at once (tests/vm/whole.sh): every function ftrace
# offers on the direct backend, every x86-64 kernel and the newest arm64
# one, a boot each; make test runs it.
test-whole: DEPS = arm64
test-whole: deps-check vm-stage vm-stage-arm64
	tests/vm/whole.sh

# its halves, two suites of make test (tests/run-all.sh: each in a lane)
test-whole-x86: deps-check vm-stage
	tests/vm/whole.sh $(KVERS)
test-whole-arm64: DEPS = arm64
test-whole-arm64: deps-check vm-stage-arm64
	KSTATS_ARCH=arm64 tests/vm/whole.sh $(lastword $(ARM64_KVERS))

# kstats beside a real BPF fentry program: Debian's bpftrace from this
# machine over 9p, one boot per kernel (tests/vm/bpf.sh); make test runs it.
test-bpf: deps-check vm-stage vm-tools
	tests/vm/bpf.sh $(KVERS)

# The sweep (tests/vm/sweep.sh): every function ftrace offers traced, in
# batches of globs, each under a mixed workload, then forced via fprobe
# and via kretprobe on 5,000 of them, then every one at once (the whole
# pass), on every kernel.  vm-sweep: the short form make test runs (a
# seeded sample of 2,000, then a random 10,000 at once: 2-3 minutes a
# kernel).
test-sweep: DEPS = arm64
test-sweep: deps-check vm-stage vm-stage-arm64
	tests/vm/sweep.sh --full $(addprefix -k ,$(KVERS))
	KSTATS_ARCH=arm64 tests/vm/sweep.sh --full $(addprefix -k ,$(ARM64_KVERS))

vm-sweep: vm-stage
	tests/vm/sweep.sh --short --no-hotplug $(addprefix -k ,$(KVERS))

# Why the VM tests run QEMU single-threaded, measured: the short sweep
# under parallel TCG (tests/vm/mttcg.sh), reporting stale-int3 traps;
# ROUNDS boots per kernel (default 2).
test-mttcg: deps-check vm-stage
	tests/vm/mttcg.sh --rounds $(or $(ROUNDS),2) $(addprefix -k ,$(KVERS))

# The sweep's short form on the debug kernel of test-debug (KASAN,
# lockdep, kmemleak: built the first time, then cached), where lockdep and
# KASAN see what a plain kernel does not; everything is several times
# slower there under TCG: a 90-minute limit, a 120 s hung-task timeout.
test-sweep-debug: DEPS = kbuild
test-sweep-debug: deps-check vm-tools
	./tests/debug/run.sh --build
	KS_VM_APPEND="no_timer_check ks.sweep_hung=120 $(KS_VM_APPEND)" \
		tests/vm/sweep.sh --short -k debug --timeout 5400 --stall 1200

.PHONY: vm-stress test-stress test-rt test-debug test-prometheus test-prometheus-arm64 test-fleet test-bpf test-whole
.PHONY: test-whole-x86 test-whole-arm64
.PHONY: test-sweep vm-sweep test-mttcg
.PHONY: test-sweep-debug

test: DEPS = kbuild arm64
test: deps-check
	./tests/run-all.sh

# The README's quick start, as written, on Debian's 6.1 then 6.12: two
# boots, about a minute and a half (tests/quickstart/run.sh).
test-quickstart: deps-check vm-tools
	tests/quickstart/run.sh

.PHONY: test-quickstart

# The VM suite, the fault injection into kstats' own error paths and a
# kmemleak scan on a debug kernel (KASAN, lockdep, kmemleak, failslab,
# fail_function) built from linux-source-6.12 (tests/debug/run.sh): the
# first build about 30 minutes, then cached in /var/cache/kstats.
test-debug: DEPS = kbuild
test-debug: deps-check vm-tools
	./tests/debug/run.sh

# The three kernel-thread measurements (demo/README.md): in a VM on the
# newest installed Debian kernel (KVER= picks another; ICOUNT=0 for plain
# TCG instead of instruction counting), the fault-injection hooks in a
# second VM on a kernel that has them when that one has not (HOOKS_KVER=
# picks it, none for no second VM), or on this machine (demo-host, as
# root).  DEMO_OUT= sets the output folder (default demo-out/KVER).
demo: deps-check
	@+demo/demo.sh --build $(if $(KVER),-k $(KVER)) $(if $(HOOKS_KVER),-K $(HOOKS_KVER)) \
		$(if $(filter 0,$(ICOUNT)),--no-icount) $(if $(DEMO_OUT),-o $(DEMO_OUT))

demo-host:
	@+demo/demo.sh --host --build $(if $(DEMO_OUT),-o $(DEMO_OUT))

# The seeds' three comparisons on kernels built from Debian's
# linux-source-6.12 (demo/README.md): a first build of tens of minutes,
# cached in /var/cache/kstats; then minutes.
demo-ab: DEPS = kbuild
demo-ab: deps-check
	@+demo/demo-ab.sh $(if $(DEMO_OUT),-o $(DEMO_OUT))

# make demo's answers and its report's width checked on a kept run and on
# a short demo (tests/demo/run.sh, about 30 s once staged); make test runs it.
test-demo: deps-check
	tests/demo/run.sh

.PHONY: demo demo-host demo-ab test-demo

# Overhead benchmark (bench/README.md): every installed kernel under QEMU
# -icount, the arm64 ones too, table on stdout, bench-out/bench.json;
# about 5 minutes for the amd64 kernels, 23 more for the arm64 ones.
# bench-arm64: the arm64 kernels alone, beside the amd64 figures of an
# earlier run.  bench-short: the newest kernel, fewer iterations, no read
# boot (1-2 minutes).
bench: DEPS = arm64
bench: deps-check vm-stage vm-stage-arm64
	bench/run.sh $(addprefix -k ,$(KVERS) $(ARM64_KVERS))

bench-arm64: DEPS = arm64
bench-arm64: deps-check vm-stage-arm64
	KSTATS_ARCH=arm64 bench/run.sh

bench-short: deps-check vm-stage-$(lastword $(KVERS))
	BENCH_SHORT=1 bench/run.sh -k $(lastword $(KVERS))

# bench-whole: every function at once against ftrace's function tracer,
# under -icount on the newest kernel (bench/scenarios/55-whole.sh)
bench-whole: deps-check vm-stage-$(lastword $(KVERS))
	BENCH_SHORT=1 BENCH_SCENARIOS='0*,55*' BENCH_OUT=$(CURDIR)/bench-out/whole \
		bench/run.sh -k $(lastword $(KVERS))

.PHONY: bench bench-arm64 bench-short bench-whole

# The figures the documentation shows, redrawn by the current plotting
# code from the real snapshots kept beside them (docs/figures/data: the
# README's quick start on 6.1 and 6.12; demo/figures/data: make demo);
# plots/tests/test_figures.py fails on a figure older code drew.
FIG_QS = docs/figures/data/find_vma-6.1.json docs/figures/data/find_vma-6.12.json
figures:
	$(PYTHON) plots/kstats_plot.py cdf $(FIG_QS) --format png -o docs/figures/find_vma-cdf-quickstart
	$(PYTHON) plots/kstats_plot.py pct $(FIG_QS) --format png -o docs/figures/find_vma-pct-quickstart
	$(PYTHON) plots/kstats_plot.py hist $(FIG_QS) --format png -o docs/figures/find_vma-hist-quickstart
	$(PYTHON) plots/kstats_plot.py pct demo/figures/data/find_vma-m16.json \
		demo/figures/data/find_vma-m2048.json --format png -o demo/figures/find_vma-pct-6.1
	$(PYTHON) plots/kstats_plot.py pct demo/figures/data/find_vma-m16-tcg.json \
		demo/figures/data/find_vma-m2048-tcg.json --format png -o demo/figures/find_vma-pct-tcg-6.1 \
		--label "42 VMAs, plain TCG" --label "4106 VMAs, plain TCG"

.PHONY: figures

checkpatch:
	./scripts/checkpatch.sh

clean:
	-$(MAKE) -s -C kmod KDIR=$(KDIR) clean
	-$(MAKE) -s -C tests/target KDIR=$(KDIR) clean
	-$(MAKE) -s -C tests/unit clean
	-$(MAKE) -s -C tests/fuzz clean
	-$(MAKE) -s -C tests/vm/tools clean
	-$(MAKE) -s -C tools clean
	-$(MAKE) -s -C tests/cli clean
	-$(MAKE) -s -C tools/workloads clean

# What make clean keeps: the staged kernels and modules of the VM suites
# (hundreds of MB), and the results of bench, demo and deb.
distclean: clean
	rm -rf $(VMOUT) bench-out demo-out deb-out .cache

.PHONY: all module tools deps deps-check vm-stage vm-tools unit vm test checkpatch clean distclean
