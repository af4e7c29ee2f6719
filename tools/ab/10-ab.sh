# SPDX-License-Identifier: GPL-2.0
#
# The guest side of tools/ab/kstats-ab: one kernel, the same trace commands
# and workload as on every other kernel of the comparison.  _env.sh
# (written by kstats-ab) sets AB_TRACES (one "NAME [OPTIONS]" per line),
# AB_WORKLOAD (a shell command), AB_RUNS, AB_OPS (operations per run when
# the workload does not print ops=), AB_TARGET (1: load the test target
# module too) and AB_CALLED (1: a glob's runs keep the nodes they called).  A NAME whose node the kernel made itself through the
# annotation API (attach=api:NAME) is measured as it is.  A NAME with *, ?
# or [ is a glob: one node per function it matches, traced through the
# CLI (the count line it prints from _last goes to ab.facts as
# glob.I.last, its refusals to the log).  For
# each run: reset and start every node, run the workload, stop them (one
# write each: all nodes see the same calls), keep each named node's text
# as NAME.rR.txt and, when a glob was traced, every node in one snapshot
# (kstats save all: all.rR.json, kstats-snapshot/3; with AB_CALLED=1
# only the nodes the run called, kstats save all --called); the workload's last
# result line goes to ab.facts.  The workload sees the kernel's label in
# $AB_LABEL.
# shellcheck source=vm/measure.sh
. "${KS_LIB:-/ks}/measure.sh"

# ab_trace_glob GLOB [OPTION VALUE]...: "kstats trace GLOB --OPTION VALUE",
# the CLI reading _last (its one reader): the refusals and the count line
# it prints go to $KS_STATE/last.  Status 2 when GLOB matches nothing.
# The module's glob_max is raised first to every function ftrace offers
# here, so that '*' (the whole kernel) is one write; its mem_max still
# bounds what the nodes take.
ab_trace_glob() {
	_g=$1
	shift
	_n=$(wc -l < /sys/kernel/tracing/available_filter_functions 2> /dev/null || echo 0)
	_p=/sys/module/kstats/parameters/glob_max
	[ "$_n" -gt "$(cat $_p)" ] && echo "$_n" > $_p
	_o=""
	while [ $# -ge 2 ]; do
		_o="$_o --$1 $2"
		shift 2
	done
	# shellcheck disable=SC2086
	if kstats trace "$_g" $_o > "$KS_STATE/last" 2> "$KS_STATE/trace.err"; then
		DEMO_NODES="$DEMO_NODES $_g"
		return 0
	fi
	grep -q '^kstats: matched 0$' "$KS_STATE/trace.err" && return 2
	fail "kstats trace $_g$_o" "$(cat "$KS_STATE/trace.err")"
	return 1
}

runs=${AB_RUNS:-3}
export AB_LABEL
demo_up || exit 0
if [ "${AB_TARGET:-0}" = 1 ]; then
	check "insmod kstats_target" insmod /modules/kstats_target.ko || exit 0
fi
[ -n "${AB_OPS:-}" ] && fact ops "$AB_OPS"
fact kernel.release "$(uname -r)"
fact kernel.version "$(uname -v)"

# Untraced first: the workload's own figures.
say "untraced: $AB_WORKLOAD"
wl untraced sh -c "$AB_WORKLOAD" || { demo_down; exit 0; }

names="" globs=0
set -f	# a trace command's glob ('*') is the module's, not the shell's
while IFS= read -r t; do
	[ -n "$t" ] || continue
	n=${t%% *}
	case $n in
	*[*?[]*)
		if ab_trace_glob $t; then
			globs=$((globs + 1))
			fact "glob.$globs" "$n"
			fact "glob.$globs.last" "$(grep -m1 '^matched ' "$KS_STATE/last")"
			say "$n: $(grep -m1 '^matched ' "$KS_STATE/last")"
			grep -v '^matched ' "$KS_STATE/last" | while IFS= read -r x; do say "  $x"; done
		elif [ $? = 2 ]; then
			fact "glob.absent" "$n"
			say "$n: matches nothing in this kernel"
		fi
		continue ;;
	esac
	if [ -e "$KS_DIR/$n" ] && [ "$(node_field "$n" attach)" = "api:$n" ]; then
		# made by the kernel's own annotation (kstats_new()): measured as is
		names="$names $n"
		fact "node.$n.attach" "api:$n"
		say "$n: an annotated section of this kernel"
	elif demo_trace $t; then
		names="$names $n"
		fact "node.$n.attach" "$(node_field "$n" attach)"
	elif [ $? = 2 ]; then
		fact "node.$n.absent" 1
		say "$n: not in this kernel"
		ok "$n: absent here, reported as such"
	fi
done <<TRACES
$AB_TRACES
TRACES
set +f

r=1
while [ $r -le "$runs" ]; do
	# one write starts (stops) every node, so all see the same calls
	ctl "reset all"
	ctl "start all"
	wl "run$r" sh -c "$AB_WORKLOAD" || break
	ctl "stop all"
	for n in $names; do
		cat "$KS_DIR/$n" > "$DEMO_OUT/$n.r$r.txt"
		say "run $r: $n: $(node_field "$n" samples) samples, p50 $(node_field "$n" p50), avg $(node_field "$n" avg)"
		check "run $r: $n: its node file parses" kstats check -f "$DEMO_OUT/$n.r$r.txt"
	done
	if [ $globs -gt 0 ]; then
		# shellcheck disable=SC2046
		check "run $r: kstats save all$([ "${AB_CALLED:-0}" = 1 ] && echo " --called")" \
			kstats save all $([ "${AB_CALLED:-0}" = 1 ] && echo --called) \
			-o "$DEMO_OUT/all.r$r.json" --label "$AB_LABEL"
	fi
	r=$((r + 1))
done
fact runs "$((r - 1))"
demo_down
if [ "${AB_TARGET:-0}" = 1 ]; then
	check "rmmod kstats_target" rmmod kstats_target
fi
exit 0
