# SPDX-License-Identifier: GPL-2.0
# The README's example session: real commands, real output, in the VM.
# Run with scripts/readme-session.sh.
. /ks/lib.sh
insmod /modules/kstats.ko

# say CMD: print "# CMD" and its output, as typed at a root shell
say() {
	echo "# $*"
	sh -c "$*" 2>&1
}

dmesg -n 1	# kernel messages to the log only, as on a terminal
echo "=== SESSION BEGIN"
say 'kstats trace find_vma'
say 'for i in $(seq 500); do /bin/true; done'
say 'kstats show find_vma --log2'
echo "=== SESSION END"
ok "session"
