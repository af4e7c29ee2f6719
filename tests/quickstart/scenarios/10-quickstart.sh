# SPDX-License-Identifier: GPL-2.0
# The guest's part of one README quick-start block (tests/quickstart/run.sh):
# /ks/files/quickstart.sh, run in /qs (the tree's kmod/kstats.ko and
# tools/kstats), as root, so sudo runs its command; the snapshots it
# writes go back to the host.
. /ks/lib.sh
cd /qs || { fail "no /qs"; exit 0; }
sudo() { "$@"; }
if (set -e; . /ks/files/quickstart.sh) > /tmp/quickstart.out 2>&1; then
	ok "the README's lines ran: $(tr '\n' ';' < /ks/files/quickstart.sh | cut -c1-150)"
else
	fail "the README's lines ran" "$(cat /ks/files/quickstart.sh)" "$(cat /tmp/quickstart.out)"
fi
sed 's/^/# | /' /tmp/quickstart.out
n=0
for f in *.json; do
	[ -f "$f" ] || continue
	cp "$f" "$KS_COLLECT/" && n=$((n + 1))
done
expect_eq "snapshots written" "$([ "$n" -gt 0 ] && echo yes)" yes
