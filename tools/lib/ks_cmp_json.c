// SPDX-License-Identifier: GPL-2.0
/*
 * ks_cmp_json: compare --json (schema kstats-compare/1, docs/format.md):
 * every row of every function ks_cmp.c compared, through ks_json.c.
 */
#include <math.h>
#include <stdio.h>

#include "ks_cmp.h"
#include "ks_cmp_fn.h"
#include "ks_json.h"

/* A figure of compare --json: "%.6g", null when infinite or not a number. */
static void ks_jnum(struct ks_jw *w, const char *key, double v)
{
	ks_jw_key(w, key);
	ks_jw_num(w, "%.6g", v);
}

/* [LO, HI] */
static void ks_jci(struct ks_jw *w, const char *key, double lo, double hi)
{
	ks_jw_key(w, key);
	ks_jw_arr(w, KS_JW_INLINE);
	ks_jw_num(w, "%.6g", lo);
	ks_jw_num(w, "%.6g", hi);
	ks_jw_end(w);
}

static void ks_jrow(struct ks_jw *w, const struct ks_row *r, const char *name)
{
	static const struct { unsigned int bit; const char *word; } notes[] = {
		{ KS_WHY_OVERLAP, "intervals overlap" },
		{ KS_WHY_FEW_RUNS, "fewer than 3 runs a side: run noise unknown" },
		{ KS_WHY_EMPTY, "no samples on a side" },
		{ KS_WHY_BIMODAL_A, "base runs bimodal" },
		{ KS_WHY_BIMODAL_B, "new runs bimodal" },
	};
	int no_ci = r->why & KS_WHY_EMPTY;
	size_t i;

	ks_jw_obj(w, KS_JW_INLINE);
	ks_jw_kstr(w, "figure", name);
	ks_jnum(w, "base", r->base);
	ks_jnum(w, "new", r->new);
	ks_jnum(w, "base_sd_pct", r->base_sd_pct < 0 ? INFINITY : r->base_sd_pct);
	ks_jnum(w, "new_sd_pct", r->new_sd_pct < 0 ? INFINITY : r->new_sd_pct);
	ks_jci(w, "base_ci", r->base_ci.lo, r->base_ci.hi);
	ks_jci(w, "new_ci", r->new_ci.lo, r->new_ci.hi);
	ks_jnum(w, "change_pct", r->why & KS_WHY_EMPTY ? INFINITY : r->change_pct);
	ks_jci(w, "change_ci", no_ci ? INFINITY : r->change_ci.lo,
	       no_ci ? INFINITY : r->change_ci.hi);
	ks_jw_kstr(w, "verdict", ks_row_verdict(r));
	ks_jw_key(w, "notes");
	ks_jw_arr(w, KS_JW_INLINE);
	for (i = 0; i < sizeof(notes) / sizeof(notes[0]); i++)
		if (r->why & notes[i].bit)
			ks_jw_str(w, notes[i].word);
	ks_jw_end(w);
	ks_jw_end(w);
}

static void ks_jside(struct ks_jw *w, const char *key, const struct ks_fn *fn, int side)
{
	const struct ks_view *r0 = side ? (fn->nb ? fn->rb[0] : NULL) : (fn->na ? fn->ra[0] : NULL);
	const struct kstats_slot *m = side ? fn->mb : fn->ma;
	__u64 t;

	ks_jw_key(w, key);
	if (!r0) {
		ks_jw_null(w);
		return;
	}
	t = kstats_total(m, r0->nr_slots);
	ks_jw_obj(w, KS_JW_INLINE);
	ks_jw_key(w, "runs");
	ks_jw_int(w, side ? fn->nb : fn->na);
	ks_jnum(w, "count", side ? fn->count_b : fn->count_a);
	ks_jnum(w, "total", side ? fn->total_b : fn->total_a);
	ks_jw_ku64(w, "p50", kstats_percentile(m, r0->nr_slots, r0->bits, t, 500));
	ks_jw_ku64(w, "p99", kstats_percentile(m, r0->nr_slots, r0->bits, t, 990));
	ks_jw_end(w);
}

/* One side's label and timing. */
static void ks_jlabel(struct ks_jw *w, const char *key, const char *label, int icount)
{
	ks_jw_key(w, key);
	ks_jw_obj(w, KS_JW_INLINE);
	ks_jw_kstr(w, "label", label);
	ks_jw_kstr(w, "timing", icount ? KS_TIMING_ICOUNT : "");
	ks_jw_end(w);
}

void ks_cmp_json_print(FILE *f, const struct ks_cmp_side *a,
			const struct ks_cmp_side *b, const struct ks_fn *fns, int n)
{
	struct ks_jw w;
	char only[16];
	int i, k;

	ks_jw_init(&w, f);
	ks_jw_obj(&w, 0);
	ks_jw_kstr(&w, "schema", "kstats-compare/1");
	ks_jw_key(&w, "alpha");
	ks_jw_num(&w, "%.2f", KS_STATS_ALPHA);
	ks_jw_key(&w, "min_runs");
	ks_jw_int(&w, KS_STATS_MIN_RUNS);
	ks_jw_key(&w, "lower_is_better");
	ks_jw_bool(&w, 1);
	ks_jlabel(&w, "base", a->label, ks_side_icount(a));
	ks_jlabel(&w, "new", b->label, ks_side_icount(b));
	ks_jw_key(&w, "functions");
	ks_jw_arr(&w, 0);
	for (i = 0; i < n; i++) {
		const struct ks_fn *fn = &fns[i];
		const struct ks_view *r0 = fn->na ? fn->ra[0] : fn->rb[0];

		ks_jw_obj(&w, 0);
		ks_jw_kstr(&w, "name", fn->name);
		ks_jw_kstr(&w, "unit", r0->unit);
		ks_jw_ku64(&w, "bits", r0->bits);
		ks_jw_key(&w, "precision_pct");
		ks_jw_num(&w, "%.4g", a->precision_pct > 0 ? a->precision_pct :
			  100.0 / (1 << r0->bits));
		ks_jside(&w, "base", fn, 0);
		ks_jside(&w, "new", fn, 1);
		if (!fn->na || !fn->nb) {
			ks_jw_key(&w, "judged_by");
			ks_jw_null(&w);
			ks_jw_key(&w, "change_pct");
			ks_jw_null(&w);
			snprintf(only, sizeof(only), "only in %s", fn->na ? "base" : "new");
			ks_jw_kstr(&w, "verdict", only);
			ks_jw_key(&w, "rows");
			ks_jw_arr(&w, KS_JW_INLINE);
			ks_jw_end(&w);
		} else {
			ks_jw_kstr(&w, "judged_by", ks_row_name(fn->key));
			ks_jnum(&w, "change_pct", fn->rows[fn->key].why & KS_WHY_EMPTY ? INFINITY :
				fn->rows[fn->key].change_pct);
			ks_jw_kstr(&w, "verdict", ks_row_verdict(&fn->rows[fn->key]));
			ks_jw_key(&w, "rows");
			ks_jw_arr(&w, 0);
			for (k = 0; k < KS_CMP_ROWS; k++)
				ks_jrow(&w, &fn->rows[k], ks_row_name(k));
			ks_jw_end(&w);
		}
		ks_jw_end(&w);
	}
	ks_jw_end(&w);
	ks_jw_end(&w);
}
