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
 * 1.414), so no slot maps onto buckets exactly.  Each slot's calls go to
 * the bucket holding the slot's mean (the figure kstats itself reports
 * for a percentile, include/kstats/hist.h), as the classic export does:
 * both lie in one bucket, so a quantile Prometheus interpolates inside it
 * is within one bucket's width, 2^(2^-s) - 1 (9.05% at s = 3), of
 * kstats' own.
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
 * Return: @bits, folded to KS_NATIVE_SCHEMA_MAX above it.
 */
int ks_native_schema(__u32 bits);

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
 * 2^-30 s at schema 3), so it holds no other value; every other slot's
 * calls count in the bucket of the slot's mean (kstats_slot_mean(),
 * clamped into the slot).  Runs of up to two empty buckets stay inside a
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
