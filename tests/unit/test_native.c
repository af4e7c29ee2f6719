// SPDX-License-Identifier: GPL-2.0
/*
 * kstats slots as Prometheus native histograms (tools/lib/ks_native.c) and
 * their protobuf exposition (tools/lib/ks_pb.c), checked against a
 * reference computed apart (long double log2, no table):
 *  - where kstats' slot edges and a native schema's edges meet: at every
 *    power of two, and nowhere inside one (so slots go to the bucket of
 *    their mean, and Prometheus' quantile is within one bucket of it);
 *  - bucket index and edges for schemas 0..8;
 *  - schema = bits + 1: Prometheus' quantile, in the bucket of a slot's
 *    middle, and any value of the slot (kstats' own percentile) at most
 *    2^-bits apart, where schema = bits would be 13.9% at bits 3;
 *  - for bits 1..8, random histograms: every native bucket's count equals
 *    the slots whose middle it holds, slot 0 is the zero bucket, nothing
 *    below the zero threshold but 0, count and sum exact;
 *  - no bucket falls when calls are added (a counter to Prometheus);
 *  - ks_pb_write()'s bytes, read back with protoc-c's unpack: the same
 *    families, labels, schema, spans and counts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/prometheus/client/metrics.pb-c.h"
#include "ks_export.h"
#include "ks_native.h"
#include "ks_pb.h"
#include "ks_view.h"
#include "../tap.h"

static __u64 rng = 42;

/* splitmix64 */
static __u64 next(void)
{
	__u64 z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#define IDX_LO	(-12000)	/* the bucket indexes a test meets: 2^-46.9 */
#define IDX_N	32000		/* to 2^78 at schema 8 */

/* The reference bucket of x > 0: ceil(log2(x) 2^s), in long double. */
static int ref_index(long double x, int s)
{
	return (int)ceill(log2l(x) * (1 << s) - 1e-12L);
}

/* Absolute bucket counts of @h, by index - IDX_LO, into @out; -1 if out of range. */
static int decode(const __s32 *off, const __u32 *len, __u32 nsp, const __s64 *d,
		  __u32 nd, __u64 *out)
{
	__s64 c = 0;
	__u32 k, j, n = 0;
	int i = 0;

	memset(out, 0, IDX_N * sizeof(*out));
	for (k = 0; k < nsp; k++) {
		i += off[k];
		for (j = 0; j < len[k]; j++, i++) {
			if (n >= nd || i - IDX_LO < 0 || i - IDX_LO >= IDX_N)
				return -1;
			c += d[n++];
			if (c < 0)
				return -1;
			out[i - IDX_LO] = (__u64)c;
		}
	}
	return n == nd ? 0 : -1;
}

/* The reference point of slot @s: its value, its lower edge (overflow), or sqrt(lo (hi + 1)). */
static long double ref_point(__u32 s, __u32 bits, __u32 buckets)
{
	long double lo = kstats_slot_lo(s, bits), hi = kstats_slot_hi(s, bits, buckets);

	if (s < (1U << bits) || s == kstats_overflow_slot(bits, buckets))
		return lo;
	return sqrtl(lo * (hi + 1));
}

/* The reference: each slot's count in the bucket of its middle. */
static void reference(const struct kstats_slot *sl, __u32 bits, __u32 buckets,
		      double scale, __u64 *out)
{
	__u32 s, nr = kstats_nr_slots(bits, buckets);
	int sch = bits + 1 > 8 ? 8 : (int)bits + 1;

	memset(out, 0, IDX_N * sizeof(*out));
	for (s = 1; s < nr; s++) {
		if (!sl[s].count)
			continue;
		out[ref_index(ref_point(s, bits, buckets) * (long double)scale, sch) - IDX_LO] +=
			sl[s].count;
	}
}

/*
 * The widest gap between a value of slot @s and one of the bucket (of
 * schema @sch) its middle is in: max(bucket top / slot bottom, slot top /
 * bucket bottom) - 1, in seconds (@scale 1e-9) or node units.
 */
static double gap(__u32 s, __u32 bits, __u32 buckets, int sch, long double scale)
{
	long double lo = kstats_slot_lo(s, bits) * scale;
	long double hi = (kstats_slot_hi(s, bits, buckets) + 1.0L) * scale;
	int i = ref_index(ref_point(s, bits, buckets) * scale, sch);
	long double bl = exp2l((long double)(i - 1) / (1 << sch)), bh = exp2l((long double)i / (1 << sch));

	if (s < (1U << bits))		/* one value, lo */
		hi = lo;
	return (double)fmaxl(bh / lo, hi / bl) - 1;
}

static void bounds(void)
{
	static const double want[] = { 0, 0.3544, 0.2078, 0.1075, 0.0492, 0.0265 };
	__u32 bits, s;

	for (bits = 1; bits <= 7; bits++) {
		__u32 buckets = kstats_default_buckets(bits);
		double w = 0, ws = 0, wc = 0;

		for (s = 1; s < kstats_overflow_slot(bits, buckets); s++) {
			w = fmax(w, gap(s, bits, buckets, bits + 1, 1e-9L));
			wc = fmax(wc, gap(s, bits, buckets, bits + 1, 1.0L));
			ws = fmax(ws, gap(s, bits, buckets, bits, 1e-9L));
		}
		tap_result(w < ldexp(1, -(int)bits) && wc < ldexp(1, -(int)bits) &&
			   (bits > 5 || fabs(w - want[bits]) < 0.0005),
			   "bits %u, schema %u: Prometheus' quantile within %.2f%% (seconds; %.2f%% cycles) of any value of the slot, under 2^-%u = %.2f%%; schema %u: %.2f%%",
			   bits, bits + 1, 100 * w, 100 * wc, bits, 100 * ldexp(1, -(int)bits), bits, 100 * ws);
	}
}

/* Calls added one by one, encoded after each: no bucket ever falls. */
static void monotonic(void)
{
	static __u64 before[IDX_N], after[IDX_N];
	__u32 bits = 3, buckets = kstats_default_buckets(3), k;
	__u32 nr = kstats_nr_slots(bits, buckets);
	struct kstats_slot *sl = calloc(nr, sizeof(*sl));
	int bad = 0, i, moved = 0;

	memset(before, 0, sizeof(before));
	for (k = 0; k < 3000; k++) {
		struct ks_native h;
		/* around 1000 ns, so that slot means wander across bucket edges */
		__u64 v = 800 + next() % 500;
		__u32 s = kstats_slot(v, bits, buckets);
		__u64 m0 = sl[s].count ? sl[s].sum / sl[s].count : 0;

		kstats_hist_add(sl, v, bits, buckets);
		if (m0 && ks_native_index(m0 * 1e-9, 4) != ks_native_index(sl[s].sum / sl[s].count * 1e-9, 4))
			moved++;
		if (ks_native_from_slots(&h, sl, bits, buckets, 1e-9) ||
		    decode(h.offsets, h.lengths, h.nr_spans, h.deltas, h.nr_deltas, after)) {
			bad++;
			break;
		}
		for (i = 0; i < IDX_N; i++)
			if (after[i] < before[i])
				bad++;
		memcpy(before, after, sizeof(before));
		ks_native_free(&h);
	}
	free(sl);
	tap_result(!bad && moved > 0,
		   "3000 calls added one at a time: no bucket ever falls (slot means crossed a bucket edge %d times)",
		   moved);
}

/* Fill @sl with a random histogram: @kind 0 sparse, 1 dense, 2 with slot 0 and overflow. */
static void fill(struct kstats_slot *sl, __u32 bits, __u32 buckets, int kind)
{
	__u32 nr = kstats_nr_slots(bits, buckets), s, k, n = kind == 1 ? 20000 : 40;

	memset(sl, 0, nr * sizeof(*sl));
	for (k = 0; k < n; k++) {
		__u64 v;

		if (kind == 1)	/* log-normal-ish around 2^12 */
			v = (__u64)exp2(12 + 3 * ((double)(next() % 2001) / 1000 - 1));
		else
			v = next() >> (next() % 64);
		kstats_hist_add(sl, v, bits, buckets);
	}
	if (kind == 2) {
		sl[0].count += 7;
		s = kstats_overflow_slot(bits, buckets);
		sl[s].count += 3;
		sl[s].sum += 3 * (kstats_slot_lo(s, bits) + 5);
	}
}

static void edges(void)
{
	int s, k, m, bad = 0;
	double worst = 0;

	for (s = 1; s <= 8; s++) {
		__u32 n = 1U << s;

		/* 2^m: a slot edge of bits s (slot (m - s + 1) 2^s) and native edge m 2^s */
		for (m = s; m < 40; m++) {
			__u32 slot = ((__u32)(m - s + 1)) << s;

			if (kstats_slot_lo(slot, s) != 1ULL << m ||
			    ks_native_edge(m * (int)n, s) != ldexp(1, m) ||
			    ks_native_index(ldexp(1, m), s) != m * (int)n)
				bad++;
		}
		/* inside: 1 + k/n (slot) is never 2^(j/n) (native) */
		for (k = 1; k < (int)n; k++) {
			double lin = 1 + (double)k / n;
			int j = ks_native_index(lin, s);
			double lo = ks_native_edge(j - 1, s), hi = ks_native_edge(j, s);

			if (lin == lo || lin == hi)
				bad++;
			if (k == (int)n / 2 && s == 3)
				worst = fmax(worst, lin / ks_native_edge(4, 3) - 1);
		}
	}
	tap_result(!bad, "bits 1..8: every power of two is a slot edge and a native edge of schema = bits, no inner slot edge is one");
	tap_result(fabs(worst - 0.0607) < 0.001,
		   "bits 3: slot edge 1.5 against native edge 2^(4/8) = 1.414: %.1f%% apart", 100 * worst);
	/* ns to seconds: 1e-9 is not a power of two, so no ns power of two is an edge */
	tap_result(fabsl(log2l(1e-9L) * 8 - roundl(log2l(1e-9L) * 8)) > 0.1,
		   "1 ns = 2^%.4f s: in seconds, kstats' powers of two are no native edges",
		   (double)log2l(1e-9L));
}

static void index_edges(void)
{
	int s, k, bad = 0, n = 0;

	for (s = 0; s <= 8; s++) {
		for (k = 0; k < 20000; k++) {
			double x = ldexp((double)(next() >> 11) + 1, (int)(next() % 120) - 120);
			int i = ks_native_index(x, s);

			n++;
			if (!(ks_native_edge(i - 1, s) < x && x <= ks_native_edge(i, s)) ||
			    i != ref_index(x, s))
				bad++;
		}
	}
	tap_result(!bad, "schemas 0..8: %d values, each in (edge(i-1), edge(i)] of its index, the reference's", n);
}

static void counts(void)
{
	static __u64 got[IDX_N], want[IDX_N];
	struct kstats_slot *sl;
	__u32 bits, buckets;
	int kind;

	for (bits = 1; bits <= 8; bits++) {
		int bad = 0, runs = 0, spans = 0;
		__u64 calls = 0;

		for (kind = 0; kind < 3; kind++) {
			for (buckets = kstats_default_buckets(bits);
			     buckets <= kstats_max_buckets(bits);
			     buckets += kstats_max_buckets(bits) - kstats_default_buckets(bits)) {
				double scale = kind == 1 ? 1.0 : 1e-9;
				struct ks_native h;
				__u64 tot = 0, sum = 0, bsum = 0;
				__u32 s, nr = kstats_nr_slots(bits, buckets);
				int i;

				sl = calloc(nr, sizeof(*sl));
				fill(sl, bits, buckets, kind);
				if (ks_native_from_slots(&h, sl, bits, buckets, scale) ||
				    decode(h.offsets, h.lengths, h.nr_spans, h.deltas,
					   h.nr_deltas, got)) {
					bad++;
					free(sl);
					continue;
				}
				reference(sl, bits, buckets, scale, want);
				for (s = 0; s < nr; s++) {	/* the sum as ks_slots_sum(): at most ~0 */
					tot += sl[s].count;
					sum = sum + sl[s].sum < sum ? ~0ULL : sum + sl[s].sum;
				}
				for (i = 0; i < IDX_N; i++) {
					bsum += got[i];
					if (got[i] != want[i]) {
						bad++;
					}
					/* a bucket at or under the zero bucket's edge */
					if (got[i] && ks_native_edge(i + IDX_LO, h.schema) <= h.zero_threshold)
						bad++;
				}
				if (h.schema != (bits + 1 > 8 ? 8 : (int)bits + 1) || h.zero_count != sl[0].count ||
				    h.count != tot || bsum + h.zero_count != tot ||
				    h.sum != (double)sum * scale ||
				    !(h.zero_threshold < scale) ||
				    ks_native_edge(ks_native_index(h.zero_threshold, h.schema) + 1,
						   h.schema) < scale)
					bad++;
				calls += tot;
				spans += h.nr_spans;
				runs++;
				ks_native_free(&h);
				free(sl);
			}
		}
		tap_result(!bad, "bits %u: %d histograms, %llu calls in %d spans: each bucket == the slots whose middle it holds, zero bucket == slot 0, count and sum exact",
			   bits, runs, (unsigned long long)calls, spans);
	}
}

/* A node in @unit of @bits with @cpus CPUs of random calls. */
static void node(struct ks_view *n, const char *name, const char *unit, __u32 bits, int cpus)
{
	int c;
	__u32 s;

	memset(n, 0, sizeof(*n));
	ks_view_setup(n, bits, kstats_default_buckets(bits));
	snprintf(n->name, sizeof(n->name), "%s", name);
	snprintf(n->unit, sizeof(n->unit), "%s", unit);
	snprintf(n->attach, sizeof(n->attach), "kretprobe");
	snprintf(n->clock, sizeof(n->clock), "local");
	n->symbols = strdup(name);
	n->missed = 3;
	for (c = 0; c < cpus; c++) {
		struct kstats_slot *sl = ks_view_cpu(n, c);

		fill(sl, bits, n->buckets, c % 3);
		for (s = 0; s < n->nr_slots; s++) {
			n->total[s].count += sl[s].count;
			n->total[s].sum += sl[s].sum;
		}
	}
}

/* The families of a delimited stream; -1 on a bad one. */
static int unpack(const struct ks_buf *b, Io__Prometheus__Client__MetricFamily **fam, int max)
{
	size_t pos = 0;
	int n = 0;

	while (pos < b->len && n < max) {
		__u64 len = 0;
		int sh = 0;

		while (pos < b->len && (b->data[pos] & 0x80))
			len |= (__u64)(b->data[pos++] & 0x7f) << (sh += 7, sh - 7);
		if (pos >= b->len)
			return -1;
		len |= (__u64)b->data[pos++] << sh;
		if (pos + len > b->len)
			return -1;
		fam[n] = io__prometheus__client__metric_family__unpack(NULL, len, b->data + pos);
		if (!fam[n])
			return -1;
		n++;
		pos += len;
	}
	return pos == b->len ? n : -1;
}

/* Does metric @m's histogram hold, bucket by bucket, @sl's reference? */
static int same_hist(const Io__Prometheus__Client__Metric *m, const struct ks_view *n,
		     const struct kstats_slot *sl, double scale)
{
	static __u64 got[IDX_N], want[IDX_N];
	const Io__Prometheus__Client__Histogram *h = m->histogram;
	__s32 off[4096];
	__u32 len[4096], k, s;
	__u64 tot = 0;

	if (!h || h->n_positive_span > 4096 || !h->has_schema ||
	    h->schema != (n->bits + 1 > 8 ? 8 : (int)n->bits + 1) ||
	    h->n_negative_span || h->n_bucket)
		return 0;
	for (k = 0; k < h->n_positive_span; k++) {
		off[k] = h->positive_span[k]->offset;
		len[k] = h->positive_span[k]->length;
	}
	if (decode(off, len, h->n_positive_span, (const __s64 *)h->positive_delta,
		   h->n_positive_delta, got))
		return 0;
	reference(sl, n->bits, n->buckets, scale, want);
	for (s = 0; s < n->nr_slots; s++)
		tot += sl[s].count;
	return !memcmp(got, want, sizeof(got)) && h->zero_count == sl[0].count &&
	       h->sample_count == tot && h->zero_threshold > 0;
}

static void pb(void)
{
	Io__Prometheus__Client__MetricFamily *fam[8];
	struct ks_view n[3];
	struct ks_view *nodes[3] = { &n[0], &n[1], &n[2] };
	struct ks_buf b = { 0 };
	int nf, i, ok, c;

	node(&n[0], "find_vma", "ns", 3, 3);
	node(&n[1], "vma_merge", "ns", 8, 1);
	node(&n[2], "find_vma_tsc", "cycles", 5, 2);
	ok = !ks_pb_write(&b, nodes, 3, 0);
	nf = ok ? unpack(&b, fam, 8) : -1;
	tap_result(nf == 3, "protobuf: %zu bytes, %d delimited families read back by protoc-c", b.len, nf);
	if (nf != 3)
		return;
	tap_result(!strcmp(fam[0]->name, "kstats_latency_seconds") &&
		   fam[0]->type == IO__PROMETHEUS__CLIENT__METRIC_TYPE__HISTOGRAM &&
		   fam[0]->n_metric == 2 &&
		   !strcmp(fam[1]->name, "kstats_latency_cycles") && fam[1]->n_metric == 1 &&
		   !strcmp(fam[2]->name, "kstats_missed_events_total") &&
		   fam[2]->type == IO__PROMETHEUS__CLIENT__METRIC_TYPE__COUNTER &&
		   fam[2]->n_metric == 3 && fam[2]->metric[0]->counter->value == 3,
		   "protobuf: seconds (2 nodes), cycles (1) and the missed counter (3)");
	tap_result(fam[0]->metric[0]->n_label == 4 &&
		   !strcmp(fam[0]->metric[0]->label[0]->name, "node") &&
		   !strcmp(fam[0]->metric[0]->label[0]->value, "find_vma") &&
		   !strcmp(fam[0]->metric[0]->label[3]->name, "clock"),
		   "protobuf: the labels of the text export (node, function, backend, clock), no cpu");
	tap_result(same_hist(fam[0]->metric[0], &n[0], n[0].total, 1e-9) &&
		   same_hist(fam[0]->metric[1], &n[1], n[1].total, 1e-9) &&
		   same_hist(fam[1]->metric[0], &n[2], n[2].total, 1.0),
		   "protobuf read back: schema = bits + 1 (4, 8, 6), every bucket == the slots whose middle it holds");
	tap_result(fam[0]->metric[0]->histogram->sample_sum ==
		   (double)ks_slots_sum(n[0].total, n[0].nr_slots) * 1e-9,
		   "protobuf: _sum in seconds, %.9f", fam[0]->metric[0]->histogram->sample_sum);
	for (i = 0; i < nf; i++)
		io__prometheus__client__metric_family__free_unpacked(fam[i], NULL);
	b.len = 0;
	ok = !ks_pb_write(&b, nodes, 1, KS_EXPORT_PER_CPU);
	nf = ok ? unpack(&b, fam, 8) : -1;
	ok = nf == 2 && fam[0]->n_metric == 3;
	for (c = 0; ok && c < 3; c++)
		ok = same_hist(fam[0]->metric[c], &n[0], n[0].cpus[c].slots, 1e-9) &&
		     !strcmp(fam[0]->metric[c]->label[4]->name, "cpu");
	tap_result(ok, "protobuf --per-cpu: one histogram per CPU (label cpu), each exact");
	for (i = 0; i < nf; i++)
		io__prometheus__client__metric_family__free_unpacked(fam[i], NULL);
	/* no calls yet: still native (a zero threshold), no spans */
	ks_view_free(&n[1]);
	node(&n[1], "empty", "ns", 3, 0);
	b.len = 0;
	nodes[0] = &n[1];
	nf = !ks_pb_write(&b, nodes, 1, 0) ? unpack(&b, fam, 8) : -1;
	tap_result(nf == 2 && fam[0]->metric[0]->histogram->n_positive_span == 0 &&
		   fam[0]->metric[0]->histogram->zero_threshold > 0 &&
		   fam[0]->metric[0]->histogram->sample_count == 0,
		   "protobuf: a node without calls is a native histogram with no buckets");
	for (i = 0; i < nf; i++)
		io__prometheus__client__metric_family__free_unpacked(fam[i], NULL);
	free(b.data);
	for (i = 0; i < 3; i++)
		ks_view_free(&n[i]);
}

int main(void)
{
	edges();
	index_edges();
	bounds();
	counts();
	monotonic();
	pb();
	return tap_end();
}
