#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
#   vm/collect.sh CONSOLE_LOG DIR
#
# The host side of the one way files come back from a guest: extract into
# DIR the files the guest printed on its console between
#   KS-FILE-BEGIN PATH MD5
#   KS-FILE-END PATH
# markers (the guest side is ks_publish in vm/lib.sh, which vm/runner.sh
# calls after each scenario for the files under $KS_COLLECT); PATH is
# relative to $KS_COLLECT, and a file printed twice keeps its last copy.
# Each is checked against the md5sum printed with it.  Exit status 1 if
# none was found or one was garbled.  vm/session.sh --collect calls it.
log=$1 dir=$2 bad=0
[ $# -eq 2 ] || { echo "usage: $0 CONSOLE_LOG DIR" >&2; exit 2; }
mkdir -p "$dir" || exit 2
rm -f "$dir/.sums"
tr -d '\r' < "$log" | awk -v dir="$dir" '
	/^KS-FILE-BEGIN / {
		if ($2 ~ /(^|\/)\.\.(\/|$)/ || $2 ~ /^\//) { f = ""; next }
		f = dir "/" $2; sums[$2] = $3
		d = f; sub(/\/[^\/]*$/, "", d)
		system("mkdir -p \"" d "\"")
		printf "" > f; next
	}
	/^KS-FILE-END /   { if (f != "") close(f); f = ""; next }
	f != ""           { print >> f }
	END { for (n in sums) print n, sums[n] > (dir "/.sums") }'
[ -f "$dir/.sums" ] || exit 1
while read -r name sum; do
	got=$(md5sum < "$dir/$name" | cut -c1-32)
	if [ "$got" != "$sum" ]; then
		echo "$name was garbled on the console (md5 $got, guest $sum)" >&2
		bad=1
	fi
done < "$dir/.sums"
rm -f "$dir/.sums"
exit $bad
