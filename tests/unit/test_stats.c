// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics of kstats compare (tools/lib/ks_stats.c) proven on noise:
 * synthetic runs drawn from known distributions, over many seeds.
 *
 * One run: NSAMP latencies from a log-normal (median 1000 ns, sigma 0.5),
 * every value of the run times a run factor exp(0.01 g) (1% run-to-run
 * noise, as frequency and cache placement give on a real machine), in a
 * bits-3 histogram.  A side is RUNS such runs.  Measured over SEEDS seeds:
 *  - identical sides: how often a row says better or worse (false alarms);
 *    at most alpha on every row, with runs and with one run a side;
 *  - the new side slower by 1%, 5%, 20%: how often it says worse;
 *  - runs in two modes (a third of them 30% slower, as with SMT
 *    placement): false alarms, and how often the runs are flagged bimodal;
 *  - coverage of the intervals against the distribution's true values.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_stats.h"
#include "../tap.h"

#define BITS	3
#define NSAMP	4000
#define RUNS	5
#define RUNS_MAX	8
#define SEEDS	400
#define NROWS	(1 + KSTATS_NR_PCT)	/* mean, then the percentiles */

static const double ks_probit[KSTATS_NR_PCT] = {	/* Phi^-1 of each percentile */
	-1.2815516, 0, 1.2815516, 1.6448536, 2.0537489, 2.3263479, 3.0902323,
};

static __u64 rng;

/* splitmix64 */
static __u64 next(void)
{
	__u64 z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform on (0, 1). */
static double unif(void)
{
	return ((next() >> 11) + 0.5) / 9007199254740992.0;
}

/* Standard normal (Box-Muller, one of the pair). */
static double gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

/* A side's runs: histograms, merged histogram, run means, run percentiles. */
struct side {
	__u32 nr, buckets;
	struct kstats_slot *merged, *run[RUNS_MAX];
	double mean[RUNS_MAX], pct[KSTATS_NR_PCT][RUNS_MAX];
	double factor[RUNS_MAX];		/* the run's factor: its true mean */
	int slow[RUNS_MAX];			/* the run is in the slow mode */
	unsigned int n;
};

static void side_init(struct side *s)
{
	unsigned int r;

	s->buckets = kstats_default_buckets(BITS);
	s->nr = kstats_nr_slots(BITS, s->buckets);
	s->merged = calloc(s->nr, sizeof(*s->merged));
	for (r = 0; r < RUNS_MAX; r++)
		s->run[r] = calloc(s->nr, sizeof(*s->run[r]));
}

/*
 * Draw @n runs: median 1000 * @scale; with @bimodal, each run is 30%
 * slower with probability 1/3.
 */
static void side_draw(struct side *s, unsigned int n, double scale, int bimodal)
{
	__u64 out[KSTATS_NR_PCT];
	unsigned int r, i;
	int k;

	memset(s->merged, 0, s->nr * sizeof(*s->merged));
	s->n = n;
	for (r = 0; r < n; r++) {
		double f = scale * exp(0.01 * gauss()), sum = 0;

		s->slow[r] = bimodal && next() % 3 == 0;
		if (s->slow[r])
			f *= 1.3;
		s->factor[r] = f;
		memset(s->run[r], 0, s->nr * sizeof(*s->run[r]));
		for (i = 0; i < NSAMP; i++) {
			__u64 v = (__u64)(1000 * f * exp(0.5 * gauss()) + 0.5);

			kstats_hist_add(s->run[r], v, BITS, s->buckets);
			sum += (double)v;
		}
		s->mean[r] = sum / NSAMP;
		kstats_percentiles(s->run[r], s->nr, BITS, out);
		for (k = 0; k < KSTATS_NR_PCT; k++)
			s->pct[k][r] = (double)out[k];
		kstats_merge(s->merged, s->run[r], s->nr);
	}
}

/* Every row of @b against @a. */
static void compare(const struct side *a, const struct side *b, struct ks_row *rows)
{
	int k;

	struct ks_pct_side ma = { a->merged, a->mean, a->n, NULL };
	struct ks_pct_side mb = { b->merged, b->mean, b->n, NULL };

	ks_row_mean(&ma, &mb, a->nr, BITS, &rows[0]);
	for (k = 0; k < KSTATS_NR_PCT; k++) {
		struct ks_pct_side pa = { a->merged, a->pct[k], a->n, NULL };
		struct ks_pct_side pb = { b->merged, b->pct[k], b->n, NULL };

		ks_row_pct(&pa, &pb, a->nr, BITS, kstats_pct_milli[k], &rows[1 + k]);
	}
}

static const char *row_name(int i)
{
	return i ? kstats_pct_name[i - 1] : "mean";
}

/*
 * @seeds comparisons of @runs runs a side, the new side scaled by @scale:
 * how many times each row said better, worse, and how many sides were
 * bimodal (flagged, and truly with at least two runs in each mode).
 */
struct tally {
	unsigned int better[NROWS], worse[NROWS], flagged, truly, flagged_truly;
	unsigned int unmarked;	/* a verdict from fewer runs without its "?" */
};

static void run_case(struct side *a, struct side *b, unsigned int runs,
		     double scale, int bimodal, unsigned int seeds, struct tally *t)
{
	struct ks_row rows[NROWS];
	unsigned int s, r;
	int i;

	memset(t, 0, sizeof(*t));
	for (s = 0; s < seeds; s++) {
		rng = 0x1234567ULL * (s + 1) + (__u64)(scale * 1e6) + (__u64)bimodal * 77 +
		      runs * 1000003ULL;
		side_draw(a, runs, 1.0, bimodal);
		side_draw(b, runs, scale, bimodal);
		compare(a, b, rows);
		for (i = 0; i < NROWS; i++) {
			t->better[i] += rows[i].verdict == KS_BETTER;
			t->worse[i] += rows[i].verdict == KS_WORSE;
			t->unmarked += runs < KS_STATS_MIN_RUNS && rows[i].verdict != KS_NOT_MEASURABLE &&
				       !strchr(ks_row_verdict(&rows[i]), '?');
		}
		for (i = 0; i < 2; i++) {
			const struct side *x = i ? b : a;
			unsigned int slow = 0;

			for (r = 0; r < x->n; r++)
				slow += x->slow[r];
			if (slow >= 2 && x->n - slow >= 2) {
				t->truly++;
				t->flagged_truly += !!(rows[0].why & (i ? KS_WHY_BIMODAL_B :
									 KS_WHY_BIMODAL_A));
			}
			t->flagged += !!(rows[0].why & (i ? KS_WHY_BIMODAL_B : KS_WHY_BIMODAL_A));
		}
	}
}

static void print_tally(const char *what, const struct tally *t, unsigned int seeds)
{
	int i;

	printf("# %s over %u seeds: better/worse per row:", what, seeds);
	for (i = 0; i < NROWS; i++)
		printf(" %s %u/%u", row_name(i), t->better[i], t->worse[i]);
	printf("\n");
}

/* False alarms of identical sides: every row at most alpha. */
static void check_false_alarms(const char *what, const struct tally *t,
			       unsigned int seeds, int from_row)
{
	unsigned int worst = 0, total = 0, trials = 0;
	int i, wi = from_row;

	for (i = from_row; i < NROWS; i++) {
		unsigned int fa = t->better[i] + t->worse[i];

		total += fa;
		trials += seeds;
		if (fa > worst) {
			worst = fa;
			wi = i;
		}
	}
	tap_result(worst <= KS_STATS_ALPHA * seeds,
		   "%s: false alarms %u of %u rows (%.2f%%), worst row %s %u of %u (%.1f%%), alpha %.0f%%",
		   what, total, trials, 100.0 * total / trials, row_name(wi), worst, seeds,
		   100.0 * worst / seeds, 100 * KS_STATS_ALPHA);
}

/*
 * A histogram re-binned from coarser buckets (compare --prometheus): the
 * percentile's interval reaches the bounds the side gives its slots, and
 * two sides one bucket apart are then not measurable.
 */
static void check_bounds(void)
{
	__u32 nr = kstats_nr_slots(BITS, kstats_default_buckets(BITS));
	struct kstats_slot *ha = calloc(nr, sizeof(*ha)), *hb = calloc(nr, sizeof(*hb));
	struct ks_interval *bounds = calloc(nr, sizeof(*bounds));
	__u32 sa = kstats_slot(9890, BITS, kstats_default_buckets(BITS));
	__u32 sb = kstats_slot(11800, BITS, kstats_default_buckets(BITS));
	double va[1] = { 9890 }, vb[1] = { 11800 };
	struct ks_row plain, wide;

	if (!ha || !hb || !bounds)
		abort();
	ha[sa] = (struct kstats_slot){ 1000, 1000 * 9890ULL };
	hb[sb] = (struct kstats_slot){ 1000, 1000 * 11800ULL };
	bounds[sa] = (struct ks_interval){ 9072.9, 10789.6 };	/* 2^(i/4) s, in ns */
	bounds[sb] = (struct ks_interval){ 10789.6, 12831.1 };
	{
		struct ks_pct_side a = { ha, va, 1, NULL }, b = { hb, vb, 1, NULL };
		struct ks_pct_side wa = { ha, va, 1, bounds }, wb = { hb, vb, 1, bounds };

		ks_row_pct(&a, &b, nr, BITS, 500, &plain);
		ks_row_pct(&wa, &wb, nr, BITS, 500, &wide);
	}
	tap_result(plain.verdict == KS_WORSE && plain.base_ci.lo == kstats_slot_lo(sa, BITS),
		   "p50 9890 vs 11800 ns in slots of 12.5%%: worse?, base [%.0f, %.0f]",
		   plain.base_ci.lo, plain.base_ci.hi);
	tap_result(wide.verdict == KS_NOT_MEASURABLE && wide.base_ci.lo == 9072.9 &&
		   wide.base_ci.hi == 10789.6 && wide.new_ci.hi == 12831.1 &&
		   fabs(wide.change_ci.hi - 41.42) < 0.01,
		   "the same in Prometheus buckets: base [%.1f, %.1f], new [%.1f, %.1f], bounds [%+.1f, %+.1f]%%: %s",
		   wide.base_ci.lo, wide.base_ci.hi, wide.new_ci.lo, wide.new_ci.hi,
		   wide.change_ci.lo, wide.change_ci.hi, ks_row_verdict(&wide));
	{
		struct ks_pct_side a = { ha, va, 1, NULL }, b = { hb, vb, 1, NULL };
		struct ks_pct_side wa = { ha, va, 1, bounds }, wb = { hb, vb, 1, bounds };

		ks_row_mean(&a, &b, nr, BITS, &plain);
		ks_row_mean(&wa, &wb, nr, BITS, &wide);
	}
	tap_result(fabs((wide.base_ci.hi - wide.base_ci.lo) / (plain.base_ci.hi - plain.base_ci.lo) -
			(10789.6 - 9072.9) / 1024) < 0.01,
		   "one run's mean, values spread over their bucket, not their slot: +-%.1f ns, not +-%.1f",
		   (wide.base_ci.hi - wide.base_ci.lo) / 2, (plain.base_ci.hi - plain.base_ci.lo) / 2);
	free(ha);
	free(hb);
	free(bounds);
}

/*
 * ks_rank_interval's exact ranks against the binomial terms each taken
 * from lgamma: the ranks where the tails pass alpha / 2; the number of
 * (n, quantile) pairs that differ.
 */
static int ranks_as_summed(void)
{
	static const __u32 milli[] = { 100, 500, 900, 950, 980, 990, 999 };
	double pmf[1001];
	int bad = 0;
	__u64 n, k, l, u, wl, wu;
	unsigned int i;

	for (n = 1; n <= 1000; n++) {
		for (i = 0; i < sizeof(milli) / sizeof(milli[0]); i++) {
			double q = milli[i] / 1000.0, cdf = 0;

			for (k = 0; k <= n; k++)
				pmf[k] = exp(lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0) +
					     k * log(q) + (n - k) * log1p(-q));
			for (wl = 0, k = 0; k < n && (cdf += pmf[k]) <= KS_STATS_ALPHA / 2; k++)
				wl = k + 1;
			for (cdf = 0, wu = n + 1, k = n; k >= 1 && (cdf += pmf[k]) <= KS_STATS_ALPHA / 2; k--)
				wu = k;
			ks_rank_interval(n, milli[i], &l, &u);
			bad += l != wl || u != wu;
		}
	}
	return bad;
}

/* Longer than 100 lines: a list of checks, each a TAP line, in the order docs/statistics.md gives them. */
int main(void)
{
	struct side a, b;
	struct tally t;
	unsigned int s, cover_pct[KSTATS_NR_PCT] = { 0 }, cover_mean = 0, n1 = 0, nu = 0;
	unsigned int cover_within = 0;
	__u64 l, u;
	int k;

	side_init(&a);
	side_init(&b);

	tap_result(fabs(ks_t975(1) - 12.7062) < 1e-3 && fabs(ks_t975(4) - 2.7764) < 1e-3 &&
		   fabs(ks_t975(31) - 2.0395) < 2e-3 && fabs(ks_t975(100000) - 1.96) < 1e-3,
		   "t quantiles: df 1 %.4f, 4 %.4f, 31 %.4f, 1e5 %.4f", ks_t975(1), ks_t975(4),
		   ks_t975(31), ks_t975(100000));
	ks_rank_interval(100, 500, &l, &u);
	tap_result(l == 40 && u == 61, "median of 100 values: ranks [%llu, %llu], the table's [40, 61]",
		   (unsigned long long)l, (unsigned long long)u);
	ks_rank_interval(1000, 999, &l, &u);
	tap_result(u == 1001, "p99.9 of 1000 values has no upper bound at 95%% (u %llu)",
		   (unsigned long long)u);
	tap_result(ranks_as_summed() == 0,
		   "ranks of every n <= 1000 and shown quantile: as summed from lgamma's terms");
	ks_rank_interval(1000000, 500, &l, &u);
	tap_result(l == 499020 && u == 500981,
		   "median of 1e6 values (normal approximation): ranks [%llu, %llu]",
		   (unsigned long long)l, (unsigned long long)u);

	/* coverage: the true percentile inside the 1-run interval; the true mean in t */
	for (s = 0; s < SEEDS; s++) {
		struct ks_runs r;

		rng = 0xc0ffee + s;
		side_draw(&a, RUNS, 1.0, 0);
		for (k = 0; k < KSTATS_NR_PCT; k++) {
			struct ks_interval ci;
			double truth = 1000 * exp(0.5 * ks_probit[k]);

			ks_pct_interval(a.run[0], a.nr, BITS, kstats_pct_milli[k], &ci);
			cover_pct[k] += ci.lo <= truth && truth <= ci.hi;
		}
		{
			struct ks_interval ci;
			double truth = 1000 * a.factor[0] * exp(0.125);

			ks_mean_interval(a.run[0], a.nr, BITS, a.mean[0], &ci);
			cover_within += ci.lo <= truth && truth <= ci.hi;
		}
		ks_runs_summary(a.mean, RUNS, &r);
		cover_mean += r.ci.lo <= 1000 * exp(0.125) && 1000 * exp(0.125) <= r.ci.hi;
		n1 += !!r.bimodal;
		nu++;
	}
	for (k = 0; k < KSTATS_NR_PCT; k++)
		tap_result(cover_pct[k] >= (1 - KS_STATS_ALPHA) * SEEDS,
			   "%s interval of one run holds the true value in %u of %u seeds (at least 95%%)",
			   kstats_pct_name[k], cover_pct[k], SEEDS);
	tap_result(cover_mean >= 0.92 * SEEDS,
		   "mean interval of %d runs holds the true mean in %u of %u seeds (%.1f%%, nominal 95%%)",
		   RUNS, cover_mean, SEEDS, 100.0 * cover_mean / SEEDS);
	tap_result(cover_within >= 0.93 * SEEDS,
		   "mean interval within one run holds that run's true mean in %u of %u seeds (%.1f%%, nominal 95%%)",
		   cover_within, SEEDS, 100.0 * cover_within / SEEDS);
	tap_result(n1 <= KS_STATS_ALPHA * nu,
		   "unimodal runs flagged bimodal in %u of %u sides (at most 5%%)", n1, nu);

	run_case(&a, &b, RUNS, 1.0, 0, SEEDS, &t);
	print_tally("identical, 5 runs a side", &t, SEEDS);
	check_false_alarms("identical sides, 5 runs a side", &t, SEEDS, 0);

	run_case(&a, &b, 1, 1.0, 0, SEEDS, &t);
	print_tally("identical, 1 run a side", &t, SEEDS);
	tap_result(!t.unmarked, "one run a side: every better/worse says \"?\" (%u without)",
		   t.unmarked);
	/* one run a side: the intervals cannot see the run factor (1% noise) */
	{
		unsigned int fa = 0;

		for (k = 1; k < NROWS; k++)
			fa += t.better[k] + t.worse[k];
		printf("# one run a side (within-run intervals, run noise unseen): mean %u false alarms of %u, percentiles %u of %u rows\n",
		       t.better[0] + t.worse[0], SEEDS, fa, SEEDS * KSTATS_NR_PCT);
	}
	run_case(&a, &b, RUNS, 1.0, 0, SEEDS, &t);
	tap_result(!t.unmarked, "5 runs a side: no verdict says \"?\"");

	{
		static const double shifts[] = { 1.01, 1.05, 1.20 };
		unsigned int i;

		for (i = 0; i < 3; i++) {
			char what[64];
			unsigned int wrong = 0;

			run_case(&a, &b, RUNS, shifts[i], 0, SEEDS, &t);
			snprintf(what, sizeof(what), "+%.0f%%, 5 runs a side", (shifts[i] - 1) * 100);
			print_tally(what, &t, SEEDS);
			for (k = 0; k < NROWS; k++)
				wrong += t.better[k];
			tap_result(wrong == 0, "%s: never judged better (%u rows)", what, wrong);
			if (shifts[i] == 1.01) {
				tap_result(1, "+1%% (run noise 1%%): mean worse in %u of %u, p50 in %u",
					   t.worse[0], SEEDS, t.worse[1 + KSTATS_P50]);
			} else if (shifts[i] == 1.05) {
				tap_result(t.worse[0] >= 0.9 * SEEDS,
					   "+5%%: mean found worse in %u of %u seeds (at least 90%%); p50 in %u (bits 3: slots of 12.5%%)",
					   t.worse[0], SEEDS, t.worse[1 + KSTATS_P50]);
			} else {
				tap_result(t.worse[0] == SEEDS && t.worse[1 + KSTATS_P50] >= 0.95 * SEEDS &&
					   t.worse[1 + KSTATS_P90] >= 0.95 * SEEDS,
					   "+20%%: worse in mean %u, p50 %u, p90 %u, p99 %u of %u seeds",
					   t.worse[0], t.worse[1 + KSTATS_P50], t.worse[1 + KSTATS_P90],
					   t.worse[1 + KSTATS_P99], SEEDS);
			}
		}
	}

	run_case(&a, &b, RUNS, 1.0, 1, SEEDS, &t);
	print_tally("bimodal runs, identical sides", &t, SEEDS);
	check_false_alarms("bimodal runs, identical sides", &t, SEEDS, 0);
	tap_result(t.truly && t.flagged_truly >= 0.9 * t.truly,
		   "bimodal runs flagged in %u of %u sides with two runs or more in each mode",
		   t.flagged_truly, t.truly);
	run_case(&a, &b, 8, 1.0, 1, SEEDS / 2, &t);
	check_false_alarms("bimodal runs, identical sides, 8 runs a side", &t, SEEDS / 2, 0);
	check_bounds();
	return tap_end();
}
