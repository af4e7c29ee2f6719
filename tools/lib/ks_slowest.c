// SPDX-License-Identifier: GPL-2.0
/*
 * ks_slowest: the slowest calls of a node traced with "slowest K"
 * (docs/format.md): the node text's
 *
 *   # disturbed N switched S interrupted I
 *   # slow R time V cpu C pid P at T by WHY comm COMM caller SITE
 *   # stack R FRAME
 *
 * lines, read into the node (their table: ks_callers.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_fmt.h"
#include "ks_slowest.h"

int ks_slow_check(const struct ks_view *node, char *why, size_t len)
{
	const struct ks_slow *c = &node->slow[node->nr_slow - 1];

	if (strcmp(c->by, KS_BY_NONE) && strcmp(c->by, KS_BY_SWITCH) &&
	    strcmp(c->by, KS_BY_IRQ)) {
		snprintf(why, len, "by '%s' is not %s, %s or %s", c->by, KS_BY_NONE,
			 KS_BY_SWITCH, KS_BY_IRQ);
		return -1;
	}
	if (node->nr_slow > 1 && c->time > c[-1].time) {
		snprintf(why, len, "slower than the one before it");
		return -1;
	}
	return 0;
}

/* "disturbed N switched S interrupted I" */
static int ks_parse_disturbed(const struct ks_errbuf *e, int line,
			      struct ks_view *node, char **tok, int ntok)
{
	__u64 n;

	if (ntok < 6 || ks_parse_u64(tok[1], &n) ||
	    strcmp(tok[2], KS_DISTURBED_SWITCH) || ks_parse_u64(tok[3], &node->switched) ||
	    strcmp(tok[4], KS_DISTURBED_IRQ) || ks_parse_u64(tok[5], &node->interrupted))
		return ks_fail(e, line, "'# %s' needs N %s S %s I", KS_LINE_DISTURBED,
			       KS_DISTURBED_SWITCH, KS_DISTURBED_IRQ);
	if (n != node->switched + node->interrupted)
		return ks_fail(e, line, "'# %s %llu' is not %llu %s + %llu %s",
			       KS_LINE_DISTURBED, (unsigned long long)n,
			       (unsigned long long)node->switched, KS_DISTURBED_SWITCH,
			       (unsigned long long)node->interrupted, KS_DISTURBED_IRQ);
	return 0;
}

/* "slow R time V cpu C pid P at T by WHY comm COMM caller SITE..." */
static int ks_parse_slow_call(const struct ks_errbuf *e, int line,
			      struct ks_view *node, char **tok, int ntok)
{
	static const char * const keys[] = {
		KS_SLOW_TIME, KS_SLOW_CPU, KS_SLOW_PID, KS_SLOW_AT, KS_SLOW_BY,
		KS_SLOW_COMM
	};
	struct ks_slow *c;
	__u64 rank, v[4] = { 0 };
	int i, k, seen = 0;
	char why[96];

	if (ntok < 2 || ks_parse_u64(tok[1], &rank) || rank != node->nr_slow)
		return ks_fail(e, line, "'# %s' out of order: rank %s where %u comes next",
			       KS_LINE_SLOW, ntok < 2 ? "" : tok[1], node->nr_slow);
	if (node->slowest_k && node->nr_slow >= node->slowest_k)
		return ks_fail(e, line, "more '# %s' lines than slowest=%u", KS_LINE_SLOW,
			       node->slowest_k);
	c = ks_view_slow(node);
	if (!c)
		return ks_fail(e, line, "more than %d '# %s' lines, or out of memory",
			       KS_SLOWEST_MAX, KS_LINE_SLOW);
	for (i = 2; i + 1 < ntok && strcmp(tok[i], KS_SLOW_CALLER); i += 2) {
		for (k = 0; k < 6 && strcmp(tok[i], keys[k]); k++)
			;
		if (k < 4) {
			if (ks_parse_u64(tok[i + 1], &v[k]))
				return ks_fail(e, line, "bad number '%s' for '%s'",
					       tok[i + 1], tok[i]);
		} else if (k < 6) {
			char *dst = k == 4 ? c->by : c->comm;
			size_t len = k == 4 ? sizeof(c->by) : sizeof(c->comm);

			if (strlen(tok[i + 1]) >= len)
				return ks_fail(e, line, "'%s' too long", tok[i]);
			strcpy(dst, tok[i + 1]);
		}
		if (k < 6)
			seen |= 1 << k;
	}
	if (seen != 0x3f || i >= ntok || strcmp(tok[i], KS_SLOW_CALLER))
		return ks_fail(e, line, "'# %s' without time, cpu, pid, at, by, comm and caller",
			       KS_LINE_SLOW);
	if (v[1] > 0xffffffffULL || v[2] > KS_PID_MAX)
		return ks_fail(e, line, "'# %s': cpu or pid out of range", KS_LINE_SLOW);
	c->time = v[0];
	c->cpu = (__u32)v[1];
	c->pid = (__s32)v[2];
	c->at = v[3];
	if (ks_slow_check(node, why, sizeof(why)))
		return ks_fail(e, line, "'# %s %llu': %s", KS_LINE_SLOW,
			       (unsigned long long)rank, why);
	if (ks_join_words(c->caller, sizeof(c->caller), tok, i + 1, ntok))
		return ks_fail(e, line, "'# %s': no caller, or too long", KS_LINE_SLOW);
	return 0;
}

int ks_parse_slow(const struct ks_errbuf *e, int line, struct ks_view *node,
		  char **tok, int ntok)
{
	char frame[KS_SITE_MAX];
	__u64 rank;

	if (!strcmp(tok[0], KS_LINE_DISTURBED))
		return ks_parse_disturbed(e, line, node, tok, ntok);
	if (!strcmp(tok[0], KS_LINE_SLOW))
		return ks_parse_slow_call(e, line, node, tok, ntok);
	/* "stack R FRAME...": of the last "# slow" line */
	if (ntok < 3 || ks_parse_u64(tok[1], &rank) || !node->nr_slow ||
	    rank != node->nr_slow - 1)
		return ks_fail(e, line, "'# %s' not after its '# %s' line", KS_LINE_STACK,
			       KS_LINE_SLOW);
	if (ks_join_words(frame, sizeof(frame), tok, 2, ntok) ||
	    ks_slow_frame(&node->slow[rank], frame))
		return ks_fail(e, line, "'# %s': more than %d frames, or one too long",
			       KS_LINE_STACK, KS_STACK_MAX);
	return 0;
}

void ks_print_slowest(FILE *f, const struct ks_view *node, int how)
{
	int markdown = how & KS_TBL_MARKDOWN;
	int vw = ks_value_width(node->unit);
	char t[32], at[32], head[KS_NAME_MAX + 160];
	__u32 i, j;

	snprintf(head, sizeof(head), "the %u slowest of %llu calls (slowest %u), slowest first",
		 node->nr_slow, (unsigned long long)node->samples, node->slowest_k);
	ks_print_heading(f, node, markdown, head);
	fprintf(f, "disturbed since the reset: %llu call%s, %llu switched, %llu interrupted\n",
		(unsigned long long)(node->switched + node->interrupted),
		node->switched + node->interrupted == 1 ? "" : "s",
		(unsigned long long)node->switched, (unsigned long long)node->interrupted);
	if (markdown)
		fprintf(f, "\n| # | time | cpu | pid | comm | at (s) | by | caller |\n"
			"|--:|--:|--:|--:|---|--:|---|---|\n");
	else
		fprintf(f, "%3s %*s %4s %7s %-16s %12s %s\n", "#", vw, "time", "cpu",
			"pid", "comm", "at (s)", "by");
	for (i = 0; i < node->nr_slow; i++) {
		const struct ks_slow *c = &node->slow[i];

		ks_fmt_value(t, sizeof(t), c->time, node->unit);
		snprintf(at, sizeof(at), "%.6f", (double)c->at / 1e9);
		if (markdown) {
			fprintf(f, "| %u | %s | %u | %d | %s | %s | %s | `%s` |\n", i, t,
				c->cpu, c->pid, c->comm, at, c->by, c->caller);
			continue;
		}
		fprintf(f, "%3u %*s %4u %7d %-16s %12s %s\n", i, vw, t, c->cpu, c->pid,
			c->comm, at, c->by);
		for (j = 0; j < c->nr_frames; j++)
			fprintf(f, "    %s\n", c->frames[j]);
		if (!c->nr_frames)
			fprintf(f, "    %s\n", c->caller);
	}
	if (!markdown)
		return;
	for (i = 0; i < node->nr_slow; i++) {
		fprintf(f, "\nCall %u's stack:\n\n", i);
		for (j = 0; j < node->slow[i].nr_frames; j++)
			fprintf(f, "    %s\n", node->slow[i].frames[j]);
	}
}
