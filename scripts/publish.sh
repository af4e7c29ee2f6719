#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Copy built files into a folder that others read while they run (vm/out/bin,
# which vm/session.sh stages into every guest): each file only when it
# differs from the one there, written under a hidden name of its own and
# renamed over it, so that a reader gets the old file or the new one, never
# a part of one, and two suites publishing at once do not mix their copies.
#
#   scripts/publish.sh FILE[:NAME]... DIR      (NAME: its name in DIR)
set -eu
[ $# -ge 2 ] || { echo "usage: $0 FILE[:NAME]... DIR" >&2; exit 2; }
for dir; do :; done	# the last argument
mkdir -p "$dir"
while [ $# -gt 1 ]; do
	src=${1%%:*} name=${1##*/}
	case $1 in *:*) name=${1#*:} ;; esac
	shift
	cmp -s "$src" "$dir/$name" && continue
	tmp=$(mktemp "$dir/.$name.XXXXXX")
	if ! { cp "$src" "$tmp" && chmod --reference="$src" "$tmp" && mv -f "$tmp" "$dir/$name"; }; then
		rm -f "$tmp"
		exit 1
	fi
done
