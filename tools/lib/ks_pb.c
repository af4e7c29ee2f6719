// SPDX-License-Identifier: GPL-2.0
/*
 * ks_pb: the protobuf exposition of nodes (ks_pb.h).  Messages are built
 * on the stack and in small arrays, packed one family at a time.
 */
#include <stdlib.h>
#include <string.h>

#include "io/prometheus/client/metrics.pb-c.h"
#include "ks_export.h"
#include "ks_native.h"
#include "ks_pb.h"

/* Room for @n more bytes in @b; -1 when out of memory. */
static int ks_buf_reserve(struct ks_buf *b, size_t n)
{
	size_t size = b->size ? b->size : 4096;
	unsigned char *p;

	if (b->len + n <= b->size)
		return 0;
	while (size < b->len + n)
		size *= 2;
	p = realloc(b->data, size);
	if (!p)
		return -1;
	b->data = p;
	b->size = size;
	return 0;
}

int ks_buf_add(struct ks_buf *b, const void *data, size_t n)
{
	if (ks_buf_reserve(b, n))
		return -1;
	if (n)
		memcpy(b->data + b->len, data, n);
	b->len += n;
	return 0;
}

/* Append @fam, after its length as a varint. */
static int ks_pb_family(struct ks_buf *b, const Io__Prometheus__Client__MetricFamily *fam)
{
	size_t size = io__prometheus__client__metric_family__get_packed_size(fam);
	unsigned char head[10];
	size_t n = 0, v = size;

	do {
		head[n++] = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);
		v >>= 7;
	} while (v);
	if (ks_buf_add(b, head, n) || ks_buf_reserve(b, size))
		return -1;
	if (io__prometheus__client__metric_family__pack(fam, b->data + b->len) != size)
		return -1;
	b->len += size;
	return 0;
}

/* One series: its labels and either a histogram or a counter's value. */
struct ks_pb_series {
	Io__Prometheus__Client__Metric m;
	Io__Prometheus__Client__LabelPair pairs[KS_PROM_LABELS_MAX];
	Io__Prometheus__Client__LabelPair *ppairs[KS_PROM_LABELS_MAX];
	Io__Prometheus__Client__Histogram h;
	Io__Prometheus__Client__Counter c;
	Io__Prometheus__Client__BucketSpan *spans;
	Io__Prometheus__Client__BucketSpan **pspans;
	struct ks_native nh;
	char cpubuf[24];
};

/* The labels of @node's series (@cpu: -1, or the CPU) into @sr. */
static void ks_pb_labels(struct ks_pb_series *sr, const struct ks_view *node, long cpu)
{
	struct ks_prom_label l[KS_PROM_LABELS_MAX];
	int i, n = ks_export_labels(node, cpu, NULL, sr->cpubuf, sizeof(sr->cpubuf), l);

	io__prometheus__client__metric__init(&sr->m);
	for (i = 0; i < n; i++) {
		io__prometheus__client__label_pair__init(&sr->pairs[i]);
		sr->pairs[i].name = (char *)l[i].name;
		sr->pairs[i].value = (char *)l[i].value;
		sr->ppairs[i] = &sr->pairs[i];
	}
	sr->m.n_label = n;
	sr->m.label = sr->ppairs;
}

/* The native histogram of @slots into @sr; -1 when out of memory. */
static int ks_pb_hist(struct ks_pb_series *sr, const struct ks_view *node,
		      const struct kstats_slot *slots, double scale)
{
	Io__Prometheus__Client__Histogram *h = &sr->h;
	__u32 k;

	if (ks_native_from_slots(&sr->nh, slots, node->bits, node->buckets, scale))
		return -1;
	sr->spans = calloc(sr->nh.nr_spans + 1, sizeof(*sr->spans));
	sr->pspans = calloc(sr->nh.nr_spans + 1, sizeof(*sr->pspans));
	if (!sr->spans || !sr->pspans)
		return -1;
	io__prometheus__client__histogram__init(h);
	h->has_sample_count = h->has_sample_sum = 1;
	h->sample_count = sr->nh.count;
	h->sample_sum = sr->nh.sum;
	h->has_schema = h->has_zero_threshold = h->has_zero_count = 1;
	h->schema = sr->nh.schema;
	h->zero_threshold = sr->nh.zero_threshold;
	h->zero_count = sr->nh.zero_count;
	for (k = 0; k < sr->nh.nr_spans; k++) {
		io__prometheus__client__bucket_span__init(&sr->spans[k]);
		sr->spans[k].has_offset = sr->spans[k].has_length = 1;
		sr->spans[k].offset = sr->nh.offsets[k];
		sr->spans[k].length = sr->nh.lengths[k];
		sr->pspans[k] = &sr->spans[k];
	}
	h->n_positive_span = sr->nh.nr_spans;
	h->positive_span = sr->pspans;
	h->n_positive_delta = sr->nh.nr_deltas;
	h->positive_delta = (int64_t *)sr->nh.deltas;
	sr->m.histogram = h;
	return 0;
}

static void ks_pb_series_free(struct ks_pb_series *sr, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		ks_native_free(&sr[i].nh);
		free(sr[i].spans);
		free(sr[i].pspans);
	}
	free(sr);
}

/* Pack family @name of @n series @sr (@type) into @b. */
static int ks_pb_pack(struct ks_buf *b, const char *name, const char *help,
		      Io__Prometheus__Client__MetricType type,
		      struct ks_pb_series *sr, size_t n)
{
	Io__Prometheus__Client__MetricFamily fam = IO__PROMETHEUS__CLIENT__METRIC_FAMILY__INIT;
	Io__Prometheus__Client__Metric **pm;
	size_t i;
	int ret;

	if (!n)
		return 0;
	pm = calloc(n, sizeof(*pm));
	if (!pm)
		return -1;
	for (i = 0; i < n; i++)
		pm[i] = &sr[i].m;
	fam.name = (char *)name;
	fam.help = (char *)help;
	fam.has_type = 1;
	fam.type = type;
	fam.n_metric = n;
	fam.metric = pm;
	ret = ks_pb_family(b, &fam);
	free(pm);
	return ret;
}

int ks_pb_write(struct ks_buf *b, struct ks_view *const *nodes, int n,
		unsigned int flags)
{
	static const char *const units[] = { "ns", "cycles" };
	struct ks_pb_series *sr;
	size_t max = 0, ns, u;
	const char *help;
	int i, ret = -1;
	__u32 c;

	for (i = 0; i < n; i++) {
		if (!ks_export_metric(nodes[i]->unit, NULL))
			return -1;
		max += (flags & KS_EXPORT_PER_CPU) ? nodes[i]->nr_cpus : 1;
	}
	sr = calloc(max + (size_t)n + 1, sizeof(*sr));
	if (!sr)
		return -1;
	for (u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
		const char *metric = ks_export_metric(units[u], &help);
		double scale = strcmp(units[u], "ns") ? 1.0 : 1e-9;

		ns = 0;
		for (i = 0; i < n; i++) {
			const struct ks_view *node = nodes[i];

			if (strcmp(node->unit, units[u]))
				continue;
			if (!(flags & KS_EXPORT_PER_CPU)) {
				ks_pb_labels(&sr[ns], node, -1);
				if (ks_pb_hist(&sr[ns++], node, node->total, scale))
					goto out;
				continue;
			}
			for (c = 0; c < node->nr_cpus; c++) {
				ks_pb_labels(&sr[ns], node, node->cpus[c].cpu);
				if (ks_pb_hist(&sr[ns++], node, node->cpus[c].slots, scale))
					goto out;
			}
		}
		ret = ks_pb_pack(b, metric, help, IO__PROMETHEUS__CLIENT__METRIC_TYPE__HISTOGRAM,
				 sr, ns);
		ks_pb_series_free(sr, max + (size_t)n + 1);
		sr = calloc(max + (size_t)n + 1, sizeof(*sr));
		if (ret || !sr)
			goto out;
		ret = -1;
	}
	for (i = 0; i < n; i++) {
		ks_pb_labels(&sr[i], nodes[i], -1);
		io__prometheus__client__counter__init(&sr[i].c);
		sr[i].c.has_value = 1;
		sr[i].c.value = (double)nodes[i]->missed;
		sr[i].m.counter = &sr[i].c;
	}
	ret = ks_pb_pack(b, "kstats_missed_events_total",
			 "Calls the kstats backend dropped (not in the histogram).",
			 IO__PROMETHEUS__CLIENT__METRIC_TYPE__COUNTER, sr, n);
out:
	if (sr)
		ks_pb_series_free(sr, max + (size_t)n + 1);
	return ret;
}
