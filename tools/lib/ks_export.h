/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_export: CSV and Prometheus text exposition of nodes (the JSON export
 * is the snapshot itself, see ks_snap.h).
 */
#ifndef KS_EXPORT_H
#define KS_EXPORT_H

#include <stdio.h>
#include "ks_parse.h"

/* CSV: only the merged histogram, no per-CPU rows. */
#define KS_EXPORT_TOTAL		0x1
/* Prometheus: one series per CPU (with a cpu label) instead of the merge. */
#define KS_EXPORT_PER_CPU	0x2
/* Prometheus: one bucket per slot instead of the fixed edges. */
#define KS_EXPORT_SLOTS		0x4
/* Prometheus: one bucket per power of two (--buckets log2). */
#define KS_EXPORT_LOG2		0x8
/*
 * Prometheus: a node traced with callers N as one histogram per call site
 * (label caller, FUNCTION+0xOFF or "other") instead of the merge, which
 * sum without (caller) gives back exactly; nodes without sites as before.
 */
#define KS_EXPORT_CALLERS	0x10
/*
 * Prometheus: the default edges at eight per power of two, le = 2^(i/8)
 * (--buckets schema3; 169 buckets in seconds, 177 in cycles), for
 * Prometheus 3's convert_classic_histograms_to_nhcb, which keeps them as
 * one series.
 */
#define KS_EXPORT_SCHEMA3	0x20

/*
 * Prometheus, --buckets log2: le = 2^k - 1 (k = 1..40), in seconds for
 * nodes in ns: every value below 2^k, about 1 ns to 18 minutes.
 */
#define KS_PROM_LE_MAX		40

/*
 * Prometheus, the default buckets (--buckets schema2): le = 2^(i/4) of
 * the metric's unit, four per power of two, the edges of Prometheus'
 * native histogram schema 2.  Seconds: i = -96..-12, 2^-24 s (60 ns) to
 * 2^-3 s (125 ms); cycles: i = 24..112, 2^6 to 2^28.  The same edges for
 * every node on every machine, so that series sum by le.  A slot goes to
 * the bucket of its mean, so a call is never more than one bucket off and
 * histogram_quantile() is within 2^(1/4) - 1 = 19% of the true value,
 * within 9.5% when the calls of a bucket are alike; calls outside the
 * range count in the lowest bucket or +Inf.
 */
#define KS_PROM_Q_SEC_LO	(-96)
#define KS_PROM_Q_SEC_HI	(-12)
#define KS_PROM_Q_CYC_LO	24
#define KS_PROM_Q_CYC_HI	112
#define KS_PROM_Q_MAX		177	/* edges at most (KS_EXPORT_SCHEMA3, cycles) */

/* One label of a series. */
struct ks_prom_label {
	const char *name, *value;
};
#define KS_PROM_LABELS_MAX	8

/**
 * ks_export_labels() - the labels of a node's series, in their order
 * @node:   the node
 * @cpu:    the CPU of a per-CPU series, or -1
 * @caller: the call site's label value, or NULL
 * @cpubuf: room for the cpu label's value
 * @cpulen: its size
 * @l:      filled, KS_PROM_LABELS_MAX entries at most
 *
 * node, function, backend, clock, release, timing (under QEMU -icount
 * only), cpu, caller; empty values are left out.  The values point into
 * @node, @caller and @cpubuf.
 *
 * Return: the number of labels.
 */
int ks_export_labels(const struct ks_view *node, long cpu, const char *caller,
		     char *cpubuf, size_t cpulen, struct ks_prom_label *l);

/**
 * ks_export_metric() - the Prometheus metric of nodes in @unit
 * @unit: "ns" (kstats_latency_seconds) or "cycles" (kstats_latency_cycles)
 * @help: if not NULL, set to the metric's HELP text
 *
 * Return: the metric's name, or NULL for a unit without one.
 */
const char *ks_export_metric(const char *unit, const char **help);

/**
 * ks_export_csv() - one CSV row per non-empty slot
 * @f:     output
 * @nodes: nodes
 * @n:     number of nodes
 * @flags: KS_EXPORT_TOTAL
 *
 * Columns: function,unit,cpu,slot,lo,hi,count,avg,n,p,timing; per-CPU rows
 * first (cpu is the CPU number), then the merged rows (cpu is "all");
 * timing is the snapshot's meta.timing: "qemu-icount" (a "ns" is one guest
 * instruction) or empty (real time).
 *
 * Return: 0, or -1 on a write error.
 */
int ks_export_csv(FILE *f, struct ks_view *const *nodes, int n,
		  unsigned int flags);

/**
 * ks_export_prometheus() - Prometheus text exposition (classic histogram)
 * @f:     output
 * @nodes: nodes (names must differ)
 * @n:     number of nodes
 * @flags: KS_EXPORT_PER_CPU, KS_EXPORT_SLOTS, KS_EXPORT_LOG2 or
 *         KS_EXPORT_CALLERS
 *
 * Nodes in ns become the histogram kstats_latency_seconds (bounds in
 * seconds, the base unit Prometheus asks for), nodes in cycles
 * kstats_latency_cycles; the counter kstats_missed_events_total counts
 * the calls each node dropped.  Labels: node, function (the attached
 * symbols), backend, clock and release (the kernel's, when known); with
 * KS_EXPORT_PER_CPU one histogram per CPU with samples (label cpu) and no
 * merged one.  By default one merged histogram per node: 85 buckets
 * (KS_PROM_Q_SEC_LO..KS_PROM_Q_SEC_HI; 89 for cycles), +Inf, _sum and
 * _count, so 88 histogram series (92) and one missed counter per node;
 * with KS_EXPORT_LOG2 40 buckets (KS_PROM_LE_MAX), 43 series.  With
 * KS_EXPORT_CALLERS, a node with call sites has that many histograms per
 * site it has seen (up to N + 1) instead, each labelled caller.
 *
 * Return: 0, or -1 on a write error or a unit with no metric.
 */
int ks_export_prometheus(FILE *f, struct ks_view *const *nodes, int n,
			 unsigned int flags);

/**
 * ks_export_prometheus_file() - write the exposition to @path atomically
 * @path:  output file; "-" is stdout
 * @nodes: nodes (names must differ)
 * @n:     number of nodes
 * @flags: as ks_export_prometheus()
 * @err:   on failure, one line naming the file and what went wrong
 * @errlen: size of @err
 *
 * Writes PATH.tmp.PID in the same folder and renames it over @path, so a
 * reader (node_exporter's textfile collector) sees the previous file or
 * the new one, never a part.  On failure the temporary file is removed
 * and @path is left as it was.
 *
 * Return: 0 or -1.
 */
int ks_export_prometheus_file(const char *path, struct ks_view *const *nodes,
			      int n, unsigned int flags, char *err, size_t errlen);

#endif /* KS_EXPORT_H */
