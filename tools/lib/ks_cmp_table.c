// SPDX-License-Identifier: GPL-2.0
/*
 * ks_cmp_table: kstats compare A B [C...] of one function: a row per
 * snapshot, under each later one its change against the first and, per
 * figure, the verdict of one run a side (ks_cmp_pair()); plain text in 72
 * columns, --wide in 80, or Markdown; the notes folded into 3 lines.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ks_callers.h"
#include "ks_cmp.h"
#include "ks_fmt.h"

#define KS_TBL_MAX	64
#define KS_TBL_COLS	(2 + KSTATS_NR_PCT)	/* count, missed, percentiles */
#define KS_TBL_CELL	32
#define KS_NOTE_LINES	3	/* the notes under a table, at most */

struct ks_tbl {
	struct ks_view *const *nodes;
	const char *const *labels;
	const char *rows[KS_TBL_MAX];		/* labels, or A, B... */
	char shortl[KS_TBL_MAX][8];
	char val[KS_TBL_MAX][KS_TBL_COLS][KS_TBL_CELL];
	char chg[KS_TBL_MAX][KS_TBL_COLS][KS_TBL_CELL];
	const char *mark[KS_TBL_MAX][KS_TBL_COLS];	/* verdict per figure */
	int width[KS_TBL_COLS], lw, sep, max_w, n, style, brief;
	int show_missed, same_name, icount;
	double precision;			/* % */
	struct ks_scale sc;
};

static const char *const ks_tbl_head[KS_TBL_COLS] = { "count", "missed" };

static const char *ks_tbl_name(int k)
{
	return k < 2 ? ks_tbl_head[k] : kstats_pct_name[k - 2];
}

/* Is column @k (count, missed, then the percentiles) printed? */
static int ks_tbl_col(const struct ks_tbl *t, int k)
{
	if (k == 1)
		return t->show_missed && t->style != KS_PRINT_PLAIN;
	if (t->style != KS_PRINT_PLAIN || k < 2)
		return 1;
	return k - 2 != KSTATS_P95 && k - 2 != KSTATS_P98;
}

/* The width of a plain or wide table with row names @lw wide. */
static int ks_tbl_width(const struct ks_tbl *t, int lw, int sep)
{
	int k, w = lw;

	for (k = 0; k < KS_TBL_COLS; k++)
		if (ks_tbl_col(t, k))
			w += sep + t->width[k];
	return w;
}

/* Values, changes and verdicts of every node; 0, or -1 (printed). */
static int ks_tbl_fill(struct ks_tbl *t)
{
	struct ks_row rows[KS_CMP_ROWS];
	int i, k;

	ks_scale_pick(&t->sc, t->nodes[0]->pct[KSTATS_P50], t->nodes[0]->unit);
	t->precision = t->nodes[0]->precision_ppm / 10000.0;
	t->same_name = 1;
	t->icount = 1;
	for (i = 0; i < t->n; i++) {
		const struct ks_view *v = t->nodes[i], *b = t->nodes[0];

		t->show_missed |= v->missed != 0;
		t->same_name &= !strcmp(v->name, b->name);
		t->icount &= ks_timing_note(&v->meta) != NULL;
		t->rows[i] = t->labels[i];
		snprintf(t->val[i][0], KS_TBL_CELL, "%llu", (unsigned long long)v->samples);
		snprintf(t->val[i][1], KS_TBL_CELL, "%llu", (unsigned long long)v->missed);
		if (i && ks_cmp_pair(t->nodes[0], t->nodes[i], rows))
			return -1;
		for (k = 0; k < KS_TBL_COLS; k++) {
			t->mark[i][k] = "";
			t->chg[i][k][0] = '\0';
			if (k < 2)
				continue;
			if (v->samples)
				ks_fmt_scaled(t->val[i][k], KS_TBL_CELL, v->pct[k - 2], &t->sc);
			else
				strcpy(t->val[i][k], "-");
			if (!i)
				continue;
			if (!b->samples || !v->samples) {
				strcpy(t->chg[i][k], "-");
				t->mark[i][k] = "-";
				continue;
			}
			ks_fmt_change(t->chg[i][k], KS_TBL_CELL, v->pct[k - 2],
				      b->pct[k - 2], t->precision);
			t->mark[i][k] = ks_row_mark(&rows[1 + k - 2]);
		}
	}
	return 0;
}

static void ks_tbl_widths(struct ks_tbl *t)
{
	int i, k;

	for (k = 0; k < KS_TBL_COLS; k++) {
		t->width[k] = (int)strlen(ks_tbl_name(k));
		for (i = 0; i < t->n; i++) {
			if ((int)strlen(t->val[i][k]) > t->width[k])
				t->width[k] = (int)strlen(t->val[i][k]);
			if ((int)strlen(t->chg[i][k]) > t->width[k])
				t->width[k] = (int)strlen(t->chg[i][k]);
			if ((int)strlen(t->mark[i][k]) > t->width[k])
				t->width[k] = (int)strlen(t->mark[i][k]);
		}
	}
	t->lw = (int)strlen(t->n > 1 ? "  verdict" : "config");
	for (i = 0; i < t->n; i++)
		if ((int)strlen(t->labels[i]) > t->lw)
			t->lw = (int)strlen(t->labels[i]);
	t->sep = 2;
	if (t->style == KS_PRINT_MARKDOWN)
		return;
	if (ks_tbl_width(t, t->lw, 2) <= t->max_w)
		return;
	/* --wide: one blank between columns where two do not fit */
	if (t->style == KS_PRINT_WIDE && ks_tbl_width(t, t->lw, 1) <= t->max_w) {
		t->sep = 1;
		return;
	}
	/* rows named A, B... and a legend when the labels do not fit */
	for (i = 0; i < t->n; i++) {
		snprintf(t->shortl[i], sizeof(t->shortl[i]), "%c%s", 'A' + i % 26,
			 i >= 26 ? "'" : "");
		t->rows[i] = t->shortl[i];
	}
	t->lw = (int)strlen(t->n > 1 ? "  verdict" : "config");
	if (t->style == KS_PRINT_WIDE && ks_tbl_width(t, t->lw, 2) > t->max_w)
		t->sep = 1;
}

/* The line above the table: function, unit, precision. */
static void ks_tbl_heading(const struct ks_tbl *t, FILE *f)
{
	char unit[64], buf[512];

	ks_unit_words(unit, sizeof(unit), &t->sc, t->icount);
	if (t->style == KS_PRINT_MARKDOWN) {
		fprintf(f, "**%s**: latency in %s; percentiles are slot means, within %.1f%% (bits %u)",
			t->same_name ? t->nodes[0]->name : "functions differ", unit, t->precision,
			t->nodes[0]->bits);
		if (t->n > 1)
			fprintf(f, "; (change, verdict) against %s", t->labels[0]);
		fprintf(f, ".\n\n");
		return;
	}
	snprintf(buf, sizeof(buf), "%s: latency in %s; percentiles: slot means within %.1f%% (bits %u)",
		 t->same_name ? t->nodes[0]->name : "functions differ", unit, t->precision,
		 t->nodes[0]->bits);
	ks_print_wrapped(f, "# ", "# ", buf, t->max_w);
}

/* One line of the plain table: @name, then @cells of the printed columns. */
static void ks_tbl_line(const struct ks_tbl *t, FILE *f, const char *name,
			const char *const *cells)
{
	int k;

	fprintf(f, "%-*s", t->lw, name);
	for (k = 0; k < KS_TBL_COLS; k++)
		if (ks_tbl_col(t, k))
			fprintf(f, "%*s%*s", t->sep, "", t->width[k], cells[k]);
	fputc('\n', f);
}

static void ks_tbl_plain(const struct ks_tbl *t, FILE *f)
{
	const char *cells[KS_TBL_COLS];
	int i, k;

	for (k = 0; k < KS_TBL_COLS; k++)
		cells[k] = ks_tbl_name(k);
	ks_tbl_line(t, f, "config", cells);
	for (i = 0; i < t->n; i++) {
		for (k = 0; k < KS_TBL_COLS; k++)
			cells[k] = t->val[i][k];
		ks_tbl_line(t, f, t->rows[i], cells);
		if (!i)
			continue;
		for (k = 0; k < KS_TBL_COLS; k++)
			cells[k] = t->chg[i][k];
		ks_tbl_line(t, f, "  change", cells);
		ks_tbl_line(t, f, "  verdict", t->mark[i]);
	}
}

static void ks_tbl_markdown(const struct ks_tbl *t, FILE *f)
{
	int i, k;

	fprintf(f, "| configuration |");
	for (k = 0; k < KS_TBL_COLS; k++)
		if (ks_tbl_col(t, k))
			fprintf(f, " %s |", ks_tbl_name(k));
	fprintf(f, "\n|:--|");
	for (k = 0; k < KS_TBL_COLS; k++)
		if (ks_tbl_col(t, k))
			fprintf(f, "--:|");
	fputc('\n', f);
	for (i = 0; i < t->n; i++) {
		fprintf(f, "| %s |", t->labels[i]);
		for (k = 0; k < KS_TBL_COLS; k++) {
			if (!ks_tbl_col(t, k))
				continue;
			if (i && t->chg[i][k][0])
				fprintf(f, " %s (%s, %s) |", t->val[i][k], t->chg[i][k],
					t->mark[i][k]);
			else
				fprintf(f, " %s |", t->val[i][k]);
		}
		fputc('\n', f);
	}
}

/* "NAME" once, or "A, B and C" of @rows whose @pick is set; "" when none. */
static void ks_tbl_names(char *buf, size_t len, const char *const *rows,
			 const int *pick, int n)
{
	int i, m = 0, seen = 0;

	buf[0] = '\0';
	for (i = 0; i < n; i++)
		m += !!pick[i];
	for (i = 0; i < n; i++) {
		if (!pick[i])
			continue;
		seen++;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 seen == 1 ? "" : seen == m ? " and " : ", ", rows[i]);
	}
}

/* The first percentile with fewer than 10 of @s samples above it, or -1. */
static int ks_tbl_thin(__u64 s)
{
	int k;

	for (k = 0; s && k < KSTATS_NR_PCT; k++)
		if (s / 1000 * (1000 - kstats_pct_milli[k]) +
		    s % 1000 * (1000 - kstats_pct_milli[k]) / 1000 < 10)
			return k;
	return -1;
}

/*
 * What the figures do not say themselves: the calls left out (missed,
 * clamped), the tails that rest on single events, the functions when
 * they differ; appended to @buf.
 */
static void ks_tbl_cautions(const struct ks_tbl *t, char *buf, size_t len)
{
	int pick[KS_TBL_MAX], i, k;
	char names[512];

	for (i = 0; i < t->n; i++) {
		const struct ks_view *v = t->nodes[i];

		if (v->missed)
			snprintf(buf + strlen(buf), len - strlen(buf),
				 "; %s: %llu events missed, not in the figures",
				 t->rows[i], (unsigned long long)v->missed);
		if (v->clamped)
			snprintf(buf + strlen(buf), len - strlen(buf),
				 "; %s: %llu calls recorded as 0 (clamped: %s)", t->rows[i],
				 (unsigned long long)v->clamped, KS_CLAMPED_WHY);
	}
	/* per percentile, the rows where it is the first on fewer than 10 samples */
	for (k = 0; k < KSTATS_NR_PCT; k++) {
		int any = 0;

		for (i = 0; i < t->n; i++) {
			pick[i] = ks_tbl_thin(t->nodes[i]->samples) == k;
			any |= pick[i];
		}
		if (!any)
			continue;
		ks_tbl_names(names, sizeof(names), t->rows, pick, t->n);
		snprintf(buf + strlen(buf), len - strlen(buf),
			 "; %s: %s and up on <10 samples", names,
			 kstats_pct_name[k]);
	}
	if (!t->same_name)
		for (i = 0; i < t->n; i++)
			snprintf(buf + strlen(buf), len - strlen(buf), "; %s is %s",
				 t->rows[i], t->nodes[i]->name);
}

/* The legend of rows A, B..., then the notes in one paragraph. */
static void ks_tbl_notes(const struct ks_tbl *t, FILE *f)
{
	int md = t->style == KS_PRINT_MARKDOWN, i;
	char buf[2048] = "";
	const char *text = buf;

	for (i = 0; !md && t->rows[0] != t->labels[0] && i < t->n; i++) {
		snprintf(buf, sizeof(buf), "%s: %s", t->rows[i], t->labels[i]);
		ks_print_wrapped(f, "# ", "#   ", buf, t->max_w);
	}
	if (t->brief)
		return;
	/* the notes in 3 lines: the pointer to the bounds goes first */
	for (i = 0; i < 2; i++) {
		buf[0] = '\0';
		if (t->n > 1)
			snprintf(buf, sizeof(buf),
				 "change: against %s, <%.1f%%: within resolution; one run a side (noise unknown): better?, worse?: 95%% intervals apart, ?: overlap%s",
				 t->rows[0], t->precision,
				 i ? "" : "; bounds: compare\001A\001--\001B");
		ks_tbl_cautions(t, buf, sizeof(buf));
		text = buf[0] == ';' ? buf + 2 : buf;
		if (ks_print_wrapped(NULL, "# ", "# ", text, t->max_w) <= KS_NOTE_LINES)
			break;
	}
	if (!text[0])
		return;
	if (md) {
		fputc('\n', f);
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ".");
		ks_print_wrapped(f, "", "", text, INT_MAX / 2);
	} else {
		ks_print_wrapped(f, "# ", "# ", text, t->max_w);
	}
}

/* ks_cmp_table() of the node alone, without its call sites. */
static int ks_cmp_table_node(FILE *f, struct ks_view *const *nodes,
			     const char *const *labels, int n, int style)
{
	struct ks_tbl *t = calloc(1, sizeof(*t));

	if (!t) {
		ks_err("compare: out of memory");
		return -1;
	}
	t->nodes = nodes;
	t->labels = labels;
	t->n = n;
	t->style = style & ~KS_PRINT_BRIEF;
	t->brief = !!(style & KS_PRINT_BRIEF);
	t->max_w = t->style == KS_PRINT_WIDE ? KS_WIDE_WIDTH : KS_MAIL_WIDTH;
	if (ks_tbl_fill(t)) {
		free(t);
		return -1;
	}
	ks_tbl_widths(t);
	ks_tbl_heading(t, f);
	if (t->style == KS_PRINT_MARKDOWN)
		ks_tbl_markdown(t, f);
	else
		ks_tbl_plain(t, f);
	ks_tbl_notes(t, f);
	free(t);
	return 0;
}

int ks_cmp_table(FILE *f, struct ks_view *const *nodes, const char *const *labels,
		 int n, int style)
{
	if (n > KS_TBL_MAX)
		n = KS_TBL_MAX;
	if (ks_cmp_table_node(f, nodes, labels, n, style))
		return -1;
	return n > 1 ? ks_callers_compare(f, nodes, labels, n, style) : 0;
}
