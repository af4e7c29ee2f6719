/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_prom: kstats' Prometheus histograms read back from a Prometheus
 * server's HTTP API (kstats compare --prometheus).  Pure, no I/O: the
 * answers of /api/v1/query (JSON, through ks_json.c) become samples, and
 * the samples of the bucket counters become one histogram per function
 * and machine (instance), re-binned into kstats' slots, with per slot the
 * bounds of the Prometheus bucket its calls came from.
 */
#ifndef KS_PROM_H
#define KS_PROM_H

#include <stddef.h>
#include "ks_stats.h"
#include "ks_view.h"

#define KS_PROM_METRIC	"kstats_latency_seconds"	/* ks_export.c's */

/* One element of an instant vector. */
struct ks_prom_sample {
	char *name;		/* label function, else node, else "" */
	char *instance;		/* label instance, else "" */
	double le;		/* label le (+Inf: INFINITY); NAN when absent */
	double v;		/* the value */
	int icount;		/* label timing is KS_TIMING_ICOUNT */
};

struct ks_prom_vec {
	struct ks_prom_sample *s;
	size_t n;
	int native;		/* native histograms were read, as le samples */
};

/**
 * ks_prom_parse() - read an answer of /api/v1/query
 * @text:   its body
 * @src:    name for error messages
 * @vec:    the samples of its instant vector, on success
 * @err:    on failure: the parse error, or Prometheus' own ("bad_data: ...")
 * @errlen: size of @err
 *
 * A native histogram (a "histogram" instead of a "value") becomes the
 * samples of a classic one, le and cumulative count, one per bucket edge
 * and +Inf, and sets vec->native.
 *
 * Return: 0, or -1 (not JSON, status "error", not an instant vector).
 */
int ks_prom_parse(const char *text, const char *src, struct ks_prom_vec *vec,
		  char *err, size_t errlen);

/**
 * ks_prom_vec_free() - release @vec's samples
 * @vec: a vector (may be zeroed)
 */
void ks_prom_vec_free(struct ks_prom_vec *vec);

/*
 * The slot layout every histogram of one compare shares: fine slots (bits
 * KS_PROM_BITS, 1.6%), each bucket's calls at its middle; per slot, the
 * hull of the buckets put there; worst: the widest bucket that held calls
 * (le / previous le - 1).
 */
#define KS_PROM_BITS	6

struct ks_prom_layout {
	__u32 bits, buckets, nr;
	struct ks_interval *bounds;	/* nr */
	unsigned char *set;		/* nr: bounds[] from a bucket */
	double worst;
};

/* The histograms of one side: one node per function and machine. */
struct ks_prom_side {
	struct ks_view *views;
	struct ks_view **nodes;		/* &views[i], as ks_cmp_side wants */
	const char **srcs;		/* the instance of each */
	int n;
};

/**
 * ks_prom_layout_init() - the layout, no bucket placed yet
 * @l: the layout
 *
 * Return: 0, or -1 when out of memory.
 */
int ks_prom_layout_init(struct ks_prom_layout *l);

/**
 * ks_prom_layout_free() - release @l
 * @l: a layout (may be zeroed)
 */
void ks_prom_layout_free(struct ks_prom_layout *l);

/**
 * ks_prom_side() - one node per function and instance of a side
 * @l:       the shared layout (its bounds grow)
 * @buckets: increase() of the _bucket series, by function, instance, le
 * @sum:     increase() of _sum, by function and instance (NULL: no mean)
 * @count:   increase() of _count, likewise
 * @glob:    keep the functions it matches (NULL: all)
 * @label:   the side's name (meta.label)
 * @side:    the result (functions without calls in the window left out)
 *
 * Counts are rounded to integers (increase() extrapolates to the window);
 * a node's avg is _sum / _count when both are there, else its
 * histogram's.
 *
 * Return: 0, or -1 when out of memory.
 */
int ks_prom_side(struct ks_prom_layout *l, const struct ks_prom_vec *buckets,
		 const struct ks_prom_vec *sum, const struct ks_prom_vec *count,
		 const char *glob, const char *label, struct ks_prom_side *side);

/**
 * ks_prom_side_free() - release @side
 * @side: a side (may be zeroed)
 */
void ks_prom_side_free(struct ks_prom_side *side);

#endif /* KS_PROM_H */
