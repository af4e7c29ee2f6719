// SPDX-License-Identifier: GPL-2.0
/*
 * ks_stats: intervals and verdicts for kstats compare (docs/statistics.md).
 * Pure functions: no I/O, no global state.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ks_stats.h"

/* The 97.5% normal quantile: two-sided 95%. */
#define KS_Z975		1.959963984540054

/* Exact binomial ranks up to this many values, the normal approximation above. */
#define KS_EXACT_MAX	1000

double ks_t975(unsigned int df)
{
	static const double t[31] = { 0,
		12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060,
		2.2622, 2.2281, 2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199,
		2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687, 2.0639,
		2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
	};
	double z = KS_Z975, d = df;

	if (df < 1)
		return INFINITY;
	if (df <= 30)
		return t[df];
	/* Cornish-Fisher: t = z + g1/df + g2/df^2 (Abramowitz-Stegun 26.7.5) */
	return z + (z * z * z + z) / (4 * d) +
	       (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * d * d);
}

/* log of the Binomial(n, q) probability of k. */
static double ks_log_pmf(__u64 n, __u64 k, double q)
{
	return lgamma((double)n + 1) - lgamma((double)k + 1) -
	       lgamma((double)(n - k) + 1) + (double)k * log(q) +
	       (double)(n - k) * log1p(-q);
}

/*
 * The Binomial(n, q) probabilities of 0..n into @pmf: the mode's from
 * lgamma, the others from it by the ratio of neighbours (one product a
 * value, not three lgamma, two logs and an exp: a whole kernel's compare
 * takes thousands of intervals); those too small for a double are 0.
 */
static void ks_pmf(__u64 n, double q, double *pmf)
{
	__u64 m = (__u64)floor((double)(n + 1) * q), k;

	if (q <= 0 || q >= 1) {
		for (k = 0; k <= n; k++)
			pmf[k] = exp(ks_log_pmf(n, k, q));
		return;
	}
	if (m > n)
		m = n;
	pmf[m] = exp(ks_log_pmf(n, m, q));
	for (k = m; k < n; k++)
		pmf[k + 1] = pmf[k] * ((double)(n - k) / (double)(k + 1)) * (q / (1 - q));
	for (k = m; k > 0; k--)
		pmf[k - 1] = pmf[k] * ((double)k / (double)(n - k + 1)) * ((1 - q) / q);
}

void ks_rank_interval(__u64 n, __u32 milli, __u64 *l, __u64 *u)
{
	double q = milli / 1000.0, a2 = KS_STATS_ALPHA / 2;

	if (n <= KS_EXACT_MAX) {
		double cdf = 0, pmf[KS_EXACT_MAX + 1];
		__u64 k;

		ks_pmf(n, q, pmf);
		/* l: largest with P(B <= l - 1) <= alpha/2 */
		*l = 0;
		for (k = 0; k < n; k++) {
			cdf += pmf[k];
			if (cdf > a2)
				break;
			*l = k + 1;
		}
		/* u: smallest with P(B >= u) <= alpha/2 */
		cdf = 0;
		*u = n + 1;
		for (k = n; k >= 1; k--) {
			cdf += pmf[k];
			if (cdf > a2)
				break;
			*u = k;
		}
		return;
	} else {
		double mu = (double)n * q, sd = sqrt((double)n * q * (1 - q));
		double lo = floor(mu - KS_Z975 * sd), hi = ceil(mu + KS_Z975 * sd) + 1;

		*l = lo < 1 ? 0 : (__u64)lo;
		*u = hi > (double)n ? n + 1 : (__u64)hi;
	}
}

int ks_pct_interval(const struct kstats_slot *slots, __u32 nr, __u32 bits,
		    __u32 milli, struct ks_interval *ci)
{
	__u64 n = kstats_total(slots, nr), l, u;
	__u32 buckets = ((nr - 1) >> bits) - 1;
	int s;

	ci->lo = 0;
	ci->hi = INFINITY;
	if (!n)
		return -1;
	ks_rank_interval(n, milli, &l, &u);
	if (l) {
		s = kstats_rank_slot(slots, nr, l);
		ci->lo = (double)kstats_slot_lo((__u32)s, bits);
	}
	if (u <= n) {
		s = kstats_rank_slot(slots, nr, u);
		if ((__u32)s != nr - 1)
			ci->hi = (double)kstats_slot_hi((__u32)s, bits, buckets);
	}
	return 0;
}

int ks_bimodal(const double *x, unsigned int n)
{
	double *v, best = 0, sw = 0, mean = 0;
	unsigned int i, j, cut = 0;

	if (n < 4)
		return 0;
	v = malloc(n * sizeof(*v));
	if (!v)
		return 0;
	memcpy(v, x, n * sizeof(*v));
	for (i = 1; i < n; i++)		/* insertion sort: a handful of runs */
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	for (i = 2; i + 2 <= n; i++)	/* groups of at least two */
		if (v[i] - v[i - 1] > best) {
			best = v[i] - v[i - 1];
			cut = i;
		}
	for (i = 0; i < n; i++)
		mean += v[i] / n;
	if (cut) {
		double m1 = 0, m2 = 0;

		for (i = 0; i < cut; i++)
			m1 += v[i] / cut;
		for (i = cut; i < n; i++)
			m2 += v[i] / (n - cut);
		for (i = 0; i < n; i++)
			sw += (v[i] - (i < cut ? m1 : m2)) * (v[i] - (i < cut ? m1 : m2));
		sw = sqrt(sw / (n - 2));
	}
	free(v);
	return cut && best > 8 * sw && best > 0.005 * fabs(mean);
}

void ks_runs_summary(const double *x, unsigned int n, struct ks_runs *r)
{
	double ss = 0, h;
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->n = n;
	r->ci.hi = INFINITY;
	if (!n)
		return;
	for (i = 0; i < n; i++)
		r->mean += x[i] / n;
	for (i = 0; i < n; i++)
		ss += (x[i] - r->mean) * (x[i] - r->mean);
	r->sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
	if (n > 1) {
		h = ks_t975(n - 1) * r->sd / sqrt(n);
		r->ci.lo = r->mean - h < 0 ? 0 : r->mean - h;
		r->ci.hi = r->mean + h;
	}
	r->bimodal = ks_bimodal(x, n);
}

/* Change of @b against @a in %, and its bounds from the two intervals. */
static void ks_row_judge(struct ks_row *row)
{
	const struct ks_interval *a = &row->base_ci, *b = &row->new_ci;

	row->change_pct = row->base ? (row->new - row->base) * 100 / row->base : 0;
	row->change_ci.lo = isinf(a->hi) ? -100 : (b->lo / a->hi - 1) * 100;
	row->change_ci.hi = a->lo <= 0 || isinf(b->hi) ? INFINITY :
			    (b->hi / a->lo - 1) * 100;
	row->verdict = KS_NOT_MEASURABLE;
	if (row->why & KS_WHY_EMPTY)
		return;
	if (b->hi < a->lo)
		row->verdict = KS_BETTER;
	else if (b->lo > a->hi)
		row->verdict = KS_WORSE;
	else
		row->why |= KS_WHY_OVERLAP;
}

/* Stddev of @r in % of its mean, -1 when it has none. */
static double ks_sd_pct(const struct ks_runs *r)
{
	return r->n > 1 && r->mean > 0 ? r->sd * 100 / r->mean : -1;
}

/* ks_mean_interval(), a slot's width taken from @bounds when given. */
static int ks_mean_interval_in(const struct kstats_slot *slots, __u32 nr, __u32 bits,
			       const struct ks_interval *bounds, double mean,
			       struct ks_interval *ci)
{
	__u32 buckets = ((nr - 1) >> bits) - 1, s;
	__u64 n = kstats_total(slots, nr);
	double ss = 0, h;

	ci->lo = 0;
	ci->hi = INFINITY;
	if (n < 2)
		return -1;
	for (s = 0; s < nr; s++) {
		double d, w;

		if (!slots[s].count)
			continue;
		d = (double)kstats_slot_value(slots, s, bits, nr) - mean;
		/* a value spread evenly over its slot: width^2 / 12 more */
		if (bounds)
			w = isinf(bounds[s].hi) ? 0 : bounds[s].hi - bounds[s].lo;
		else
			w = s == nr - 1 ? 0 : (double)(kstats_slot_hi(s, bits, buckets) -
						       kstats_slot_lo(s, bits) + 1);
		ss += (double)slots[s].count * (d * d + w * w / 12);
	}
	h = KS_Z975 * sqrt(ss / (double)(n - 1) / (double)n);
	ci->lo = mean - h < 0 ? 0 : mean - h;
	ci->hi = mean + h;
	return 0;
}

int ks_mean_interval(const struct kstats_slot *slots, __u32 nr, __u32 bits,
		     double mean, struct ks_interval *ci)
{
	return ks_mean_interval_in(slots, nr, bits, NULL, mean, ci);
}

void ks_row_mean(const struct ks_pct_side *a, const struct ks_pct_side *b,
		 __u32 nr, __u32 bits, struct ks_row *row)
{
	int runs = a->n >= KS_STATS_MIN_RUNS && b->n >= KS_STATS_MIN_RUNS;
	struct ks_runs ra, rb;

	memset(row, 0, sizeof(*row));
	ks_runs_summary(a->runs, a->n, &ra);
	ks_runs_summary(b->runs, b->n, &rb);
	row->runs_a = a->n;
	row->runs_b = b->n;
	row->base = ra.mean;
	row->new = rb.mean;
	row->base_sd_pct = ks_sd_pct(&ra);
	row->new_sd_pct = ks_sd_pct(&rb);
	row->base_ci = ra.ci;
	row->new_ci = rb.ci;
	if (!runs) {
		row->why |= KS_WHY_FEW_RUNS;
		/* fewer than 2 values: no interval, [0, inf], not measurable */
		ks_mean_interval_in(a->merged, nr, bits, a->bounds, ra.mean, &row->base_ci);
		ks_mean_interval_in(b->merged, nr, bits, b->bounds, rb.mean, &row->new_ci);
	}
	if (!a->n || !b->n || ra.mean <= 0 || rb.mean <= 0)
		row->why |= KS_WHY_EMPTY;
	row->why |= (ra.bimodal ? KS_WHY_BIMODAL_A : 0) | (rb.bimodal ? KS_WHY_BIMODAL_B : 0);
	ks_row_judge(row);
}

/* One side of a percentile row: its figure, interval, stddev. */
static int ks_pct_one(const struct ks_pct_side *s, __u32 nr, __u32 bits,
		      __u32 milli, int with_runs, double *v,
		      struct ks_interval *ci, double *sd_pct)
{
	__u64 total = kstats_total(s->merged, nr);
	struct ks_runs r;

	*v = (double)kstats_percentile(s->merged, nr, bits, total, milli);
	if (ks_pct_interval(s->merged, nr, bits, milli, ci))
		return -1;
	if (s->bounds) {
		__u64 l, u;

		/* the slots of ranks l and u hold values of their bounds */
		ks_rank_interval(total, milli, &l, &u);
		if (l)
			ci->lo = fmin(ci->lo, s->bounds[kstats_rank_slot(s->merged, nr, l)].lo);
		if (u <= total)
			ci->hi = fmax(ci->hi, s->bounds[kstats_rank_slot(s->merged, nr, u)].hi);
	}
	ks_runs_summary(s->runs, s->n, &r);
	*sd_pct = ks_sd_pct(&r);
	if (with_runs) {
		ci->lo = fmin(ci->lo, r.ci.lo);
		ci->hi = fmax(ci->hi, r.ci.hi);
	}
	return r.bimodal;
}

void ks_row_pct(const struct ks_pct_side *a, const struct ks_pct_side *b,
		__u32 nr, __u32 bits, __u32 milli, struct ks_row *row)
{
	int runs = a->n >= KS_STATS_MIN_RUNS && b->n >= KS_STATS_MIN_RUNS;
	int ba, bb;

	memset(row, 0, sizeof(*row));
	row->runs_a = a->n;
	row->runs_b = b->n;
	ba = ks_pct_one(a, nr, bits, milli, runs, &row->base, &row->base_ci,
			&row->base_sd_pct);
	bb = ks_pct_one(b, nr, bits, milli, runs, &row->new, &row->new_ci,
			&row->new_sd_pct);
	if (ba < 0 || bb < 0)
		row->why |= KS_WHY_EMPTY;
	row->why |= (ba > 0 ? KS_WHY_BIMODAL_A : 0) | (bb > 0 ? KS_WHY_BIMODAL_B : 0);
	if (!runs)
		row->why |= KS_WHY_FEW_RUNS;
	ks_row_judge(row);
}

const char *ks_row_verdict(const struct ks_row *row)
{
	int few = row->why & KS_WHY_FEW_RUNS;

	if (row->verdict == KS_BETTER)
		return few ? "better?" : "better";
	if (row->verdict == KS_WORSE)
		return few ? "worse?" : "worse";
	return "not measurable";
}

const char *ks_row_mark(const struct ks_row *row)
{
	if (row->why & KS_WHY_EMPTY)
		return "-";
	if (row->verdict == KS_NOT_MEASURABLE)
		return "?";
	return ks_row_verdict(row);
}
