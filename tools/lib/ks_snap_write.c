// SPDX-License-Identifier: GPL-2.0
/*
 * ks_snap_write: write snapshot files (schema kstats-snapshot/2), every
 * node through ks_json.c's writer; ks_snap.c reads them.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_json.h"
#include "ks_slowest.h"
#include "ks_snap.h"

/* One slot object; @cpu < 0 for the merged ("total") list. */
static void ks_put_slot(struct ks_jw *w, const struct ks_view *node, __u32 s,
			 const struct kstats_slot *sl, long cpu)
{
	ks_jw_obj(w, KS_JW_INLINE);
	ks_jw_ku64(w, "slot", s);
	ks_jw_ku64(w, "lo", kstats_slot_lo(s, node->bits));
	ks_jw_ku64(w, "hi", kstats_slot_hi(s, node->bits, node->buckets));
	if (cpu >= 0) {
		ks_jw_key(w, "cpu");
		ks_jw_int(w, cpu);
	}
	ks_jw_ku64(w, "count", sl->count);
	ks_jw_ku64(w, "avg", kstats_slot_mean(sl));
	ks_jw_end(w);
}

/* @key: the non-empty slots of a merged histogram @sl, as a list. */
static void ks_put_merged(struct ks_jw *w, const struct ks_view *node,
			  const char *key, const struct kstats_slot *sl)
{
	__u32 s;

	ks_jw_key(w, key);
	ks_jw_arr(w, 0);
	for (s = 0; s < node->nr_slots; s++)
		if (sl[s].count)
			ks_put_slot(w, node, s, &sl[s], -1);
	ks_jw_end(w);
}

/* The "meta" object of a document (timing only when set). */
static void ks_put_meta(struct ks_jw *w, const struct ks_meta *m)
{
	ks_jw_key(w, "meta");
	ks_jw_obj(w, 0);
	ks_jw_kstr(w, "kernel", m->kernel);
	ks_jw_kstr(w, "date", m->date);
	ks_jw_kstr(w, "hostname", m->hostname);
	ks_jw_kstr(w, "tool", m->tool);
	ks_jw_kstr(w, "label", m->label);
	if (m->timing[0])
		ks_jw_kstr(w, "timing", m->timing);
	ks_jw_end(w);
}

/* The "callers" object of a node traced with "callers N". */
static void ks_put_callers(struct ks_jw *w, const struct ks_view *node)
{
	__u32 h;

	ks_jw_key(w, "callers");
	ks_jw_obj(w, 0);
	ks_jw_ku64(w, "n", node->callers_n);
	ks_jw_key(w, "sites");
	ks_jw_arr(w, 0);
	for (h = 0; h < node->nr_callers; h++) {
		const struct ks_caller *c = &node->callers[h];

		ks_jw_obj(w, 0);
		ks_jw_kstr(w, "id", c->id);
		ks_jw_kstr(w, "site", c->site);
		ks_jw_ku64(w, "count", c->count);
		ks_jw_ku64(w, "p50", c->p50);
		ks_jw_ku64(w, "p99", c->p99);
		ks_jw_ku64(w, "max", c->max);
		ks_put_merged(w, node, "total", c->slots);
		ks_jw_end(w);
	}
	ks_jw_end(w);
	ks_jw_end(w);
}

/* The "slowest" object of a node traced with "slowest K". */
static void ks_put_slowest(struct ks_jw *w, const struct ks_view *node)
{
	__u32 i, j;

	ks_jw_key(w, "slowest");
	ks_jw_obj(w, 0);
	ks_jw_ku64(w, "k", node->slowest_k);
	ks_jw_ku64(w, "switched", node->switched);
	ks_jw_ku64(w, "interrupted", node->interrupted);
	if (node->undisturbed) {
		ks_jw_ku64(w, "undisturbed", node->left_out);
	} else if (node->disturbed) {
		ks_put_merged(w, node, "disturbed", node->disturbed);
	}
	ks_jw_key(w, "calls");
	ks_jw_arr(w, 0);
	for (i = 0; i < node->nr_slow; i++) {
		const struct ks_slow *c = &node->slow[i];

		ks_jw_obj(w, 0);
		ks_jw_ku64(w, "time", c->time);
		ks_jw_ku64(w, "cpu", c->cpu);
		ks_jw_ku64(w, "pid", (__u64)c->pid);
		ks_jw_ku64(w, "at", c->at);
		ks_jw_kstr(w, "by", c->by);
		ks_jw_kstr(w, "comm", c->comm);
		ks_jw_kstr(w, "caller", c->caller);
		ks_jw_key(w, "stack");
		ks_jw_arr(w, 0);
		for (j = 0; j < c->nr_frames; j++)
			ks_jw_str(w, c->frames[j]);
		ks_jw_end(w);
		ks_jw_end(w);
	}
	ks_jw_end(w);
	ks_jw_end(w);
}

/* One node object. */
static void ks_put_node(struct ks_jw *w, const struct ks_view *node)
{
	const char *sym = node->symbols ? node->symbols : "";
	__u32 c, s;
	int k;

	ks_jw_obj(w, 0);
	ks_jw_kstr(w, "name", node->name);
	ks_jw_kstr(w, "attach", node->attach);
	ks_jw_key(w, "symbols");
	ks_jw_arr(w, KS_JW_INLINE);
	while (*sym) {
		size_t n = strcspn(sym, ",");
		char buf[KS_NAME_MAX * 2];

		snprintf(buf, sizeof(buf), "%.*s", (int)n, sym);
		ks_jw_str(w, buf);
		sym += n;
		if (*sym == ',')
			sym++;
	}
	ks_jw_end(w);
	ks_jw_kstr(w, "clock", node->clock);
	if (node->hz)
		ks_jw_ku64(w, "hz", node->hz);
	ks_jw_kstr(w, "unit", node->unit);
	if (node->slots_unit[0])
		ks_jw_kstr(w, "slots_unit", node->slots_unit);
	ks_jw_ku64(w, "bits", node->bits);
	ks_jw_ku64(w, "buckets", node->buckets);
	ks_jw_ku64(w, "sample", node->sample);
	ks_jw_ku64(w, "maxactive", node->maxactive);
	ks_jw_key(w, "filters");
	ks_jw_obj(w, KS_JW_INLINE);
	if (node->pid >= 0) {
		ks_jw_key(w, "pid");
		ks_jw_int(w, node->pid);
	}
	if (node->tgid >= 0) {
		ks_jw_key(w, "tgid");
		ks_jw_int(w, node->tgid);
	}
	if (node->comm[0])
		ks_jw_kstr(w, "comm", node->comm);
	if (node->cpulist[0])
		ks_jw_kstr(w, "cpus", node->cpulist);
	ks_jw_end(w);
	ks_jw_kstr(w, "state", node->state);
	for (k = 0; k < KS_SNAP_FIGURES; k++)
		if (ks_snap_figures_u64[k].optional < 2 ||
		    *ks_snap_figure_of(node, &ks_snap_figures_u64[k]))
			ks_jw_ku64(w, ks_snap_figures_u64[k].key,
				   *ks_snap_figure_of(node, &ks_snap_figures_u64[k]));
	ks_jw_key(w, "percentiles");
	ks_jw_obj(w, KS_JW_INLINE);
	for (k = 0; k < KSTATS_NR_PCT; k++)
		ks_jw_ku64(w, kstats_pct_name[k], node->pct[k]);
	ks_jw_end(w);
	ks_jw_ku64(w, "precision_ppm", node->precision_ppm);
	ks_jw_kstr(w, "estimate", node->estimate);
	ks_jw_ku64(w, "ncpus", node->ncpus);

	ks_jw_key(w, "slots");
	ks_jw_arr(w, 0);
	/* the disturbed calls left out of the merged slots only: no CPU's */
	for (c = 0; c < node->nr_cpus && !node->undisturbed; c++)
		for (s = 0; s < node->nr_slots; s++)
			if (node->cpus[c].slots[s].count)
				ks_put_slot(w, node, s, &node->cpus[c].slots[s],
					     node->cpus[c].cpu);
	ks_jw_end(w);
	ks_put_merged(w, node, "total", node->total);
	if (node->callers_n)
		ks_put_callers(w, node);
	if (node->slowest_k)
		ks_put_slowest(w, node);
	ks_jw_end(w);
}

int ks_snap_write(FILE *f, const struct ks_view *node)
{
	struct ks_jw w;

	ks_jw_init(&w, f);
	ks_jw_obj(&w, 0);
	ks_jw_kstr(&w, "schema", KS_SNAP_SCHEMA);
	ks_put_meta(&w, &node->meta);
	ks_jw_key(&w, "node");
	ks_put_node(&w, node);
	ks_jw_end(&w);
	return ferror(f) ? -1 : 0;
}

int ks_snap_write_many(FILE *f, struct ks_view *const *nodes, int n)
{
	struct ks_jw w;
	int i;

	if (n == 1)
		return ks_snap_write(f, nodes[0]);
	ks_jw_init(&w, f);
	ks_jw_obj(&w, 0);
	ks_jw_kstr(&w, "schema", KS_SNAP_SCHEMA_MANY);
	ks_put_meta(&w, &nodes[0]->meta);
	ks_jw_key(&w, "nodes");
	ks_jw_arr(&w, 0);
	for (i = 0; i < n; i++)
		ks_put_node(&w, nodes[i]);
	ks_jw_end(&w);
	ks_jw_end(&w);
	return ferror(f) ? -1 : 0;
}
