# SPDX-License-Identifier: GPL-2.0
# trace NAME callers N: one histogram per call site besides the node's,
# on every backend.  kstats_target's "callers" file calls ks_target_site()
# from three sites a known number of times with known delays (kt_site_a
# N x 20 us, kt_site_b 2N x 80 us, kt_site_c 3N x 320 us) and once from a
# fourth with a long one (kt_site_slow, 5 ms): each site's count is exact, its
# p50 in its delay's slot, the sites add up to the node's samples, the
# rest ("other") is exact when there are more sites than N; recursion,
# clones and globs; reset; bad values refused.
. /ks/lib.sh

T=$KS_TDIR
load_modules || exit 0
set_backends

# caller_field NODE SITE KEY: KEY's value on NODE's "# caller" line whose
# site starts with SITE+ (or whose ID is SITE: "other").
caller_field() {
	awk -v site="$2" -v key="$3" '
		$1 == "#" && $2 == "caller" {
			s = ""
			for (i = 4; i < NF; i++) if ($i == "site") { s = $(i + 1); break }
			if ($3 != site && index(s, site "+") != 1) next
			for (i = 4; i < NF; i++) if ($i == key) { print $(i + 1); found = 1; exit }
		}
		END { exit !found }' "$KS_DIR/$1"
}

# The site text of NODE's caller SITE: "FUNCTION+0xOFF/0xSIZE [MODULE]".
caller_site() {
	awk -v site="$2" '
		$1 == "#" && $2 == "caller" {
			for (i = 4; i < NF; i++) if ($i == "site") break
			s = $(i + 1); for (j = i + 2; j <= NF; j++) s = s " " $j
			if (index(s, site "+") == 1) { print s; exit }
		}' "$KS_DIR/$1"
}

# from NODE FUNCTION: the calls of NODE from FUNCTION's sites, summed (a
# compiler may make two sites of one loop: gcc 14 peels the clone loop).
from() {
	awk -v fn="$2" '$1 == "#" && $2 == "caller" {
			for (i = 4; i < NF; i++) if ($i == "site") break
			if (index($(i + 1), fn "+") != 1) next
			for (i = 4; i < NF; i++) if ($i == "count") t += $(i + 1)
		}
		END { print t + 0 }' "$KS_DIR/$1"
}

# The sum of the counts of NODE's "# caller" lines.
callers_sum() {
	awk '$1 == "#" && $2 == "caller" { for (i = 4; i < NF; i++) if ($i == "count") t += $(i + 1) }
		END { print t + 0 }' "$KS_DIR/$1"
}

# The running total of the last "# slot ... CALLER ID" row of NODE.
caller_rows_n() {
	awk -v id="$2" '$1 == "#" && $2 == "slot" && $4 == "CALLER" && $5 == id { n = $NF }
		END { print n + 0 }' "$KS_DIR/$1"
}

N=10
SLOW=5000	# us
for b in $backends; do
	check "$b: trace ks_target_site callers 4" ctl "trace ks_target_site via $b callers 4"
	check "$b: callers=4 in the head line" '[ "$(node_field ks_target_site callers)" = 4 ]'
	echo "$N $SLOW" > $T/callers
	expect_eq "$b: samples: 6N + 1" "$(node_field ks_target_site samples)" $((6 * N + 1))
	expect_eq "$b: kt_site_a's count" "$(caller_field ks_target_site kt_site_a count)" $N
	expect_eq "$b: kt_site_b's count" "$(caller_field ks_target_site kt_site_b count)" $((2 * N))
	expect_eq "$b: kt_site_c's count" "$(caller_field ks_target_site kt_site_c count)" $((3 * N))
	expect_eq "$b: kt_site_slow's count" "$(caller_field ks_target_site kt_site_slow count)" 1
	expect_eq "$b: other's count" "$(caller_field ks_target_site other count)" 0
	expect_eq "$b: the sites add up to the samples" "$(callers_sum ks_target_site)" $((6 * N + 1))
	# within a slot (12.5%) of the delay, and 20 us of what the
	# emulated CPU adds to a call
	for s in a:20000 b:80000 c:320000; do
		ns=${s#*:}
		p50=$(caller_field ks_target_site kt_site_${s%%:*} p50)
		expect_range "$b: kt_site_${s%%:*}'s p50 ($p50) in its delay's slot" \
			"$p50" $((ns - ns / 8)) $((ns + ns / 8 + 20000))
	done
	mx=$(caller_field ks_target_site kt_site_slow max)
	expect_range "$b: kt_site_slow's call ($mx) took its 5 ms (or more: the host)" "$mx" 4375000 1000000000
	# the node's max, clamped into its slot, is at least it (a host
	# that stalls the guest may make another call longer)
	nmx=$(node_field ks_target_site max)
	expect_range "$b: the node's max ($nmx) is at least the slow call's ($mx), to a slot" \
		"$nmx" $((mx - mx / 8)) 1000000000
	site=$(caller_site ks_target_site kt_site_b)
	check "$b: a site reads FUNCTION+0xOFF/0xSIZE [MODULE] ($site)" \
		"echo '$site' | grep -qE '^kt_site_b\+0x[0-9a-f]+/0x[0-9a-f]+ \[kstats_target\]\$'"
	expect_eq "$b: kt_site_c's rows end at its count" \
		"$(caller_rows_n ks_target_site "$(awk '$2 == "caller" && /site kt_site_c\+/ { print $3 }' $KS_DIR/ks_target_site)")" $((3 * N))
	check "$b: kstats check reads the node (caller lines included)" kstats check ks_target_site
	# kstats callers: the sites with their exact calls, most total time
	# first (c's 9.6 ms first; the rest's order is the host's on a
	# loaded machine, which may stall the guest inside any call)
	kc=$(kstats callers ks_target_site | awk '/^kt_site_/ {
			for (i = 2; i <= NF; i++) if ($i ~ /%$/) break
			split($1, f, "+"); t = $(i + 1); sub(/%$/, "", t)
			printf "%s:%s:%s\n", f[1], $(i - 1), t }')
	expect_eq "$b: kstats callers: each site's exact calls" \
		"$(echo "$kc" | cut -d: -f1,2 | sort | tr '\n' ' ')" \
		"kt_site_a:$N kt_site_b:$((2 * N)) kt_site_c:$((3 * N)) kt_site_slow:1 "
	check "$b: kstats callers: most total time first ($(echo $kc))" \
		"echo '$kc' | cut -d: -f3 | sort -rn -c"
	check "$b: reset" 'echo reset > $KS_DIR/ks_target_site'
	expect_eq "$b: after reset the sites are empty" "$(callers_sum ks_target_site)" 0
	echo "$N" > $T/callers
	expect_eq "$b: after reset kt_site_c's count" "$(caller_field ks_target_site kt_site_c count)" $((3 * N))
	expect_eq "$b: after reset kt_site_slow's count" "$(caller_field ks_target_site kt_site_slow count)" 0
	expect_eq "$b: after reset the sites add up" "$(callers_sum ks_target_site)" $((6 * N))
	check "$b: remove" ctl "remove ks_target_site"

	# more sites than kept: the rest go to other, exactly
	check "$b: trace ks_target_site callers 2" ctl "trace ks_target_site via $b callers 2"
	echo "$N $SLOW" > $T/callers
	expect_eq "$b: callers 2: kt_site_a's count" "$(caller_field ks_target_site kt_site_a count)" $N
	expect_eq "$b: callers 2: kt_site_b's count" "$(caller_field ks_target_site kt_site_b count)" $((2 * N))
	expect_eq "$b: callers 2: other holds c and slow" "$(caller_field ks_target_site other count)" $((3 * N + 1))
	expect_eq "$b: callers 2: other's rows end at its count" "$(caller_rows_n ks_target_site other)" $((3 * N + 1))
	expect_eq "$b: callers 2: the sites add up to the samples" "$(callers_sum ks_target_site)" $((6 * N + 1))
	check "$b: remove" ctl "remove ks_target_site"

	# recursion: a recursive call's caller is the function itself
	check "$b: trace ks_target_recurse callers 4" ctl "trace ks_target_recurse via $b callers 4"
	echo "5 4" > $T/recurse
	expect_eq "$b: recursion: from kt_write" "$(from ks_target_recurse kt_write)" 5
	expect_eq "$b: recursion: from itself" "$(from ks_target_recurse ks_target_recurse)" 15
	check "$b: remove" ctl "remove ks_target_recurse"
done

# a real function, as the review asks it: find_vma's call sites and
# slowest calls under page faults and forks; stopped, so that one read
# sees every count at rest
for b in $backends; do
	check "$b: trace find_vma callers 8 slowest 16" ctl "trace find_vma via $b callers 8 slowest 16"
	for i in 1 2 3 4 5 6 7 8; do /bin/true; done
	ls -R /sys/kernel/debug/kstats > /dev/null
	check "$b: stop find_vma" 'echo stop > $KS_DIR/find_vma'
	n=$(node_field find_vma samples)
	diag "$(grep -E '^# (samples|caller|disturbed|slow) ' $KS_DIR/find_vma)"
	expect_range "$b: find_vma: calls made ($n)" "$n" 16 100000000
	expect_eq "$b: find_vma: its sites add up to its $n samples" "$(callers_sum find_vma)" "$n"
	check "$b: find_vma: a site is a function+off/size" \
		"grep '^# caller 0 ' $KS_DIR/find_vma | grep -qE ' site [a-z_][a-z0-9_.]*\\+0x[0-9a-f]+/0x[0-9a-f]+\$'"
	expect_eq "$b: find_vma: the 16 slowest kept" "$(grep -c '^# slow ' $KS_DIR/find_vma)" 16
	check "$b: find_vma: each kept call with a stack" \
		"[ \"\$(awk '\$2 == \"stack\" { print \$3 }' $KS_DIR/find_vma | sort -u | wc -l)\" = 16 ]"
	d=$(node_field find_vma disturbed)
	expect_eq "$b: find_vma: the DISTURBED rows hold its $d disturbed calls" \
		"$(awk '$1 == "#" && $2 == "slot" && $4 == "DISTURBED" { n += $7 } END { print n + 0 }' $KS_DIR/find_vma)" "$d"
	check "$b: kstats callers find_vma" "kstats callers find_vma | grep -q 'calls from'"
	check "$b: remove" ctl "remove find_vma"
done

# a compiler clone's callers; a glob's nodes each keep theirs
check "trace ks_target_clone callers 4" ctl "trace ks_target_clone callers 4"
echo 7 > $T/clone
diag "$(grep -E '^# caller' $KS_DIR/ks_target_clone)"
expect_eq "clone: its calls come from kt_write" "$(from ks_target_clone kt_write)" 7
check "remove ks_target_clone" ctl "remove ks_target_clone"
check "trace kt_site_* callers 2" ctl "trace kt_site_* callers 2"
echo 3 > $T/callers
for s in a b c; do
	expect_eq "glob: kt_site_$s's one call from kt_write" "$(from kt_site_$s kt_write)" 1
done
check "remove kt_site_*" ctl "remove kt_site_*"

# bad values: refused, with the reason in the log
for v in 0 17 -1 x 99999999999; do
	expect_errno "callers $v -> EINVAL" EINVAL ctl "trace ks_target_site callers $v"
	check "callers $v: the log says why" "dmesg | tail -n 2 | grep -q 'bad value for callers: not in 1..16'"
done
expect_errno "callers twice -> EINVAL" EINVAL ctl "trace ks_target_site callers 2 callers 2"
expect_errno "a section with callers -> EINVAL" EINVAL \
	ctl "trace sect start ks_target_mark_a end ks_target_mark_b callers 2"
check "the log says why" "dmesg | tail -n 2 | grep -q 'a section has no caller'"
check "no node left" '[ "$(grep -vc "^#" $KS_CTL)" = 0 ]'
unload_modules
