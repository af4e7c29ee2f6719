// SPDX-License-Identifier: GPL-2.0
/*
 * ks_cmp_fn: each function's runs on both sides of compare A... -- B...
 * (and A B of files of many nodes), found by name, and merged.
 */
#include <stdlib.h>
#include <string.h>

#include "ks_cmp_fn.h"

/* Every node of @s named @name, into *@out (allocated); how many. */
int ks_cmp_runs(const struct ks_cmp_side *s, const char *name, struct ks_view ***out)
{
	int i, n = 0;

	*out = calloc(s->n ? s->n : 1, sizeof(**out));
	for (i = 0; *out && i < s->n; i++)
		if (!strcmp(s->nodes[i]->name, name))
			(*out)[n++] = s->nodes[i];
	return n;
}

/* Node @i of side @side (0: base, 1: new), by its name. */
struct ks_cmp_at {
	const char *name;
	int side, i;
};

static int ks_cmp_at_cmp(const void *x, const void *y)
{
	const struct ks_cmp_at *p = x, *q = y;
	int c = strcmp(p->name, q->name);

	if (c)
		return c;
	return p->side != q->side ? p->side - q->side : p->i - q->i;
}

/*
 * Each function's runs on both sides (@fns[].name, ra, na, rb, nb), found
 * by sorting every node by name: a search of both sides per function took
 * minutes over a whole kernel's 40,000 functions a side.  *@n: the
 * functions filled.  Return: 0, -1 out of memory.
 */
int ks_cmp_index(const struct ks_cmp_side *a, const struct ks_cmp_side *b,
		 struct ks_fn *fns, int *n)
{
	int t = a->n + b->n, i, j, k;
	struct ks_cmp_at *v = malloc((size_t)(t ? t : 1) * sizeof(*v));

	*n = 0;
	if (!v)
		return -1;
	for (i = 0; i < t; i++)
		v[i] = (struct ks_cmp_at){ i < a->n ? a->nodes[i]->name :
					   b->nodes[i - a->n]->name,
					   i >= a->n, i < a->n ? i : i - a->n };
	qsort(v, t, sizeof(*v), ks_cmp_at_cmp);
	for (i = 0; i < t; i = j) {
		struct ks_fn *fn = &fns[(*n)++];

		for (j = i; j < t && !strcmp(v[j].name, v[i].name); j++)
			;
		fn->name = v[i].name;
		fn->ra = calloc(j - i, sizeof(*fn->ra));
		fn->rb = calloc(j - i, sizeof(*fn->rb));
		if (!fn->ra || !fn->rb) {
			free(v);
			return -1;
		}
		for (k = i; k < j; k++)
			if (v[k].side)
				fn->rb[fn->nb++] = b->nodes[v[k].i];
			else
				fn->ra[fn->na++] = a->nodes[v[k].i];
	}
	free(v);
	return 0;
}

/*
 * The merged histogram of @n runs, and the count and total per run over
 * @per runs (at least @n: the side's files, of which some may never have
 * called the function).
 */
struct kstats_slot *ks_cmp_merge(struct ks_view **runs, int n, int per,
				 double *count, double *total)
{
	struct kstats_slot *m;
	int i;

	*count = *total = 0;
	if (!n)
		return NULL;
	if (per < n)
		per = n;
	m = calloc(runs[0]->nr_slots, sizeof(*m));
	for (i = 0; m && i < n; i++) {
		kstats_merge(m, runs[i]->total, runs[i]->nr_slots);
		*count += (double)runs[i]->samples / per;
		*total += (double)runs[i]->samples * (double)runs[i]->avg / per;
	}
	return m;
}
