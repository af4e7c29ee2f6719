// SPDX-License-Identifier: GPL-2.0
/*
 * ks_native: kstats slots as a Prometheus native histogram (ks_native.h
 * says how slots become buckets and what that costs in precision).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ks_native.h"

int ks_native_schema(__u32 bits)
{
	return bits + 1 > KS_NATIVE_SCHEMA_MAX ? KS_NATIVE_SCHEMA_MAX : (int)bits + 1;
}

double ks_native_point(__u32 s, __u32 bits, __u32 buckets)
{
	__u64 lo = kstats_slot_lo(s, bits);

	if (s < (1U << bits) || s >= kstats_overflow_slot(bits, buckets))
		return (double)lo;	/* one value; or past the last range */
	return sqrt((double)lo * ((double)kstats_slot_hi(s, bits, buckets) + 1));
}

/*
 * The edges inside one power of two, 2^(j 2^-s - 1) for j = 0..2^s - 1,
 * in [0.5, 1) as frexp() gives fractions: one table per schema, made on
 * first use (exp2l() rounded once to double).
 */
static const double *ks_native_fracs(int schema)
{
	static double tab[KS_NATIVE_SCHEMA_MAX + 1][1 << KS_NATIVE_SCHEMA_MAX];
	static int made[KS_NATIVE_SCHEMA_MAX + 1];
	int j, n = 1 << schema;

	if (!made[schema]) {
		for (j = 0; j < n; j++)
			tab[schema][j] = (double)exp2l((long double)j / n - 1.0L);
		made[schema] = 1;
	}
	return tab[schema];
}

int ks_native_index(double x, int schema)
{
	const double *frac = ks_native_fracs(schema);
	int e, lo = 0, hi = 1 << schema;
	double f = frexp(x, &e);	/* x = f 2^e, f in [0.5, 1) */

	/* the first j whose edge is at or above f (2^s when none is) */
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (frac[mid] < f)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo + (e - 1) * (1 << schema);
}

double ks_native_edge(int i, int schema)
{
	int n = 1 << schema;
	int q = i >= 0 ? i / n : -((n - 1 - i) / n);	/* floor(i / n) */

	return ldexp(ks_native_fracs(schema)[i - q * n], q + 1);
}

int ks_native_from_slots(struct ks_native *h, const struct kstats_slot *slots,
			 __u32 bits, __u32 buckets, double scale)
{
	__u32 nr = kstats_nr_slots(bits, buckets), s;
	__u64 sum = 0;
	__s64 prev = 0;
	int idx = 0, have = 0;

	memset(h, 0, sizeof(*h));
	h->schema = ks_native_schema(bits);
	/* the lower edge of the bucket of one unit: only value 0 is below */
	h->zero_threshold = ks_native_edge(ks_native_index(scale, h->schema) - 1,
					   h->schema);
	h->offsets = calloc(nr, sizeof(*h->offsets));
	h->lengths = calloc(nr, sizeof(*h->lengths));
	h->deltas = calloc(3 * (size_t)nr, sizeof(*h->deltas));
	if (!h->offsets || !h->lengths || !h->deltas) {
		ks_native_free(h);
		return -1;
	}
	for (s = 0; s < nr; s++) {
		const struct kstats_slot *sl = &slots[s];
		int i;

		h->count += sl->count;
		sum = sum + sl->sum < sum ? ~0ULL : sum + sl->sum;
		if (!sl->count)
			continue;
		if (!s) {
			h->zero_count += sl->count;
			continue;
		}
		i = ks_native_index(scale * ks_native_point(s, bits, buckets), h->schema);
		if (have && i == idx) {		/* the same bucket as the slot before */
			h->deltas[h->nr_deltas - 1] += (__s64)sl->count;
			continue;
		}
		if (have && i - idx <= 3) {
			/* a gap of up to two empty buckets stays in the span */
			for (; idx + 1 < i; idx++) {
				h->deltas[h->nr_deltas++] = 0;
				h->lengths[h->nr_spans - 1]++;
			}
		} else {
			h->offsets[h->nr_spans] = have ? i - idx - 1 : i;
			h->lengths[h->nr_spans++] = 0;
		}
		h->deltas[h->nr_deltas++] = (__s64)sl->count;	/* absolute, for now */
		h->lengths[h->nr_spans - 1]++;
		idx = i;
		have = 1;
	}
	h->sum = (double)sum * scale;
	for (s = 0; s < h->nr_deltas; s++) {	/* absolute counts to deltas */
		__s64 c = h->deltas[s];

		h->deltas[s] = c - prev;
		prev = c;
	}
	return 0;
}

void ks_native_free(struct ks_native *h)
{
	free(h->offsets);
	free(h->lengths);
	free(h->deltas);
	h->offsets = NULL;
	h->lengths = NULL;
	h->deltas = NULL;
	h->nr_spans = h->nr_deltas = 0;
}
