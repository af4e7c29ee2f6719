// SPDX-License-Identifier: GPL-2.0
/*
 * ks_parse_check: what "kstats check" (KS_PARSE_STRICT) verifies of node
 * text beyond its syntax, on the rows ks_parse.c read: their order, the
 * CPU rows against the CPUS rows, the cumulative columns, the header's
 * figures, the call sites'.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_parse.h"
#include "ks_parse_rows.h"

/*
 * Row order: each histogram (every CPU, and CPUS) lists its slots in
 * strictly ascending order.  The module prints CPU after CPU, then the
 * CPUS rows; rows interleaved slot by slot read the same.
 */
static int ks_check_order(struct ks_parser *ps, struct ks_view *node)
{
	long *last = malloc((node->nr_cpus + 1) * sizeof(*last));
	size_t i;
	__u32 h;

	if (!last)
		return ks_fail(&ps->e, 0, "out of memory");
	for (h = 0; h <= node->nr_cpus; h++)
		last[h] = -1;
	for (i = 0; i < ps->nr_rows; i++) {
		const struct ks_row *r = &ps->rows[i];
		const char *err = NULL;

		if (r->caller >= 0 || r->disturbed)
			continue;	/* ks_check_callers(); racy against the counts */
		if (!r->count)
			err = "row with count 0 (only non-empty slots are listed)";
		else if (r->avg < kstats_slot_lo(r->slot, node->bits) ||
			 r->avg > kstats_slot_hi(r->slot, node->bits, node->buckets))
			err = "avg outside its slot";
		else if (r->cpu >= 0 && r->cpu >= (long)node->ncpus)
			err = "CPU number not below the CPUS count";
		if (err) {
			free(last);
			return ks_fail(&ps->e, r->line, "%s (slot %u [%llu, %llu], avg %llu, CPUS %u)",
				       err, r->slot,
				       (unsigned long long)kstats_slot_lo(r->slot, node->bits),
				       (unsigned long long)kstats_slot_hi(r->slot, node->bits,
				       node->buckets),
				       (unsigned long long)r->avg, node->ncpus);
		}
		h = node->nr_cpus;	/* CPUS */
		if (r->cpu >= 0)
			for (h = 0; node->cpus[h].cpu != (__u32)r->cpu; h++)
				;
		if ((long)r->slot <= last[h]) {
			ks_fail(&ps->e, r->line, "slot %u after slot %ld of the same %s: slots must ascend",
				r->slot, last[h], r->cpu < 0 ? "CPUS" : "CPU");
			free(last);
			return -1;
		}
		last[h] = r->slot;
	}
	free(last);
	return 0;
}

/* The n and p columns: cumulative count and fraction of each histogram. */
static int ks_check_cumulative(struct ks_parser *ps, struct ks_view *node)
{
	size_t i;
	__u32 c;

	for (c = 0; c <= node->nr_cpus; c++) {
		long cpu = c < node->nr_cpus ? (long)node->cpus[c].cpu : -1;
		const struct kstats_slot *slots = c < node->nr_cpus ?
			node->cpus[c].slots : node->total;
		__u64 total = kstats_total(slots, node->nr_slots), seen = 0;

		for (i = 0; i < ps->nr_rows; i++) {
			const struct ks_row *r = &ps->rows[i];

			if (r->cpu != cpu)
				continue;
			seen += r->count;
			if (r->n != seen)
				return ks_fail(&ps->e, r->line, "n %llu but the cumulative count is %llu",
					       (unsigned long long)r->n,
					       (unsigned long long)seen);
			if (fabs(r->p - (double)seen / (double)total) > 1.000001e-6)
				return ks_fail(&ps->e, r->line, "p %.6f but n/total is %.6f",
					       r->p, (double)seen / (double)total);
		}
	}
	return 0;
}

/* CPU rows add up to the CPUS rows, counts and means. */
static int ks_check_merge(struct ks_parser *ps, struct ks_view *node)
{
	__u32 s, c;

	for (s = 0; s < node->nr_slots; s++) {
		__u64 count = 0;
		unsigned __int128 lo = 0;
		const struct kstats_slot *t = &node->total[s];

		for (c = 0; c < node->nr_cpus; c++) {
			count += node->cpus[c].slots[s].count;
			lo += node->cpus[c].slots[s].sum;
		}
		if (count != t->count)
			return ks_fail(&ps->e, 0, "slot %u: CPU rows add up to %llu, CPUS row says %llu",
				       s, (unsigned long long)count,
				       (unsigned long long)t->count);
		/* each CPU mean is truncated: the merged one lies in a range */
		if (count && (kstats_slot_mean(t) < (__u64)(lo / count) ||
			      kstats_slot_mean(t) > (__u64)((lo + count - 1) / count)))
			return ks_fail(&ps->e, 0, "slot %u: CPUS avg %llu does not merge the CPU avgs",
				       s, (unsigned long long)kstats_slot_mean(t));
	}
	return 0;
}

/* Header figures against the rows. */
static int ks_check_header(struct ks_parser *ps, struct ks_view *node)
{
	__u64 total = kstats_total(node->total, node->nr_slots);
	__u64 pct[KSTATS_NR_PCT];
	unsigned __int128 lo = 0;
	int first = -1, last = -1;
	__u32 s;
	int k;

	if (node->samples != total)
		return ks_fail(&ps->e, ps->samples_line, "samples %llu but the CPUS rows count %llu",
			       (unsigned long long)node->samples,
			       (unsigned long long)total);
	if (node->precision_ppm != kstats_precision_ppm(node->bits))
		return ks_fail(&ps->e, ps->pct_line, "precision_ppm %u, bits=%u means %u",
			       node->precision_ppm, node->bits,
			       kstats_precision_ppm(node->bits));
	kstats_percentiles(node->total, node->nr_slots, node->bits, pct);
	for (k = 0; k < KSTATS_NR_PCT; k++)
		if (pct[k] != node->pct[k])
			return ks_fail(&ps->e, ps->pct_line, "%s %llu but the CPUS rows give %llu",
				       kstats_pct_name[k],
				       (unsigned long long)node->pct[k],
				       (unsigned long long)pct[k]);
	if (!total)
		return 0;
	for (s = 0; s < node->nr_slots; s++) {
		if (!node->total[s].count)
			continue;
		if (first < 0)
			first = s;
		last = s;
		lo += node->total[s].sum;
	}
	if (kstats_slot(node->min, node->bits, node->buckets) != (__u32)first)
		return ks_fail(&ps->e, ps->samples_line, "min %llu is not in the first slot %d",
			       (unsigned long long)node->min, first);
	if (kstats_slot(node->max, node->bits, node->buckets) != (__u32)last)
		return ks_fail(&ps->e, ps->samples_line, "max %llu is not in the last slot %d",
			       (unsigned long long)node->max, last);
	if (node->avg < (__u64)(lo / total) ||
	    node->avg > (__u64)((lo + total - 1) / total))
		return ks_fail(&ps->e, ps->samples_line, "avg %llu does not match the slot means (%llu)",
			       (unsigned long long)node->avg,
			       (unsigned long long)(lo / total));
	return 0;
}

/*
 * The call sites: each one's rows ascend, hold their means and end at its
 * count; its p50, p99 and max are those of its rows; all of them add up
 * to the node's samples (one "other" line always with them).
 */
static int ks_check_callers(struct ks_parser *ps, struct ks_view *node)
{
	__u64 pct[KSTATS_NR_PCT], sum = 0;
	__u32 h, s;
	size_t i;

	if (!node->nr_callers && !node->callers_n)
		return 0;
	if (!node->callers_n)
		return ks_fail(&ps->e, ps->caller_lines[0], "'# caller' lines without callers= in the header");
	if (ks_caller_find(node, KS_CALLER_OTHER) < 0)
		return ks_fail(&ps->e, 0, "callers=%u but no '# caller %s' line",
			       node->callers_n, KS_CALLER_OTHER);
	for (h = 0; h < node->nr_callers; h++) {
		const struct ks_caller *c = &node->callers[h];
		__u64 seen = 0, rows = kstats_total(c->slots, node->nr_slots);
		long last = -1;

		if (rows != c->count)
			return ks_fail(&ps->e, ps->caller_lines[h], "caller %s: count %llu but its rows end at %llu",
				       c->id, (unsigned long long)c->count, (unsigned long long)rows);

		for (i = 0; i < ps->nr_rows; i++) {
			const struct ks_row *r = &ps->rows[i];

			if (r->caller != (int)h)
				continue;
			if (!r->count || (long)r->slot <= last ||
			    r->avg < kstats_slot_lo(r->slot, node->bits) ||
			    r->avg > kstats_slot_hi(r->slot, node->bits, node->buckets))
				return ks_fail(&ps->e, r->line,
					       "caller %s: slot %u: empty, out of order, or avg %llu outside it",
					       c->id, r->slot, (unsigned long long)r->avg);
			last = r->slot;
			seen += r->count;
			if (r->n != seen || fabs(r->p - (double)seen / (double)c->count) > 1.000001e-6)
				return ks_fail(&ps->e, r->line,
					       "caller %s: n %llu, p %.6f but the running count is %llu of %llu",
					       c->id, (unsigned long long)r->n, r->p,
					       (unsigned long long)seen, (unsigned long long)c->count);
		}
		kstats_percentiles(c->slots, node->nr_slots, node->bits, pct);
		for (s = node->nr_slots; seen && !c->slots[s - 1].count; s--)
			;
		if (c->p50 != (seen ? pct[KSTATS_P50] : 0) || c->p99 != (seen ? pct[KSTATS_P99] : 0))
			return ks_fail(&ps->e, ps->caller_lines[h],
				       "caller %s: p50 %llu p99 %llu but its rows give %llu, %llu",
				       c->id, (unsigned long long)c->p50, (unsigned long long)c->p99,
				       (unsigned long long)(seen ? pct[KSTATS_P50] : 0),
				       (unsigned long long)(seen ? pct[KSTATS_P99] : 0));
		if (seen ? kstats_slot(c->max, node->bits, node->buckets) != s - 1 : c->max != 0)
			return ks_fail(&ps->e, ps->caller_lines[h], "caller %s: max %llu is not in its last slot",
				       c->id, (unsigned long long)c->max);
		sum += c->count;
	}
	/*
	 * A read while the node records may catch a call in the node's rows
	 * and not yet in its site's, or the reverse (docs/format.md): exact
	 * only once it is stopped.
	 */
	if (sum != node->samples && strcmp(node->state, KS_STATE_ACTIVE))
		return ks_fail(&ps->e, ps->samples_line, "samples %llu but the callers add up to %llu",
			       (unsigned long long)node->samples, (unsigned long long)sum);
	return 0;
}

int ks_parse_check(struct ks_parser *ps, struct ks_view *node)
{
	return ks_check_order(ps, node) || ks_check_merge(ps, node) ||
	       ks_check_cumulative(ps, node) || ks_check_header(ps, node) ||
	       ks_check_callers(ps, node) ? -1 : 0;
}
