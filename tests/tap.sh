# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# TAP output of the host-side shell suites (tests/ab, tests/cli, tests/deb,
# tests/kbuild), sourced as
#   . "$top/tests/tap.sh"
# POSIX sh.  Every check prints one numbered line:
#   ok N - [TAP_PREFIX]DESC           not ok N - [TAP_PREFIX]DESC
# and tap_end prints the plan and the closing line
#   N passed, N failed, N skipped
# that tests/run-all.sh and the README describe.  A line whose text holds
# "# SKIP" (a check that could not run here) counts as skipped, not passed.
# The guest side has its own helpers (vm/lib.sh), with the same words.

tap_n=0 tap_failed=0 tap_skipped=0
TAP_PREFIX=${TAP_PREFIX:-}

# ok DESC...: record a pass (a skip when DESC holds "# SKIP").
ok() {
	tap_n=$((tap_n + 1))
	case "$*" in *"# SKIP"*) tap_skipped=$((tap_skipped + 1)) ;; esac
	echo "ok $tap_n - $TAP_PREFIX$*"
}

# notok DESC [DETAIL...]: record a failure; each DETAIL is printed as a
# TAP comment under it.
notok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $TAP_PREFIX$1"
	shift
	[ $# -eq 0 ] || printf '#   %s\n' "$@"
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

# tap_end: the plan and the closing line; status 1 if a check failed.
tap_end() {
	echo "1..$tap_n"
	echo "$((tap_n - tap_failed - tap_skipped)) passed, $tap_failed failed, $tap_skipped skipped"
	[ "$tap_failed" -eq 0 ]
}
