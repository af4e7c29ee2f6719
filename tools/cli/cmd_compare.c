// SPDX-License-Identifier: GPL-2.0
/*
 * kstats compare: snapshots side by side (A B [C...], ks_cmp_table.c),
 * runs a side (A... -- B..., ks_cmp.c), and their labels.
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <kstats/glob.h>
#include "ks_cmp.h"
#include "ks_ctl.h"
#include "ks_export.h"
#include "ks_fmt.h"
#include "ks_load.h"
#include "ks_parse.h"
#include "ks_snap.h"
#include "kstats.h"

/* Row name of a snapshot: its label, else the file name without .json. */
static void ks_label_of(char *buf, size_t len, const struct ks_view *node,
			const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	if (node->meta.label[0]) {
		snprintf(buf, len, "%s", node->meta.label);
		return;
	}
	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".json"))
		n -= 5;
	snprintf(buf, len, "%.*s", (int)n, base);
}

/* Is @labels[@i] one of @labels[0..@n) but itself? */
static int ks_label_twice(const char **labels, int n, int i)
{
	int j;

	for (j = 0; j < n; j++)
		if (j != i && !strcmp(labels[i], labels[j]))
			return 1;
	return 0;
}

/*
 * Rows @from on whose labels came from their snapshots and say the same
 * (two captures of one configuration): named by their file instead, its
 * base name, or the path where base names are the same too.
 */
static void ks_labels_apart(char names[][KS_META_MAX], const char **labels,
			    const struct ks_set *set, int from)
{
	int i, twice[64] = { 0 };
	const char *base;
	size_t n;

	for (i = from; i < set->n; i++)
		twice[i] = ks_label_twice(labels, set->n, i);
	for (i = from; i < set->n; i++) {
		if (!twice[i])
			continue;
		base = strrchr(set->srcs[i], '/');
		base = base ? base + 1 : set->srcs[i];
		n = strlen(base);
		if (n > 5 && !strcmp(base + n - 5, ".json"))
			n -= 5;
		snprintf(names[i], KS_META_MAX, "%.*s", (int)n, base);
	}
	for (i = from; i < set->n; i++)
		twice[i] = twice[i] && ks_label_twice(labels, set->n, i);
	for (i = from; i < set->n; i++)
		if (twice[i])
			snprintf(names[i], KS_META_MAX, "%s", set->srcs[i]);
}

/* Label of a side: --label, else its first snapshot's label or file name. */
static void ks_side_label(char *buf, size_t len, const struct ks_set *set, int from,
			  const char *label)
{
	if (label)
		snprintf(buf, len, "%s", label);
	else
		ks_label_of(buf, len, set->nodes[from], set->srcs[from]);
}

/* Does one of the files hold more than one node? */
static int ks_set_many(const struct ks_set *set)
{
	int i;

	for (i = 1; i < set->n; i++)
		if (set->srcs[i] == set->srcs[i - 1])
			return 1;
	return 0;
}

struct ks_cmp_req {
	const char *labels[64], *files[1024];
	int nl, nf, split;		/* split: the first file after --, or -1 */
	int fmt, force, wide, undisturbed, brief;
	int top;			/* functions a ranked list shows, 0: all */
	int rank_total;			/* --rank total */
	int rank_fig;			/* --rank mean|pNN: its row + 1 */
};

/*
 * compare A... -- B...: the nodes of @set from @split on are the new
 * side; @r: the labels (up to two: base, new), format and --top.
 */
static int ks_compare_sides(struct ks_set *set, int split, const struct ks_cmp_req *r)
{
	const char **labels = (const char **)r->labels;
	int nl = r->nl, fa = r->split >= 0 ? r->split : 1;	/* files a side */
	char la[KS_META_MAX], lb[KS_META_MAX];
	struct ks_cmp_side a, b;

	ks_side_label(la, sizeof(la), set, 0, nl > 0 ? labels[0] : NULL);
	ks_side_label(lb, sizeof(lb), set, split, nl > 1 ? labels[1] : NULL);
	a = (struct ks_cmp_side){ .label = la, .nodes = set->nodes, .srcs = set->srcs, .n = split,
				  .runs = fa, .top = r->top, .rank_total = r->rank_total,
				  .rank_fig = r->rank_fig };
	b = (struct ks_cmp_side){ .label = lb, .nodes = set->nodes + split,
				  .srcs = set->srcs + split, .n = set->n - split,
				  .runs = r->nf - fa };
	return ks_cmp_print(stdout, &a, &b, r->fmt, r->force) ? 1 : 0;
}

/*
 * kstats compare A B [C...] [--label L]... [--markdown] [--force]
 * kstats compare A... -- B... [--label BASE --label NEW] [--markdown|--json] [--force]
 */
/*
 * compare --undisturbed: each node's disturbed calls left out where its
 * histogram kept them apart (slowest K), said in one line per node before
 * the table (on stderr beside --json).  1 when no node kept them apart.
 */
static int ks_leave_disturbed(struct ks_set *set, int json)
{
	char msg[KS_ERR_MAX];
	int i, kept = 0;

	for (i = 0; i < set->n; i++) {
		long long n = ks_view_undisturbed(set->nodes[i]);

		if (n < 0)
			snprintf(msg, sizeof(msg), "undisturbed: %s in %s: none kept apart, compared whole",
				 set->nodes[i]->name, set->srcs[i]);
		else
			snprintf(msg, sizeof(msg), "undisturbed: %s in %s: %lld disturbed call%s left out",
				 set->nodes[i]->name, set->srcs[i], n, n == 1 ? "" : "s");
		kept += n >= 0;
		if (json)
			ks_err("%s", msg);
		else
			puts(msg);
	}
	if (!kept)
		ks_err("compare --undisturbed: no node keeps its disturbed calls apart (kstats trace NAME --slowest K)");
	return !kept;
}

/* What compare was asked for. */

/* The options and files of compare into @r; exits on bad usage; 1 for --help. */
static int ks_compare_args(int argc, char **argv, struct ks_cmp_req *r)
{
	const char *fmt_opt = NULL;
	char err[KS_ERR_MAX];
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			if (r->split >= 0)
				ks_bad_usage("compare", "one -- between the two sides");
			r->split = r->nf;
		} else if (!strcmp(a, "--markdown") || !strcmp(a, "--json") ||
			   !strcmp(a, "--wide")) {
			if (fmt_opt && strcmp(fmt_opt, a)) {
				snprintf(err, sizeof(err), "%s and %s: one output format",
					 fmt_opt, a);
				ks_bad_usage("compare", err);
			}
			fmt_opt = a;
			r->fmt = !strcmp(a, "--json") ? KS_CMP_JSON : KS_CMP_MARKDOWN;
			r->wide = !strcmp(a, "--wide");
			if (r->wide)
				r->fmt = KS_CMP_TEXT;
		} else if (!strcmp(a, "--force")) {
			r->force = 1;
		} else if (!strcmp(a, "--undisturbed")) {
			r->undisturbed = 1;
		} else if (!strcmp(a, "--brief")) {
			r->brief = 1;
		} else if (!strcmp(a, "--rank")) {
			const char *v = ++i < argc ? argv[i] : "";
			int k;

			r->rank_total = !strcmp(v, "total");
			r->rank_fig = !strcmp(v, "mean");
			for (k = 0; k < KSTATS_NR_PCT; k++)
				if (!strcmp(v, kstats_pct_name[k]))
					r->rank_fig = 2 + k;
			if (!r->rank_total && !r->rank_fig && strcmp(v, "change"))
				ks_bad_usage("compare", "--rank takes total, change, mean or a percentile (p10 p50 p90 p95 p98 p99 p99.9)");
		} else if (!strcmp(a, "--all")) {
			r->top = 0;
		} else if (!strcmp(a, "--top")) {
			char *end;

			r->top = ++i < argc ? (int)strtol(argv[i], &end, 10) : -1;
			if (i >= argc || *end || r->top < 1)
				ks_bad_usage("compare", "--top takes a number of functions, 1 or more");
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			ks_help(stdout, "compare");
			return 1;
		} else if (!strcmp(a, "--label") || !strncmp(a, "--label=", 8)) {
			if (r->nl == 64)
				ks_bad_usage("compare", "at most 64 labels");
			if (a[7] == '=')
				r->labels[r->nl++] = a + 8;
			else if (++i < argc)
				r->labels[r->nl++] = argv[i];
			else
				ks_bad_usage("compare", "--label takes a name");
		} else if (a[0] == '-' && a[1]) {
			ks_err("compare: unknown option '%s' (kstats compare --help lists them)", a);
			ks_bad_usage("compare", NULL);
		} else {
			if (r->nf == 1024)
				ks_bad_usage("compare", "at most 1024 snapshots");
			r->files[r->nf++] = a;
		}
	}
	return 0;
}

/* The rules of compare's files and labels; exits on a broken one. */
static void ks_compare_usage(const struct ks_cmp_req *r)
{
	if (!r->nf)
		ks_bad_usage("compare", "snapshot files expected");
	if (r->split == 0 || r->split == r->nf)
		ks_bad_usage("compare", "snapshots expected on both sides of --");
	if (r->split < 0 && r->nf > 64)
		ks_bad_usage("compare", "at most 64 snapshots (A... -- B... takes more)");
	if (r->split >= 0 && r->nl > 2)
		ks_bad_usage("compare", "A... -- B... takes two --label at most (base, new)");
	if (r->split < 0 && r->nl > r->nf)
		ks_bad_usage("compare", "more --label than snapshots");
	if (r->fmt == KS_CMP_JSON && r->split < 0 && r->nf != 2)
		ks_bad_usage("compare", "--json compares two sides: A B, or A... -- B...");
}

/*
 * A B [C...]: one function, one kind of time (or --force, said first),
 * one bits and one unit.  Return: 0, or 1 (printed).
 */
static int ks_compare_same(const struct ks_set *set, int force)
{
	int i, ret = 0;

	for (i = 1; i < set->n; i++)
		if (ks_timing_note(&set->nodes[i]->meta) != ks_timing_note(&set->nodes[0]->meta))
			return !ks_cmp_same_timing(stdout, set->nodes[0], set->srcs[0],
						   set->nodes[i], set->srcs[i], force);
	for (i = 1; i < set->n; i++) {
		const struct ks_view *a = set->nodes[0], *b = set->nodes[i];

		if (!ks_cmp_same_fn(a, set->srcs[0], b, set->srcs[i], force)) {
			ret = 1;
		} else if (a->bits != b->bits) {
			ks_err("compare: %s has bits=%u but %s has bits=%u: their percentiles have different resolution; record both with the same --bits",
			       set->srcs[0], a->bits, set->srcs[i], b->bits);
			ret = 1;
		} else if (strcmp(a->unit, b->unit)) {
			ks_err("compare: %s is in %s but %s is in %s: record both with the same --clock",
			       set->srcs[0], a->unit, set->srcs[i], b->unit);
			ret = 1;
		}
	}
	return ret;
}

/* A B [C...]'s table, its rows named apart.  Return: 0, or 1 (printed). */
static int ks_compare_table(struct ks_set *set, struct ks_cmp_req *r)
{
	char names[64][KS_META_MAX];
	int i, style;

	for (i = r->nl; i < set->n; i++) {
		ks_label_of(names[i], sizeof(names[i]), set->nodes[i], set->srcs[i]);
		r->labels[i] = names[i];
	}
	ks_labels_apart(names, r->labels, set, r->nl);
	style = r->wide ? KS_PRINT_WIDE : r->fmt == KS_CMP_MARKDOWN ? KS_PRINT_MARKDOWN :
		KS_PRINT_PLAIN;
	return ks_cmp_table(stdout, set->nodes, r->labels, set->n,
			    style | (r->brief ? KS_PRINT_BRIEF : 0)) ? 1 : 0;
}

int cmd_compare(int argc, char **argv)
{
	struct ks_cmp_req r = { .split = -1, .fmt = KS_CMP_TEXT, .top = 20 };
	struct ks_set set = { 0 };
	int i, ret = 0, node_split = -1;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--prometheus"))
			return cmd_compare_prom(argc, argv);
	if (ks_compare_args(argc, argv, &r))
		return 0;
	ks_compare_usage(&r);
	for (i = 0; i < r.nf; i++) {
		if (i == r.split || (r.split < 0 && i == 1))
			node_split = set.n;
		if (ks_set_add(&set, r.files[i], 0, 0))
			ret = 1;
	}
	if (!ret && r.undisturbed && ks_leave_disturbed(&set, r.fmt == KS_CMP_JSON))
		ret = 1;
	if (ret)
		goto out;
	if (r.split >= 0 || r.fmt == KS_CMP_JSON || (r.nf == 2 && ks_set_many(&set))) {
		if (r.wide) {
			ks_err("compare: --wide goes with A B [C...] of one function (this table has every row)");
			ret = 2;
		} else {
			ret = ks_compare_sides(&set, node_split, &r);
		}
		goto out;
	}
	if (set.n != r.nf) {
		ks_err("compare: a file holds several nodes: compare two such files (A B), or A... -- B...");
		ret = 1;
		goto out;
	}
	ret = ks_compare_same(&set, r.force) || ks_compare_table(&set, &r);
out:
	ks_set_free(&set);
	return ret;
}
