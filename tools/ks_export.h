/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_export: CSV and Prometheus text exposition of nodes (the JSON export
 * is the snapshot itself, see ks_snap.h).
 */
#ifndef KS_EXPORT_H
#define KS_EXPORT_H

#include <stdio.h>
#include "ks_parse.h"

/* Only the merged histogram, no per-CPU rows or series. */
#define KS_EXPORT_TOTAL		0x1
/* Prometheus: one bucket per power of two instead of one per slot. */
#define KS_EXPORT_LOG2		0x2

/**
 * ks_export_csv() - one CSV row per non-empty slot
 * @f:     output
 * @nodes: nodes
 * @n:     number of nodes
 * @flags: KS_EXPORT_TOTAL
 *
 * Columns: function,unit,cpu,slot,lo,hi,count,avg,n,p; per-CPU rows first
 * (cpu is the CPU number), then the merged rows (cpu is "all").
 *
 * Return: 0, or -1 on a write error.
 */
int ks_export_csv(FILE *f, struct ks_view *const *nodes, int n,
		  unsigned int flags);

/**
 * ks_export_prometheus() - Prometheus text exposition (classic histogram)
 * @f:     output
 * @nodes: nodes (names should differ)
 * @n:     number of nodes
 * @flags: KS_EXPORT_TOTAL, KS_EXPORT_LOG2
 *
 * Nodes in ns become kstats_latency_seconds (bounds in seconds, the base
 * unit Prometheus asks for), nodes in cycles kstats_latency_cycles; labels
 * function and cpu (a CPU number, or "all" for the merge); plus the
 * counter kstats_missed_events_total per function.
 *
 * Return: 0, or -1 on a write error.
 */
int ks_export_prometheus(FILE *f, struct ks_view *const *nodes, int n,
			 unsigned int flags);

#endif /* KS_EXPORT_H */
