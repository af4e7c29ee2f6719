#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make test's test of the kernel-build pipeline (scripts/build-kernel.sh,
# kstats built into a tree, tools/ab/kstats-ab on kernels built from source),
# on the smallest kernel that boots and traces (kernels/tiny.config), from
# Debian's linux-source-6.12:
#   tiny         tinyconfig + kernels/tiny.config; kstats is a module
#   tiny-kstats  the same object tree, kstats built in (-k) and find_vma()
#                annotated with the API (kernels/patches/
#                find_vma-kstats-section.patch): node find_vma_section
# Then tools/ab/kstats-ab traces find_vma on both under -icount, with the
# same page-fault workload, and measures find_vma_section where it exists.
# Checks: both build, the variant shares the tree and leaves the source
# pristine, a rebuild of an unchanged variant costs nothing, the annotated
# section counts exactly what a kretprobe on find_vma counts (same calls,
# same window), find_vma runs 4 times per op on both kernels, and the section
# is reported absent on the kernel without it.  Then kstats.ko and the
# target, signed with tiny's key, load and trace where tiny is locked down,
# and an unsigned copy is refused (lockdown.sh).
# TAP (vm/tap.sh), then N passed, N failed, N skipped.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/kernels.sh"
out=${KS_KBUILD_TEST_OUT:-$top/tests/kbuild/out}
N=${KS_KBUILD_OPS:-2000}
src=$KSTATS_CACHE/src/linux-6.12
TAP_PREFIX="kbuild: "
. "$top/vm/tap.sh"
finish() { tap_end; exit; }
mkdir -p "$out"

# build NAME ARGS...: build-kernel.sh, timed; status as its own.
build() {
	local name=$1 t0 rc
	shift
	t0=$(date +%s)
	"$top/scripts/build-kernel.sh" "$@" "$name" > "$out/build-$name.log" 2>&1
	rc=$?
	echo "# $name: $(tail -n 1 "$out/build-$name.log") ($(($(date +%s) - t0)) s)"
	[ $rc = 0 ] || sed 's/^/#   /' "$out/build-$name.log" | tail -n 30
	return $rc
}

if build tiny -b tiny; then ok "tiny kernel built"; else notok "tiny kernel built"; finish; fi
cfg=$KSTATS_CACHE/kernels/tiny/config
for o in CONFIG_KPROBES=y CONFIG_DYNAMIC_FTRACE=y CONFIG_DEBUG_FS=y CONFIG_MODULES=y; do
	if grep -qx "$o" "$cfg"; then ok "tiny: $o"; else notok "tiny: $o"; fi
done
if grep -q '^CONFIG_DEBUG_INFO_BTF=y' "$cfg" || grep -q '^CONFIG_KSTATS=y' "$cfg"; then
	notok "tiny: no BTF, no kstats built in"
else
	ok "tiny: no BTF, no kstats built in"
fi

p=$top/kernels/patches/find_vma-kstats-section.patch
if build tiny-kstats -b tiny -k -p "$p"; then ok "tiny-kstats built"; else notok "tiny-kstats built"; finish; fi
cfg=$KSTATS_CACHE/kernels/tiny-kstats/config
if grep -qx 'CONFIG_KSTATS=y' "$cfg"; then ok "tiny-kstats: CONFIG_KSTATS=y"; else notok "tiny-kstats: CONFIG_KSTATS=y"; fi
expect "tiny-kstats shares tiny's object tree" "$(cat "$KSTATS_CACHE/kernels/tiny-kstats/objdir")" \
	"$(cat "$KSTATS_CACHE/kernels/tiny/objdir")"
if [ -e "$src/lib/kstats" ] || grep -q kstats "$src/lib/Makefile" "$src/mm/mmap.c"; then
	notok "the source tree is pristine after the build"
else
	ok "the source tree is pristine after the build"
fi
grep -q '^patch=kernels/patches/find_vma-kstats-section.patch$' "$KSTATS_CACHE/kernels/tiny-kstats/info" &&
	ok "tiny-kstats: info names the patch" || notok "tiny-kstats: info names the patch"
t0=$(date +%s)
build tiny -b tiny > /dev/null
case $(tail -n 1 "$out/build-tiny.log") in
*"up to date"*)	ok "tiny again: up to date, not rebuilt ($(($(date +%s) - t0)) s)" ;;
*)		notok "tiny again: up to date, not rebuilt" "$(tail -n 1 "$out/build-tiny.log")" ;;
esac

# The same measurement on both, as a review would take it.
ab=$out/ab
rm -rf "$ab"
"$top/tools/ab/kstats-ab" -o "$ab" -r 2 -t "find_vma" -t "find_vma_section" \
	-w "ks-pagefault -n $N -p 4 -m 64 -t kernel" plain=tiny annotated=tiny-kstats > "$out/ab.log" 2>&1
rc=$?
expect "kstats-ab exit status" $rc 0
[ $rc = 0 ] || sed 's/^/#   /' "$out/ab.log" | tail -n 30
samples() { /usr/bin/python3 "$top/plots/kstats_snapshot.py" "$1" samples 2>/dev/null; }
for r in 1 2; do
	fp=$(samples "$ab/plain/find_vma.r$r.json")
	fa=$(samples "$ab/annotated/find_vma.r$r.json")
	sa=$(samples "$ab/annotated/find_vma_section.r$r.json")
	if [ -n "$fa" ] && [ "$fa" -ge "$((4 * N))" ] 2>/dev/null; then
		ok "run $r: annotated: find_vma traced $fa times (>= 4 per op)"
	else
		notok "run $r: annotated: find_vma traced >= $((4 * N)) times" "samples: '$fa'"
	fi
	expect "run $r: annotated: the find_vma() section counts what the kretprobe counts" "$sa" "$fa"
	# the loop makes 4 calls per op on both; process start-up a few more,
	# which differ with the address-space layout
	expect "run $r: find_vma calls per op the same on both kernels" \
		"$(awk -v a="$fp" -v n=$N 'BEGIN { printf "%.2f", a / n }')" \
		"$(awk -v a="$fa" -v n=$N 'BEGIN { printf "%.2f", a / n }')"
	for x in "plain $fp" "annotated $fa"; do
		set -- $x
		if [ -n "$2" ] && [ "$2" -ge $((4 * N)) ] && [ "$2" -le $((4 * N + 64)) ]; then
			ok "run $r: $1: find_vma $2 = 4 per op + $(($2 - 4 * N)) for process start-up"
		else
			notok "run $r: $1: find_vma 4 per op + at most 64 for start-up" "samples: '$2'"
		fi
	done
done
expect "annotated: find_vma_section is the kernel's own node" "$(grep -h '^node.find_vma_section.attach=' "$ab/annotated/ab.facts" | cut -d= -f2-)" "api:find_vma_section"
expect "annotated: find_vma via kretprobe (no BTF)" "$(grep -h '^node.find_vma.attach=' "$ab/annotated/ab.facts" | cut -d= -f2- | cut -d: -f1)" "kretprobe"
expect "plain: find_vma_section reported absent" \
	"$(/usr/bin/python3 "$top/tools/ab/verdicts.py" "$ab" find_vma_section plain status)" absent
for f in report.md verdicts.json find_vma-compare.md find_vma-cdf.png find_vma-pct.png; do
	if [ -s "$ab/$f" ]; then ok "wrote $f"; else notok "wrote $f"; fi
done
grep -q 'find_vma-kstats-section.patch' "$ab/report.md" && ok "report names the patch" ||
	notok "report names the patch" "$(grep -n -i patch "$ab/report.md" | head -n 5)"

# Lockdown: tiny checks module signatures (not enforced) and boots with
# lockdown=integrity.  kstats.ko and the target are signed as the README
# says, with the kernel's own key (build/certs), and tests/kbuild/lockdown.sh
# loads and traces with them there.
lk=$out/lockdown
b=$KSTATS_CACHE/kernels/tiny/build
rm -rf "$lk"
mkdir -p "$lk/scenarios"
cp "$top/tests/kbuild/lockdown.sh" "$lk/scenarios/10-lockdown.sh"
if ! KS_VM_OUT=$lk "$top/vm/stage.sh" build tiny > "$out/lockdown-stage.log" 2>&1; then
	notok "lockdown: modules for tiny" "$(tail -n 20 "$out/lockdown-stage.log")"
	finish
fi
# the target once unsigned (the kernel must refuse it), then both signed
cp "$lk/tiny/modules/kstats_target.ko" "$lk/kstats_target-unsigned.ko"
for m in kstats kstats_target; do
	ko=$lk/tiny/modules/$m.ko
	"$b/scripts/sign-file" sha256 "$b/certs/signing_key.pem" "$b/certs/signing_key.x509" "$ko" 2> "$out/sign.log"
	expect "lockdown: $m.ko signed with tiny's key (sign-file status)" $? 0
	expect "lockdown: $m.ko ends with the signature marker" "$(tail -c 28 "$ko" | tr -d '\n')" "~Module signature appended~"
done
# the CLI, static, as the guest's kstats
flock "$top/tools" make -s -C "$top/tools" static > "$out/lockdown-cli.log" 2>&1 ||
	notok "lockdown: the static CLI" "$(tail -n 20 "$out/lockdown-cli.log")"
KS_VM_OUT=$lk KS_VM_SCENARIOS=$lk/scenarios KS_VM_APPEND="lockdown=integrity" \
	"$top/tests/vm/run.sh" -k tiny --modules kstats.ko kstats_target.ko \
	--stage "$top/tools/kstats.static:/usr/bin/kstats" "$lk/kstats_target-unsigned.ko:/ks/files/kstats_target-unsigned.ko" \
	> "$out/lockdown.log" 2>&1
rc=$?
expect "lockdown: the VM run's status" $rc 0
got=$tap_n
TAP_PREFIX="${TAP_PREFIX}lockdown: " tap_relay failures < "$out/lockdown.log"
got=$((tap_n - got))
if [ $got -lt 34 ]; then
	notok "lockdown: the scenario's 34 checks ran" "$got ran" "$(tail -n 30 "$out/lockdown.log")"
fi
finish
