/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_native: a kstats histogram as a Prometheus native (exponential)
 * histogram: schema, zero bucket, spans and deltas, as the protobuf
 * exposition's Histogram message carries them (ks_pb.c packs it).
 *
 * Prometheus' schema s has buckets i = ..., -1, 0, 1, ...: bucket i holds
 * (2^((i-1) 2^-s), 2^(i 2^-s)], every power of two an edge and 2^s
 * buckets between two, each 2^(2^-s) times the one below.  kstats' slots
 * of bits b split a power of two into 2^b *linear* sub-slots
 * (include/kstats/hist.h): the two grids share only the powers of two (in
 * a power-of-two unit; 1e-9, from ns to seconds, is not one), the inner
 * edges 1 + k 2^-b and 2^(k 2^-b) differ (bits 3: 1.5 against 2^(4/8) =
 * 1.414), so no slot maps onto buckets exactly.
 *
 * A bucket is a counter (rate(), increase()): it must never fall while
 * calls are added, so each slot goes to one bucket, the same whatever its
 * calls: the bucket of the slot's geometric middle (ks_native_point()),
 * not of its mean, which moves as calls come and would carry a slot's
 * whole count from one bucket to the next (a counter reset to
 * Prometheus).  A quantile Prometheus interpolates in that bucket and any
 * value of the slot (kstats' own percentile is one, the slot mean) are
 * then at most (bucket top / slot bottom, slot top / bucket bottom) apart:
 * at schema b, 13.9% for bits 3 in seconds, more than the slot's own
 * 12.5%; at schema b + 1, 10.75% (bits 1..7: 35%, 21%, 10.75%, 4.9%,
 * 2.65%, ..., always under 2^-b, kstats' own precision).  So the schema
 * is the node's bits + 1, 8 at most (tests/unit/test_native.c measures
 * these bounds).
 */
#ifndef KS_NATIVE_H
#define KS_NATIVE_H

#include <linux/types.h>
#include <kstats/hist.h>

#define KS_NATIVE_SCHEMA_MAX	8	/* Prometheus' finest schema */

/* A native histogram with integer counts (positive buckets only). */
struct ks_native {
	int schema;
	double zero_threshold;	/* the zero bucket is [0, zero_threshold] */
	__u64 zero_count;	/* calls of slot 0 (value 0) */
	__u64 count;		/* every call: zero_count + the buckets */
	double sum;		/* every call's value, times the scale */
	__s32 *offsets;		/* per span: the first bucket's index, then */
	__u32 *lengths;		/* the gap after the previous span; its length */
	__u32 nr_spans;
	__s64 *deltas;		/* first count, then each bucket's minus the last */
	__u32 nr_deltas;
};

/**
 * ks_native_schema() - the native schema of a node of @bits
 * @bits: the node's fractional bits
 *
 * Return: @bits + 1, folded to KS_NATIVE_SCHEMA_MAX above it.
 */
int ks_native_schema(__u32 bits);

/**
 * ks_native_point() - the value whose bucket slot @s goes to, in node units
 * @s:       slot
 * @bits:    the node's bits
 * @buckets: the node's power-of-two ranges
 *
 * Return: the slot's value where it holds one (below 2^bits), its lower
 * edge for the overflow slot, else the geometric middle of [lo, hi + 1).
 */
double ks_native_point(__u32 s, __u32 bits, __u32 buckets);

/**
 * ks_native_index() - the bucket of schema @schema that holds @x
 * @x:      a value above 0
 * @schema: 0..KS_NATIVE_SCHEMA_MAX
 *
 * Return: i with 2^((i-1) 2^-schema) < @x <= 2^(i 2^-schema).
 */
int ks_native_index(double x, int schema);

/**
 * ks_native_edge() - the upper edge of bucket @i of schema @schema
 * @i:      bucket index
 * @schema: 0..KS_NATIVE_SCHEMA_MAX
 *
 * Return: 2^(@i 2^-schema).
 */
double ks_native_edge(int i, int schema);

/**
 * ks_native_from_slots() - the native histogram of @slots
 * @h:       filled; free with ks_native_free()
 * @slots:   the node's merged (or one CPU's) slots
 * @bits:    the node's bits
 * @buckets: the node's power-of-two ranges
 * @scale:   the exposed unit per node unit: 1e-9 for ns as seconds, 1 for
 *           cycles
 *
 * Schema ks_native_schema(@bits); slot 0 (value 0) is the zero bucket,
 * whose threshold is the lower edge of the bucket of one node unit (ns:
 * 2^-30 s at schema 4), so it holds no other value; every other slot's
 * calls count in the bucket of ks_native_point() times @scale, so that
 * no bucket falls when calls are added.  Runs of up to two empty buckets stay inside a
 * span (as zero deltas), longer ones start a new span.  count is the
 * calls of every slot, sum ks_slots_sum() times @scale.
 *
 * Return: 0, or -1 when out of memory.
 */
int ks_native_from_slots(struct ks_native *h, const struct kstats_slot *slots,
			 __u32 bits, __u32 buckets, double scale);

/**
 * ks_native_free() - free the spans and deltas of @h
 * @h: filled by ks_native_from_slots(), or zeroed
 */
void ks_native_free(struct ks_native *h);

#endif /* KS_NATIVE_H */
