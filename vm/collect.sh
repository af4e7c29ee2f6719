#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
#   scripts/guest-files.sh CONSOLE_LOG DIR
#
# Extract into DIR the files a guest printed on its console between
# KS-DEMO-FILE-BEGIN NAME MD5 / KS-DEMO-FILE-END NAME markers (the guest
# side is demo_publish in demo/scenarios/_lib.sh); each is checked
# against the md5sum printed with it.  Exit status 1 if none was found or
# one was garbled.  Used by demo/demo.sh and tools/kstats-ab.
log=$1 dir=$2 bad=0
[ $# -eq 2 ] || { echo "usage: $0 CONSOLE_LOG DIR" >&2; exit 2; }
tr -d '\r' < "$log" | awk -v dir="$dir" '
	/^KS-DEMO-FILE-BEGIN / { f = dir "/" $2; sums[$2] = $3; printf "" > f; next }
	/^KS-DEMO-FILE-END /   { close(f); f = ""; next }
	f != ""                { print >> f }
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
