# SPDX-License-Identifier: GPL-2.0
# Sourced by the CLI tests typed in a real terminal (completion.sh, top.sh):
# the tmux server on socket $sock, its screen, and a poll of it ($tmp is
# the caller's scratch folder).

t() { tmux -L "$sock" "$@"; }
screen() { t capture-pane -p -J; }
# wait_for REGEX: poll the screen for up to 5 s; 0 when it shows up
wait_for() {
	i=0
	while [ $i -lt 50 ]; do
		screen >"$tmp/screen"
		grep -qE -- "$1" "$tmp/screen" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
