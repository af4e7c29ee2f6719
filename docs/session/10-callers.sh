# SPDX-License-Identifier: GPL-2.0
# The README's second session: find_vma's call sites and slowest calls,
# real commands and output, in the VM (scripts/readme-session.sh).
. /ks/lib.sh

say() {
	echo "# $*"
	sh -c "$*" 2>&1
}

dmesg -n 1
kstats remove all > /dev/null 2>&1	# the first session's node
echo "=== CALLERS BEGIN"
say 'kstats trace find_vma --callers 8 --slowest 16'
say 'for i in $(seq 100); do /bin/true; done'
say 'kstats stop find_vma'
say 'kstats callers find_vma'
say 'kstats slowest find_vma | head -n 18'
say 'kstats save find_vma -o all.json'
say 'kstats save find_vma --undisturbed -o undisturbed.json'
say 'kstats compare all.json undisturbed.json | head -n 6'
echo "=== CALLERS END"
ok "callers session"
