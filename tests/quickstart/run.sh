#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The README's quick start, run as written: the fenced blocks that follow
# a "<!-- quickstart -->" line in README.md, the first on one kernel, the
# second after the reboot into the other kernel, in one copy of the tree
# that both share.  Each kernel is one QEMU boot through the VM harness:
#
#   tests/quickstart/run.sh [OLD_KVER NEW_KVER]   default: 6.1, then 6.12
#
# A block's lines before its first "sudo" build (make): they run on this
# machine, in the copy, with KDIR naming the headers of the guest's kernel
# (the Makefile's KDIR ?= takes it), as make on that kernel builds for it.
# The lines from that "sudo" to the last that names rmmod need the
# kernel: they run as root in the guest (tests/quickstart/scenarios), on
# the copy's kmod/kstats.ko and tools/kstats, sudo running its command,
# and the snapshots they write come back into the copy.  The lines after
# them (compare, plot) run here, in the copy, with Debian's python3 first
# in PATH.  The checks: each side's snapshot holds find_vma with calls,
# from its kernel; compare names find_vma with both counts; the plot is a
# 1200x700 PNG.  About a minute and a half on 2 cores, once staged
# (make vm-tools).

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=vm/tap.sh
. "$top/vm/tap.sh"
old=${1:-$("$top/scripts/kernels.sh" list | grep '^6\.1\.' | tail -n 1)}
new=${2:-$("$top/scripts/kernels.sh" list | grep '^6\.12\.' | tail -n 1)}
work=$(mktemp -d /tmp/kstats-quickstart.XXXXXX)
trap 'rm -rf "$work"' EXIT
tree=$work/tree
mkdir -p "$tree" "$work/vm"
export PATH=/usr/bin:/bin:$PATH

# The blocks, one file each: block-1, block-2.
awk -v dir="$work" '
	/^<!-- quickstart -->$/ { want = 1; next }
	want && /^```/ { n++; inblock = 1; want = 0; next }
	inblock && /^```/ { inblock = 0; next }
	inblock { print > (dir "/block-" n) }' "$top/README.md"
nb=$(ls "$work"/block-* 2>/dev/null | wc -l)
expect "README.md: quickstart blocks" "$nb" 2
[ "$nb" = 2 ] || { tap_end; exit 1; }

# split BLOCK: BLOCK.build (before the first sudo), BLOCK.guest (up to
# the last line naming rmmod), BLOCK.after (the rest).
split() {
	awk -v b="$1" '
		{ line[NR] = $0 }
		/^sudo / && !first { first = NR }
		/rmmod/ { last = NR }
		END {
			if (!first) first = NR + 1
			if (last < first) last = first - 1
			for (i = 1; i <= NR; i++)
				print line[i] > (b (i < first ? ".build" : i <= last ? ".guest" : ".after"))
		}' "$1"
	touch "$1.build" "$1.guest" "$1.after"
}

# The tree as a clone holds it: tracked and new files, no build output.
(cd "$top" && git ls-files -co --exclude-standard | while read -r f; do
	[ -f "$f" ] && echo "$f"; done | cpio -pdm --quiet "$tree")

# side N KVER: block N's build here, its kernel's part in a boot of KVER,
# its last lines here.
side() {
	local n=$1 kver=$2 b=$work/block-$1 scen=$work/scen-$1 st rest
	split "$b"
	if (cd "$tree" && KDIR=/lib/modules/$kver/build bash -e "$b.build") > "$work/build-$n.log" 2>&1; then
		ok "$kver: block $n, built here: $(tr '\n' ';' < "$b.build")"
	else
		notok "$kver: block $n, built here: $(tr '\n' ';' < "$b.build")"
		tail -20 "$work/build-$n.log" | tap_diag
		return 1
	fi
	mkdir -p "$scen"
	cp "$here/scenarios/10-quickstart.sh" "$scen/"
	KS_VM_SCENARIO_TIMEOUT=180 "$top/vm/session.sh" -k "$kver" --scenarios "$scen" \
		--work "$work/vm" --collect "$work/out-$n" \
		--stage "$tree/kmod/kstats.ko:/qs/kmod/kstats.ko" \
			"$tree/tools/kstats:/qs/tools/kstats" \
			"$b.guest:/ks/files/quickstart.sh" \
		> "$work/vm-$n.log" 2>&1
	while read -r st rest; do
		case $st in
		ok) ok "$rest" ;;
		*) notok "$rest" ;;
		esac
	done < <(grep -E '^(not )?ok [0-9]+ - ' "$work/vm-$n.log" | sed -E 's/^ok [0-9]+ - /ok /; s/^not ok [0-9]+ - /notok /')
	if grep -qE '^not ok ' "$work/vm-$n.log" || ! grep -qE '^[0-9]+ passed, 0 failed' "$work/vm-$n.log"; then
		notok "$kver: block $n's boot" "$(grep '^#' "$work/vm-$n.log" | tail -40)"
		return 1
	fi
	grep '^# | ' "$work/vm/$kver/console.log" 2>/dev/null | tr -d '\r' | sed 's/^# | /| /' | tap_diag
	cp "$work/out-$n"/*.json "$tree/" 2>/dev/null
	[ -s "$b.after" ] || return 0
	if (cd "$tree" && bash -e "$b.after") > "$work/after-$n.log" 2>&1; then
		ok "block $n, run here: $(tr '\n' ';' < "$b.after")"
	else
		notok "block $n, run here: $(tr '\n' ';' < "$b.after")" "$(cat "$work/after-$n.log")"
	fi
	tap_diag "$work/after-$n.log"
}

side 1 "$old"
side 2 "$new"

# snap FILE: kernel release and find_vma's samples in a snapshot.
snap() {
	/usr/bin/python3 - "$1" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
m = d.get("meta", {})
nodes = d.get("nodes") or [d.get("node", d)]
n = [x for x in nodes if x.get("name") == "find_vma"]
print(m.get("kernel", "?"),
      n[0].get("samples", n[0].get("header", {}).get("samples", 0)) if n else 0)
PY
}
for f in old:$old new:$new; do
	name=${f%%:*} kver=${f#*:}
	read -r rel samples < <(snap "$tree/$name.json")
	expect "$name.json: taken on $kver" "$rel" "$kver"
	if [ "${samples:-0}" -gt 0 ] 2>/dev/null; then
		ok "$name.json: find_vma timed $samples calls"
	else
		notok "$name.json: find_vma timed calls" "$(head -c 600 "$tree/$name.json")"
	fi
done
cmp=$work/after-2.log
# rows named by the labels, or A and B with a legend when they and the
# verdict do not fit 72 columns
rows=$(awk -v a="$old" -v b="$new" '($1 == a || $1 == b || $1 == "A" || $1 == "B") && $2 + 0 > 0' "$cmp" | wc -l)
expect "compare: a row per kernel with its calls" "$rows" 2
grep -q '^# find_vma' "$cmp" && ok "compare: names find_vma" || notok "compare: names find_vma"
png=$tree/find_vma.png
size=$(/usr/bin/python3 -c '
import struct, sys
b = open(sys.argv[1], "rb").read(24)
print("%dx%d" % struct.unpack(">II", b[16:24]) if b[:8] == b"\x89PNG\r\n\x1a\n" else "not a PNG")' "$png" 2>&1)
expect "find_vma.png: a PNG of 1200x700" "$size" 1200x700
[ -n "${KS_QUICKSTART_KEEP:-}" ] && cp "$png" "$cmp" "$tree"/*.json "$KS_QUICKSTART_KEEP/"
tap_end
