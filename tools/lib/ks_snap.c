// SPDX-License-Identifier: GPL-2.0
/*
 * ks_snap: read snapshot files (schema kstats-snapshot/2; 1 is read too);
 * ks_snap_write.c writes them.
 *
 * This file holds the schema; ks_json.c reads JSON into a tree and writes
 * it (struct ks_jw).  The reader walks the tree: numbers must be unsigned
 * integers that fit in 64 bits; everything the schema names must be there
 * with the right type; slot bounds must be the ones hist.h gives for the
 * snapshot's bits/buckets.  Unknown keys are ignored.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_json.h"
#include "ks_slowest.h"
#include "ks_snap.h"

/* The node's 64-bit figures, in the order written; older files lack the optional ones. */
const struct ks_snap_figure ks_snap_figures_u64[KS_SNAP_FIGURES] = {
	{ "samples", offsetof(struct ks_view, samples), 0 },
	{ "missed", offsetof(struct ks_view, missed), 0 },
	{ "min", offsetof(struct ks_view, min), 0 },
	{ "avg", offsetof(struct ks_view, avg), 0 },
	{ "max", offsetof(struct ks_view, max), 0 },
	{ "floor", offsetof(struct ks_view, floor), 1 },
	{ "clamped", offsetof(struct ks_view, clamped), 1 },
	{ "nested", offsetof(struct ks_view, nested), 2 },
	{ "ncost", offsetof(struct ks_view, ncost), 2 },
};

/* ---- reading ---- */

/* The line of @v, for messages (0: none). */
static int ks_jline(const struct ks_jv *v)
{
	return v ? v->line : 0;
}

/* A required member of type @type. */
static const struct ks_jv *ks_jreq(struct ks_errbuf *sc, const struct ks_jv *obj,
				   const char *path, const char *key,
				   enum ks_jtype type)
{
	static const char * const names[] = {
		"null", "a boolean", "a number", "a string", "an array", "an object"
	};
	const struct ks_jv *v = ks_jget(obj, key);
	char full[128];

	snprintf(full, sizeof(full), "%s%s%s", path, *path ? "." : "", key);
	if (!v) {
		ks_fail(sc, ks_jline(obj), "%s: missing", full);
		return NULL;
	}
	if (v->type != type) {
		ks_fail(sc, ks_jline(v), "%s: must be %s, not %s", full, names[type],
			names[v->type]);
		return NULL;
	}
	return v;
}

/* A required unsigned integer member no larger than @max. */
static int ks_jreq_u64(struct ks_errbuf *sc, const struct ks_jv *obj,
		       const char *path, const char *key, __u64 max, __u64 *out)
{
	const struct ks_jv *v = ks_jreq(sc, obj, path, key, KS_JNUM);
	char full[128];

	if (!v)
		return -1;
	snprintf(full, sizeof(full), "%s%s%s", path, *path ? "." : "", key);
	if (ks_parse_u64(v->str, out))
		return ks_fail(sc, ks_jline(v), "%s: '%s' is not an unsigned 64-bit integer",
			       full, v->str);
	if (*out > max)
		return ks_fail(sc, ks_jline(v), "%s: %llu is out of range (at most %llu)",
			       full, (unsigned long long)*out, (unsigned long long)max);
	return 0;
}

/* Same for a __u32 field. */
static int ks_jreq_u32(struct ks_errbuf *sc, const struct ks_jv *obj,
		       const char *path, const char *key, __u32 max, __u32 *out)
{
	__u64 v;

	if (ks_jreq_u64(sc, obj, path, key, max, &v))
		return -1;
	*out = (__u32)v;
	return 0;
}

/* A required string member copied into @dst; optional when @opt. */
static int ks_jreq_str(struct ks_errbuf *sc, const struct ks_jv *obj,
		       const char *path, const char *key, char *dst,
		       size_t len, int opt)
{
	const struct ks_jv *v;

	if (opt && !ks_jget(obj, key)) {
		*dst = '\0';
		return 0;
	}
	v = ks_jreq(sc, obj, path, key, KS_JSTR);
	if (!v)
		return -1;
	if (strlen(v->str) >= len)
		return ks_fail(sc, ks_jline(v), "%s: too long", key);
	strcpy(dst, v->str);
	return 0;
}

/*
 * One list of slot objects: "slots" (per CPU) or a "total" (@what), into
 * @into (NULL: the node's own).
 */
static int ks_snap_slots(struct ks_errbuf *sc, struct ks_view *node,
			 const struct ks_jv *arr, int per_cpu, const char *what,
			 struct kstats_slot *into)
{
	long last_cpu = -1, last_slot = -1;
	size_t i;

	for (i = 0; i < arr->n; i++) {
		const struct ks_jv *o = &arr->kids[i];
		struct kstats_slot *dst;
		char path[96];
		__u64 lo, hi, count, avg;
		__u32 slot, cpu = 0;

		snprintf(path, sizeof(path), "%s[%zu]", what, i);
		if (o->type != KS_JOBJ)
			return ks_fail(sc, ks_jline(o), "%s: must be an object", path);
		if (ks_jreq_u32(sc, o, path, "slot", node->nr_slots - 1, &slot) ||
		    ks_jreq_u64(sc, o, path, "lo", ~0ULL, &lo) ||
		    ks_jreq_u64(sc, o, path, "hi", ~0ULL, &hi) ||
		    ks_jreq_u64(sc, o, path, "count", ~0ULL, &count) ||
		    ks_jreq_u64(sc, o, path, "avg", ~0ULL, &avg))
			return -1;
		if (per_cpu && ks_jreq_u32(sc, o, path, "cpu", node->ncpus ? node->ncpus - 1 : 0,
					   &cpu))
			return -1;
		if (lo != kstats_slot_lo(slot, node->bits) ||
		    hi != kstats_slot_hi(slot, node->bits, node->buckets))
			return ks_fail(sc, ks_jline(o),
				       "%s: bounds [%llu, %llu] are not those of slot %u with bits=%u buckets=%u",
				       path, (unsigned long long)lo, (unsigned long long)hi,
				       slot, node->bits, node->buckets);
		if (!count)
			return ks_fail(sc, ks_jline(o),
				       "%s: count 0 (only non-empty slots are listed)", path);
		if (avg < lo || avg > hi)
			return ks_fail(sc, ks_jline(o), "%s: avg %llu outside [%llu, %llu]", path,
				       (unsigned long long)avg, (unsigned long long)lo,
				       (unsigned long long)hi);
		if ((long)cpu < last_cpu || ((long)cpu == last_cpu && (long)slot <= last_slot))
			return ks_fail(sc, ks_jline(o),
				       "%s: out of order or duplicate (sorted by cpu, then slot)", path);
		last_cpu = cpu;
		last_slot = slot;
		dst = per_cpu ? ks_view_cpu(node, cpu) : into ? into : node->total;
		if (!dst)
			return ks_fail(sc, ks_jline(o), "%s: out of memory", path);
		if (__builtin_mul_overflow(count, avg, &dst[slot].sum))
			return ks_fail(sc, ks_jline(o), "%s: count * avg overflows", path);
		dst[slot].count = count;
	}
	return 0;
}

/* The optional "filters" object: pid, tgid, comm, cpus, each when set. */
static int ks_snap_filters(struct ks_errbuf *sc, const struct ks_jv *nd,
			   struct ks_view *node)
{
	const struct ks_jv *fl = ks_jget(nd, "filters");
	__u32 v;

	if (!fl)
		return 0;
	if (fl->type != KS_JOBJ)
		return ks_fail(sc, ks_jline(fl), "node.filters: must be an object");
	if (ks_jget(fl, "pid")) {
		if (ks_jreq_u32(sc, fl, "node.filters", "pid", KS_PID_MAX, &v))
			return -1;
		node->pid = (__s32)v;
	}
	if (ks_jget(fl, "tgid")) {
		if (ks_jreq_u32(sc, fl, "node.filters", "tgid", KS_PID_MAX, &v))
			return -1;
		node->tgid = (__s32)v;
	}
	return ks_jreq_str(sc, fl, "node.filters", "comm", node->comm,
			   sizeof(node->comm), 1) ||
	       ks_jreq_str(sc, fl, "node.filters", "cpus", node->cpulist,
			   sizeof(node->cpulist), 1) ? -1 : 0;
}

/* The "meta" object. */
static int ks_snap_meta(struct ks_errbuf *sc, const struct ks_jv *meta,
			struct ks_meta *m)
{
	return ks_jreq_str(sc, meta, "meta", "kernel", m->kernel, sizeof(m->kernel), 0) ||
	       ks_jreq_str(sc, meta, "meta", "date", m->date, sizeof(m->date), 0) ||
	       ks_jreq_str(sc, meta, "meta", "hostname", m->hostname, sizeof(m->hostname), 1) ||
	       ks_jreq_str(sc, meta, "meta", "tool", m->tool, sizeof(m->tool), 1) ||
	       ks_jreq_str(sc, meta, "meta", "label", m->label, sizeof(m->label), 1) ||
	       ks_jreq_str(sc, meta, "meta", "timing", m->timing, sizeof(m->timing), 1) ? -1 : 0;
}

/* The node's words and slot layout; sets @node up for its slots. */
static int ks_snap_layout(struct ks_errbuf *sc, const struct ks_jv *nd,
			  struct ks_view *node)
{
	char attach[KS_WORD_MAX];
	__u32 bits, buckets;

	if (ks_jreq_str(sc, nd, "node", "name", node->name, sizeof(node->name), 0) ||
	    ks_jreq_str(sc, nd, "node", "attach", attach, sizeof(attach), 0) ||
	    ks_jreq_str(sc, nd, "node", "clock", node->clock, sizeof(node->clock), 0) ||
	    ks_jreq_str(sc, nd, "node", "unit", node->unit, sizeof(node->unit), 0) ||
	    ks_jreq_str(sc, nd, "node", "slots_unit", node->slots_unit,
			sizeof(node->slots_unit), 1) ||
	    (ks_jget(nd, "hz") &&
	     ks_jreq_u64(sc, nd, "node", "hz", ~0ULL, &node->hz)) ||
	    ks_jreq_str(sc, nd, "node", "state", node->state, sizeof(node->state), 1) ||
	    ks_jreq_str(sc, nd, "node", "estimate", node->estimate, sizeof(node->estimate), 1) ||
	    ks_jreq_u32(sc, nd, "node", "bits", KSTATS_BITS_MAX, &bits) ||
	    ks_jreq_u32(sc, nd, "node", "buckets", KS_BUCKETS_MAX, &buckets))
		return -1;
	if (!node->name[0])
		return ks_fail(sc, ks_jline(nd), "node.name: empty");
	if (buckets < 1 || buckets > kstats_max_buckets(bits))
		return ks_fail(sc, ks_jline(ks_jget(nd, "buckets")),
			       "node.buckets: %u out of range for bits=%u", buckets, bits);
	if (ks_view_setup(node, bits, buckets))
		return ks_fail(sc, ks_jline(nd), "node: out of memory");
	strcpy(node->attach, attach);
	node->sample = 1;
	node->pid = -1;
	node->tgid = -1;
	return 0;
}

/* The node's figures: sample, maxactive, samples ... ncpus, precision_ppm. */
static int ks_snap_figures(struct ks_errbuf *sc, const struct ks_jv *nd,
			   struct ks_view *node)
{
	const struct ks_snap_figure *f;
	size_t i;

	if ((ks_jget(nd, "sample") &&
	     ks_jreq_u32(sc, nd, "node", "sample", KS_SAMPLE_MAX, &node->sample)) ||
	    (ks_jget(nd, "maxactive") &&
	     ks_jreq_u32(sc, nd, "node", "maxactive", KS_MAXACTIVE_MAX,
			 &node->maxactive)))
		return -1;
	for (i = 0; i < KS_SNAP_FIGURES; i++) {
		f = &ks_snap_figures_u64[i];
		if ((!f->optional || ks_jget(nd, f->key)) &&
		    ks_jreq_u64(sc, nd, "node", f->key, ~0ULL, ks_snap_figure_of(node, f)))
			return -1;
	}
	if (ks_jreq_u32(sc, nd, "node", "ncpus", 1U << 20, &node->ncpus))
		return -1;
	if (ks_jget(nd, "precision_ppm")) {
		__u32 ppm;

		if (ks_jreq_u32(sc, nd, "node", "precision_ppm", 1000000, &ppm))
			return -1;
		if (ppm != node->precision_ppm)
			return ks_fail(sc, ks_jline(ks_jget(nd, "precision_ppm")),
				       "node.precision_ppm: %u, but bits=%u means %u", ppm,
				       node->bits, node->precision_ppm);
	}
	if (node->sample < 1)
		return ks_fail(sc, ks_jline(ks_jget(nd, "sample")),
			       "node.sample: 0 is out of range");
	return 0;
}

/* The optional "symbols" array, into node->symbols ("a,b,c"). */
static int ks_snap_symbols(struct ks_errbuf *sc, const struct ks_jv *nd,
			   struct ks_view *node)
{
	const struct ks_jv *v = ks_jget(nd, "symbols");
	size_t i, len = 0;

	if (v) {
		if (v->type != KS_JARR)
			return ks_fail(sc, ks_jline(v), "node.symbols: must be an array");
		for (i = 0; i < v->n; i++) {
			if (v->kids[i].type != KS_JSTR)
				return ks_fail(sc, ks_jline(&v->kids[i]),
					       "node.symbols: must hold strings");
			len += strlen(v->kids[i].str) + 1;
		}
	}
	node->symbols = calloc(1, len + 1);
	if (!node->symbols)
		return ks_fail(sc, ks_jline(nd), "node: out of memory");
	for (i = 0; v && i < v->n; i++) {
		if (i)
			strcat(node->symbols, ",");
		strcat(node->symbols, v->kids[i].str);
	}
	return 0;
}

/* The "percentiles" object: every one of p10..p99.9. */
static int ks_snap_pct(struct ks_errbuf *sc, const struct ks_jv *nd,
		       struct ks_view *node)
{
	const struct ks_jv *pct = ks_jreq(sc, nd, "node", "percentiles", KS_JOBJ);
	int k;

	if (!pct)
		return -1;
	for (k = 0; k < KSTATS_NR_PCT; k++)
		if (ks_jreq_u64(sc, pct, "node.percentiles", kstats_pct_name[k], ~0ULL,
				&node->pct[k]))
			return -1;
	node->has_pct = 1;
	return 0;
}

/*
 * The optional "callers" object: "n" and the "sites", each with its
 * figures and its merged slots; their counts must be their slots'.
 */
static int ks_snap_callers(struct ks_errbuf *sc, const struct ks_jv *nd,
			   struct ks_view *node)
{
	const struct ks_jv *cl = ks_jget(nd, "callers"), *sites;
	char path[96], id[KS_CALLER_ID_MAX];
	size_t i;

	if (!cl)
		return 0;
	if (cl->type != KS_JOBJ)
		return ks_fail(sc, ks_jline(cl), "node.callers: must be an object");
	if (ks_jreq_u32(sc, cl, "node.callers", "n", KS_CALLERS_MAX, &node->callers_n))
		return -1;
	if (!node->callers_n)
		return ks_fail(sc, ks_jline(cl), "node.callers.n: 0 is out of range");
	sites = ks_jreq(sc, cl, "node.callers", "sites", KS_JARR);
	if (!sites)
		return -1;
	if (sites->n > KS_CALLERS_MAX + 1)
		return ks_fail(sc, ks_jline(sites), "node.callers.sites: more than %d",
			       KS_CALLERS_MAX + 1);
	for (i = 0; i < sites->n; i++) {
		const struct ks_jv *o = &sites->kids[i], *tot;
		struct ks_caller *c;
		__u64 count;

		snprintf(path, sizeof(path), "node.callers.sites[%zu]", i);
		if (o->type != KS_JOBJ)
			return ks_fail(sc, ks_jline(o), "%s: must be an object", path);
		if (ks_jreq_str(sc, o, path, "id", id, sizeof(id), 0))
			return -1;
		if (ks_caller_find(node, id) >= 0)
			return ks_fail(sc, ks_jline(o), "%s: second site with id '%s'", path, id);
		c = ks_view_caller(node, id);
		if (!c)
			return ks_fail(sc, ks_jline(o), "%s: out of memory", path);
		if (ks_jreq_str(sc, o, path, "site", c->site, sizeof(c->site), 0) ||
		    ks_jreq_u64(sc, o, path, "count", ~0ULL, &c->count) ||
		    ks_jreq_u64(sc, o, path, "p50", ~0ULL, &c->p50) ||
		    ks_jreq_u64(sc, o, path, "p99", ~0ULL, &c->p99) ||
		    ks_jreq_u64(sc, o, path, "max", ~0ULL, &c->max))
			return -1;
		tot = ks_jreq(sc, o, path, "total", KS_JARR);
		strcat(path, ".total");
		if (!tot || ks_snap_slots(sc, node, tot, 0, path, c->slots))
			return -1;
		count = kstats_total(c->slots, node->nr_slots);
		if (count != c->count)
			return ks_fail(sc, ks_jline(o), "%s: count %llu but the slots hold %llu",
				       path, (unsigned long long)c->count,
				       (unsigned long long)count);
	}
	return 0;
}

/*
 * The optional "slowest" object: "k", the disturbed counts and the kept
 * "calls", slowest first, each with its stack.
 */
static int ks_snap_slowest(struct ks_errbuf *sc, const struct ks_jv *nd,
			   struct ks_view *node)
{
	const struct ks_jv *sl = ks_jget(nd, "slowest"), *calls, *st;
	char path[96], why[96];
	size_t i, j;

	if (!sl)
		return 0;
	if (sl->type != KS_JOBJ)
		return ks_fail(sc, ks_jline(sl), "node.slowest: must be an object");
	if (ks_jreq_u32(sc, sl, "node.slowest", "k", KS_SLOWEST_MAX, &node->slowest_k) ||
	    ks_jreq_u64(sc, sl, "node.slowest", "switched", ~0ULL, &node->switched) ||
	    ks_jreq_u64(sc, sl, "node.slowest", "interrupted", ~0ULL, &node->interrupted))
		return -1;
	if (!node->slowest_k)
		return ks_fail(sc, ks_jline(sl), "node.slowest.k: 0 is out of range");
	st = ks_jget(sl, "undisturbed");	/* optional: left out of the slots */
	if (st) {
		if (ks_jreq_u64(sc, sl, "node.slowest", "undisturbed", ~0ULL, &node->left_out))
			return -1;
		node->undisturbed = 1;
	}
	st = ks_jget(sl, "disturbed");	/* optional: the disturbed calls' slots */
	if (st && node->undisturbed)
		return ks_fail(sc, ks_jline(st), "node.slowest: disturbed and undisturbed both");
	if (st) {
		if (st->type != KS_JARR)
			return ks_fail(sc, ks_jline(st), "node.slowest.disturbed: must be an array");
		node->disturbed = calloc(node->nr_slots, sizeof(*node->disturbed));
		if (!node->disturbed)
			return ks_fail(sc, ks_jline(st), "node.slowest.disturbed: out of memory");
		if (ks_snap_slots(sc, node, st, 0, "node.slowest.disturbed", node->disturbed))
			return -1;
	}
	calls = ks_jreq(sc, sl, "node.slowest", "calls", KS_JARR);
	if (!calls)
		return -1;
	if (calls->n > node->slowest_k)
		return ks_fail(sc, ks_jline(calls), "node.slowest.calls: more than k");
	for (i = 0; i < calls->n; i++) {
		const struct ks_jv *o = &calls->kids[i];
		struct ks_slow *c = ks_view_slow(node);
		__u64 pid;

		snprintf(path, sizeof(path), "node.slowest.calls[%zu]", i);
		if (!c)
			return ks_fail(sc, ks_jline(o), "%s: out of memory", path);
		if (o->type != KS_JOBJ)
			return ks_fail(sc, ks_jline(o), "%s: must be an object", path);
		if (ks_jreq_u64(sc, o, path, "time", ~0ULL, &c->time) ||
		    ks_jreq_u32(sc, o, path, "cpu", ~0U, &c->cpu) ||
		    ks_jreq_u64(sc, o, path, "pid", KS_PID_MAX, &pid) ||
		    ks_jreq_u64(sc, o, path, "at", ~0ULL, &c->at) ||
		    ks_jreq_str(sc, o, path, "by", c->by, sizeof(c->by), 0) ||
		    ks_jreq_str(sc, o, path, "comm", c->comm, sizeof(c->comm), 0) ||
		    ks_jreq_str(sc, o, path, "caller", c->caller, sizeof(c->caller), 0))
			return -1;
		c->pid = (__s32)pid;
		if (ks_slow_check(node, why, sizeof(why)))
			return ks_fail(sc, ks_jline(o), "%s: %s", path, why);
		st = ks_jreq(sc, o, path, "stack", KS_JARR);
		if (!st)
			return -1;
		for (j = 0; j < st->n; j++)
			if (st->kids[j].type != KS_JSTR || ks_slow_frame(c, st->kids[j].str))
				return ks_fail(sc, ks_jline(&st->kids[j]),
					       "%s.stack[%zu]: not a frame, too long or past %d",
					       path, j, KS_STACK_MAX);
	}
	return 0;
}

/* One node object of a document onto @node, with the document's @meta. */
static int ks_snap_node(struct ks_errbuf *sc, const struct ks_jv *meta,
			const struct ks_jv *nd, struct ks_view *node)
{
	const struct ks_jv *slots, *total;

	memset(node, 0, sizeof(*node));
	if (ks_snap_meta(sc, meta, &node->meta) || ks_snap_layout(sc, nd, node) ||
	    ks_snap_figures(sc, nd, node) || ks_snap_filters(sc, nd, node) ||
	    ks_snap_symbols(sc, nd, node) || ks_snap_pct(sc, nd, node))
		return -1;
	slots = ks_jreq(sc, nd, "node", "slots", KS_JARR);
	total = ks_jreq(sc, nd, "node", "total", KS_JARR);
	if (!slots || !total)
		return -1;
	if (ks_snap_slots(sc, node, slots, 1, "node.slots", NULL) ||
	    ks_snap_slots(sc, node, total, 0, "node.total", NULL))
		return -1;
	return ks_snap_callers(sc, nd, node) || ks_snap_slowest(sc, nd, node) ? -1 : 0;
}

/*
 * Map the tree of a whole document onto *@nodes (allocated here, *@n of
 * them); on failure every node read so far is freed.
 */
static int ks_snap_walk(struct ks_errbuf *sc, const struct ks_jv *root,
			struct ks_view **nodes, int *n)
{
	const struct ks_jv *v, *meta, *nd = NULL, *arr = NULL;
	int many, i, cnt;

	*nodes = NULL;
	*n = 0;
	if (root->type != KS_JOBJ)
		return ks_fail(sc, ks_jline(root),
			       "(document): not a JSON object: not a kstats snapshot");
	v = ks_jget(root, "schema");
	if (!v)
		return ks_fail(sc, ks_jline(root), "schema: missing: not a kstats snapshot");
	if (v->type != KS_JSTR ||
	    (strcmp(v->str, KS_SNAP_SCHEMA) && strcmp(v->str, KS_SNAP_SCHEMA_V1) &&
	     strcmp(v->str, KS_SNAP_SCHEMA_MANY)))
		return ks_fail(sc, ks_jline(v), "schema: '%s' is not supported (expected '%s')",
			       v->type == KS_JSTR ? v->str : "?", KS_SNAP_SCHEMA);
	many = !strcmp(v->str, KS_SNAP_SCHEMA_MANY);
	meta = ks_jreq(sc, root, "", "meta", KS_JOBJ);
	if (many)
		arr = ks_jreq(sc, root, "", "nodes", KS_JARR);
	else
		nd = ks_jreq(sc, root, "", "node", KS_JOBJ);
	if (!meta || (many ? !arr : !nd))
		return -1;
	if (many && !arr->n)
		return ks_fail(sc, ks_jline(arr), "nodes: empty");
	cnt = many ? (int)arr->n : 1;
	*nodes = calloc(cnt, sizeof(**nodes));
	if (!*nodes)
		return ks_fail(sc, ks_jline(root), "out of memory");
	for (i = 0; i < cnt; i++) {
		nd = many ? &arr->kids[i] : nd;
		if (nd->type != KS_JOBJ) {
			ks_fail(sc, ks_jline(nd), "nodes[%d]: must be an object", i);
			break;
		}
		if (ks_snap_node(sc, meta, nd, &(*nodes)[i])) {
			ks_view_free(&(*nodes)[i]);
			break;
		}
	}
	if (i < cnt) {
		while (i--)
			ks_view_free(&(*nodes)[i]);
		free(*nodes);
		*nodes = NULL;
		return -1;
	}
	*n = cnt;
	return 0;
}

int ks_snap_read_many(const char *text, const char *src, struct ks_view **nodes,
		      int *n, char *err, size_t errlen)
{
	struct ks_errbuf sc = { .src = src, .buf = err, .len = errlen };
	struct ks_jv root;
	int ret;

	*nodes = NULL;
	*n = 0;
	if (ks_json_parse(text, src, &root, err, errlen))
		return -1;
	ret = ks_snap_walk(&sc, &root, nodes, n);
	ks_jfree(&root);
	return ret;
}

int ks_snap_read(const char *text, const char *src, struct ks_view *node,
		 char *err, size_t errlen)
{
	struct ks_errbuf sc = { .src = src, .buf = err, .len = errlen };
	struct ks_view *nodes;
	int n, i;

	memset(node, 0, sizeof(*node));
	if (ks_snap_read_many(text, src, &nodes, &n, err, errlen))
		return -1;
	if (n != 1) {
		for (i = 0; i < n; i++)
			ks_view_free(&nodes[i]);
		free(nodes);
		return ks_fail(&sc, 0, "holds %d nodes, one expected", n);
	}
	*node = nodes[0];
	free(nodes);
	return 0;
}
