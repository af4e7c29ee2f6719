/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_top: what kstats top shows (ks_top.c): every node followed, what each
 * interval added to it (and to its call sites), ranked by a column, as
 * lines of text; cli/cmd_top.c parses its options and runs the live view.
 */
#ifndef KS_TOP_H
#define KS_TOP_H

#include <stddef.h>
#include "ks_tick.h"
#include "ks_view.h"

/* The columns a view can be sorted by, and their keys in the live view. */
enum ks_top_col {
	KS_TOP_NAME, KS_TOP_CALLS, KS_TOP_P50, KS_TOP_P99, KS_TOP_MAX,
	KS_TOP_TOTAL, KS_TOP_NR_COLS
};

struct ks_top_sort {
	const char *word, *alias;	/* --sort WORD */
	char key;			/* key in the live view */
};
extern const struct ks_top_sort ks_top_sorts[KS_TOP_NR_COLS];

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
	int nn, cap;
	int *index, index_size;	/* by name: node + 1, 0 free (ks_top.c) */
	struct ks_top_row *rows;
	int nrows;
	int nrows_prev;		/* rows to free with them */
	int have_rows;		/* an interval has been read */
	const char *note;	/* ks_timing_note() of the nodes: -icount */
};

int ks_top_col_of(const char *word);
int ks_top_read(struct ks_top *t);
void ks_top_sort(struct ks_top *t);
int ks_top_namew(const struct ks_top *t);
void ks_top_header(char *buf, size_t len, int namew, int live);
void ks_top_line(char *buf, size_t len, const struct ks_top_row *r,
		 int namew, int live);
void ks_top_print(struct ks_top *t);
void ks_top_rows_free(struct ks_top_row *rows, int n);

#endif /* KS_TOP_H */
