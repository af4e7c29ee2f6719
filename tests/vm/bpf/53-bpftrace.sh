# SPDX-License-Identifier: GPL-2.0
# Beside a real BPF fentry program: bpftrace (Debian's, from the host root
# shared over 9p by tests/vm/bpf.sh) with kfunc: on ks_target_empty, which
# the target module calls a known number of times.
#  - bpftrace first: a default "trace" falls back from direct to the next
#    cheapest backend with one log line, and both count every call;
#  - kstats first on direct: the BPF trampoline cannot share the call site
#    (neither sets ops_func for the other): bpftrace fails to attach, with
#    the kernel's EBUSY, kstats keeps counting exactly, and once kstats lets
#    go bpftrace attaches;
#  - kstats first via fprobe (an ftrace_ops) or kretprobe, which a BPF
#    trampoline shares: both count every call.
. /ks/lib.sh

HOST=/host
F=ks_target_empty
T=/sys/kernel/debug/kstats_target
OUT=/tmp/bpftrace.out
# The tick: bpftrace before 0.19 (Debian 12 has 0.17) notices SIGINT only
# if it interrupts epoll_wait() or when an event comes in: one that lands
# while it is between two epoll_wait() calls is lost, and it runs on.  An
# empty printf() a second is an event that ends it a second later.
PROG="BEGIN { printf(\"ready\\n\"); } kfunc:kstats_target:$F { @n = count(); }
interval:s:1 { printf(\"\"); }"

if ! mount_host_root $HOST; then
	skip "bpftrace beside kstats" "host root not shared (run tests/vm/bpf.sh)"
	exit 0
fi
if [ ! -x $HOST/usr/bin/bpftrace ]; then
	skip "bpftrace beside kstats" "no bpftrace on the host (apt-get install bpftrace)"
	exit 0
fi
mount -o rbind /proc $HOST/proc && mount -o rbind /sys $HOST/sys &&
	mount -o rbind /dev $HOST/dev && mount -o bind /tmp $HOST/tmp
check "host root prepared" test -d $HOST/proc/self -a -e $HOST/dev/null || exit 1
load_modules || exit 0
if ! have_direct; then
	skip "bpftrace beside kstats' direct backend" "no ftrace direct calls in this kernel"
	unload_modules
	exit 0
fi

backend() {
	awk -v n="$1" '$1 == n { print $2 }' "$KS_CTL"
}

# bpf_alive: is bpftrace ($BPID) still there, neither gone nor a zombie?
bpf_alive() {
	[ -r /proc/$BPID/stat ] || return 1
	! awk '{ sub(/.*\) /, ""); exit $1 != "Z" }' /proc/$BPID/stat 2> /dev/null
}

# bpf_gone SECS: wait up to SECS seconds for bpftrace to exit; reap it.
bpf_gone() {
	_i=$(($1 * 10))
	while bpf_alive; do
		[ $_i -gt 0 ] || return 1
		sleep 0.1
		_i=$((_i - 1))
	done
	wait $BPID
	return 0
}

# bpf_diag: what bpftrace ($BPID) and the kernel are doing, one diag line
# each: its state and signal masks, each thread's kernel stack, the
# blocked tasks (sysrq w) and the end of the kernel log.
bpf_diag() {
	{
		echo "---- bpftrace output ($OUT)"
		tail -n 5 $OUT
		echo "---- ps"
		ps
		echo "---- /proc/$BPID/status"
		grep -E '^(Name|State|Tgid|Threads|Sig(Pnd|Blk|Ign|Cgt)|ShdPnd)' /proc/$BPID/status
		for _t in /proc/$BPID/task/*; do
			[ -d "$_t" ] || continue
			echo "---- ${_t#/proc/}: $(cat $_t/comm) $(awk '{ sub(/.*\) /, ""); print $1 }' $_t/stat) wchan=$(cat $_t/wchan)"
			cat $_t/stack
		done
		echo "---- $F"
		grep '^#' $KS_DIR/$F 2> /dev/null
		echo w > /proc/sysrq-trigger 2> /dev/null
		echo "---- dmesg"
		dmesg | tail -n 30
	} 2>&1 | sed 's/^/#   /'
}

# bpf_start: bpftrace $PROG in the background (pid $BPID, output in $OUT);
# true once its probes are attached (BEGIN runs after them) and it catches
# SIGINT (a background job of this shell starts with SIGINT ignored),
# false if it exited first or was not there in 120 s (then it is killed).
bpf_start() {
	: > $OUT
	(exec chroot $HOST /usr/bin/env -i HOME=/tmp TMPDIR=/tmp \
		PATH=/usr/sbin:/usr/bin:/sbin:/bin bpftrace -B none -e "$PROG") > $OUT 2>&1 &
	BPID=$!
	_i=0
	while [ $_i -lt 1200 ]; do
		if grep -q '^ready' $OUT && bpf_sigint_caught; then
			return 0
		fi
		bpf_alive || { wait $BPID; return 1; }
		sleep 0.1
		_i=$((_i + 1))
	done
	diag "bpftrace (pid $BPID) not ready after 120 s"
	bpf_diag
	bpf_kill
	return 1
}

# bpf_sigint_caught: has bpftrace a handler for SIGINT (bit 1 of SigCgt)?
bpf_sigint_caught() {
	_c=$(awk '$1 == "SigCgt:" { print substr($2, length($2)) }' /proc/$BPID/status 2> /dev/null)
	case $_c in
	[2367abefABEF]) return 0 ;;
	esac
	return 1
}

# bpf_kill: SIGKILL for bpftrace, reaped if it goes within 30 s.
bpf_kill() {
	kill -KILL $BPID 2> /dev/null
	bpf_gone 30 || {
		diag "bpftrace (pid $BPID) survives SIGKILL: left behind"
		bpf_diag
	}
}

# bpf_stop: stop bpftrace (SIGINT: it prints its maps, detaches and exits,
# within 60 s), its count (@n) in $BCOUNT, or "none"; else a failed check
# with what bpftrace and the kernel are doing, and SIGKILL.
bpf_stop() {
	_t0=$(cut -d' ' -f1 /proc/uptime)
	kill -INT $BPID 2> /dev/null
	if bpf_gone 60; then
		diag "bpftrace exited $(awk -v t="$_t0" '{ printf "%.1f", $1 - t }' /proc/uptime) s after SIGINT"
	else
		fail "bpftrace exits on SIGINT" "still running 60 s after it (pid $BPID)"
		bpf_diag
		bpf_kill
	fi
	BCOUNT=$(sed -n 's/^@n: \([0-9]*\)$/\1/p' $OUT)
	BCOUNT=${BCOUNT:-none}
}

# ---- bpftrace first ----
if ! bpf_start; then
	diag "$(cat $OUT)"
	skip "bpftrace beside kstats" "bpftrace kfunc: does not attach to $F here: $(grep -m1 -i error $OUT)"
	unload_modules
	exit 0
fi
ok "bpftrace kfunc:kstats_target:$F attached"
check "trace $F (default)" ctl "trace $F"
b=$(backend $F)
check "falls back from direct ($b)" '[ "$b" = fprobe ] || [ "$b" = kretprobe ]'
expect_eq "one log line says why" \
	"$(dmesg | grep -c "$F: another tracer holds $F for its direct call")" 1
echo 1000 > $T/empty
expect_eq "kstats ($b): 1000 calls" "$(node_field $F samples)" 1000
ctl "remove $F"
bpf_stop
expect_eq "bpftrace: 1000 calls" "$BCOUNT" 1000

# ---- kstats first, on direct ----
check "trace $F (default)" ctl "trace $F"
expect_eq "direct" "$(backend $F)" direct
if bpf_start; then
	fail "bpftrace attached beside kstats' direct call" "$(cat $OUT)"
	bpf_stop
else
	ok "bpftrace refused beside kstats' direct call"
	diag "bpftrace: $(grep -v '^Attaching' $OUT | head -n 3)"
	check "bpftrace names the probe it could not attach" \
		"grep -q 'kfunc:kstats_target:$F' $OUT"
fi
echo 200 > $T/empty
expect_eq "kstats (direct): 200 calls" "$(node_field $F samples)" 200
ctl "remove $F"
# (bpf_start sets BPID: not through check, which runs it in a subshell)
if bpf_start; then
	ok "after remove, bpftrace attaches"
	echo 30 > $T/empty
	bpf_stop
	expect_eq "bpftrace: 30 calls" "$BCOUNT" 30
else
	fail "after remove, bpftrace attaches" "$(cat $OUT)"
fi

# ---- kstats first, via fprobe (an ftrace_ops) or kretprobe: shared ----
n=500
for via in fprobe kretprobe; do
	if [ $via = fprobe ] && ! grep -qw register_fprobe_syms /proc/kallsyms; then
		skip "kstats' fprobe beside bpftrace" "no fprobe in this kernel"
		continue
	fi
	check "trace $F via $via" ctl "trace $F via $via"
	if bpf_start; then
		ok "bpftrace attaches beside kstats' $via"
		echo $n > $T/empty
		expect_eq "kstats ($via): $n calls" "$(node_field $F samples)" $n
		bpf_stop
		expect_eq "bpftrace: $n calls" "$BCOUNT" $n
	else
		fail "bpftrace attaches beside kstats' $via" "$(cat $OUT)"
	fi
	ctl "remove $F"
	n=$((n + 100))
done
unload_modules
