#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the kernel's checkpatch.pl --strict on the kernel-side C code.
# checkpatch.pl comes from Debian's linux-source-6.1 tarball (extracted
# once into .cache/) unless CHECKPATCH points at one.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cp=${CHECKPATCH:-$top/.cache/checkpatch/scripts/checkpatch.pl}
if [ ! -x "$cp" ]; then
	tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | tail -n 1)
	if [ -z "$tarball" ]; then
		echo "checkpatch: no kernel source; apt-get install linux-source-6.1" >&2
		exit 1
	fi
	mkdir -p "$top/.cache/checkpatch"
	dir=$(basename "$tarball" .tar.xz)
	tar -xJf "$tarball" -C "$top/.cache/checkpatch" --strip-components=1 \
		"$dir/scripts/checkpatch.pl" "$dir/scripts/spelling.txt" \
		"$dir/scripts/const_structs.checkpatch"
fi
cd "$top"
# include/kstats/shim.h is userspace's stand-in for kernel helpers
files=$(ls kmod/*.c kmod/*.h kmod/*.S common/*.c include/kstats/*.h tests/target/*.c tests/api/*.c |
	grep -v -e '\.mod\.c$' -e 'ks_slot_[a-z0-9]*\.h$' -e 'kstats/shim\.h$')
"$cp" --strict --no-tree --terse --show-types \
	--ignore SPDX_LICENSE_TAG,FILE_PATH_CHANGES -f $files
# ks_slot_x86.h and ks_slot_arm64.h hold assembler macros (for the
# trampolines and a unit test), whose lines are not C's: no C spacing,
# blank-line or comparison-order rules.
"$cp" --strict --no-tree --terse --show-types \
	--ignore SPDX_LICENSE_TAG,FILE_PATH_CHANGES,SPACING,LINE_SPACING,CONSTANT_COMPARISON \
	-f kmod/ks_slot_x86.h kmod/ks_slot_arm64.h
# KSTATS_SECTION_START/END open and close one block between them, on
# purpose (a section cannot be left unclosed): no do-while of their own.
"$cp" --strict --no-tree --terse --show-types \
	--ignore SPDX_LICENSE_TAG,FILE_PATH_CHANGES \
	--ignore MULTISTATEMENT_MACRO_USE_DO_WHILE,SINGLE_STATEMENT_DO_WHILE_MACRO \
	-f include/linux/kstats.h
