// SPDX-License-Identifier: GPL-2.0
/*
 * ks_cmp: two sides of runs compared with the statistics of ks_stats.c:
 * a row per figure for one function, functions ranked by change for
 * several, in plain text (72 columns), Markdown or JSON.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ks_callers.h"
#include "ks_cmp.h"
#include "ks_cmp_fn.h"
#include "ks_fmt.h"


/* Can the runs of @fn be merged and compared?  Printed when not. */
static int ks_cmp_check(const struct ks_fn *fn)
{
	const struct ks_view *r0 = fn->na ? fn->ra[0] : fn->rb[0];
	int i;

	for (i = 0; i < fn->na + fn->nb; i++) {
		const struct ks_view *r = i < fn->na ? fn->ra[i] : fn->rb[i - fn->na];

		if (r->bits != r0->bits || r->buckets != r0->buckets) {
			ks_err("compare: %s: runs with bits=%u and bits=%u: record all with the same --bits",
			       fn->name, r0->bits, r->bits);
			return -1;
		}
		if (strcmp(r->unit, r0->unit)) {
			ks_err("compare: %s: runs in %s and in %s: record all with the same --clock",
			       fn->name, r0->unit, r->unit);
			return -1;
		}
	}
	return 0;
}

/* The rows of @fn (both sides present). */
static void ks_cmp_rows(struct ks_fn *fn)
{
	double *ma = calloc(fn->na, sizeof(double)), *mb = calloc(fn->nb, sizeof(double));
	double *pa = calloc((size_t)fn->na * KSTATS_NR_PCT, sizeof(double));
	double *pb = calloc((size_t)fn->nb * KSTATS_NR_PCT, sizeof(double));
	const struct ks_view *r0 = fn->ra[0];
	__u64 pct[KSTATS_NR_PCT];
	int i, k;

	if (!ma || !mb || !pa || !pb)
		goto out;
	for (i = 0; i < fn->na + fn->nb; i++) {
		const struct ks_view *r = i < fn->na ? fn->ra[i] : fn->rb[i - fn->na];
		int j = i < fn->na ? i : i - fn->na;
		double *p = i < fn->na ? pa : pb;

		(i < fn->na ? ma : mb)[j] = (double)r->avg;
		kstats_percentiles(r->total, r->nr_slots, r->bits, pct);
		for (k = 0; k < KSTATS_NR_PCT; k++)
			p[k * (i < fn->na ? fn->na : fn->nb) + j] = (double)pct[k];
	}
	{
		struct ks_pct_side a = { fn->ma, ma, fn->na, fn->bounds };
		struct ks_pct_side b = { fn->mb, mb, fn->nb, fn->bounds };

		ks_row_mean(&a, &b, r0->nr_slots, r0->bits, &fn->rows[0]);
	}
	for (k = 0; k < KSTATS_NR_PCT; k++) {
		struct ks_pct_side a = { fn->ma, pa + k * fn->na, fn->na, fn->bounds };
		struct ks_pct_side b = { fn->mb, pb + k * fn->nb, fn->nb, fn->bounds };

		ks_row_pct(&a, &b, r0->nr_slots, r0->bits, kstats_pct_milli[k],
			   &fn->rows[1 + k]);
	}
	fn->key = fn->na >= KS_STATS_MIN_RUNS && fn->nb >= KS_STATS_MIN_RUNS ?
		  0 : 1 + KSTATS_P50;
out:
	free(ma);
	free(mb);
	free(pa);
	free(pb);
}

/*
 * Changes with a verdict (better, worse, with or without '?') first, then
 * those not measurable, each larger change first; functions missing on a
 * side last.  A not-measurable change of one outlying run never hides a
 * measured one.
 */
static int ks_cmp_rank(const void *x, const void *y)
{
	const struct ks_fn *a = x, *b = y;
	int ma = !a->na || !a->nb, mb = !b->na || !b->nb, va, vb;
	double ca, cb;

	if (ma != mb)
		return ma - mb;
	if (ma)
		return strcmp(a->name, b->name);
	va = a->rows[a->key].verdict != KS_NOT_MEASURABLE;
	vb = b->rows[b->key].verdict != KS_NOT_MEASURABLE;
	if (va != vb)
		return vb - va;
	ca = fabs(a->rows[a->key].change_pct);
	cb = fabs(b->rows[b->key].change_pct);
	if (ca != cb)
		return ca < cb ? 1 : -1;
	return strcmp(a->name, b->name);
}

/*
 * A change with a verdict (better, worse, with or without '?'), or a
 * function on one side only.
 */
static int ks_cmp_decided(const struct ks_fn *f)
{
	return !f->na || !f->nb || f->rows[f->key].verdict != KS_NOT_MEASURABLE;
}

/*
 * --rank total: where the cost went in absolute terms.  Changes with a
 * verdict and functions on one side only first, then those not
 * measurable, each the larger change of total time per run (calls x
 * mean) first; a function on one side only counts its whole total.  The
 * total of what sleeps (schedule(), a wait) moves with the workload's
 * timing, run to run, and must not hide a measured change.
 */
static int ks_cmp_rank_total(const void *x, const void *y)
{
	const struct ks_fn *a = x, *b = y;
	double da = fabs(a->total_b - a->total_a), db = fabs(b->total_b - b->total_a);
	int va = ks_cmp_decided(a), vb = ks_cmp_decided(b);

	if (va != vb)
		return vb - va;
	if (da != db)
		return da < db ? 1 : -1;
	return strcmp(a->name, b->name);
}

/* ---- cells ---- */

/* @v in scale @sc: integers in the node's unit, else 3 significant digits. */
static char *ks_num(char *buf, double v, const struct ks_scale *sc)
{
	double x = v / (double)sc->div;

	if (sc->div == 1 && (x >= 1000 || x == floor(x)))
		snprintf(buf, KS_CELL, "%.0f", x);
	else if (x < 9.995)
		snprintf(buf, KS_CELL, "%.2f", x);
	else if (x < 99.95 || sc->div == 1)
		snprintf(buf, KS_CELL, "%.1f", x);
	else
		snprintf(buf, KS_CELL, "%.0f", x);
	return buf;
}

static char *ks_sd(char *buf, double sd)
{
	if (sd < 0)
		snprintf(buf, KS_CELL, "-");
	else
		snprintf(buf, KS_CELL, "%.1f%%", sd);
	return buf;
}

#define KS_BOUND	20

static char *ks_bound(char *buf, double x)
{
	if (isinf(x))
		snprintf(buf, KS_BOUND, "%sinf", x < 0 ? "-" : "+");
	else
		snprintf(buf, KS_BOUND, fabs(x) < 99.95 ? "%+.1f" : "%+.0f", x);
	return buf;
}

/* "[-3.1,+7.6]", or "-" when a side has no samples. */
static char *ks_bounds(char *buf, const struct ks_row *r)
{
	char lo[KS_BOUND], hi[KS_BOUND];

	if (r->why & KS_WHY_EMPTY)
		snprintf(buf, KS_CELL, "-");
	else
		snprintf(buf, KS_CELL, "[%s,%s]", ks_bound(lo, r->change_ci.lo),
			 ks_bound(hi, r->change_ci.hi));
	return buf;
}

static char *ks_change(char *buf, const struct ks_row *r)
{
	if (r->why & KS_WHY_EMPTY || !r->base)
		snprintf(buf, KS_CELL, "-");
	else
		snprintf(buf, KS_CELL, "%+.1f%%", r->change_pct);
	return buf;
}

/* ---- the notes under a table ---- */

/* One note: "# TEXT" wrapped at 72 columns in text, "TEXT  " (a Markdown line break) else. */
static void ks_note(FILE *f, int md, const char *text)
{
	if (md)
		fprintf(f, "%s  \n", text);
	else
		ks_print_wrapped(f, "# ", "# ", text, 72);
}

/*
 * The notes every table ends with, one paragraph: what change, bounds
 * (@detail: the table prints them) and the verdict words mean; runs,
 * bimodality; the precision of re-binned histograms.
 */
static void ks_cmp_notes(FILE *f, int md, const struct ks_cmp_side *a,
			 const struct ks_fn *fns, int n, int detail)
{
	unsigned int why = 0;
	char buf[2048];
	int i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < KS_CMP_ROWS && fns[i].na && fns[i].nb; k++)
			why |= fns[i].rows[k].why;
	snprintf(buf, sizeof(buf), "lower is better; change: new vs base;%s better, worse: %s do not overlap",
		 detail ? " +-sd: run-to-run stddev; bounds: where both 95% intervals hold;" : "",
		 detail ? "they" : "the 95% intervals");
	if (why & KS_WHY_FEW_RUNS)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
			 "; with ?: under %d runs a side, noise unknown", KS_STATS_MIN_RUNS);
	snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " (docs/statistics.md)");
	for (i = 0; i < n; i++) {
		unsigned int w = fns[i].na && fns[i].nb ? fns[i].rows[0].why : 0;

		if (!(w & (KS_WHY_BIMODAL_A | KS_WHY_BIMODAL_B)))
			continue;
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
			 "; %s: the run means of %s are bimodal (two groups)", fns[i].name,
			 (w & KS_WHY_BIMODAL_A) && (w & KS_WHY_BIMODAL_B) ? "both sides" :
			 w & KS_WHY_BIMODAL_A ? "base" : "new");
	}
	if (a->precision)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "; %s", a->precision);
	if (md)
		fprintf(f, "\n%s.\n", buf);
	else
		ks_note(f, 0, buf);
}

/* ---- one function: a row per figure ---- */

static void ks_cmp_detail(FILE *f, const struct ks_cmp_side *a,
			  const struct ks_cmp_side *b, const struct ks_fn *fn, int md)
{
	static const char * const head[] = {
		"figure", "base", "+-sd", "change", "new", "+-sd", "95% bounds", "verdict",
	};
	char cell[KS_CMP_ROWS][8][KS_CELL], unit[64];
	int w[8], i, c;
	struct ks_scale sc;

	ks_scale_pick(&sc, (__u64)fn->rows[1 + KSTATS_P50].base, fn->ra[0]->unit);
	ks_unit_words(unit, sizeof(unit), &sc, ks_side_icount(a) && ks_side_icount(b));
	for (i = 0; i < KS_CMP_ROWS; i++) {
		const struct ks_row *r = &fn->rows[i];

		snprintf(cell[i][0], KS_CELL, "%s", ks_row_name(i));
		ks_num(cell[i][1], r->base, &sc);
		ks_sd(cell[i][2], r->base_sd_pct);
		ks_change(cell[i][3], r);
		ks_num(cell[i][4], r->new, &sc);
		ks_sd(cell[i][5], r->new_sd_pct);
		ks_bounds(cell[i][6], r);
		snprintf(cell[i][7], KS_CELL, "%s", ks_row_verdict(r));
	}
	if (md) {
		fprintf(f, "**%s**: latency per call in %s, lower is better; base **%s** (%d run%s), new **%s** (%d run%s).\n\n",
			fn->name, unit, a->label, fn->na, fn->na == 1 ? "" : "s",
			b->label, fn->nb, fn->nb == 1 ? "" : "s");
		fputs("| figure | base | ±sd | change | new | ±sd | 95% bounds of the change | verdict |\n"
		      "|:--|--:|--:|--:|--:|--:|:-:|:--|\n", f);
		for (i = 0; i < KS_CMP_ROWS; i++) {
			for (c = 0; c < 8; c++)
				fprintf(f, "| %s ", cell[i][c]);
			fputs("|\n", f);
		}
	} else {
		char line[4 * KS_META_MAX];

		snprintf(line, sizeof(line), "%s: latency per call in %s; lower is better",
			 fn->name, unit);
		ks_note(f, 0, line);
		snprintf(line, sizeof(line), "base: %s, %d run%s;", a->label, fn->na,
			 fn->na == 1 ? "" : "s");
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "%snew: %s, %d run%s", strlen(line) + strlen(b->label) + 14 > 70 ?
			 "\n# " : " ", b->label, fn->nb, fn->nb == 1 ? "" : "s");
		fprintf(f, "# %s\n", line);
		for (c = 0; c < 8; c++) {
			w[c] = (int)strlen(head[c]);
			for (i = 0; i < KS_CMP_ROWS; i++)
				if ((int)strlen(cell[i][c]) > w[c])
					w[c] = (int)strlen(cell[i][c]);
		}
		for (i = -1; i < KS_CMP_ROWS; i++) {
			for (c = 0; c < 8; c++) {
				const char *t = i < 0 ? head[c] : cell[i][c];

				if (c == 0 || c >= 6)
					fprintf(f, "%s%-*s", c ? "  " : "", c == 7 ? 0 : w[c], t);
				else
					fprintf(f, " %*s", w[c] + (c == 1 || c == 3 ? 1 : 0), t);
			}
			fputc('\n', f);
		}
	}
	ks_cmp_notes(f, md, a, fn, 1, 1);
}

/* ---- several functions: ranked by change ---- */

/* count, p50, p99, total of one side of @fn into @c[0..3]. */
static void ks_cmp_side_cells(char c[4][KS_CELL], const struct ks_fn *fn, int side)
{
	const struct ks_view *r0 = side ? fn->rb[0] : fn->ra[0];
	int n = side ? fn->nb : fn->na;
	double count = side ? fn->count_b : fn->count_a;
	double total = side ? fn->total_b : fn->total_a;
	const struct kstats_slot *m = side ? fn->mb : fn->ma;
	__u64 t;

	if (!n) {	/* on the other side only: no node here */
		strcpy(c[0], "-");
		strcpy(c[1], "-");
		strcpy(c[2], "-");
		strcpy(c[3], "-");
		return;
	}
	t = kstats_total(m, r0->nr_slots);
	snprintf(c[0], KS_CELL, "%.0f", count);
	ks_fmt_value(c[1], KS_CELL, kstats_percentile(m, r0->nr_slots, r0->bits, t, 500),
		     r0->unit);
	ks_fmt_value(c[2], KS_CELL, kstats_percentile(m, r0->nr_slots, r0->bits, t, 990),
		     r0->unit);
	ks_fmt_value(c[3], KS_CELL, (__u64)total, r0->unit);
}

/* Say which functions the ranked list leaves out: past --top, never called. */
static void ks_cmp_unlisted(FILE *f, int md, int more, int idle)
{
	char buf[256] = "";

	if (more)
		snprintf(buf, sizeof(buf), "%d more functions called, ranked below these: --all lists them", more);
	if (idle)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%d called on neither side, not listed",
			 more ? "; " : "", idle);
	if (!buf[0])
		return;
	if (md)
		fprintf(f, "\n%s.\n", buf);
	else
		ks_note(f, 0, buf);
}

/* What a ranked list is ranked by, in words. */
static const char *ks_cmp_rank_words(const struct ks_cmp_side *a, int judged_mean)
{
	if (a->rank_total)
		return "total time (count x mean)";
	if (a->rank_fig)
		return a->rank_fig == 1 ? "the mean" : ks_row_name(a->rank_fig - 1);
	return judged_mean ? "the mean" : "p50 (the mean from 3 runs a side)";
}

static void ks_cmp_ranked(FILE *f, const struct ks_cmp_side *a,
			  const struct ks_cmp_side *b, const struct ks_fn *fns, int n, int md)
{
	char ca[4][KS_CELL], cb[4][KS_CELL], chg[KS_CELL], first[2 * KS_CELL];
	int i, k, judged_mean = 1, nw = 24;	/* "  +220.0% not measurable" */
	int idle = 0, called, shown = 0;
	const char *icount = ks_side_icount(a) && ks_side_icount(b) ?
			     "; times in " KS_ICOUNT_NOTE : "";

	for (i = 0; i < n; i++) {
		if (fns[i].na && fns[i].nb && fns[i].key)
			judged_mean = 0;
		if ((int)strlen(fns[i].name) > nw)
			nw = (int)strlen(fns[i].name);
		idle += !fns[i].count_a && !fns[i].count_b;
	}
	called = n - idle;
	if (nw > 30)
		nw = 30;
	if (md) {
		fprintf(f, "**%d functions**, ranked by the change of %s; lower is better; base **%s**, new **%s**; count and total time per run%s.\n\n",
			called, ks_cmp_rank_words(a, judged_mean), a->label, b->label, icount);
		fputs("| function | count base | count new | p50 base | p50 new | p99 base | p99 new | total base | total new | change | verdict |\n"
		      "|:--|--:|--:|--:|--:|--:|--:|--:|--:|--:|:--|\n", f);
	} else {
		char line[4 * KS_META_MAX];

		snprintf(line, sizeof(line), "%d functions, ranked by the change of %s; lower is better.  First line: base (%s), second: new (%s); count and total time: per run%s",
			 called, ks_cmp_rank_words(a, judged_mean), a->label, b->label, icount);
		ks_note(f, 0, line);
		fprintf(f, "%-*s %9s %9s %9s %9s\n", nw, "function / change", "count", "p50",
			"p99", "total");
	}
	for (i = 0; i < n; i++) {
		const struct ks_fn *fn = &fns[i];
		const struct ks_row *r = &fn->rows[fn->key];
		int both = fn->na && fn->nb;

		/* called on neither side (a whole kernel's most), or past --top */
		if ((!fn->count_a && !fn->count_b && called) ||
		    (a->top && shown++ >= a->top))
			continue;
		ks_cmp_side_cells(ca, fn, 0);
		ks_cmp_side_cells(cb, fn, 1);
		if (both)
			snprintf(first, sizeof(first), "%s %s", ks_change(chg, r),
				 ks_row_verdict(r));
		else
			snprintf(first, sizeof(first), "only in %s", fn->na ? "base" : "new");
		if (md) {
			fprintf(f, "| %s |", fn->name);
			for (k = 0; k < 4; k++)
				fprintf(f, " %s | %s |", ca[k], cb[k]);
			fprintf(f, " %s | %s |\n", both ? ks_change(chg, r) : "-",
				both ? ks_row_verdict(r) : first);
			continue;
		}
		if ((int)strlen(fn->name) > nw)
			fprintf(f, "%s\n%-*s", fn->name, nw, "");
		else
			fprintf(f, "%-*s", nw, fn->name);
		fprintf(f, " %9s %9s %9s %9s\n", ca[0], ca[1], ca[2], ca[3]);
		fprintf(f, "  %-*s %9s %9s %9s %9s\n", nw - 2, first, cb[0], cb[1], cb[2], cb[3]);
	}
	ks_cmp_unlisted(f, md, a->top && called > a->top ? called - a->top : 0,
			called ? idle : 0);
	ks_cmp_notes(f, md, a, fns, n, 0);
}

int ks_cmp_pair(struct ks_view *a, struct ks_view *b, struct ks_row rows[KS_CMP_ROWS])
{
	struct ks_fn fn = { .name = b->name, .ra = &a, .rb = &b, .na = 1, .nb = 1 };

	fn.ma = ks_cmp_merge(fn.ra, 1, 1, &fn.count_a, &fn.total_a);
	fn.mb = ks_cmp_merge(fn.rb, 1, 1, &fn.count_b, &fn.total_b);
	if (!fn.ma || !fn.mb) {
		free(fn.ma);
		free(fn.mb);
		ks_err("compare: out of memory");
		return -1;
	}
	ks_cmp_rows(&fn);
	memcpy(rows, fn.rows, sizeof(fn.rows));
	free(fn.ma);
	free(fn.mb);
	return 0;
}

int ks_cmp_same_fn(const struct ks_view *a, const char *sa, const struct ks_view *b,
		   const char *sb, int force)
{
	if (force || !strcmp(a->name, b->name) ||
	    (a->symbols && b->symbols && a->symbols[0] && !strcmp(a->symbols, b->symbols)))
		return 1;
	ks_err("compare: %s is %s but %s is %s: different functions (--force compares them)",
	       sa, a->name, sb, b->name);
	return 0;
}

int ks_cmp_same_timing(FILE *f, const struct ks_view *a, const char *sa,
		       const struct ks_view *b, const char *sb, int force)
{
	int ia = ks_timing_note(&a->meta) != NULL, ib = ks_timing_note(&b->meta) != NULL;
	const char *ni = ia ? sa : sb, *nc = ia ? sb : sa;

	if (ia == ib)
		return 1;
	if (!force) {
		ks_err("compare: %s was timed under QEMU -icount (instructions) but %s by a clock (ns): not comparable (--force compares them)",
		       ni, nc);
		return 0;
	}
	if (f) {
		char buf[2 * KS_META_MAX + 128];

		snprintf(buf, sizeof(buf), "forced: %s counts QEMU -icount instructions, %s clock ns: not comparable",
			 ni, nc);
		ks_print_wrapped(f, "", "  ", buf, KS_MAIL_WIDTH);
	} else
		ks_err("forced: %s counts QEMU -icount instructions, %s clock ns: not comparable",
		       ni, nc);
	return 1;
}

/* The one function every node of @s is, or NULL when several. */
static const char *ks_cmp_one_fn(const struct ks_cmp_side *s)
{
	int i;

	for (i = 1; i < s->n; i++)
		if (strcmp(s->nodes[i]->name, s->nodes[0]->name))
			return NULL;
	return s->n ? s->nodes[0]->name : NULL;
}

int ks_cmp_print(FILE *f, const struct ks_cmp_side *a, const struct ks_cmp_side *b,
		 int fmt, int force)
{
	const char *fa = ks_cmp_one_fn(a), *fb = ks_cmp_one_fn(b), *paired = NULL;
	char both[2 * KS_NAME_MAX + 8];
	struct ks_fn *fns;
	int i, j, n = 0, ret = 0, common = 0;

	/* one kind of time (or --force, said first) */
	for (i = 1; i < a->n + b->n; i++) {
		const struct ks_view *o = i < a->n ? a->nodes[i] : b->nodes[i - a->n];

		if (ks_timing_note(&o->meta) != ks_timing_note(&a->nodes[0]->meta)) {
			if (!ks_cmp_same_timing(fmt == KS_CMP_JSON ? NULL : f,
						a->nodes[0], a->srcs[0], o,
						i < a->n ? a->srcs[i] : b->srcs[i - a->n], force))
				return -1;
			break;
		}
	}
	/* one function a side, two names: the same one (or --force) */
	if (fa && fb && strcmp(fa, fb)) {
		if (!ks_cmp_same_fn(a->nodes[0], a->srcs[0], b->nodes[0], b->srcs[0], force))
			return -1;
		paired = fb;
		snprintf(both, sizeof(both), "%s vs %s", fa, fb);
	}
	fns = calloc(a->n + b->n, sizeof(*fns));
	if (!fns)
		return -1;
	if (paired) {
		fns[0].name = both;
		fns[0].na = ks_cmp_runs(a, fa, &fns[0].ra);
		fns[0].nb = ks_cmp_runs(b, paired, &fns[0].rb);
		n = 1;
		ret = fns[0].ra && fns[0].rb ? 0 : -1;
	} else {
		ret = ks_cmp_index(a, b, fns, &n);
	}
	for (j = 0; j < n && !ret; j++) {
		struct ks_fn *fn = &fns[j];

		fn->bounds = a->bounds;
		if (ks_cmp_check(fn)) {
			ret = -1;
			break;
		}
		fn->ma = ks_cmp_merge(fn->ra, fn->na, a->runs, &fn->count_a, &fn->total_a);
		fn->mb = ks_cmp_merge(fn->rb, fn->nb, b->runs, &fn->count_b, &fn->total_b);
		if (fn->na && fn->nb) {
			ks_cmp_rows(fn);
			if (a->rank_fig)
				fn->key = a->rank_fig - 1;
			common++;
		}
	}
	if (ret)
		goto out;
	if (!common) {
		ks_err("compare: no function is on both sides");
		ret = -1;
		goto out;
	}
	qsort(fns, n, sizeof(*fns), a->rank_total ? ks_cmp_rank_total : ks_cmp_rank);
	if (fmt == KS_CMP_JSON)
		ks_cmp_json_print(f, a, b, fns, n);
	else if (n == 1)
		ks_cmp_detail(f, a, b, &fns[0], fmt == KS_CMP_MARKDOWN);
	else
		ks_cmp_ranked(f, a, b, fns, n, fmt == KS_CMP_MARKDOWN);
out:
	for (i = 0; i < n; i++) {
		free(fns[i].ra);
		free(fns[i].rb);
		free(fns[i].ma);
		free(fns[i].mb);
	}
	free(fns);
	return ret;
}
