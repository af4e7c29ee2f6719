// SPDX-License-Identifier: GPL-2.0
/*
 * kstats top: every node (or those a glob matches), ranked by what each
 * interval added: calls, calls/s, p50, p99, max, total time and its share.
 *
 * On a terminal, and without -n, a live view like perf top: the screen
 * is redrawn every interval with ANSI codes only (no curses: it works
 * over ssh in any terminal), and keys change the order.  Otherwise (a
 * pipe, or -n COUNT) each interval prints one header line and one row per
 * node: in 72 columns for names of up to 24 characters, values with their
 * units; with --raw every column, values as integers in the node's unit,
 * for scripts.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "ks_callers.h"
#include "ks_ctl.h"
#include "ks_fmt.h"
#include "ks_load.h"
#include "ks_tick.h"
#include "kstats.h"

/* The columns a view can be sorted by, and their keys in the live view. */
enum ks_top_col {
	KS_TOP_NAME, KS_TOP_CALLS, KS_TOP_P50, KS_TOP_P99, KS_TOP_MAX,
	KS_TOP_TOTAL, KS_TOP_NR_COLS
};

static const struct ks_top_sort {
	const char *word, *alias;	/* --sort WORD */
	char key;			/* key in the live view */
} ks_top_sorts[KS_TOP_NR_COLS] = {
	[KS_TOP_NAME]  = { "name",  NULL,    'n' },
	[KS_TOP_CALLS] = { "calls", "rate",  'c' },
	[KS_TOP_P50]   = { "p50",   NULL,    '5' },
	[KS_TOP_P99]   = { "p99",   NULL,    '9' },
	[KS_TOP_MAX]   = { "max",   NULL,    'm' },
	[KS_TOP_TOTAL] = { "total", "share", 't' },
};

/* One node's row: what the last interval added; or one of its call sites'. */
struct ks_top_row {
	char name[KS_NAME_MAX];
	char unit[KS_WORD_MAX];
	__u64 calls, missed, p50, p99, max, total;
	double rate, share;	/* calls/s; % of the total time of its unit */
	int reset;
	struct ks_top_row *sites;	/* --callers: below the node's row */
	int nsites;
};

/* A node being followed: its last read. */
struct ks_top_node {
	char name[KS_NAME_MAX];
	struct ks_view prev;
	int listed;		/* _control still lists it */
};

/* What top was asked for, and what it shows. */
struct ks_top {
	struct ks_tick tick;
	char **globs;
	int nglobs;
	enum ks_top_col sort;
	int reverse;
	int raw;		/* --raw: every column, integers */
	int callers;		/* --callers: each node's call sites too */
	int live;		/* the terminal view */
	struct ks_top_node *nodes;
	int nn;
	struct ks_top_row *rows;
	int nrows;
	int nrows_prev;		/* rows to free with them */
	int have_rows;		/* an interval has been read */
	const char *note;	/* ks_timing_note() of the nodes: -icount */
};

/* The column to sort by named @word (--sort), or -1. */
static int ks_top_col_of(const char *word)
{
	int i;

	for (i = 0; i < KS_TOP_NR_COLS; i++)
		if (!strcmp(word, ks_top_sorts[i].word) ||
		    (ks_top_sorts[i].alias && !strcmp(word, ks_top_sorts[i].alias)))
			return i;
	return -1;
}

/* Parse the arguments of top into @t; exits on bad usage; 1 for --help. */
static int ks_top_args(int argc, char **argv, struct ks_top *t)
{
	static const struct option lo[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ "sort", required_argument, NULL, 's' },
		{ "reverse", no_argument, NULL, 'r' },
		{ "raw", no_argument, NULL, OPT_RAW },
		{ "callers", no_argument, NULL, OPT_CALLERS },
#ifdef KS_TEST
		{ "test-tick", required_argument, NULL, OPT_TEST_TICK },
#endif
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	int opt, col;

	*t = (struct ks_top){ .tick = { .interval = 1.0, .count = -1 },
			      .sort = KS_TOP_TOTAL };
	while ((opt = getopt_long(argc, argv, ":i:n:s:rh", lo, NULL)) != -1) {
		if (ks_tick_opt("top", &t->tick, opt, optarg))
			continue;
		switch (opt) {
		case 's':
			col = ks_top_col_of(optarg);
			if (col < 0)
				ks_bad_usage("top", "--sort wants name, calls, p50, p99, max or total");
			t->sort = col;
			break;
		case 'r':
			t->reverse = 1;
			break;
		case OPT_RAW:
			t->raw = 1;
			break;
		case OPT_CALLERS:
			t->callers = 1;
			break;
		case 'h':
		case OPT_HELP:
			ks_help(stdout, "top");
			return 1;
		default:
			ks_bad_opt("top", opt, argv);
		}
	}
	t->globs = argv + optind;
	t->nglobs = argc - optind;
	t->live = t->tick.count < 0 && isatty(STDOUT_FILENO) && !t->raw;
	return 0;
}

/* The followed node @name, added (never read) when new; NULL: no memory. */
static struct ks_top_node *ks_top_node(struct ks_top *t, const char *name)
{
	struct ks_top_node *n;
	int i;

	for (i = 0; i < t->nn; i++)
		if (!strcmp(t->nodes[i].name, name))
			return &t->nodes[i];
	n = realloc(t->nodes, (t->nn + 1) * sizeof(*n));
	if (!n)
		return NULL;
	t->nodes = n;
	n = &t->nodes[t->nn++];
	memset(n, 0, sizeof(*n));
	snprintf(n->name, sizeof(n->name), "%s", name);
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
	t->nn = j;
}

/* Free @n rows and their sites' rows. */
static void ks_top_rows_free(struct ks_top_row *rows, int n)
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
static int ks_top_read(struct ks_top *t)
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
static void ks_top_sort(struct ks_top *t)
{
	ks_top_sort_col = t->sort;
	ks_top_sort_rev = t->reverse;
	if (t->nrows)
		qsort(t->rows, (size_t)t->nrows, sizeof(*t->rows), ks_top_cmp);
}

/* Width of the NAME column: the longest name, at least 20. */
static int ks_top_namew(const struct ks_top *t)
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
static void ks_top_header(char *buf, size_t len, int namew, int live)
{
	snprintf(buf, len, "%-*s %10s %10s %8s %10s %10s %10s %*s %7s%s", namew, "NAME",
		 "CALLS", "CALLS/s", "MISSED", "p50", "p99", "MAX",
		 live ? 10 : 14, "TOTAL", live ? "SHARE" : "SHARE%", live ? "" : " UNIT");
}

/* One row into @buf. */
static void ks_top_line(char *buf, size_t len, const struct ks_top_row *r,
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
static void ks_top_print(struct ks_top *t)
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

/* ---- the live view ---- */

static struct termios ks_top_tio;
static int ks_top_tio_saved;	/* stdin is a terminal set up for keys */
static int ks_top_entered;	/* the alternate screen is on */
static volatile sig_atomic_t ks_top_resized;

/* SIGWINCH: redraw at the new size. */
static void ks_top_on_winch(int sig)
{
	(void)sig;
	ks_top_resized = 1;
}

/* Leave the live view: the terminal as it was. */
static void ks_top_leave(void)
{
	if (!ks_top_entered)
		return;
	ks_top_entered = 0;
	if (ks_top_tio_saved) {
		tcsetattr(STDIN_FILENO, TCSANOW, &ks_top_tio);
		ks_top_tio_saved = 0;
	}
	/* cursor back, main screen back */
	fputs("\033[?25h\033[?1049l", stdout);
	fflush(stdout);
}

/* Enter the live view: keys unbuffered and silent, alternate screen. */
static void ks_top_enter(void)
{
	struct sigaction sa = { .sa_handler = ks_top_on_winch };
	struct termios raw;

	if (isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &ks_top_tio)) {
		raw = ks_top_tio;
		raw.c_lflag &= ~(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 0;
		if (!tcsetattr(STDIN_FILENO, TCSANOW, &raw))
			ks_top_tio_saved = 1;
	}
	sigaction(SIGWINCH, &sa, NULL);
	atexit(ks_top_leave);
	ks_top_entered = 1;
	fputs("\033[?1049h\033[?25l", stdout);
}

/* The terminal's size, or 80x24. */
static void ks_top_winsize(int *rows, int *cols)
{
	struct winsize ws;

	*rows = 24;
	*cols = 80;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row > 0 && ws.ws_col > 0) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

/* Print @s cut at @cols columns, then clear to the end of the line. */
static void ks_top_put(const char *s, int cols, const char *pre, const char *post)
{
	printf("%s%.*s%s\033[K\n", pre, cols, s, post);
}

/* Draw the live view. */
static void ks_top_draw(struct ks_top *t)
{
	char line[512], when[16];
	int rows, cols, i, j, k, n, namew = ks_top_namew(t);
	double calls = 0;
	time_t now = time(NULL);
	struct tm tm;

	ks_top_winsize(&rows, &cols);
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	fputs("\033[H", stdout);
	if (!t->have_rows) {
		snprintf(line, sizeof(line), "kstats top %s: reading the first %g s...",
			 when, t->tick.interval);
		ks_top_put(line, cols, "", "");
		fputs("\033[J", stdout);
		fflush(stdout);
		return;
	}
	ks_top_sort(t);
	for (i = 0; i < t->nrows; i++)
		calls += t->rows[i].rate;
	snprintf(line, sizeof(line),
		 "kstats top %s, every %g s: %d node%s%s%s, %.1f calls/s; sorted by %s%s",
		 when, t->tick.interval, t->nrows, t->nrows == 1 ? "" : "s",
		 t->nglobs ? " matching " : "", t->nglobs ? t->globs[0] : "",
		 calls, ks_top_sorts[t->sort].word, t->reverse ? ", reversed" : "");
	ks_top_put(line, cols, "", "");
	ks_top_put("keys: t total  c calls  5 p50  9 p99  m max  n name  r reverse  q quit",
		   cols, "", "");
	if (t->note)
		ks_top_put(t->note, cols, "", "");
	ks_top_header(line, sizeof(line), namew, 1);
	ks_top_put(line, cols, "\033[7m", "\033[m");
	/* title, keys, the -icount note, header, and one line to spare */
	n = rows - 4 - !!t->note;
	if (n < 1)
		n = 1;
	for (i = 0, k = 0; i < t->nrows && k < n; i++) {
		for (j = -1; j < t->rows[i].nsites && k < n; j++, k++) {
			if (k == n - 1 && (j + 1 < t->rows[i].nsites || i + 1 < t->nrows)) {
				snprintf(line, sizeof(line), "... %d more node%s",
					 t->nrows - i - (j >= 0),
					 t->nrows - i - (j >= 0) == 1 ? "" : "s");
				ks_top_put(line, cols, "", "");
				break;
			}
			ks_top_line(line, sizeof(line),
				    j < 0 ? &t->rows[i] : &t->rows[i].sites[j], namew, 1);
			ks_top_put(line, cols, "", "");
		}
	}
	fputs("\033[J", stdout);	/* clear what is below */
	fflush(stdout);
}

/* Act on key @c; 1 to quit. */
static int ks_top_key(struct ks_top *t, int c)
{
	int i;

	if (c == 'q' || c == 'Q' || c == 3 /* ^C when ISIG is off */)
		return 1;
	if (c == 'r') {
		t->reverse = !t->reverse;
		return 0;
	}
	for (i = 0; i < KS_TOP_NR_COLS; i++)
		if (c == ks_top_sorts[i].key) {
			t->sort = i;
			t->reverse = 0;
		}
	return 0;
}

/* ks_tick_wait_fn of the live view: read keys, redraw on each, until @until. */
static int ks_top_wait(double until, void *arg)
{
	struct ks_top *t = arg;
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	unsigned char keys[16];
	double d;
	ssize_t n, i;

	while (!ks_tick_stop && (d = until - ks_mono_seconds()) > 0) {
		int r = poll(&pfd, ks_top_tio_saved && pfd.fd >= 0 ? 1 : 0,
			     (int)(d * 1000) + 1);

		if (ks_top_resized) {
			ks_top_resized = 0;
			fputs("\033[2J", stdout);
			ks_top_draw(t);
		}
		if (r <= 0 || !(pfd.revents & POLLIN))
			continue;
		n = read(STDIN_FILENO, keys, sizeof(keys));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {		/* no more keys: wait only */
			pfd.fd = -1;
			continue;
		}
		for (i = 0; i < n; i++)
			if (ks_top_key(t, keys[i]))
				return 1;
		ks_top_draw(t);
	}
	return 0;
}

/* kstats top [GLOB...] [-i S] [-n N] [--sort COL] [-r] */
int cmd_top(int argc, char **argv)
{
	struct ks_top t;
	int i, r, ret = 0;

	if (ks_top_args(argc, argv, &t))
		return 0;
	/* the first read: what later reads are compared with */
	if (ks_top_read(&t))
		return 1;
	if (!t.nrows)
		ks_err(t.nglobs ? "no node matches (kstats list shows them)" :
		       "no nodes yet (kstats trace FUNC adds one)");
	t.have_rows = 0;
	ks_tick_start(&t.tick);
	if (t.live) {
		ks_top_enter();
		ks_top_draw(&t);
	}
	while ((r = ks_tick_next(&t.tick, t.live ? ks_top_wait : NULL, &t)) > 0) {
		if (ks_top_read(&t)) {
			ret = 1;
			break;
		}
		if (t.live) {
			ks_top_draw(&t);
		} else {
			if (t.tick.it > 1)
				printf("\n");
			ks_top_print(&t);
		}
	}
	if (r < 0)
		ret = 1;
	if (t.live)
		ks_top_leave();
	for (i = 0; i < t.nn; i++)
		ks_view_free(&t.nodes[i].prev);
	free(t.nodes);
	ks_top_rows_free(t.rows, t.nrows_prev);
	return ret;
}
