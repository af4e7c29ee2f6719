/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_cmp: kstats compare A... -- B...: two sides of one or more runs each,
 * one or more functions per run; per function the rows of ks_stats.h
 * (mean, p10..p99.9) and their verdicts; printed as a table for one
 * function, a table ranked by change for several, or JSON.
 */
#ifndef KS_CMP_H
#define KS_CMP_H

#include <stdio.h>
#include "ks_stats.h"
#include "ks_view.h"

#define KS_CMP_ROWS	(1 + KSTATS_NR_PCT)	/* mean, then the percentiles */

/* Output formats. */
enum { KS_CMP_TEXT, KS_CMP_MARKDOWN, KS_CMP_JSON };

/* One side: its label and every node of every run (file) on it. */
struct ks_cmp_side {
	const char *label;
	struct ks_view **nodes;
	const char **srcs;		/* the file of each node: one file, one run */
	int n;
	/*
	 * The runs (files) of the side, 0: as many as each function's nodes.
	 * A function some runs never called (save --called) is not in their
	 * files: its calls and total time per run are over all the runs.
	 */
	int runs;
	/*
	 * Histograms re-binned from other buckets (Prometheus'): per slot,
	 * where its values lie (ks_pct_side), and the precision that leaves
	 * a percentile, as a note line and in % (NULL, 0: the nodes' bits).
	 */
	const struct ks_interval *bounds;
	const char *precision;
	double precision_pct;
	int top;			/* base side: functions listed, 0 all */
	int rank_total;			/* base side: ranked by total time's change */
	/*
	 * Base side: the figure every function is judged and ranked by, as
	 * its row + 1 (1: the mean, 2 + K: percentile K); 0: the mean from
	 * 3 runs a side, else p50.
	 */
	int rank_fig;
};

/**
 * ks_cmp_table() - kstats compare A B [C...] of one function: a row per run
 * @f:      output
 * @nodes:  one node per run, one function, one unit and one bits
 * @labels: their names
 * @n:      number of nodes
 * @style:  KS_PRINT_PLAIN, KS_PRINT_MARKDOWN or KS_PRINT_WIDE, or'ed
 *          with KS_PRINT_BRIEF for no notes (ks_fmt.h)
 *
 * Under each node after the first: the change of each figure against the
 * first's (ks_fmt_change()) and its verdict from one run a side
 * (ks_cmp_pair(), ks_row_mark()); then the call sites (ks_callers.h).
 * In ks_cmp_table.c.
 *
 * Return: 0, or -1 (printed).
 */
int ks_cmp_table(FILE *f, struct ks_view *const *nodes, const char *const *labels,
		 int n, int style);

/**
 * ks_cmp_pair() - the rows of @b against @a, one run a side
 * @a:    base node
 * @b:    new node
 * @rows: mean, then p10..p99.9, as compare A -- B computes them
 *
 * Return: 0, or -1 when out of memory (printed).
 */
int ks_cmp_pair(struct ks_view *a, struct ks_view *b, struct ks_row rows[KS_CMP_ROWS]);

/**
 * ks_cmp_same_timing() - may @a and @b be compared: one kind of time?
 * @f:     where a forced comparison says so, first (NULL: stderr, beside JSON)
 * @a:     a node
 * @sa:    its file
 * @b:     the other
 * @sb:    its file
 * @force: compare them anyway (--force)
 *
 * A snapshot of QEMU -icount (a "ns" is one instruction) against one of
 * a real clock is refused; with --force, one line on @f says what the
 * numbers are before anything else is printed.
 *
 * Return: 1 when they may be compared, 0 when not (printed, one line).
 */
int ks_cmp_same_timing(FILE *f, const struct ks_view *a, const char *sa,
		       const struct ks_view *b, const char *sb, int force);

/**
 * ks_cmp_same_fn() - may @a and @b be compared: one function?
 * @a:     a node
 * @sa:    its file
 * @b:     another node
 * @sb:    its file
 * @force: compare them anyway (--force)
 *
 * One function: the same node name, or the same attached symbols.  Every
 * form of compare asks this, once per pair it would put side by side.
 *
 * Return: 1 when they may be compared, 0 when not (printed, one line).
 */
int ks_cmp_same_fn(const struct ks_view *a, const char *sa, const struct ks_view *b,
		   const char *sb, int force);

/**
 * ks_cmp_print() - compare @b against @a and print the result
 * @f:   output
 * @a:   base side
 * @b:   new side
 * @fmt: KS_CMP_TEXT, KS_CMP_MARKDOWN or KS_CMP_JSON
 * @force: with one function a side, compare them even when they differ
 *
 * Nodes are matched by name; the runs of a function on a side are the
 * files that hold it.  One function a side under two names goes through
 * ks_cmp_same_fn().  One function in common: a row per figure; several:
 * one entry per function, ranked by the size of the change.
 *
 * Return: 0, or -1 when the sides cannot be compared (printed).
 */
int ks_cmp_print(FILE *f, const struct ks_cmp_side *a, const struct ks_cmp_side *b,
		 int fmt, int force);

#endif /* KS_CMP_H */
