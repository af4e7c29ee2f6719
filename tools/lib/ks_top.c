// SPDX-License-Identifier: GPL-2.0
/*
 * ks_top: what kstats top shows, as its table and its live view print it:
 * the nodes followed, what each interval added (calls, rate, p50, p99,
 * max, total time and its share; with --callers each call site's too),
 * ranked by a column, and each row as a line of text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ks_callers.h"
#include "ks_ctl.h"
#include "ks_fmt.h"
#include "ks_load.h"
#include "ks_tick.h"
#include "ks_top.h"

const struct ks_top_sort ks_top_sorts[KS_TOP_NR_COLS] = {
	[KS_TOP_NAME]  = { "name",  NULL,    'n' },
	[KS_TOP_CALLS] = { "calls", "rate",  'c' },
	[KS_TOP_P50]   = { "p50",   NULL,    '5' },
	[KS_TOP_P99]   = { "p99",   NULL,    '9' },
	[KS_TOP_MAX]   = { "max",   NULL,    'm' },
	[KS_TOP_TOTAL] = { "total", "share", 't' },
};

/* The column to sort by named @word (--sort), or -1. */
int ks_top_col_of(const char *word)
{
	int i;

	for (i = 0; i < KS_TOP_NR_COLS; i++)
		if (!strcmp(word, ks_top_sorts[i].word) ||
		    (ks_top_sorts[i].alias && !strcmp(word, ks_top_sorts[i].alias)))
			return i;
	return -1;
}


static unsigned int ks_top_hash(const char *name)
{
	unsigned int h = 2166136261u;

	while (*name)
		h = (h ^ (unsigned char)*name++) * 16777619u;
	return h;
}

/*
 * Index the followed nodes by name (open addressing, at most half full):
 * a whole kernel's 40,000 nodes found one by one in a list took 800
 * million name comparisons an interval.  Return: 0, -1 out of memory.
 */
static int ks_top_index(struct ks_top *t)
{
	int size = 64, i;
	unsigned int h;

	while (size < 2 * t->cap)
		size *= 2;
	free(t->index);
	t->index = calloc(size, sizeof(*t->index));
	if (!t->index)
		return -1;
	t->index_size = size;
	for (i = 0; i < t->nn; i++) {
		for (h = ks_top_hash(t->nodes[i].name) & (size - 1); t->index[h];
		     h = (h + 1) & (size - 1))
			;
		t->index[h] = i + 1;
	}
	return 0;
}

/* The followed node @name, added (never read) when new; NULL: no memory. */
static struct ks_top_node *ks_top_node(struct ks_top *t, const char *name)
{
	struct ks_top_node *n;
	unsigned int h;

	if (!t->index && ks_top_index(t))
		return NULL;
	for (h = ks_top_hash(name) & (t->index_size - 1); t->index[h];
	     h = (h + 1) & (t->index_size - 1))
		if (!strcmp(t->nodes[t->index[h] - 1].name, name))
			return &t->nodes[t->index[h] - 1];
	if (t->nn == t->cap) {
		int cap = t->cap ? 2 * t->cap : 64;

		n = realloc(t->nodes, (size_t)cap * sizeof(*n));
		if (!n)
			return NULL;
		t->nodes = n;
		t->cap = cap;
	}
	n = &t->nodes[t->nn++];
	memset(n, 0, sizeof(*n));
	snprintf(n->name, sizeof(n->name), "%s", name);
	if (2 * t->nn > t->index_size) {
		if (ks_top_index(t)) {
			t->nn--;
			return NULL;
		}
	} else {
		t->index[h] = t->nn;
	}
	return n;
}

/* Forget the nodes _control no longer lists. */
static void ks_top_prune(struct ks_top *t)
{
	int i, j;

	for (i = j = 0; i < t->nn; i++) {
		if (!t->nodes[i].listed) {
			ks_view_free(&t->nodes[i].prev);
			continue;
		}
		t->nodes[j++] = t->nodes[i];
	}
	if (j != t->nn) {	/* indexes moved: look them up afresh */
		free(t->index);
		t->index = NULL;
	}
	t->nn = j;
}

/* Free @n rows and their sites' rows. */
void ks_top_rows_free(struct ks_top_row *rows, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(rows[i].sites);
	free(rows);
}

/*
 * The rows of what @d's call sites added, most total time first, under
 * the node's: "<- FUNCTION+0xOFF", or "<- (other)".  0, or -1: no memory.
 */
static int ks_top_sites(struct ks_top_row *r, const struct ks_view *d, double secs)
{
	const struct ks_caller *by[KS_CALLERS_MAX + 1];
	char key[KS_SITE_MAX];
	__u32 i;

	if (!d->nr_callers || d->nr_callers > KS_CALLERS_MAX + 1)
		return 0;
	r->sites = calloc(d->nr_callers, sizeof(*r->sites));
	if (!r->sites)
		return -1;
	ks_callers_by_time(d, by);
	for (i = 0; i < d->nr_callers; i++) {
		const struct ks_caller *c = by[i];
		struct ks_top_row *sr = &r->sites[r->nsites];

		if (!c->count)
			continue;
		if (strcmp(c->site, "-"))
			snprintf(sr->name, sizeof(sr->name), "  <- %s",
				 ks_caller_key(key, sizeof(key), c->site, 1));
		else
			snprintf(sr->name, sizeof(sr->name), "  <- (%s)", KS_CALLER_OTHER);
		snprintf(sr->unit, sizeof(sr->unit), "%s", d->unit);
		sr->calls = c->count;
		sr->rate = secs > 0 ? (double)c->count / secs : 0.0;
		sr->p50 = c->p50;
		sr->p99 = c->p99;
		sr->max = c->max > c->p99 ? c->max : c->p99;
		sr->total = ks_slots_sum(c->slots, d->nr_slots);
		r->nsites++;
	}
	return 0;
}

/* The row of what @d (one interval of a node) added. */
static void ks_top_fill(struct ks_top_row *r, const struct ks_view *d, double secs)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", d->name);
	snprintf(r->unit, sizeof(r->unit), "%s", d->unit);
	r->calls = d->samples;
	r->missed = d->missed;
	r->rate = secs > 0 ? (double)d->samples / secs : 0.0;
	if (!d->samples)
		return;
	r->p50 = d->pct[KSTATS_P50];
	r->p99 = d->pct[KSTATS_P99];
	r->max = d->max > r->p99 ? d->max : r->p99;
	r->total = ks_slots_sum(d->total, d->nr_slots);
}

/*
 * Each row's share of the total time of the rows in its unit (ns; any
 * other unit, cycles, is summed apart).
 */
static void ks_top_shares(struct ks_top_row *rows, int n)
{
	double sum[2] = { 0, 0 };
	int i;

	for (i = 0; i < n; i++)
		sum[!!strcmp(rows[i].unit, "ns")] += (double)rows[i].total;
	for (i = 0; i < n; i++) {
		double s = sum[!!strcmp(rows[i].unit, "ns")];
		int j;

		rows[i].share = s > 0 ? 100.0 * (double)rows[i].total / s : 0.0;
		for (j = 0; j < rows[i].nsites; j++)
			rows[i].sites[j].share = s > 0 ?
				100.0 * (double)rows[i].sites[j].total / s : 0.0;
	}
}

/*
 * Read every wanted node again into t->rows.  Nodes that go between the
 * listing and their read are skipped; 0, or -1 (printed).
 */
int ks_top_read(struct ks_top *t)
{
	char err[KS_ERR_MAX], **names;
	struct ks_top_row *rows;
	int i, n, ret = 0;

	names = ks_ctl_names(&n, err, sizeof(err));
	if (!names) {
		ks_err("%s", err);
		return -1;
	}
	rows = calloc((size_t)n + 1, sizeof(*rows));
	if (!rows) {
		ks_err("out of memory");
		ks_ctl_names_free(names);
		return -1;
	}
	for (i = 0; i < t->nn; i++)
		t->nodes[i].listed = 0;
	t->nrows = 0;
	for (i = 0; i < n; i++) {
		struct ks_top_node *node;
		struct ks_view d;
		int reset;

		if (!ks_name_match(t->globs, t->nglobs, names[i]))
			continue;
		node = ks_top_node(t, names[i]);
		if (!node) {
			ks_err("out of memory");
			ret = -1;
			break;
		}
		node->listed = 1;
		reset = ks_tick_read(node->name, &node->prev, &d, KS_LOAD_QUIET);
		if (reset < 0) {
			node->listed = 0;	/* gone meanwhile: read afresh if back */
			continue;
		}
		if (ks_timing_note(&node->prev.meta))
			t->note = ks_timing_note(&node->prev.meta);
		ks_top_fill(&rows[t->nrows], &d, t->tick.now - t->tick.last);
		if (t->callers &&
		    ks_top_sites(&rows[t->nrows], &d, t->tick.now - t->tick.last)) {
			ks_err("out of memory");
			ret = -1;
		}
		rows[t->nrows++].reset = reset;
		ks_view_free(&d);
		if (ret)
			break;
	}
	ks_ctl_names_free(names);
	ks_top_prune(t);
	ks_top_shares(rows, t->nrows);
	ks_top_rows_free(t->rows, t->nrows_prev);
	t->rows = rows;
	t->nrows_prev = t->nrows;
	t->have_rows = 1;
	return ret;
}

static enum ks_top_col ks_top_sort_col;
static int ks_top_sort_rev;

/* qsort: the chosen column (names ascending, figures descending), then name. */
static int ks_top_cmp(const void *pa, const void *pb)
{
	const struct ks_top_row *a = pa, *b = pb;
	__u64 x = 0, y = 0;
	int c = 0;

	switch (ks_top_sort_col) {
	case KS_TOP_NAME:
		break;
	case KS_TOP_CALLS:
		x = a->calls, y = b->calls;
		break;
	case KS_TOP_P50:
		x = a->p50, y = b->p50;
		break;
	case KS_TOP_P99:
		x = a->p99, y = b->p99;
		break;
	case KS_TOP_MAX:
		x = a->max, y = b->max;
		break;
	default:
		x = a->total, y = b->total;
	}
	if (x != y)
		c = x > y ? -1 : 1;
	if (!c)
		c = strcmp(a->name, b->name);
	return ks_top_sort_rev ? -c : c;
}

/* Sort the rows as asked. */
void ks_top_sort(struct ks_top *t)
{
	ks_top_sort_col = t->sort;
	ks_top_sort_rev = t->reverse;
	if (t->nrows)
		qsort(t->rows, (size_t)t->nrows, sizeof(*t->rows), ks_top_cmp);
}

/* Width of the NAME column: the longest name, at least 20. */
int ks_top_namew(const struct ks_top *t)
{
	int i, j, w = 20;

	for (i = 0; i < t->nrows; i++) {
		if ((int)strlen(t->rows[i].name) > w)
			w = (int)strlen(t->rows[i].name);
		for (j = 0; j < t->rows[i].nsites; j++)
			if ((int)strlen(t->rows[i].sites[j].name) > w)
				w = (int)strlen(t->rows[i].sites[j].name);
	}
	return w;
}

/* @v for a cell: an integer (scripts) or with its unit (live); "-" if none. */
static const char *ks_top_val(char *buf, size_t len, const struct ks_top_row *r,
			      __u64 v, int live)
{
	if (!r->calls)
		return "-";
	if (live)
		return ks_fmt_value(buf, len, v, r->unit);
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

/* The header line into @buf. */
void ks_top_header(char *buf, size_t len, int namew, int live)
{
	snprintf(buf, len, "%-*s %10s %10s %8s %10s %10s %10s %*s %7s%s", namew, "NAME",
		 "CALLS", "CALLS/s", "MISSED", "p50", "p99", "MAX",
		 live ? 10 : 14, "TOTAL", live ? "SHARE" : "SHARE%", live ? "" : " UNIT");
}

/* One row into @buf. */
void ks_top_line(char *buf, size_t len, const struct ks_top_row *r,
			int namew, int live)
{
	char p50[32], p99[32], max[32], total[32], share[16];

	if (live)
		ks_fmt_value(total, sizeof(total), r->total, r->unit);
	else
		snprintf(total, sizeof(total), "%llu", (unsigned long long)r->total);
	snprintf(share, sizeof(share), live ? "%6.1f%%" : "%7.1f", r->share);
	snprintf(buf, len, "%-*s %10llu %10.1f %8llu %10s %10s %10s %*s %7s%s%s%s",
		 namew, r->name, (unsigned long long)r->calls, r->rate,
		 (unsigned long long)r->missed,
		 ks_top_val(p50, sizeof(p50), r, r->p50, live),
		 ks_top_val(p99, sizeof(p99), r, r->p99, live),
		 ks_top_val(max, sizeof(max), r, r->max, live),
		 live ? 10 : 14, total, share, live ? "" : " ", live ? "" : r->unit,
		 r->reset ? (live ? "  (reset)" : "") : "");
}

/* The columns of the plain table, after NAME; MISSED only when any missed. */
enum { KS_TOP_C_CALLS, KS_TOP_C_MISSED, KS_TOP_C_P50, KS_TOP_C_P99, KS_TOP_C_MAX,
       KS_TOP_C_TOTAL, KS_TOP_C_SHARE, KS_TOP_C_NR };

/* The cells of @r in the plain table. */
static void ks_top_cells(char cell[KS_TOP_C_NR][32], const struct ks_top_row *r)
{
	char v[32];

	snprintf(cell[KS_TOP_C_CALLS], 32, "%llu", (unsigned long long)r->calls);
	snprintf(cell[KS_TOP_C_MISSED], 32, "%llu", (unsigned long long)r->missed);
	snprintf(cell[KS_TOP_C_P50], 32, "%s", ks_top_val(v, sizeof(v), r, r->p50, 1));
	snprintf(cell[KS_TOP_C_P99], 32, "%s", ks_top_val(v, sizeof(v), r, r->p99, 1));
	snprintf(cell[KS_TOP_C_MAX], 32, "%s", ks_top_val(v, sizeof(v), r, r->max, 1));
	ks_fmt_value(cell[KS_TOP_C_TOTAL], 32, r->total, r->unit);
	snprintf(cell[KS_TOP_C_SHARE], 32, "%.1f%%", r->share);
}

/*
 * The plain table: names, calls, p50, p99, max, total and share in as
 * few columns as they take (72 for names of 24 characters), values with
 * their units.
 */
static void ks_top_print_plain(struct ks_top *t)
{
	static const char * const head[KS_TOP_C_NR] = {
		"CALLS", "MISSED", "p50", "p99", "MAX", "TOTAL", "SHARE",
	};
	char cell[KS_TOP_C_NR][32];
	int w[KS_TOP_C_NR], i, j, c, missed = 0, namew = ks_top_namew(t);

	for (c = 0; c < KS_TOP_C_NR; c++)
		w[c] = (int)strlen(head[c]);
	for (i = 0; i < t->nrows; i++) {
		for (j = -1; j < t->rows[i].nsites; j++) {
			ks_top_cells(cell, j < 0 ? &t->rows[i] : &t->rows[i].sites[j]);
			for (c = 0; c < KS_TOP_C_NR; c++)
				if ((int)strlen(cell[c]) > w[c])
					w[c] = (int)strlen(cell[c]);
		}
		missed |= t->rows[i].missed != 0;
	}
	printf("%-*s", namew, "NAME");
	for (c = 0; c < KS_TOP_C_NR; c++)
		if (c != KS_TOP_C_MISSED || missed)
			printf(" %*s", w[c], head[c]);
	putchar('\n');
	for (i = 0; i < t->nrows; i++) {
		for (j = -1; j < t->rows[i].nsites; j++) {
			const struct ks_top_row *r = j < 0 ? &t->rows[i] : &t->rows[i].sites[j];

			ks_top_cells(cell, r);
			printf("%-*s", namew, r->name);
			for (c = 0; c < KS_TOP_C_NR; c++)
				if (c != KS_TOP_C_MISSED || missed)
					printf(" %*s", w[c], j >= 0 && c == KS_TOP_C_MISSED ?
					       "" : cell[c]);
			putchar('\n');
		}
	}
}

/* Plain output: one header line, one row per node. */
void ks_top_print(struct ks_top *t)
{
	char line[512];
	int i, j, namew = ks_top_namew(t);

	ks_top_sort(t);
	if (!t->raw) {
		ks_top_print_plain(t);
	} else {
		ks_top_header(line, sizeof(line), namew, 0);
		printf("%s\n", line);
		for (i = 0; i < t->nrows; i++) {
			ks_top_line(line, sizeof(line), &t->rows[i], namew, 0);
			printf("%s\n", line);
			for (j = 0; j < t->rows[i].nsites; j++) {
				ks_top_line(line, sizeof(line), &t->rows[i].sites[j],
					    namew, 0);
				printf("%s\n", line);
			}
		}
	}
	if (t->note)
		printf("# %s\n", t->note);
	fflush(stdout);
}
