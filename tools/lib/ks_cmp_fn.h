/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_cmp_fn: what compare A... -- B... keeps of each function, shared by
 * its text tables (ks_cmp.c) and its JSON (ks_cmp_json.c) only; its runs
 * found and merged (ks_cmp_fn.c).
 */
#ifndef KS_CMP_FN_H
#define KS_CMP_FN_H

#include <stdio.h>
#include "ks_cmp.h"

#define KS_CELL	48

/* One function: its runs on each side and its rows. */
struct ks_fn {
	const char *name;
	struct ks_view **ra, **rb;
	int na, nb;
	struct kstats_slot *ma, *mb;	/* merged runs */
	const struct ks_interval *bounds;	/* ks_cmp_side's */
	struct ks_row rows[KS_CMP_ROWS];
	int key;			/* the row it is ranked and judged by */
	double count_a, count_b, total_a, total_b;	/* per run */
};

/* "mean", then the percentiles' names, for row @i of struct ks_fn. */
static inline const char *ks_row_name(int i)
{
	return i ? kstats_pct_name[i - 1] : "mean";
}

/* Are all nodes of @s from QEMU -icount? */
static inline int ks_side_icount(const struct ks_cmp_side *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (!ks_timing_note(&s->nodes[i]->meta))
			return 0;
	return s->n > 0;
}

/* Each function's runs, and their merge (ks_cmp_fn.c). */
int ks_cmp_runs(const struct ks_cmp_side *s, const char *name, struct ks_view ***out);
int ks_cmp_index(const struct ks_cmp_side *a, const struct ks_cmp_side *b,
		 struct ks_fn *fns, int *n);
struct kstats_slot *ks_cmp_merge(struct ks_view **runs, int n, int per,
				 double *count, double *total);

/* compare --json of the @n functions @fns (ks_cmp_json.c). */
void ks_cmp_json_print(FILE *f, const struct ks_cmp_side *a,
		       const struct ks_cmp_side *b, const struct ks_fn *fns, int n);

#endif /* KS_CMP_FN_H */
