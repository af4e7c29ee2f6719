/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_pb: nodes in Prometheus' protobuf exposition format: a stream of
 * io.prometheus.client.MetricFamily messages (tools/proto), each after
 * its length as a varint ("encoding=delimited"), packed by libprotobuf-c
 * from the code protoc-c generates.  The histograms are native ones
 * (ks_native.h); the text format is ks_export.c's.
 */
#ifndef KS_PB_H
#define KS_PB_H

#include <stddef.h>
#include "ks_view.h"

/* The Content-Type of what ks_pb_write() writes. */
#define KS_PB_CONTENT_TYPE "application/vnd.google.protobuf; " \
	"proto=io.prometheus.client.MetricFamily; encoding=delimited"

/* A growing byte buffer. */
struct ks_buf {
	unsigned char *data;
	size_t len, size;
};

/**
 * ks_buf_add() - append @n bytes to @b
 * @b:    the buffer
 * @data: the bytes
 * @n:    how many
 *
 * Return: 0, or -1 when out of memory.
 */
int ks_buf_add(struct ks_buf *b, const void *data, size_t n);

/**
 * ks_pb_write() - append the exposition of @nodes to @b
 * @b:     the buffer
 * @nodes: nodes (names must differ; units with a metric, ks_export_metric())
 * @n:     number of nodes
 * @flags: KS_EXPORT_PER_CPU: one histogram per CPU (label cpu), no merge
 *
 * The families and labels of ks_export_prometheus(): kstats_latency_seconds
 * (ns scaled to seconds) and kstats_latency_cycles as native histograms,
 * one per node (schema ks_native_schema(bits)), and the counter
 * kstats_missed_events_total.
 *
 * Return: 0, or -1 when out of memory or on a unit without a metric.
 */
int ks_pb_write(struct ks_buf *b, struct ks_view *const *nodes, int n,
		unsigned int flags);

#endif /* KS_PB_H */
