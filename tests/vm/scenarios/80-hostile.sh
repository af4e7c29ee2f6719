# SPDX-License-Identifier: GPL-2.0
# Hostile writes: a table of malformed, out-of-range and binary writes to
# _control and to a node file, each made with kswrite (one write() per
# argument, bytes exact).  Every row must get its documented result, the
# witness node traced before keeps its exact count, no other node appears,
# and each refusal leaves one log line.  Then: kstats' own functions,
# functions kprobes or ftrace refuse, a data symbol, and a module symbol
# whose module is unloaded while traced, on every backend.
. /ks/lib.sh

load_modules || exit 0
T=$KS_TDIR
W=ks_target_empty			# the witness node
rows=0 refused=0

# row EXPECTED DESC FILE DATA...: kswrite FILE DATA... must print EXPECTED
# (one word per write: OK or the errno name).  FILE "ctl" is _control,
# "node" the witness node file.
row() {
	_want=$1 _desc=$2 _f=$3
	shift 3
	case $_f in
	ctl)	_f=$KS_CTL ;;
	node)	_f=$KS_DIR/$W ;;
	esac
	rows=$((rows + 1))
	for _w in $_want; do
		case $_w in E*) refused=$((refused + 1)) ;; esac
	done
	expect_eq "$_desc -> $_want" "$(kswrite "$_f" "$@" 2>&1)" "$_want"
}

check "trace the witness $W" ctl "trace $W bits 4"
echo 1234 > $T/empty
expect_eq "witness: 1234 samples" "$(node_field $W samples)" 1234
n63=$(printf 'a%.0s' $(seq 1 63))
n64=${n63}a
n65=${n64}a
n4096=$(printf 'abcdefgh%.0s' $(seq 1 512))
dmesg -c > /dev/null

# -- _control: embedded NUL, binary bytes, lengths --
row EINVAL "NUL inside a command" ctl 'trace ks_target_empty\0bits 3'
row EINVAL "NUL at the end" ctl 'trace ks_target_empty\0'
row EINVAL "NUL alone" ctl '\0'
row EINVAL "NUL before the newline" ctl 'trace ks_target_empty\0\n'
row EINVAL "byte 0xff in a name" ctl 'trace ks_target_empty\xff'
row EINVAL "escape sequence" ctl '\x1b[2Jtrace ks_target_empty'
row EINVAL "carriage return" ctl 'trace ks_target_empty\r\n'
row EINVAL "UTF-8 name" ctl 'trace caf\xc3\xa9'
row EINVAL "DEL byte" ctl 'trace ks_target_empty\x7f'
row EINVAL "SOH in a value" ctl 'trace ks_target_empty comm \x01x'
row OK "0 bytes (nothing to do)" ctl ''
row EINVAL "only a newline" ctl '\n'
row EINVAL "only blanks" ctl ' \t \n'
row EINVAL "64 KiB of a" ctl '*65536:a'
row EINVAL "257 bytes" ctl '*257: '
row ENOENT "name of 63 bytes (no such function)" ctl "trace $n63"
row EINVAL "name of 64 bytes" ctl "trace $n64"
row EINVAL "name of 65 bytes" ctl "trace $n65"
row EINVAL "name of 4096 bytes" ctl "trace $n4096"
row EINVAL "63-byte name with gap yes (GAP- too long)" ctl "trace $n63 gap yes"
row EINVAL "name with a slash" ctl 'trace ../../etc/passwd'
row EINVAL "name _control" ctl 'trace _control'
row EINVAL "name all" ctl 'trace all'
row EINVAL "pcpu: without a name" ctl 'trace pcpu:'

# -- every verb and option without its value --
for v in trace remove start stop reset; do
	row EINVAL "$v without a name" ctl "$v"
done
for o in bits buckets via clock maxactive clones sample pid tgid comm cpus start end gap; do
	row EINVAL "option $o without a value" ctl "trace ks_target_empty $o"
done
row EINVAL "unknown verb" ctl 'frobnicate ks_target_empty'
row EINVAL "verb in capitals" ctl 'TRACE ks_target_empty'
row EINVAL "remove NAME with trailing words" ctl "remove $W now"

# -- huge and out-of-range numbers --
row EINVAL "bits 2^32" ctl 'trace ks_target_empty bits 4294967296'
row EINVAL "bits 2^64" ctl 'trace ks_target_empty bits 18446744073709551616'
row EINVAL "bits -1" ctl 'trace ks_target_empty bits -1'
row EINVAL "bits 9" ctl 'trace ks_target_empty bits 9'
row EINVAL "buckets 0" ctl 'trace ks_target_empty buckets 0'
row EINVAL "buckets 65" ctl 'trace ks_target_empty buckets 65'
row EINVAL "buckets 99999999999999999999" ctl 'trace ks_target_empty buckets 99999999999999999999'
row EINVAL "sample 1000001" ctl 'trace ks_target_empty sample 1000001'
row EINVAL "sample 0x100000001" ctl 'trace ks_target_empty sample 0x100000001'
row EINVAL "maxactive 4097" ctl 'trace ks_target_empty maxactive 4097'
row EINVAL "pid 2^31" ctl 'trace ks_target_empty pid 2147483648'
row EINVAL "tgid -1" ctl 'trace ks_target_empty tgid -1'
row EINVAL "cpus 0-99999 (beyond the CPUs)" ctl 'trace ks_target_recurse cpus 0-99999'
row EINVAL "cpus of 64 bytes" ctl "trace ks_target_empty cpus $(printf '0,%.0s' $(seq 1 32))"
row EINVAL "comm of 16 bytes" ctl 'trace ks_target_empty comm 0123456789abcdef'
row EINVAL "via a backend that does not exist" ctl 'trace ks_target_empty via bpf'

# -- several write() calls and offsets --
row "EINVAL EINVAL" "one command split over two writes" ctl 'tra' 'ce ks_target_empty'
row "ENOENT EINVAL" "split inside the name: each half alone" ctl 'trace ks_target_em' 'pty'
row "EEXIST EINVAL" "options split from their command" ctl "trace $W" " bits 3"
row EINVAL "write at offset 1" ctl -o 1 'trace ks_target_empty'
row EINVAL "write at offset 4096" ctl -o 4096 'trace ks_target_empty'

# -- the witness node file --
row EINVAL "node: NUL inside" node 'reset\0stop'
row EINVAL "node: binary byte" node '\xffreset'
row EINVAL "node: 64 KiB" node '*65536:r'
row EINVAL "node: unknown word" node 'frobnicate'
row EINVAL "node: a _control command" node "remove $W"
row EINVAL "node: reset with a word after" node 'reset now'
row "EINVAL EINVAL" "node: reset split over two writes" node 'res' 'et'
row EINVAL "node: reset at offset 3" node -o 3 'reset'
row OK "node: 0 bytes" node ''
row EINVAL "node: only a newline" node '\n'
row OK "node: start with blanks around (already active)" node '  start \n'

# -- access: root only --
row open:EACCES "_control as uid 65534" ctl -u 65534 "remove $W"
row open:EACCES "node file as uid 65534" node -u 65534 'reset'

expect_eq "witness kept its 1234 samples" "$(node_field $W samples)" 1234
expect_eq "witness still active, bits 4" "$(node_field $W state) $(node_field $W bits)" "active 4"
expect_eq "no node but the witness" "$(grep -v '^#' $KS_CTL | cut -d' ' -f1 | tr '\n' ' ')" "$W "
check "the NUL refusal is logged" 'dmesg | grep -q "kstats: _control: NUL byte 0x00 at offset 21 of a 28-byte command"'
check "the offset refusal is logged" 'dmesg | grep -q "kstats: $W: write at offset 3: a command starts at offset 0"'
check "a bad value's refusal names the option and what it allows" \
	'dmesg | grep -q "kstats: bad command .trace ks_target_empty bits 9.: bad value for bits: not in 0..8"'
logged=$(dmesg | grep -c 'kstats: ')
expect_eq "one log line for each of the $refused refused writes" "$logged" "$refused"
check "no kernel address in any kstats log line" '! dmesg | grep "kstats: " | grep -qiE "ffff[0-9a-f]{8}"'
check "no kernel address in the node text or _control" \
	'! cat $KS_DIR/$W $KS_CTL | grep -qiE "ffff[0-9a-f]{8}"'
diag "hostile writes: $rows rows, $refused refused"

# -- what kstats, kprobes and ftrace refuse --
row EINVAL "kstats' own write handler" ctl 'trace ks_control_file_write'
row EINVAL "kstats' own write handler, module-qualified" ctl 'trace kstats:ks_control_file_write'
row EINVAL "kstats' own command parser via kretprobe" ctl 'trace ks_cmd_parse via kretprobe'
for f in native_sched_clock irqentry_nmi_enter; do
	if grep -qw "$f" /proc/kallsyms; then
		r=$(kswrite $KS_CTL "trace $f via kretprobe")
		expect_eq "$f (kprobe blacklist) via kretprobe -> EINVAL" "$r" EINVAL
		ctl "remove $f" 2> /dev/null
		r=$(kswrite $KS_CTL "trace $f")
		case $r in
		EINVAL|ENOENT) ok "$f (notrace) by default -> $r" ;;
		*) fail "$f (notrace) by default -> EINVAL or ENOENT" "got: $r" ;;
		esac
		ctl "remove $f" 2> /dev/null
	fi
done
# kprobes' own handlers (x86's breakpoint handler; arm64's names vary
# between releases: the generic one), and data, which kallsyms lists only
# with CONFIG_KALLSYMS_ALL (not Debian's arm64 6.1): else unknown
nokprobe=kprobe_int3_handler
[ "$(uname -m)" = aarch64 ] && nokprobe=aggr_pre_handler
row EINVAL "$nokprobe (NOKPROBE) via kretprobe" ctl "trace $nokprobe via kretprobe"
want=EINVAL
grep -q ' jiffies$' /proc/kallsyms || want=ENOENT
row $want "jiffies (data) via kretprobe" ctl 'trace jiffies via kretprobe'
r=$(kswrite $KS_CTL 'trace jiffies')
case $r in
EINVAL|ENOENT) ok "jiffies (data) by default -> $r" ;;
*) fail "jiffies (data) by default -> EINVAL or ENOENT" "got: $r" ;;
esac
if need_direct "init_task (data) via direct"; then
	r=$(kswrite $KS_CTL 'trace init_task via direct')
	case $r in
	EINVAL|ENOENT) ok "init_task (data) via direct -> $r" ;;
	*) fail "init_task (data) via direct -> EINVAL or ENOENT" "got: $r" ;;
	esac
fi
expect_eq "still no node but the witness" "$(grep -v '^#' $KS_CTL | cut -d' ' -f1 | tr '\n' ' ')" "$W "
expect_eq "witness still at 1234" "$(node_field $W samples)" 1234
ctl "remove $W"

# -- a module symbol whose module is unloaded while traced --
# kprobes forget a probe whose module goes; direct and fprobe nodes hook
# through an ftrace filter, and kstats detaches them as the module goes
# (else the module's next copy would get a stale direct call: a WARNING).
if ! lockdown_skip "a module unloaded while traced, loaded again"; then
	set_backends
	N=kstats_target:ks_target_empty
	for b in $backends; do
		grep -q '^kstats_target ' /proc/modules || insmod $KS_MODDIR/kstats_target.ko
		check "$b: trace $N" ctl "trace $N via $b"
		expect_eq "$b: attached by $b" "$(node_field $N attach)" "$b:$N"
		echo 77 > $T/empty
		expect_eq "$b: 77 samples" "$(node_field $N samples)" 77
		check "$b: kernel log clean so far" '! dmesg_bad > /dev/null'
		dmesg -c > /dev/null
		check "$b: rmmod kstats_target while traced" rmmod kstats_target
		expect_eq "$b: the node keeps its 77 samples" "$(node_field $N samples)" 77
		if [ $b = kretprobe ]; then
			expect_eq "$b: nothing logged" "$(dmesg | grep -c 'kstats: ')" 0
		else
			expect_eq "$b: the node is detached and stopped, in one log line" \
				"$(dmesg | grep -o 'kstats: .*') $(node_field $N state)" \
				"kstats: $N: module kstats_target unloaded: detached and stopped, samples kept stopped"
		fi
		check "$b: insmod it again" insmod $KS_MODDIR/kstats_target.ko
		echo 5 > $T/empty
		expect_eq "$b: the new copy is not traced by the old node" "$(node_field $N samples)" 77
		check "$b: no WARNING when the module comes back" '! dmesg_bad > /dev/null'
		check "$b: remove the node" ctl "remove $N"
		check "$b: trace the new copy" ctl "trace $N via $b"
		echo 5 > $T/empty
		expect_eq "$b: the new copy: 5 samples" "$(node_field $N samples)" 5
		check "$b: remove it" ctl "remove $N"
	done
fi

# What the kretprobe return path calls, which the kernel lets kprobes hit:
# a kretprobe there recursed until the stack overflowed on arm64.
for f in kprobe_busy_begin kprobe_busy_end; do
	grep -q "^$f\b" /sys/kernel/tracing/available_filter_functions || continue
	expect_errno "trace $f via kretprobe -> EINVAL" EINVAL ctl "trace $f via kretprobe"
	check "$f: the log says why" "dmesg | tail -n 3 | grep -q '$f: the kretprobe return path calls $f'"
done
check "no node left" '[ "$(grep -vc "^#" $KS_CTL)" = 0 ]'
unload_modules
