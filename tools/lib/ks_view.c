// SPDX-License-Identifier: GPL-2.0
/*
 * ks_view: what a reader knows of a node (struct ks_view), built by the
 * node-text parser (ks_parse.c) and the snapshot reader (ks_snap.c), and
 * the difference of two reads (watch).  Slot bounds come from
 * include/kstats/hist.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_view.h"

int ks_view_setup(struct ks_view *node, __u32 bits, __u32 buckets)
{
	if (bits > KSTATS_BITS_MAX || buckets < 1 ||
	    buckets > kstats_max_buckets(bits))
		return -1;
	node->bits = bits;
	node->buckets = buckets;
	node->nr_slots = kstats_nr_slots(bits, buckets);
	node->precision_ppm = kstats_precision_ppm(bits);
	node->cpus = NULL;
	node->nr_cpus = 0;
	node->total = calloc(node->nr_slots, sizeof(*node->total));
	return node->total ? 0 : -1;
}

struct kstats_slot *ks_view_cpu(struct ks_view *node, __u32 cpu)
{
	struct ks_cpu *c;
	__u32 i;

	for (i = 0; i < node->nr_cpus; i++) {
		if (node->cpus[i].cpu == cpu)
			return node->cpus[i].slots;
		if (node->cpus[i].cpu > cpu)
			break;
	}
	c = realloc(node->cpus, (node->nr_cpus + 1) * sizeof(*c));
	if (!c)
		return NULL;
	node->cpus = c;
	memmove(&c[i + 1], &c[i], (node->nr_cpus - i) * sizeof(*c));
	c[i].cpu = cpu;
	c[i].slots = calloc(node->nr_slots, sizeof(*c[i].slots));
	if (!c[i].slots) {
		memmove(&c[i], &c[i + 1], (node->nr_cpus - i) * sizeof(*c));
		return NULL;
	}
	node->nr_cpus++;
	return c[i].slots;
}

struct ks_caller *ks_view_caller(struct ks_view *node, const char *id)
{
	struct ks_caller *c;

	if (strlen(id) >= sizeof(c->id))
		return NULL;
	c = realloc(node->callers, (node->nr_callers + 1) * sizeof(*c));
	if (!c)
		return NULL;
	node->callers = c;
	c += node->nr_callers;
	memset(c, 0, sizeof(*c));
	strcpy(c->id, id);
	strcpy(c->site, "-");
	c->slots = calloc(node->nr_slots, sizeof(*c->slots));
	if (!c->slots)
		return NULL;
	node->nr_callers++;
	return c;
}

int ks_caller_find(const struct ks_view *node, const char *id)
{
	__u32 i;

	for (i = 0; i < node->nr_callers; i++)
		if (!strcmp(node->callers[i].id, id))
			return (int)i;
	return -1;
}

char *ks_caller_key(char *buf, size_t len, const char *site, int offset)
{
	size_t n = strcspn(site, offset ? "/ " : "+/ ");

	snprintf(buf, len, "%.*s", (int)n, site);
	return buf;
}

/* Total time of call site @c, for sorting. */
static __u64 ks_caller_time(const struct ks_view *node, const struct ks_caller *c)
{
	return ks_slots_sum(c->slots, node->nr_slots);
}

void ks_callers_by_time(const struct ks_view *node, const struct ks_caller **out)
{
	__u32 i, j;

	/* insertion sort: at most KS_CALLERS_MAX + 1 sites, stable */
	for (i = 0; i < node->nr_callers; i++) {
		const struct ks_caller *c = &node->callers[i];
		__u64 t = ks_caller_time(node, c);

		for (j = i; j > 0; j--) {
			__u64 tj = ks_caller_time(node, out[j - 1]);

			if (tj > t || (tj == t && out[j - 1]->count >= c->count))
				break;
			out[j] = out[j - 1];
		}
		out[j] = c;
	}
}

struct ks_slow *ks_view_slow(struct ks_view *node)
{
	struct ks_slow *c;

	if (node->nr_slow >= KS_SLOWEST_MAX)
		return NULL;
	c = realloc(node->slow, (node->nr_slow + 1) * sizeof(*c));
	if (!c)
		return NULL;
	node->slow = c;
	c += node->nr_slow++;
	memset(c, 0, sizeof(*c));
	return c;
}

int ks_slow_frame(struct ks_slow *c, const char *frame)
{
	char (*f)[KS_SITE_MAX];

	if (c->nr_frames >= KS_STACK_MAX || strlen(frame) >= KS_SITE_MAX)
		return -1;
	f = realloc(c->frames, (c->nr_frames + 1) * sizeof(*f));
	if (!f)
		return -1;
	c->frames = f;
	strcpy(f[c->nr_frames++], frame);
	return 0;
}

void ks_view_free(struct ks_view *node)
{
	__u32 i;

	for (i = 0; i < node->nr_slow; i++)
		free(node->slow[i].frames);
	free(node->slow);
	node->slow = NULL;
	node->nr_slow = 0;

	free(node->disturbed);
	node->disturbed = NULL;
	for (i = 0; i < node->nr_callers; i++)
		free(node->callers[i].slots);
	free(node->callers);
	node->callers = NULL;
	node->nr_callers = 0;
	for (i = 0; i < node->nr_cpus; i++)
		free(node->cpus[i].slots);
	free(node->cpus);
	free(node->total);
	free(node->symbols);
	node->cpus = NULL;
	node->total = NULL;
	node->symbols = NULL;
	node->nr_cpus = 0;
}

__u64 ks_slots_sum(const struct kstats_slot *slots, __u32 n)
{
	__u64 t = 0;
	__u32 i;

	for (i = 0; i < n; i++) {
		if (t + slots[i].sum < t)
			return ~0ULL;
		t += slots[i].sum;
	}
	return t;
}

/*
 * What each call site of @cur added since @prev (NULL: since a reset),
 * into @out: a site's ID stays its own until the node goes, so each is
 * matched by ID.  Its max is @cur's where the interval reached it, else
 * the top of its highest slot.
 */
static int ks_delta_callers(struct ks_view *out, const struct ks_view *cur,
			    const struct ks_view *prev)
{
	__u32 i, s;

	for (i = 0; i < cur->nr_callers; i++) {
		const struct ks_caller *a = &cur->callers[i], *b = NULL;
		struct ks_caller *d = ks_view_caller(out, a->id);
		__u64 pct[KSTATS_NR_PCT];
		int j = prev ? ks_caller_find(prev, a->id) : -1;

		if (!d)
			return -1;
		if (j >= 0 && !strcmp(prev->callers[j].site, a->site))
			b = &prev->callers[j];
		strcpy(d->site, a->site);
		for (s = 0; s < out->nr_slots; s++) {
			__u64 cnt = a->slots[s].count, sum = a->slots[s].sum;

			if (b && b->slots[s].count <= cnt) {
				cnt -= b->slots[s].count;
				sum = sum >= b->slots[s].sum ? sum - b->slots[s].sum : 0;
			}
			if (!cnt)
				continue;
			d->slots[s].count = cnt;
			d->slots[s].sum = kstats_slot_clamp(sum / cnt, s, out->bits,
							    out->buckets) * cnt;
			d->count += cnt;
			d->max = kstats_slot_hi(s, out->bits, out->buckets);
		}
		if (!d->count) {
			d->max = 0;
			continue;
		}
		if (a->max && (!b || a->max > b->max || d->max > a->max))
			d->max = a->max;
		kstats_percentiles(d->slots, out->nr_slots, out->bits, pct);
		d->p50 = pct[KSTATS_P50];
		d->p99 = pct[KSTATS_P99];
	}
	return 0;
}

/* What a count went up by since @prev, or all of it after a reset. */
static __u64 ks_count_delta(__u64 cur, __u64 prev, int reset)
{
	return reset || cur < prev ? cur : cur - prev;
}

/* Was the node reset between @prev and @cur (a count went down)? */
static int ks_view_was_reset(const struct ks_view *cur, const struct ks_view *prev)
{
	__u32 s;

	if (cur->bits != prev->bits || cur->buckets != prev->buckets)
		return 0;
	for (s = 0; s < cur->nr_slots; s++)
		if (cur->total[s].count < prev->total[s].count)
			return 1;
	return cur->missed < prev->missed || cur->samples < prev->samples;
}

int ks_view_delta(struct ks_view *out, const struct ks_view *cur,
		  const struct ks_view *prev)
{
	int reset = ks_view_was_reset(cur, prev);
	__u32 c, s;

	if (cur->bits != prev->bits || cur->buckets != prev->buckets)
		return -1;

	*out = *cur;
	out->symbols = NULL;
	out->callers = NULL;	/* ks_delta_callers() */
	out->nr_callers = 0;
	out->slow = NULL;	/* an interval's slowest calls are not kept */
	out->disturbed = NULL;	/* nor its disturbed calls apart */
	out->undisturbed = 0;
	out->left_out = 0;
	out->nr_slow = 0;
	out->slowest_k = 0;
	if (ks_view_setup(out, cur->bits, cur->buckets))
		return -1;
	out->symbols = strdup(cur->symbols ? cur->symbols : "");
	if (!out->symbols)
		goto nomem;
	out->missed = reset ? cur->missed : cur->missed - prev->missed;
	out->clamped = ks_count_delta(cur->clamped, prev->clamped, reset);
	out->nested = ks_count_delta(cur->nested, prev->nested, reset);
	out->ncost = cur->ncost;

	for (c = 0; c <= cur->nr_cpus; c++) {
		const struct kstats_slot *a, *b = NULL;
		struct kstats_slot *d;
		__u32 i;

		if (c < cur->nr_cpus) {
			a = cur->cpus[c].slots;
			for (i = 0; i < prev->nr_cpus && !reset; i++)
				if (prev->cpus[i].cpu == cur->cpus[c].cpu)
					b = prev->cpus[i].slots;
			d = NULL;
		} else {
			a = cur->total;
			b = reset ? NULL : prev->total;
			d = out->total;
		}
		for (s = 0; s < cur->nr_slots; s++) {
			__u64 cnt = a[s].count, sum = a[s].sum, mean;

			if (b && b[s].count > cnt)
				continue;	/* per-CPU read raced: skip */
			if (b) {
				cnt -= b[s].count;
				sum = sum >= b[s].sum ? sum - b[s].sum : 0;
			}
			if (!cnt)
				continue;
			mean = kstats_slot_clamp(sum / cnt, s, cur->bits,
						 cur->buckets);
			if (!d) {
				d = ks_view_cpu(out, cur->cpus[c].cpu);
				if (!d)
					goto nomem;
			}
			d[s].count = cnt;
			d[s].sum = mean * cnt;
		}
	}
	out->samples = kstats_total(out->total, out->nr_slots);
	out->avg = out->samples ? ks_slots_sum(out->total, out->nr_slots) / out->samples : 0;
	/*
	 * Exact min/max survive a difference only when they were reached in
	 * it (a new extreme, or everything since a reset); otherwise the
	 * extreme slots bound them, and so do @cur's own min and max.
	 */
	out->min = out->max = 0;
	for (s = 0, c = 0; s < out->nr_slots; s++) {
		if (!out->total[s].count)
			continue;
		if (!c++)
			out->min = kstats_slot_lo(s, out->bits);
		out->max = kstats_slot_hi(s, out->bits, out->buckets);
	}
	if (out->samples && cur->samples) {
		if (reset || !prev->samples || cur->min < prev->min ||
		    out->min < cur->min)
			out->min = cur->min;
		if (reset || !prev->samples || cur->max > prev->max ||
		    out->max > cur->max)
			out->max = cur->max;
	}
	kstats_percentiles(out->total, out->nr_slots, out->bits, out->pct);
	out->has_pct = 1;
	if (ks_delta_callers(out, cur, reset ? NULL : prev))
		goto nomem;
	return reset;
nomem:
	ks_view_free(out);
	return -1;
}

long long ks_view_undisturbed(struct ks_view *node)
{
	long long out = 0;
	__u32 s;

	if (node->undisturbed)
		return (long long)node->left_out;
	if (!node->disturbed)
		return -1;
	for (s = 0; s < node->nr_slots; s++) {
		struct kstats_slot *t = &node->total[s];
		const struct kstats_slot *d = &node->disturbed[s];
		__u64 c = d->count < t->count ? d->count : t->count;
		__u64 mean;

		if (!c)
			continue;
		out += c;
		t->sum = t->sum > d->sum ? t->sum - d->sum : 0;
		t->count -= c;
		/* a read that raced a record: the slot's mean stays inside it */
		mean = t->count ? kstats_slot_clamp(t->sum / t->count, s, node->bits,
						    node->buckets) : 0;
		t->sum = mean * t->count;
	}
	node->samples = kstats_total(node->total, node->nr_slots);
	node->avg = node->samples ? ks_slots_sum(node->total, node->nr_slots) /
		    node->samples : 0;
	/* min and max: within the first and last slots left */
	for (s = 0; s < node->nr_slots && !node->total[s].count; s++)
		;
	if (s < node->nr_slots && node->min < kstats_slot_lo(s, node->bits))
		node->min = kstats_slot_lo(s, node->bits);
	for (s = node->nr_slots; s > 0 && !node->total[s - 1].count; s--)
		;
	if (s > 0 && node->max > kstats_slot_hi(s - 1, node->bits, node->buckets))
		node->max = kstats_slot_hi(s - 1, node->bits, node->buckets);
	if (!node->samples)
		node->min = node->max = 0;
	kstats_percentiles(node->total, node->nr_slots, node->bits, node->pct);
	node->has_pct = 1;
	node->undisturbed = 1;
	node->left_out = out;
	return out;
}

const char *ks_timing_note(const struct ks_meta *m)
{
	return strcmp(m->timing, KS_TIMING_ICOUNT) ? NULL : KS_ICOUNT_NOTE;
}
