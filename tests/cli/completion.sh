#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tools/cli/kstats.bash-completion in a real shell: tmux runs 'bash --norc'
# with the completion sourced, the test types a line and Tab, and reads
# the screen (tmux capture-pane).  A fake debugfs ($KSTATS_DEBUGFS) lists
# two nodes in _control, a fake tracefs ($KSTATS_TRACEFS) three functions
# and a tracepoint.  Prints "ok - ..." / "not ok - ..." lines (tests/cli/run.sh
# numbers them); skips, with one "ok", when tmux or bash is missing.
#
#   tests/cli/completion.sh [KSTATS]

set -u
here=$(cd "$(dirname "$0")" && pwd)
K=${1:-$here/../../tools/kstats}
comp=$here/../../tools/cli/kstats.bash-completion
# shellcheck source=vm/tap.sh
. "$here/../../vm/tap.sh"
if ! command -v tmux >/dev/null 2>&1 || ! command -v bash >/dev/null 2>&1; then
	skip "completion" "apt-get install tmux"
	exit 0
fi
tmp=$(mktemp -d)
sock=ks-completion-$$
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/bin" "$tmp/debugfs" "$tmp/tracefs" "$tmp/work" "$tmp/work/snaps"
ln -s "$(cd "$(dirname "$K")" && pwd)/$(basename "$K")" "$tmp/bin/kstats"
printf 'find_vma kretprobe active 13 0\nks_target_delay fprobe stopped 2000 0\n' >"$tmp/debugfs/_control"
printf 'find_vma\nfind_vma_prev\nks_target_delay [kstats_target]\nks_target_empty [kstats_target]\n' \
	>"$tmp/tracefs/available_filter_functions"
printf 'sched:sched_wakeup_new\nsched:sched_switch\n' >"$tmp/tracefs/available_events"
: >"$tmp/work/base.json"
: >"$tmp/work/notes.prom"


tmux -L "$sock" -f /dev/null new-session -d -x 160 -y 40 -c "$tmp/work" \
	env -i HOME="$tmp" HISTFILE= TERM=xterm PATH="$tmp/bin:/usr/bin:/bin" \
	KSTATS_DEBUGFS="$tmp/debugfs" KSTATS_TRACEFS="$tmp/tracefs" \
	INPUTRC=/dev/null bash --norc --noprofile
. "$here/tmux.sh"
t send-keys "PS1='READY\$ '; . '$comp'; clear" Enter
wait_for '^READY\$ $' || { notok "completion: the shell started"; screen | sed 's/^/# /'; exit 1; }

# case WHAT KEYS... -- REGEX...: fresh line, type KEYS, every REGEX on screen
case_() {
	what=$1
	shift
	t send-keys C-a C-k "clear" Enter
	wait_for '^READY\$ $' >/dev/null
	while [ "$1" != -- ]; do
		t send-keys "$1"
		shift
	done
	shift
	good=1
	for re in "$@"; do
		wait_for "$re" || { good=0; missing=$re; }
	done
	if [ $good = 1 ]; then
		ok "completion: $what"
	else
		notok "completion: $what (no '$missing' on screen)"
		sed 's/^/# /' "$tmp/screen"
	fi
}
# absent WHAT REGEX: the last screen read does not show REGEX
absent() {
	if grep -qE -- "$2" "$tmp/screen"; then notok "completion: $1"; sed 's/^/# /' "$tmp/screen"; else ok "completion: $1"; fi
}

case_ "kstats Tab Tab lists every subcommand" 'kstats ' Tab Tab -- \
	'trace' 'remove' 'start' 'stop' 'reset' 'list' 'show' 'callers' 'slowest' 'watch' 'top' 'run' 'save' 'compare' 'export' 'check'
case_ "kstats exp Tab completes export" 'kstats exp' Tab -- '^READY\$ kstats export $'
case_ "kstats export -- Tab Tab lists its options" 'kstats export --' Tab Tab -- \
	'--prometheus' '--per-cpu' '--output' '--slots' '--json' '--csv' '--help'
absent "export's options are not trace's" '--maxactive'
case_ "kstats export --pro Tab completes --prometheus" 'kstats export --pro' Tab -- '^READY\$ kstats export --prometheus $'
case_ "kstats show Tab Tab lists the nodes of _control" 'kstats show ' Tab Tab -- 'find_vma' 'ks_target_delay'
case_ "kstats remove k Tab completes a node name" 'kstats remove k' Tab -- '^READY\$ kstats remove ks_target_delay $'
case_ "kstats export --prometheus a Tab completes all" 'kstats export --prometheus a' Tab -- '^READY\$ kstats export --prometheus all $'
case_ "kstats trace ks_target_d Tab completes a traceable function" 'kstats trace ks_target_d' Tab -- \
	'^READY\$ kstats trace ks_target_delay $'
case_ "kstats trace find_vma Tab Tab lists find_vma and find_vma_prev" 'kstats trace find_vma' Tab Tab -- 'find_vma_prev' 'find_vma  '
case_ "--end tp:sched:sched_w Tab completes a tracepoint" 'kstats trace f --start find_vma --end tp:sched:sched_w' Tab -- \
	'--end tp:sched:sched_wakeup_new $'
case_ "--clock=t Tab completes tsc" 'kstats trace find_vma --clock=t' Tab -- '--clock=tsc $'
case_ "--via Tab Tab lists the backends" 'kstats trace find_vma --via ' Tab Tab -- 'direct' 'fprobe' 'kretprobe'
case_ "kstats top --sort Tab Tab lists the columns" 'kstats top --sort ' Tab Tab -- 'total' 'calls' 'p50' 'p99' 'max' 'name'
case_ "kstats top -- Tab Tab lists its options" 'kstats top --' Tab Tab -- '--interval' '--count' '--sort' '--reverse'
case_ "compare Tab completes snapshot files only" 'kstats compare b' Tab -- '^READY\$ kstats compare base\.json $'
case_ "-f Tab offers snapshots and folders, not other files" 'kstats show -f ' Tab Tab -- 'base\.json' 'snaps/'
absent "-f does not offer notes.prom" 'notes\.prom'
case_ "export -o Tab completes any file" 'kstats export --prometheus all -o not' Tab -- 'kstats export --prometheus all -o notes\.prom $'
[ "$tap_failed" -eq 0 ]
