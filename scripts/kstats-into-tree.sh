#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Add kstats to a kernel source tree, built in, as CONFIG_KSTATS, so that
# core kernel code (built into vmlinux, which cannot call a module) can use
# the annotation API of include/linux/kstats.h:
#
#   scripts/kstats-into-tree.sh KSRC
#
# writes, into KSRC:
#   lib/kstats/            kmod/'s and common/'s sources, with a Makefile made
#                          from kmod/Kbuild
#   include/kstats/*.h     the shared headers (hist.h, contract.h)
#   include/linux/kstats.h the annotation API
#   lib/Kconfig.debug      "config KSTATS" (bool, depends on what kmod/Kbuild needs)
#   lib/Makefile           obj-$(CONFIG_KSTATS) += kstats/
# Run it again to refresh the sources; the Kconfig and Makefile lines are
# added once.  Then: make olddefconfig with CONFIG_KSTATS=y (or menuconfig:
# Kernel hacking), annotate, build.  The control file and the node files are
# the module's, under /sys/kernel/debug/kstats/, from boot.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 KSRC" >&2; exit 2; }
ksrc=$1
for f in Makefile lib/Kconfig.debug lib/Makefile include/linux; do
	[ -e "$ksrc/$f" ] || { echo "kstats-into-tree: $ksrc has no $f: not a kernel source tree" >&2; exit 1; }
done

dst=$ksrc/lib/kstats
mkdir -p "$dst" "$ksrc/include/kstats"
rm -f "$dst"/*.c "$dst"/*.h "$dst"/*.S
for f in "$top"/kmod/*.c "$top"/kmod/*.h "$top"/kmod/*.S "$top"/common/*.c; do
	case $f in *.mod.c) continue ;; esac
	cp "$f" "$dst/"
done
cp "$top"/include/kstats/*.h "$ksrc/include/kstats/"
cp "$top"/include/linux/kstats.h "$ksrc/include/linux/kstats.h"

# kmod/Kbuild, built in: the object list, the kernel-API probes and the
# trampolines' generated offsets stay;
# the include path and the module-only define go, Kconfig checks the rest;
# common/'s objects sit beside kmod/'s.
{
	echo "# SPDX-License-Identifier: GPL-2.0"
	echo "# Made by kstats' scripts/kstats-into-tree.sh from kmod/Kbuild."
	sed -n -e 's/^obj-m := kstats.o$/obj-$(CONFIG_KSTATS) += kstats.o/p' \
		-e '/^kstats-/{s#\.\./common/##;p}' -e '/^[ca][cs]flags-y += \$(if/p' \
		-e '/^# offsets: begin$/,/^# offsets: end$/p' "$top/kmod/Kbuild"
} > "$dst/Makefile"
grep -q '^obj-$(CONFIG_KSTATS) += kstats.o$' "$dst/Makefile" ||
	{ echo "kstats-into-tree: kmod/Kbuild changed shape: no obj-m line" >&2; exit 1; }

if ! grep -q '^config KSTATS$' "$ksrc/lib/Kconfig.debug"; then
	cat >> "$ksrc/lib/Kconfig.debug" <<'KCONFIG'

config KSTATS
	bool "kstats: latency histograms of kernel functions and annotated code"
	depends on X86_64 && DEBUG_FS && KPROBES && KRETPROBES && DYNAMIC_FTRACE
	help
	  Per-CPU log-linear histograms, exported through
	  /sys/kernel/debug/kstats/: the time kernel functions take
	  (echo "trace NAME" > /sys/kernel/debug/kstats/_control), and
	  values or section times that code records itself through
	  include/linux/kstats.h (kstats_new(), KSTATS_SECTION_START/END).

	  If unsure, say N.
KCONFIG
fi
if ! grep -q 'CONFIG_KSTATS' "$ksrc/lib/Makefile"; then
	printf '\nobj-$(CONFIG_KSTATS) += kstats/\n' >> "$ksrc/lib/Makefile"
fi
echo "kstats-into-tree: added to $ksrc (lib/kstats, CONFIG_KSTATS)"
