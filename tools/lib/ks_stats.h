/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_stats: the statistics behind every verdict of kstats compare (and so
 * of tools/ab/kstats-ab and the demo, which call it).  Pure functions, no
 * I/O; the method, its formulas and references are docs/statistics.md.
 *
 *  - a percentile's interval: distribution-free, from order statistics of
 *    the merged histogram (binomial ranks), widened to the bounds of the
 *    slots that hold those ranks (so it includes the 2^-bits precision);
 *  - a mean's interval: Student t over the runs' means;
 *  - a verdict: better, worse or not measurable; lower is better; a
 *    difference counts only when the two sides' 95% intervals do not
 *    overlap (as mmtests' compare-kernels.sh), and a mean needs at least
 *    KS_STATS_MIN_RUNS runs a side.
 */
#ifndef KS_STATS_H
#define KS_STATS_H

#include <linux/types.h>
#include <kstats/hist.h>

#define KS_STATS_ALPHA		0.05	/* each side's interval: 95% */
#define KS_STATS_MIN_RUNS	3	/* runs a side to measure run-to-run noise */

/* A closed interval; lo = 0 / hi = INFINITY when unbounded. */
struct ks_interval {
	double lo, hi;
};

enum ks_verdict { KS_NOT_MEASURABLE, KS_BETTER, KS_WORSE };

/* Why a row says what it says (KS_WHY_*), one bit each. */
enum {
	KS_WHY_OVERLAP = 1,	/* the intervals overlap */
	KS_WHY_FEW_RUNS = 2,	/* fewer than KS_STATS_MIN_RUNS runs a side: */
				/* within-run intervals, run noise unknown */
	KS_WHY_EMPTY = 8,	/* a side has no samples */
	KS_WHY_BIMODAL_A = 16,	/* the base side's runs are bimodal */
	KS_WHY_BIMODAL_B = 32,	/* the new side's runs are bimodal */
};

/* What the runs of one side give for one figure. */
struct ks_runs {
	unsigned int n;		/* runs */
	double mean, sd;	/* of the runs' values; sd 0 for one run */
	struct ks_interval ci;	/* mean +- t * sd / sqrt(n); valid for n >= 2 */
	int bimodal;		/* the values form two separated groups */
};

/* One row of a comparison: a figure (mean or a percentile), two sides. */
struct ks_row {
	double base, new;		/* the figure on each side */
	double base_sd_pct, new_sd_pct;	/* run-to-run stddev, % of the figure; <0: n/a */
	struct ks_interval base_ci, new_ci;
	double change_pct;		/* (new - base) / base, in % */
	struct ks_interval change_ci;	/* bounds of the change, in % */
	enum ks_verdict verdict;
	unsigned int why;		/* KS_WHY_* */
	unsigned int runs_a, runs_b;
};

/**
 * ks_t975() - the 97.5% quantile of Student's t with @df degrees of freedom
 * @df: degrees of freedom, >= 1
 *
 * Return: t (exact table to 30, Cornish-Fisher expansion above).
 */
double ks_t975(unsigned int df);

/**
 * ks_rank_interval() - ranks of a distribution-free interval of a quantile
 * @n:     number of values
 * @milli: the quantile, in thousandths
 * @l:     lower rank (1-based), 0 when there is no lower bound
 * @u:     upper rank, n + 1 when there is no upper bound
 *
 * The smallest l and largest u with P(B < l) <= alpha/2 and
 * P(B >= u) <= alpha/2, B ~ Binomial(n, milli/1000): exact to n = 1000,
 * the normal approximation, rounded outwards, above.
 */
void ks_rank_interval(__u64 n, __u32 milli, __u64 *l, __u64 *u);

/**
 * ks_pct_interval() - 95% interval of a percentile from a histogram
 * @slots: @nr slots
 * @nr:    number of slots
 * @bits:  the histogram's bits
 * @milli: the quantile, in thousandths
 * @ci:    [lowest value of the slot of rank l, highest of the slot of rank u]
 *
 * Return: 0, or -1 when the histogram is empty.
 */
int ks_pct_interval(const struct kstats_slot *slots, __u32 nr, __u32 bits,
		    __u32 milli, struct ks_interval *ci);

/**
 * ks_runs_summary() - mean, stddev, t interval and bimodality of @n values
 * @x: values, one per run
 * @n: number of runs
 * @r: result
 */
void ks_runs_summary(const double *x, unsigned int n, struct ks_runs *r);

/**
 * ks_bimodal() - do @n values form two groups far apart?
 * @x: values
 * @n: number of values
 *
 * Sorted, the values split at their widest gap into two groups of at
 * least two; bimodal when that gap is over 8 times the pooled stddev
 * within the groups and over 0.5% of the mean.
 *
 * Return: 1 or 0 (always 0 for fewer than 4 values).
 */
int ks_bimodal(const double *x, unsigned int n);

/**
 * ks_mean_interval() - 95% interval of a mean from the histogram's values
 * @slots: @nr slots
 * @nr:    number of slots
 * @bits:  the histogram's bits
 * @mean:  the mean it is centred on
 * @ci:    @mean +- z * sd / sqrt(N), sd from the slots' means and widths
 *
 * Sees the noise within the runs only, not the noise between runs.
 *
 * Return: 0, or -1 when the histogram has fewer than 2 values.
 */
int ks_mean_interval(const struct kstats_slot *slots, __u32 nr, __u32 bits,
		     double mean, struct ks_interval *ci);

/* One side of a row: its runs' histograms merged, and a value per run. */
struct ks_pct_side {
	const struct kstats_slot *merged;	/* all runs merged, nr slots */
	const double *runs;			/* the figure of each run */
	unsigned int n;				/* runs */
	/*
	 * Per slot, where a value counted there lies, when wider than the
	 * slot (a histogram re-binned from coarser buckets: Prometheus');
	 * NULL: the slot's own bounds.
	 */
	const struct ks_interval *bounds;
};

/**
 * ks_row_mean() - the row of the mean: one mean per run on each side
 * @a:    base side (@a->runs: the runs' means)
 * @b:    new side
 * @nr:   slots per histogram
 * @bits: bits of both
 * @row:  result
 *
 * Student t over the runs' means with KS_STATS_MIN_RUNS runs a side;
 * with fewer, ks_mean_interval() of the merged histogram (KS_WHY_FEW_RUNS),
 * a slot's width being that of its bounds when the side has them.
 */
void ks_row_mean(const struct ks_pct_side *a, const struct ks_pct_side *b,
		 __u32 nr, __u32 bits, struct ks_row *row);

/**
 * ks_row_pct() - the row of one percentile
 * @a:     base side
 * @b:     new side
 * @nr:    slots per histogram
 * @bits:  bits of both
 * @milli: the quantile, in thousandths
 * @row:   result
 *
 * Each side's interval is the histogram's (ks_pct_interval(), widened to
 * the side's @bounds when it has them), joined,
 * with KS_STATS_MIN_RUNS runs a side, with the t interval of the runs'
 * values, so that run-to-run noise counts too; with fewer, the row is
 * marked KS_WHY_FEW_RUNS.
 */
void ks_row_pct(const struct ks_pct_side *a, const struct ks_pct_side *b,
		__u32 nr, __u32 bits, __u32 milli, struct ks_row *row);

/**
 * ks_row_verdict() - the verdict of @row as every output prints it
 * @row: a row
 *
 * "better", "worse" or "not measurable"; "better?" and "worse?" when
 * the row rests on within-run intervals only (KS_WHY_FEW_RUNS): fewer
 * than KS_STATS_MIN_RUNS runs a side, run-to-run noise unknown.
 *
 * Return: the word.
 */
const char *ks_row_verdict(const struct ks_row *row);

/**
 * ks_row_mark() - the verdict of @row as a table cell: ks_row_verdict(),
 * but "?" for not measurable and "-" when a side has no samples
 * @row: a row
 *
 * Return: a static string.
 */
const char *ks_row_mark(const struct ks_row *row);

#endif /* KS_STATS_H */
