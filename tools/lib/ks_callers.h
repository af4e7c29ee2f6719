/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_callers: the call sites of a node traced with "callers N": the table
 * of kstats callers, and compare A B's table per call site; the table of
 * kstats slowest.
 */
#ifndef KS_CALLERS_H
#define KS_CALLERS_H

#include <stdio.h>
#include "ks_view.h"

/**
 * ks_print_callers() - the call sites of @node, most total time first:
 * calls, share of the calls, share of the time, p50, p99, max
 * @f:        output
 * @node:     node with call sites
 * @how:      KS_TBL_MARKDOWN: a Markdown table, sites whole; else 72
 *           columns; KS_TBL_BRIEF: no note under it
 */
void ks_print_callers(FILE *f, const struct ks_view *node, int how);

/**
 * ks_callers_compare() - after compare A B's table of one function: per
 * later node, a row per call site of the first (most total time first)
 * with the site of the later node it matches, then the later node's
 * sites that matched none
 * @f:      output
 * @nodes:  the nodes; nothing is printed unless each has call sites
 * @labels: their names
 * @n:      number of nodes
 * @style:  KS_PRINT_PLAIN or KS_PRINT_MARKDOWN, or'ed with
 *          KS_PRINT_BRIEF for no note (ks_fmt.h)
 *
 * Sites match by FUNCTION+0xOFF, else by the one site of the same
 * FUNCTION left (marked '*'); "other" matches "other".  Each row: calls
 * and p50 of both sides, the change of the p50 and its verdict
 * (ks_cmp_pair(), ks_row_mark()); gone or new for a site called on one
 * side only.  72 columns.
 *
 * Return: 0, or -1 (printed).
 */
int ks_callers_compare(FILE *f, struct ks_view *const *nodes, const char *const *labels,
		       int n, int style);

#endif /* KS_CALLERS_H */
