// SPDX-License-Identifier: GPL-2.0
/*
 * The boundaries of include/kstats/contract.h, judged by the module's own
 * command parser (common/ks_cmd.c, built here through include/kstats/shim.h).
 *
 * Prints one line per case:
 *
 *   WANT MODULE NAME [OPTION VALUE]...
 *
 * WANT is what the contract says (1 accepted, 0 refused), MODULE what
 * ks_cmd_parse() said of "trace NAME [OPTION VALUE]...".  run.sh gives the
 * same words to tools/kstats as "trace NAME [--OPTION VALUE]..." and
 * checks that all three agree.  Every value is derived from the contract's
 * macros, so changing a limit there moves the test with it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../../common/ks_cmd.c"

#define KS_LINE_MAX	(2 * KS_CMD_MAX)

/* @n characters of @c (at most KS_LINE_MAX - 1). */
static const char *ks_rep(char *buf, char c, size_t n)
{
	memset(buf, c, n);
	buf[n] = '\0';
	return buf;
}

/* Print the case "WANT MODULE WORDS". */
static void ks_case(int want, const char *fmt, ...)
{
	char words[KS_LINE_MAX], cmd[KS_LINE_MAX + 8];
	struct ks_cmd parsed;
	const char *why;
	va_list ap;
	int got;

	va_start(ap, fmt);
	vsnprintf(words, sizeof(words), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "trace %s", words);
	got = !ks_cmd_parse(cmd, &parsed, &why);
	printf("%d %d %s\n", want, got, words);
}

int main(void)
{
	char a[KS_LINE_MAX], b[KS_LINE_MAX], c[KS_LINE_MAX];
	unsigned int gap_name = KS_NAME_MAX - 1 - (sizeof(KS_GAP_PREFIX) - 1);

	/* names */
	ks_case(1, "%s", ks_rep(a, 'f', KS_NAME_MAX - 1));
	ks_case(0, "%s", ks_rep(a, 'f', KS_NAME_MAX));
	ks_case(1, "mod_1:sym.part.0-x");
	ks_case(1, "%sf", KS_GAP_PREFIX);
	ks_case(0, "a/b");
	ks_case(0, "a,b");
	ks_case(0, "a=b");
	ks_case(0, "_control");
	ks_case(0, "all");
	ks_case(1, "pcpu:f");
	ks_case(1, "%s gap yes", ks_rep(a, 'g', gap_name));
	ks_case(0, "%s gap yes", ks_rep(a, 'g', gap_name + 1));
	/* bits and buckets */
	ks_case(1, "f bits 0");
	ks_case(1, "f bits %u", KSTATS_BITS_MAX);
	ks_case(0, "f bits %u", KSTATS_BITS_MAX + 1);
	ks_case(0, "f buckets 0");
	ks_case(1, "f buckets 1");
	ks_case(1, "f bits 0 buckets %u", KS_BUCKETS_MAX);
	ks_case(0, "f bits 0 buckets %u", KS_BUCKETS_MAX + 1);
	ks_case(1, "f bits %u buckets %u", KSTATS_BITS_MAX,
		kstats_max_buckets(KSTATS_BITS_MAX));
	ks_case(0, "f bits %u buckets %u", KSTATS_BITS_MAX,
		kstats_max_buckets(KSTATS_BITS_MAX) + 1);
	/* sample, maxactive */
	ks_case(0, "f sample 0");
	ks_case(1, "f sample 1");
	ks_case(1, "f sample %u", KS_SAMPLE_MAX);
	ks_case(0, "f sample %u", KS_SAMPLE_MAX + 1);
	ks_case(0, "f maxactive 0");
	ks_case(1, "f maxactive 1");
	ks_case(1, "f maxactive %u", KS_MAXACTIVE_MAX);
	ks_case(0, "f maxactive %u", KS_MAXACTIVE_MAX + 1);
	/* pid, tgid */
	ks_case(1, "f pid 0");
	ks_case(1, "f pid %u", KS_PID_MAX);
	ks_case(0, "f pid %u", KS_PID_MAX + 1);
	ks_case(0, "f pid -1");
	ks_case(1, "f tgid %u", KS_PID_MAX);
	ks_case(0, "f tgid %u", KS_PID_MAX + 1);
	/* comm, cpus */
	ks_case(1, "f comm %s", ks_rep(a, 'c', KS_COMM_MAX - 1));
	ks_case(0, "f comm %s", ks_rep(a, 'c', KS_COMM_MAX));
	ks_case(1, "f cpus %s", ks_rep(a, '0', KS_CPUS_MAX - 1));
	ks_case(0, "f cpus %s", ks_rep(a, '0', KS_CPUS_MAX));
	/* sections: points are names too */
	ks_case(1, "s start %s end tp:sched:sched_switch", ks_rep(a, 'a', KS_NAME_MAX - 1));
	ks_case(0, "s start %s end b", ks_rep(a, 'a', KS_NAME_MAX));
	ks_case(0, "s start a");
	/* the longest command: every option at its longest value */
	ks_case(1, "%s bits %u buckets %u via kretprobe clock local maxactive %u clones yes sample %u pid %u tgid %u comm %s cpus %s gap yes",
		ks_rep(a, 'L', gap_name), KSTATS_BITS_MAX,
		kstats_max_buckets(KSTATS_BITS_MAX), KS_MAXACTIVE_MAX,
		KS_SAMPLE_MAX, KS_PID_MAX, KS_PID_MAX,
		ks_rep(b, 'c', KS_COMM_MAX - 1), ks_rep(c, '0', KS_CPUS_MAX - 1));
	return 0;
}
