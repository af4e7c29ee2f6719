# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# TAP in shell, written and read here only: the host-side suites (tests/ab,
# tests/cli, tests/deb, tests/kbuild), the VM guest (vm/lib.sh, vm/runner.sh,
# staged as /ks/tap.sh) and every script that gathers the lines of others
# (tests/run-all.sh, vm/session.sh, tests/vm/sweep.sh).  Sourced as
#   . "$top/vm/tap.sh"
# POSIX sh (busybox sh in the guest).  Every check prints one numbered line:
#   ok N - [TAP_PREFIX]DESC           not ok N - [TAP_PREFIX]DESC
#   ok N - [TAP_PREFIX]DESC # SKIP WHY
# and tap_end prints the plan and the closing line
#   N passed, N failed, N skipped
# that tests/run-all.sh and the README describe.  A line whose text holds
# "# SKIP" (a check that could not run here) counts as skipped, not passed.
# With TAP_STATE set (a folder), the number and a word per result (ok,
# notok, skip, one a line in TAP_STATE/results) live there, for checks
# made by several processes (the guest's scenarios).

tap_n=0 tap_failed=0 tap_skipped=0
TAP_PREFIX=${TAP_PREFIX:-}

# tap_line ok|notok TEXT: print one numbered line and count it: the one
# writer of a TAP line.
tap_line() {
	[ -n "${TAP_STATE:-}" ] && [ -f "$TAP_STATE/n" ] && read -r tap_n < "$TAP_STATE/n"
	tap_n=$((tap_n + 1))
	_tap_r=$1
	case $1 in
	notok)	tap_failed=$((tap_failed + 1)); echo "not ok $tap_n - $2" ;;
	*)	case $2 in *"# SKIP"*) tap_skipped=$((tap_skipped + 1)); _tap_r=skip ;; esac
		echo "ok $tap_n - $2" ;;
	esac
	if [ -n "${TAP_STATE:-}" ]; then
		echo "$tap_n" > "$TAP_STATE/n"
		echo "$_tap_r" >> "$TAP_STATE/results"
	fi
}

# ok DESC...: record a pass (a skip when DESC holds "# SKIP").
ok() {
	tap_line ok "$TAP_PREFIX$*"
}

# notok DESC [DETAIL...]: record a failure; each DETAIL is printed as a
# TAP comment under it.
notok() {
	tap_line notok "$TAP_PREFIX$1"
	shift
	[ $# -eq 0 ] || printf '%s\n' "$@" | sed 's/^/#   /'
}

# skip DESC REASON: a check that cannot run here.
skip() {
	ok "$1 # SKIP ${2:-}"
}

# expect DESC GOT WANT: string equality.
expect() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		notok "$1" "expected: '$3'" "actual:   '$2'"
	fi
}

# tap_diag FILE...: show files as TAP comments.
tap_diag() {
	sed 's/^/# /' "$@"
}

# tap_parse LINE: the one reader of a TAP line: TAP_KIND is ok, notok,
# end (a plan or a closing count), detail ("#   " under a check), comment
# ("#"), or other; TAP_DESC the check's description (ok, notok: numbered
# or not) or the comment's text.
tap_parse() {
	TAP_DESC=""
	case $1 in
	"ok "[0-9]*" - "*|"ok - "*)		TAP_KIND=ok TAP_DESC=${1#* - } ;;
	"not ok "[0-9]*" - "*|"not ok - "*)	TAP_KIND=notok TAP_DESC=${1#* - } ;;
	"1.."[0-9]*|[0-9]*" passed, "[0-9]*" failed"*) TAP_KIND=end ;;
	"#   "*)				TAP_KIND=detail TAP_DESC=${1#\#   } ;;
	"#"*)					TAP_KIND=comment TAP_DESC=${1#\#} TAP_DESC=${TAP_DESC# } ;;
	*)					TAP_KIND=other ;;
	esac
}

# tap_relay [all|comments|failures]: the ok and not ok lines on stdin
# (read by tap_parse) counted and printed again through tap_line, in this
# numbering and after TAP_PREFIX; plans and closing lines dropped.  Other
# lines: all (the default) prints them, comments the "#" ones, failures
# only the "#   " details under a not ok.  Returns 1 if a relayed line was
# a not ok.
tap_relay() {
	_tap_mode=${1:-all} _tap_show=0 _tap_bad=0
	while IFS= read -r _tap_l; do
		tap_parse "$_tap_l"
		case $TAP_KIND in
		ok)	tap_line ok "$TAP_PREFIX$TAP_DESC"; _tap_show=0 ;;
		notok)	tap_line notok "$TAP_PREFIX$TAP_DESC"; _tap_show=1 _tap_bad=1 ;;
		end)	;;
		detail)	if [ "$_tap_mode" != failures ] || [ $_tap_show = 1 ]; then echo "$_tap_l"; fi ;;
		comment) _tap_show=0
			[ "$_tap_mode" != failures ] && echo "$_tap_l" ;;
		*)	_tap_show=0
			[ "$_tap_mode" = all ] && echo "$_tap_l" ;;
		esac
	done
	return $_tap_bad
}

# tap_end: the plan and the closing line; status 1 if a check failed.
tap_end() {
	echo "1..$tap_n"
	echo "$((tap_n - tap_failed - tap_skipped)) passed, $tap_failed failed, $tap_skipped skipped"
	[ "$tap_failed" -eq 0 ]
}
