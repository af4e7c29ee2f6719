/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_parse_rows: the rows of node text as ks_parse.c reads them, which
 * its strict checks (ks_parse_check.c) hold against the node built from
 * them; shared by those two files only.
 */
#ifndef KS_PARSE_ROWS_H
#define KS_PARSE_ROWS_H

#include <stddef.h>
#include "ks_err.h"
#include "ks_view.h"

/* One slot row as read, kept until the whole text is seen. */
struct ks_row {
	__u32 slot;
	long cpu;		/* -1 for the CPUS row, -2 for a caller's */
	int caller;		/* a call site's row: its index, else -1 */
	int disturbed;		/* a disturbed calls' row (caller -1, cpu -2) */
	__u32 ncpus;		/* CPUS rows only */
	__u64 count, avg, n;
	double p;
	int has_p, has_n;
	int line;
};

struct ks_parser {
	struct ks_errbuf e;
	unsigned int flags;
	int line;
	struct ks_row *rows;
	size_t nr_rows, cap_rows;
	int have_head, have_samples, have_bits, have_buckets, have_unit;
	int samples_line, pct_line;
	int *caller_lines;	/* the line of each node->callers[] */
};

/**
 * ks_parse_check() - every documented invariant of the text (KS_PARSE_STRICT)
 * @ps:   the parser, its rows read
 * @node: the node built from them
 *
 * Rows in order, CPU rows adding up to the CPUS rows, the n and p columns,
 * the header's figures, the call sites' rows and counts.
 *
 * Return: 0, or -1 with the first broken one in @ps->e.
 */
int ks_parse_check(struct ks_parser *ps, struct ks_view *node);

#endif /* KS_PARSE_ROWS_H */
