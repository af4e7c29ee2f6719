// SPDX-License-Identifier: GPL-2.0
/*
 * ks_prom: Prometheus' answers to kstats histograms (ks_prom.h).
 */
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_json.h"
#include "ks_prom.h"

#define KS_PROM_COUNT_MAX	1e15	/* calls a bucket: more is a broken answer */

void ks_prom_vec_free(struct ks_prom_vec *vec)
{
	size_t i;

	for (i = 0; vec->s && i < vec->n; i++) {
		free(vec->s[i].name);
		free(vec->s[i].instance);
	}
	free(vec->s);
	vec->s = NULL;
	vec->n = 0;
}

/* String member @key of @obj, or NULL. */
static const char *ks_prom_str(const struct ks_jv *obj, const char *key)
{
	const struct ks_jv *v = obj && obj->type == KS_JOBJ ? ks_jget(obj, key) : NULL;

	return v && v->type == KS_JSTR ? v->str : NULL;
}

/* A sample value as Prometheus writes it: "1.5", "NaN", "+Inf". */
static int ks_prom_num(const char *s, double *v)
{
	char *end;

	if (!s || !*s)
		return -1;
	*v = strtod(s, &end);
	return *end ? -1 : 0;
}

/*
 * A native histogram of the API, [time, {"count", "sum", "buckets": [[
 * boundaries, "lower", "upper", "count"], ...]}], appended to @vec as the
 * cumulative counts of a classic one: a sample at each bucket's upper
 * edge, one at its lower edge too where the bucket below it is not there
 * (so that each bucket keeps its own bounds), and +Inf at "count".
 * Buckets at or below 0 (the zero bucket's negative half) count at le 0.
 */
static int ks_prom_hist(const struct ks_jv *h, struct ks_prom_vec *vec, char *err,
			size_t errlen, const char *src, int line)
{
	const struct ks_jv *o = h->type == KS_JARR && h->n == 2 ? &h->kids[1] : NULL, *b;
	double cum = 0, prev = -1, total;
	size_t k;

	b = o && o->type == KS_JOBJ ? ks_jget(o, "buckets") : NULL;
	if (!o || o->type != KS_JOBJ || ks_prom_num(ks_prom_str(o, "count"), &total) ||
	    (b && b->type != KS_JARR)) {
		snprintf(err, errlen, "%s:%d: a histogram without \"count\" and \"buckets\"", src, line);
		return -1;
	}
	for (k = 0; b && k < b->n; k++) {
		const struct ks_jv *e = &b->kids[k];
		double lo, hi, c;

		if (e->type != KS_JARR || e->n != 4 || e->kids[1].type != KS_JSTR ||
		    ks_prom_num(e->kids[1].str, &lo) || ks_prom_num(e->kids[2].str, &hi) ||
		    ks_prom_num(e->kids[3].str, &c) || !(hi >= lo)) {
			snprintf(err, errlen, "%s:%d: a histogram bucket that is not [boundaries, \"lower\", \"upper\", \"count\"]",
				 src, line);
			return -1;
		}
		if (lo < 0)
			lo = 0;
		if (lo != prev && lo > 0) {	/* no bucket just below: its lower edge */
			vec->s[vec->n].le = lo;
			vec->s[vec->n++].v = cum;
		}
		cum += c;
		vec->s[vec->n].le = hi;
		vec->s[vec->n++].v = cum;
		prev = hi;
	}
	vec->s[vec->n].le = INFINITY;
	vec->s[vec->n++].v = total;
	return 0;
}

int ks_prom_parse(const char *text, const char *src, struct ks_prom_vec *vec,
		  char *err, size_t errlen)
{
	const struct ks_jv *data, *res;
	const char *status, *type;
	struct ks_jv root;
	size_t i, nmax;
	int ret = -1;

	vec->s = NULL;
	vec->n = 0;
	vec->native = 0;
	if (ks_json_parse(text, src, &root, err, errlen))
		return -1;
	status = ks_prom_str(&root, "status");
	if (!status) {
		snprintf(err, errlen, "%s: not an answer of Prometheus' API (no \"status\")", src);
		goto out;
	}
	if (strcmp(status, "success")) {
		const char *et = ks_prom_str(&root, "errorType"), *e = ks_prom_str(&root, "error");

		snprintf(err, errlen, "%s: %s: %s", src, et ? et : status, e ? e : "no error text");
		goto out;
	}
	data = ks_jget(&root, "data");
	type = ks_prom_str(data, "resultType");
	res = data && data->type == KS_JOBJ ? ks_jget(data, "result") : NULL;
	if (!type || strcmp(type, "vector") || !res || res->type != KS_JARR) {
		snprintf(err, errlen, "%s: not an instant vector (data.resultType %s)", src,
			 type ? type : "missing");
		goto out;
	}
	/* a native histogram becomes up to 2 samples a bucket, and +Inf */
	for (i = 0, nmax = 0; i < res->n; i++) {
		const struct ks_jv *h = res->kids[i].type == KS_JOBJ ?
					ks_jget(&res->kids[i], "histogram") : NULL;
		const struct ks_jv *hb = h && h->type == KS_JARR && h->n == 2 &&
					 h->kids[1].type == KS_JOBJ ? ks_jget(&h->kids[1], "buckets") : NULL;

		nmax += hb && hb->type == KS_JARR ? 2 * hb->n + 1 : 1;
	}
	vec->s = calloc(nmax ? nmax : 1, sizeof(*vec->s));
	if (!vec->s) {
		snprintf(err, errlen, "%s: out of memory", src);
		goto out;
	}
	for (i = 0; i < res->n; i++) {
		const struct ks_jv *r = &res->kids[i], *m, *val, *h;
		struct ks_prom_sample *s = &vec->s[vec->n];
		const char *name, *inst, *timing, *le;
		size_t first = vec->n;

		m = r->type == KS_JOBJ ? ks_jget(r, "metric") : NULL;
		val = r->type == KS_JOBJ ? ks_jget(r, "value") : NULL;
		h = r->type == KS_JOBJ ? ks_jget(r, "histogram") : NULL;
		if (m && m->type == KS_JOBJ && !val && h) {
			if (ks_prom_hist(h, vec, err, errlen, src, r->line))
				goto out;
			vec->native = 1;
		} else if (!m || m->type != KS_JOBJ || !val || val->type != KS_JARR || val->n != 2 ||
		    val->kids[1].type != KS_JSTR || ks_prom_num(val->kids[1].str, &s->v)) {
			snprintf(err, errlen, "%s:%d: a result without \"metric\" and \"value\": [time, \"number\"]",
				 src, r->line);
			goto out;
		} else {
			vec->n++;
		}
		name = ks_prom_str(m, "function");
		if (!name || !*name)
			name = ks_prom_str(m, "node");
		inst = ks_prom_str(m, "instance");
		timing = ks_prom_str(m, "timing");
		le = ks_prom_str(m, "le");
		for (; first < vec->n; first++) {
			s = &vec->s[first];
			s->icount = timing && !strcmp(timing, KS_TIMING_ICOUNT);
			if (!h) {
				s->le = NAN;
				if (le && ks_prom_num(le, &s->le)) {
					snprintf(err, errlen, "%s:%d: le=\"%s\" is not a number", src, r->line, le);
					goto out;
				}
			}
			s->name = strdup(name ? name : "");
			s->instance = strdup(inst ? inst : "");
			if (!s->name || !s->instance) {
				snprintf(err, errlen, "%s: out of memory", src);
				goto out;
			}
		}
	}
	ret = 0;
out:
	if (ret)
		ks_prom_vec_free(vec);
	ks_jfree(&root);
	return ret;
}

int ks_prom_layout_init(struct ks_prom_layout *l)
{
	__u32 s;

	memset(l, 0, sizeof(*l));
	l->bits = KS_PROM_BITS;
	l->buckets = kstats_default_buckets(l->bits);
	l->nr = kstats_nr_slots(l->bits, l->buckets);
	l->bounds = calloc(l->nr, sizeof(*l->bounds));
	l->set = calloc(l->nr, 1);
	if (!l->bounds || !l->set) {
		ks_prom_layout_free(l);
		return -1;
	}
	for (s = 0; s < l->nr; s++) {
		l->bounds[s].lo = (double)kstats_slot_lo(s, l->bits);
		l->bounds[s].hi = s == l->nr - 1 ? INFINITY :
				  (double)kstats_slot_hi(s, l->bits, l->buckets);
	}
	return 0;
}

void ks_prom_layout_free(struct ks_prom_layout *l)
{
	free(l->bounds);
	free(l->set);
	memset(l, 0, sizeof(*l));
}

void ks_prom_side_free(struct ks_prom_side *side)
{
	int i;

	for (i = 0; side->views && i < side->n; i++)
		ks_view_free(&side->views[i]);
	free(side->views);
	free(side->nodes);
	free(side->srcs);
	memset(side, 0, sizeof(*side));
}

static int ks_prom_le_cmp(const void *x, const void *y)
{
	const struct ks_prom_sample *a = *(const struct ks_prom_sample * const *)x;
	const struct ks_prom_sample *b = *(const struct ks_prom_sample * const *)y;

	return a->le < b->le ? -1 : a->le > b->le;
}

/* The value of @name on @inst in @vec, or NAN. */
static double ks_prom_find(const struct ks_prom_vec *vec, const char *name, const char *inst)
{
	size_t i;

	for (i = 0; vec && i < vec->n; i++)
		if (!strcmp(vec->s[i].name, name) && !strcmp(vec->s[i].instance, inst))
			return vec->s[i].v;
	return NAN;
}

/*
 * Put @cnt calls of the bucket (@lo, @hi] seconds into @node's slot of
 * its middle, and widen that slot's bounds to the bucket.
 */
static void ks_prom_place(struct ks_prom_layout *l, struct ks_view *node, __u64 cnt,
			  double lo, double hi)
{
	double lns = lo * 1e9, hns = hi * 1e9, mid, top = ldexp(1, KSTATS_RANGE_BITS) - 1;
	__u64 v;
	__u32 s;

	if (isinf(hi))
		mid = lns > 0 ? lns * pow(2, 0.125) : 1;
	else if (lns > 0)
		mid = sqrt(lns * hns);
	else
		mid = hns * pow(2, -0.125);
	v = mid < 1 ? 1 : mid > top ? (__u64)top : (__u64)llround(mid);
	s = kstats_slot(v, l->bits, l->buckets);
	node->total[s].count += cnt;
	node->total[s].sum += cnt * v;
	if (!l->set[s]) {
		l->bounds[s].lo = lns;
		l->bounds[s].hi = hns;
		l->set[s] = 1;
	} else {
		l->bounds[s].lo = fmin(l->bounds[s].lo, lns);
		l->bounds[s].hi = fmax(l->bounds[s].hi, hns);
	}
	if (lo > 0 && !isinf(hi) && hi / lo - 1 > l->worst)
		l->worst = hi / lo - 1;
}

/* The histogram of @name on @inst from @b's buckets (@idx: scratch). */
static int ks_prom_node(struct ks_prom_layout *l, const struct ks_prom_vec *b,
			const char *name, const char *inst, const struct ks_prom_sample **idx,
			struct ks_view *node)
{
	double prev = 0, cum = 0;
	size_t i, n = 0;
	__u64 total = 0;

	if (ks_view_setup(node, l->bits, l->buckets))
		return -1;
	for (i = 0; i < b->n; i++)
		if (!isnan(b->s[i].le) && !strcmp(b->s[i].name, name) &&
		    !strcmp(b->s[i].instance, inst))
			idx[n++] = &b->s[i];
	qsort(idx, n, sizeof(*idx), ks_prom_le_cmp);
	for (i = 0; i < n; i++) {
		double c = isnan(idx[i]->v) || idx[i]->v < 0 ? 0 : round(idx[i]->v);

		if (c > KS_PROM_COUNT_MAX)
			c = KS_PROM_COUNT_MAX;

		if (c < cum)		/* rounding made the cumulative counts fall */
			c = cum;
		if (c > cum && idx[i]->le > 0) {
			ks_prom_place(l, node, (__u64)(c - cum), prev, idx[i]->le);
			total += (__u64)(c - cum);
		}
		cum = c;
		prev = idx[i]->le;
	}
	node->samples = total;
	return 0;
}

int ks_prom_side(struct ks_prom_layout *l, const struct ks_prom_vec *buckets,
		 const struct ks_prom_vec *sum, const struct ks_prom_vec *count,
		 const char *glob, const char *label, struct ks_prom_side *side)
{
	const struct ks_prom_sample **idx;
	size_t i, j;

	memset(side, 0, sizeof(*side));
	idx = calloc(buckets->n ? buckets->n : 1, sizeof(*idx));
	side->views = calloc(buckets->n ? buckets->n : 1, sizeof(*side->views));
	side->nodes = calloc(buckets->n ? buckets->n : 1, sizeof(*side->nodes));
	side->srcs = calloc(buckets->n ? buckets->n : 1, sizeof(*side->srcs));
	if (!idx || !side->views || !side->nodes || !side->srcs)
		goto oom;
	for (i = 0; i < buckets->n; i++) {
		const struct ks_prom_sample *s = &buckets->s[i];
		struct ks_view *node = &side->views[side->n];
		double ds, dc, avg;

		if (glob && fnmatch(glob, s->name, 0))
			continue;
		for (j = 0; j < i; j++)		/* each function and instance once */
			if (!strcmp(buckets->s[j].name, s->name) &&
			    !strcmp(buckets->s[j].instance, s->instance))
				break;
		if (j < i)
			continue;
		if (ks_prom_node(l, buckets, s->name, s->instance, idx, node))
			goto oom;
		if (!node->samples) {
			ks_view_free(node);
			continue;
		}
		snprintf(node->name, sizeof(node->name), "%s", s->name);
		snprintf(node->unit, sizeof(node->unit), "ns");
		snprintf(node->meta.label, sizeof(node->meta.label), "%s", label);
		snprintf(node->meta.hostname, sizeof(node->meta.hostname), "%s", s->instance);
		if (s->icount)
			snprintf(node->meta.timing, sizeof(node->meta.timing), "%s", KS_TIMING_ICOUNT);
		ds = ks_prom_find(sum, s->name, s->instance);
		dc = ks_prom_find(count, s->name, s->instance);
		avg = ds >= 0 && dc > 0 ? ds / dc * 1e9 : NAN;
		if (avg >= 0 && avg < 1e18)
			node->avg = (__u64)llround(avg);
		else
			node->avg = ks_slots_sum(node->total, node->nr_slots) / node->samples;
		side->nodes[side->n] = node;
		side->srcs[side->n] = s->instance;
		side->n++;
	}
	free(idx);
	return 0;
oom:
	free(idx);
	ks_prom_side_free(side);
	return -1;
}
