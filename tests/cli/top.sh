#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kstats top's live view in a real terminal: tmux runs a shell, the test
# starts 'kstats top' in it, presses keys (tmux send-keys) and reads the
# screen (tmux capture-pane).  A fake debugfs ($KSTATS_DEBUGFS) holds
# three nodes; the test build's hook (--test-tick) makes the first interval add
# known samples to them.  Prints "ok - ..." / "not ok - ..." lines
# (tests/cli/run.sh numbers them); skips, with one "ok", without tmux.
#
#   tests/cli/top.sh [KSTATS-TEST]

set -u
here=$(cd "$(dirname "$0")" && pwd)
K=${1:-$here/../../tools/kstats-test}
MK=$here/mkfixture
# shellcheck source=vm/tap.sh
. "$here/../../vm/tap.sh"
if ! command -v tmux >/dev/null 2>&1; then
	skip "top" "apt-get install tmux"
	exit 0
fi
tmp=$(mktemp -d)
sock=ks-top-$$
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
dbg=$tmp/debugfs
mkdir "$tmp/bin" "$dbg"
ln -s "$(cd "$(dirname "$K")" && pwd)/$(basename "$K")" "$tmp/bin/kstats"
export MKFIXTURE_QUANTIZE=1
"$MK" find_vma 3 7 100 0 1000 500 >"$dbg/find_vma"
"$MK" find_vma 3 7 100 0 3000 1500 >"$tmp/t1-find_vma"
"$MK" vma_merge 3 9 300 2 100 0 >"$dbg/vma_merge"
"$MK" vma_merge 3 9 300 2 400 0 >"$tmp/t1-vma_merge"
"$MK" kstats_target:kt_gen_001 3 5 50 0 10 10 >"$dbg/kstats_target:kt_gen_001"
"$MK" kstats_target:kt_gen_001 3 5 50 0 10 30 >"$tmp/t1-kstats_target:kt_gen_001"
printf 'find_vma kretprobe active 1500 0\nvma_merge direct active 100 2\nkstats_target:kt_gen_001 direct active 20 0\n' >"$dbg/_control"
cp -r "$dbg" "$tmp/debugfs0"
# the hook: the first interval adds the t1- files' samples, later ones nothing
cat >"$tmp/bin/tick" <<EOF
#!/bin/sh
[ "\$KSTATS_TICK" = 1 ] || exit 0
for f in find_vma vma_merge kstats_target:kt_gen_001; do cp "$tmp/t1-\$f" "$dbg/\$f"; done
EOF
chmod +x "$tmp/bin/tick"

TAP_PREFIX="top: "

tmux -L "$sock" -f /dev/null new-session -d -x 132 -y 12 -c "$tmp" \
	env -i HOME="$tmp" HISTFILE= TERM=xterm PATH="$tmp/bin:/usr/bin:/bin" \
	KSTATS_DEBUGFS="$dbg" INPUTRC=/dev/null bash --norc --noprofile
. "$here/tmux.sh"
# first_row: the name in the first row under the header
first_row() { awk 'f { print $1; exit } $1 == "NAME" { f = 1 }' "$tmp/screen"; }
# expect WHAT REGEX [FIRST]: REGEX on screen, and FIRST the first row; a
# screen read in the middle of a redraw (the title new, the rows not yet)
# is read again, for up to 5 s in all
expect() {
	j=0
	while wait_for "$2" && [ $# -gt 2 ] && [ "$(first_row)" != "$3" ] && [ $j -lt 10 ]; do
		sleep 0.5
		j=$((j + 1))
	done
	if ! wait_for "$2"; then
		notok "$1 (no '$2' on screen)"
		sed 's/^/# /' "$tmp/screen"
	elif [ $# -gt 2 ] && [ "$(first_row)" != "$3" ]; then
		notok "$1 (first row $(first_row), wanted $3)"
		sed 's/^/# /' "$tmp/screen"
	else
		ok "$1"
	fi
}
t send-keys "PS1='READY\$ '; clear" Enter
wait_for '^READY\$ $' || { notok "the shell started"; screen | sed 's/^/# /'; exit 1; }

# A long interval: the first frame stays while keys re-sort it.
t send-keys "kstats top -i 60 --test-tick tick" Enter
expect "the live view: title, keys, header" '^keys: t total  c calls' find_vma
expect "sorted by total time by default" 'sorted by total *$' find_vma
expect "the interval's figures, in units" '^find_vma +3000 +50\.0 +0 +112 ns +288 ns +5\.63 us +408 us +79\.5%'
t send-keys 9
expect "key 9: sorted by p99" 'sorted by p99 *$' vma_merge
t send-keys r
expect "key r: reversed" 'sorted by p99, reversed *$' kstats_target:kt_gen_001
t send-keys 5
expect "key 5: sorted by p50, not reversed" 'sorted by p50 *$' vma_merge
t send-keys n
expect "key n: sorted by name" 'sorted by name *$' find_vma
t send-keys c
expect "key c: sorted by calls" 'sorted by calls *$' find_vma
if grep -qE '^READY|kstats top -i' "$tmp/screen"; then notok "the view has the whole screen (alternate screen)"; sed 's/^/# /' "$tmp/screen"; else ok "the view has the whole screen (alternate screen)"; fi
t resize-window -x 132 -y 5 2>/dev/null || t resize-pane -y 5 2>/dev/null
expect "a smaller terminal: what does not fit is counted" '^\.\.\. [0-9]+ more'
t resize-window -x 132 -y 12 2>/dev/null || t resize-pane -y 12 2>/dev/null
t send-keys q
expect "q: back to the shell, its screen as it was" 'kstats top -i 60 --test-tick tick'
if grep -q 'sorted by' "$tmp/screen"; then notok "q: the view is gone"; sed 's/^/# /' "$tmp/screen"; else ok "q: the view is gone"; fi

# A short interval: the view refreshes by itself (the second interval
# adds nothing); Ctrl-C ends it too.
rm -rf "$dbg"
cp -r "$tmp/debugfs0" "$dbg"
t send-keys "clear; kstats top -i 0.3 --test-tick tick" Enter
expect "refreshed: the next interval shows no calls" '^find_vma +0 +0\.0 +0 +- '
t send-keys C-c
expect "Ctrl-C: back to the shell" '^READY\$ $'
t send-keys "stty -a | grep -o ' echo ' ; echo rc=\$?" Enter
expect "the terminal's settings restored (echo on)" '^ echo $'
[ "$tap_failed" -eq 0 ]
