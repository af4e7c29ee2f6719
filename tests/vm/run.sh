#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot each installed Debian kernel in QEMU (TCG) with a busybox initramfs
# holding the freshly built modules, run the VM scenarios, report TAP.
#
#   tests/vm/run.sh [-k KVER] [-s SCENARIO_GLOB] [-i] [--smp N] [--icount]
#
# See tests/vm/README.md.  Environment knobs:
#   KS_VM_OUT               staging/output dir (default tests/vm/out)
#   KS_VM_SCENARIOS         scenario directory (default tests/vm/scenarios)
#   KS_VM_TIMEOUT           host-side limit per boot, seconds (default 600)
#   KS_VM_SCENARIO_TIMEOUT  guest-side limit per scenario, seconds (default 120)
#   KS_VM_KMODS             in-tree modules to stage and insmod at boot
#                           (names for modprobe, dependencies resolved)
#   KS_VM_APPEND            extra kernel command line words
#   KS_VM_QEMU_ARGS         extra QEMU arguments
#   KS_VM_TAIL              console lines shown on failure (default 60)
#   KS_VM_PVH               0: boot the bzImage instead of its extracted
#                           vmlinux (see kernel_image)

set -u

VM=$(cd "$(dirname "$0")" && pwd)
. "$VM/../../scripts/kernels.sh"
OUT=${KS_VM_OUT:-$VM/out}
SCEN_DIR=${KS_VM_SCENARIOS:-$VM/scenarios}
HOST_TIMEOUT=${KS_VM_TIMEOUT:-600}
SCEN_TIMEOUT=${KS_VM_SCENARIO_TIMEOUT:-120}
TAIL=${KS_VM_TAIL:-60}

usage() {
	cat <<EOF
usage: $0 [-k KVER] [-s SCENARIO_GLOB] [-i] [--smp N] [--icount]
  -k KVER     only this kernel release (default: every release that
              scripts/kernels.sh lists: an image and a build tree, here
              or in a build root)
  -s GLOB     only scenarios whose name matches GLOB (e.g. '1*', 00-selftest;
              GLOB,GLOB... for several)
  -i          interactive: boot into a shell on the console (Ctrl-A x quits)
  --smp N     number of vCPUs (default 2)
  --icount    deterministic guest clock: -icount shift=0,sleep=off, 1 vCPU
Modules are taken from $OUT/KVER/modules/*.ko, static binaries from
$OUT/KVER/bin/ and $OUT/bin/ ($OUT/bin-ARCH/ for kernels of another
architecture than this machine's) (guest /usr/bin).  KSTATS_ARCH=arm64
picks the arm64 kernels (scripts/kernels.sh).
EOF
	exit 2
}

kver_opt="" glob="*" interactive=0 smp=2 icount=0
while [ $# -gt 0 ]; do
	case $1 in
	-k)		[ $# -ge 2 ] || usage; kver_opt=$2; shift ;;
	-s)		[ $# -ge 2 ] || usage; glob=$2; shift ;;
	-i)		interactive=1 ;;
	--smp)		[ $# -ge 2 ] || usage; smp=$2; shift ;;
	--smp=*)	smp=${1#*=} ;;
	--icount)	icount=1 ;;
	-h|--help)	usage ;;
	*)		echo "run.sh: unknown argument '$1'" >&2; usage ;;
	esac
	shift
done
case $smp in ''|*[!0-9]*|0) echo "run.sh: bad --smp '$smp'" >&2; exit 2 ;; esac
if [ $icount = 1 ] && [ "$smp" != 1 ]; then
	smp=1	# -icount hangs the boot with more than one vCPU
fi

die() { echo "run.sh: $*" >&2; exit 2; }

for tool in cpio gzip timeout; do
	command -v $tool >/dev/null || die "$tool not found (run scripts/deps.sh)"
done

# arch_setup KVER: what booting KVER takes, by its architecture: KARCH,
# QEMU (the emulator and machine), CONSOLE, BUSYBOX (static, of that
# architecture) and BINDIR (the static CLI and helpers: $OUT/bin for this
# machine's architecture, $OUT/bin-ARCH for another).
arch_setup() {
	KARCH=$(ks_karch "$1") || die "$1: unknown architecture (scripts/kernels.sh arch)"
	BUSYBOX=/bin/busybox BINDIR=$OUT/bin
	if [ "$KARCH" != "$(ks_host_arch)" ]; then
		BUSYBOX=$KSTATS_CACHE/$KARCH/root/bin/busybox
		BINDIR=$OUT/bin-$KARCH
	fi
	case $KARCH in
	amd64)	QEMU=(qemu-system-x86_64) CONSOLE=ttyS0 ;;
	# pauth-impdef: QEMU's cheap pointer authentication (the kernel signs
	# every return address; the architected algorithm costs TCG dearly)
	arm64)	QEMU=(qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on) CONSOLE=ttyAMA0 ;;
	*)	die "$1: no QEMU for $KARCH" ;;
	esac
	command -v "${QEMU[0]}" >/dev/null || die "${QEMU[0]} not found (scripts/deps.sh)"
	[ -x "$BUSYBOX" ] || die "$BUSYBOX missing (scripts/deps.sh${KARCH:+ $KARCH})"
	file -L "$BUSYBOX" 2>/dev/null | grep -q 'statically linked' ||
		ldd "$BUSYBOX" 2>&1 | grep -qE 'not a dynamic|statically linked' ||
		die "$BUSYBOX is not static (apt-get install busybox-static)"
}

# Kernels: every release with an image and a build tree, newest last.
kvers=()
if [ -n "$kver_opt" ]; then
	ks_kroot "$kver_opt" > /dev/null || die "no kernel $kver_opt (scripts/kernels.sh list)"
	kvers=("$kver_opt")
else
	mapfile -t kvers < <(ks_kernels)
	[ ${#kvers[@]} -gt 0 ] || die "no kernel with an image and a build tree (make deps)"
fi

# Scenarios matching the glob, or one of a comma-separated list of globs
# (with or without .sh), in name order.
scenarios=()
IFS=, read -r -a globs <<< "$glob"
for f in "$SCEN_DIR"/*.sh; do
	[ -f "$f" ] || continue
	n=${f##*/}
	n=${n%.sh}
	for g in "${globs[@]}"; do
		# shellcheck disable=SC2254
		case $n in $g|${g%.sh}) scenarios+=("$n"); break ;; esac
	done
done
if [ $interactive = 0 ] && [ ${#scenarios[@]} -eq 0 ]; then
	die "no scenario in $SCEN_DIR matches '$glob'"
fi
scen_list=$(IFS=,; echo "${scenarios[*]}")
[ ${#scen_list} -lt 1500 ] || die "scenario list too long for the kernel command line"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# Build the harness' own hello module (tests/vm/selftest) for KVER into
# $OUT/KVER/selftest; rebuilt only when its sources change.
build_selftest() {
	local kver=$1 dir=$OUT/$1/selftest
	local ko=$dir/ks_hello.ko
	if [ -f "$ko" ] && [ -z "$(find "$VM/selftest" -newer "$ko" -type f)" ]; then
		return 0
	fi
	rm -rf "$dir"
	mkdir -p "$dir/selftest"
	cp "$VM"/selftest/*.c "$VM"/selftest/Kbuild "$VM"/selftest/Makefile "$dir/selftest/"
	if ! ks_kmake "$kver" "$dir" selftest > "$dir/build.log" 2>&1; then
		echo "# $kver: selftest module build failed, see $dir/build.log"
		return 1
	fi
	mv "$dir/selftest/ks_hello.ko" "$ko"
}

# stage_bin FILE ROOT: copy an executable to ROOT/usr/bin; if it is
# dynamically linked, copy its libraries and loader too.
stage_bin() {
	local f=$1 root=$2 lib
	cp -L "$f" "$root/usr/bin/"
	ldd "$f" 2>/dev/null | awk '
		/=> \// { print $3; next }
		/^[ \t]*\// { print $1 }' |
	while read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}

# stage_kmods KVER ROOT: in-tree modules named in KS_VM_KMODS and their
# dependencies, decompressed, with the insmod order in modules/kernel/order.
stage_kmods() {
	local kver=$1 root=$2 m path base
	[ -n "${KS_VM_KMODS:-}" ] || return 0
	mkdir -p "$root/modules/kernel"
	: > "$root/modules/kernel/order"
	for m in $KS_VM_KMODS; do
		ks_kmodprobe "$kver" --show-depends "$m" 2>/dev/null |
		awk '$1 == "insmod" { print $2 }'
	done | awk '!seen[$0]++' | while read -r path; do
		base=${path##*/}
		case $base in
		*.ko.xz)	xz -dc "$path" > "$root/modules/kernel/${base%.xz}"; base=${base%.xz} ;;
		*.ko.zst)	zstd -qdc "$path" > "$root/modules/kernel/${base%.zst}"; base=${base%.zst} ;;
		*.ko.gz)	gzip -dc "$path" > "$root/modules/kernel/${base%.gz}"; base=${base%.gz} ;;
		*)		cp "$path" "$root/modules/kernel/$base" ;;
		esac
		echo "$base" >> "$root/modules/kernel/order"
	done
}

# build_initramfs KVER: $OUT/KVER/initramfs.cpio.gz
build_initramfs() {
	local kver=$1 root=$OUT/$1/rootfs f
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,root,etc,modules,scenarios,ks}
	cp $BUSYBOX "$root/bin/busybox"
	ln -s busybox "$root/bin/sh"	# /init runs busybox --install -s
	cp "$VM/init.sh" "$root/init"
	cp "$VM/runner.sh" "$root/usr/bin/ks-run"
	cp "$VM/lib.sh" "$root/ks/lib.sh"
	cp "$SCEN_DIR"/*.sh "$root/scenarios/" 2>/dev/null
	chmod 755 "$root/init" "$root/usr/bin/ks-run"
	for f in "$OUT/$kver"/modules/*.ko; do
		[ -f "$f" ] && cp "$f" "$root/modules/"
	done
	if [ -f "$OUT/$kver/selftest/ks_hello.ko" ]; then
		mkdir -p "$root/ks/selftest"
		cp "$OUT/$kver/selftest/ks_hello.ko" "$root/ks/selftest/"
	fi
	for f in "$BINDIR"/* "$OUT/$kver"/bin/*; do
		[ -f "$f" ] && [ -x "$f" ] && stage_bin "$f" "$root"
	done
	stage_kmods "$kver" "$root"
	echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
	echo "root:x:0:" > "$root/etc/group"
	(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$OUT/$kver/initramfs.cpio.gz"
}

# kernel_image KVER: print the image to boot.  QEMU boots an uncompressed
# ELF vmlinux through its PVH entry point (Debian sets CONFIG_PVH), which
# skips the in-guest decompression: 6.1's xz payload costs ~5 s under TCG.
# The payload is cut from the bzImage (ks_kelf in scripts/kernels.sh) and
# cached in $OUT/KVER/vmlinux.  KS_VM_PVH=0, or any
# failure, boots the image (/boot/vmlinuz-KVER) itself.
kernel_image() {
	local kver=$1 elf=$OUT/$1/vmlinux
	if [ "${KS_VM_PVH:-1}" != 0 ] && ks_kelf "$kver" "$elf"; then
		echo "$elf"
	else
		ks_kimage "$kver"
	fi
}

# qemu_cmd KVER: the QEMU command line in the array QEMU.
qemu_cmd() {
	local kver=$1
	arch_setup "$kver"
	# invtsc: a TSC that is constant and nonstop, which kstats needs to
	# take the TSC for time (else local_clock(), off the direct fast
	# path).  TCG's TSC is the host's (or -icount's), constant: it warns
	# that it lacks the bit, x-force-features sets it all the same.
	[ "$KARCH" = amd64 ] && QEMU+=(-cpu max,+invtsc,x-force-features=on)
	QEMU+=(-nographic -no-reboot -m 1G -net none)
	if [ $icount = 1 ]; then
		QEMU+=(-icount shift=0,sleep=off -smp 1)
	else
		# One host thread runs every vCPU in turn: with parallel TCG
		# threads, a vCPU can run a stale translation of code another
		# vCPU just patched (ftrace/kprobes text_poke) and trap on an
		# int3 the kernel already removed.  Real CPUs never do that.
		QEMU+=(-accel tcg,thread=single -smp "$smp")
	fi
	QEMU+=(-kernel "$(kernel_image "$kver")" -initrd "$OUT/$kver/initramfs.cpio.gz")
	# shellcheck disable=SC2206
	QEMU+=(${KS_VM_QEMU_ARGS:-})
}

APPEND_BASE="panic=-1 oops=panic quiet loglevel=4"	# console= by architecture

total_pass=0 total_fail=0 total_skip=0 tapn=0

# report KVER LOG: print the renumbered TAP lines of one boot and count.
report() {
	local kver=$1 log=$2 line res rest show_diag=0
	local pass=0 fail=0 skip=0 end
	while IFS= read -r line; do
		line=${line%$'\r'}
		case $line in
		"ok "[0-9]*|"not ok "[0-9]*)
			res=${line%% [0-9]*}
			rest=${line#"$res "}
			rest=${rest#* - }
			tapn=$((tapn + 1))
			echo "$res $tapn - $rest"
			if [ "$res" = ok ]; then
				show_diag=0
				case $rest in
				*"# SKIP"*)	skip=$((skip + 1)) ;;
				*)		pass=$((pass + 1)) ;;
				esac
			else
				fail=$((fail + 1)); show_diag=1
			fi
			;;
		"#   "*)
			[ $show_diag = 1 ] && echo "$line" ;;
		*)
			show_diag=0 ;;
		esac
	done < <(sed -n '/KSTATS-VM-BEGIN/,$p' "$log")

	end=$(grep -a '^KSTATS-VM-END' "$log" | tr -d '\r' | tail -n1)
	if [ -z "$end" ]; then
		tapn=$((tapn + 1))
		echo "not ok $tapn - $kver: vm did not finish"
		fail=$((fail + 1))
	else
		# The guest's own counts: a line garbled on the console is a failure.
		local gp gf gs
		gp=$(echo "$end" | sed -n 's/.* pass=\([0-9]*\).*/\1/p')
		gf=$(echo "$end" | sed -n 's/.* fail=\([0-9]*\).*/\1/p')
		gs=$(echo "$end" | sed -n 's/.* skip=\([0-9]*\).*/\1/p')
		if [ "$gp" != "$pass" ] || [ "$gf" != "$fail" ] || [ "$gs" != "$skip" ]; then
			tapn=$((tapn + 1))
			echo "not ok $tapn - $kver: console lost result lines (guest: pass=$gp fail=$gf skip=$gs, seen: pass=$pass fail=$fail skip=$skip)"
			fail=$((fail + 1))
		fi
	fi
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
	total_skip=$((total_skip + skip))
	if [ $fail -gt 0 ]; then
		echo "# ---- $kver: last $TAIL console lines ($log) ----"
		tail -n "$TAIL" "$log" | tr -d '\r' |
			sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/\x1bc//g; s/^/# | /'
		echo "# ----"
	fi
}

for kver in "${kvers[@]}"; do
	dir=$OUT/$kver
	mkdir -p "$dir/modules"
	# One run per kernel at a time: concurrent runs share $OUT/KVER.
	exec {lockfd}>"$dir/.lock"
	flock "$lockfd"
	arch_setup "$kver"
	build_selftest "$kver"
	if ! ls "$dir"/modules/*.ko >/dev/null 2>&1; then
		echo "# $kver: no modules staged in $dir/modules (only the selftest runs meaningfully)"
	fi
	t0=$(now)
	build_initramfs "$kver" || die "$kver: initramfs build failed"
	t1=$(now)
	append="console=$CONSOLE $APPEND_BASE ks.timeout=$SCEN_TIMEOUT ks.icount=$icount"

	if [ $interactive = 1 ]; then
		echo "# $kver: interactive shell on the console; Ctrl-A x quits QEMU"
		qemu_cmd "$kver"
		"${QEMU[@]}" -append "$append ks.interactive=1 ${KS_VM_APPEND:-}"
		exec {lockfd}>&-
		continue
	fi

	log=$dir/console.log
	echo "# $kver: booting (initramfs $(du -k "$dir/initramfs.cpio.gz" | cut -f1) KiB in $(elapsed "$t0" "$t1")s, scenarios: $scen_list)"
	qemu_cmd "$kver"
	# timeout(1) runs QEMU in its own process group, out of reach of a
	# Ctrl-C on the terminal: pass INT/TERM on ourselves.
	timeout -k 10 "$HOST_TIMEOUT" "${QEMU[@]}" \
		-append "$append ks.scenarios=$scen_list ${KS_VM_APPEND:-}" \
		</dev/null >"$log" 2>"$dir/qemu.err" &
	qpid=$!
	trap 'kill -TERM $qpid 2>/dev/null; exit 130' INT TERM
	wait $qpid
	rc=$?
	trap - INT TERM
	t2=$(now)
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		echo "# $kver: QEMU killed after ${HOST_TIMEOUT}s"
	elif [ $rc -ne 0 ]; then
		echo "# $kver: QEMU exited with status $rc: $(head -c 500 "$dir/qemu.err")"
	fi
	echo "# $kver: boot and run took $(elapsed "$t1" "$t2")s; $(grep -a 'KSTATS-VM-BEGIN' "$log" | tr -d '\r' | sed 's/.*uptime=/guest uptime at start /')"
	report "$kver" "$log"
	exec {lockfd}>&-
done

[ $interactive = 1 ] && exit 0
echo "1..$tapn"
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ $total_fail -eq 0 ]
