// SPDX-License-Identifier: GPL-2.0
/*
 * ks_callers: the call sites of a node traced with "callers N"
 * (docs/format.md, version 2): their table (kstats callers) and their
 * comparison after compare A B's table of the node; and the slowest calls
 * of a node traced with "slowest K", their table (kstats slowest).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_callers.h"
#include "ks_cmp.h"
#include "ks_fmt.h"

/* A share in %, one decimal; "-" of nothing. */
static char *ks_fmt_share(char *buf, size_t len, double part, double whole)
{
	if (whole > 0)
		snprintf(buf, len, "%.1f%%", 100.0 * part / whole);
	else
		snprintf(buf, len, "-");
	return buf;
}

void ks_print_callers(FILE *f, const struct ks_view *node, int how)
{
	int markdown = how & KS_TBL_MARKDOWN;
	const struct ks_caller *by[KS_CALLERS_MAX + 1];
	int ns = !strcmp(node->unit, "ns"), vw = ns ? 7 : 10;	/* "1023 us" */
	int sw = 72 - (8 + 7 + 7 + 3 * (vw + 1));	/* 72 columns */
	double calls = 0, time = 0;
	char site[KS_SITE_MAX], cells[5][32], head[KS_NAME_MAX + 160];
	__u32 h, k, seen = 0;
	__u64 v[3];

	if (node->nr_callers > KS_CALLERS_MAX + 1)
		return;
	ks_callers_by_time(node, by);
	for (h = 0; h < node->nr_callers; h++) {
		calls += (double)by[h]->count;
		time += (double)ks_slots_sum(by[h]->slots, node->nr_slots);
		seen += by[h]->count != 0;
	}
	snprintf(head, sizeof(head), "%.0f calls from %u call sites (callers %u), by total time%s%s",
		 calls, seen, node->callers_n, markdown ? "; latency in " : "",
		 markdown ? node->unit : "");
	ks_print_heading(f, node, markdown, head);
	if (markdown) {
		fprintf(f, "| site | calls | calls %% | time %% | p50 | p99 | max |\n");
		fprintf(f, "|---|--:|--:|--:|--:|--:|--:|\n");
	} else {
		fprintf(f, "%-*s %7s %6s %6s %*s %*s %*s\n", sw, "site", "calls", "calls%",
			"time%", vw, "p50", vw, "p99", vw, "max");
	}
	for (h = 0; h < node->nr_callers; h++) {
		const struct ks_caller *c = by[h];

		if (!c->count && !strcmp(c->id, KS_CALLER_OTHER))
			continue;	/* no call beyond the sites kept */
		snprintf(cells[0], sizeof(cells[0]), "%llu", (unsigned long long)c->count);
		ks_fmt_share(cells[1], sizeof(cells[1]), (double)c->count, calls);
		ks_fmt_share(cells[2], sizeof(cells[2]),
			     (double)ks_slots_sum(c->slots, node->nr_slots), time);
		v[0] = c->p50;
		v[1] = c->p99;
		v[2] = c->max;
		if (markdown) {
			if (strcmp(c->site, "-"))
				fprintf(f, "| `%s` |", c->site);
			else
				fprintf(f, "| (%s) |", KS_CALLER_OTHER);
			fprintf(f, " %s | %s | %s |", cells[0], cells[1], cells[2]);
			for (k = 0; k < 3; k++)
				fprintf(f, " %s |", ks_fmt_value(cells[3], sizeof(cells[3]), v[k],
								 node->unit));
			fputc('\n', f);
			continue;
		}
		fprintf(f, "%-*s %7s %6s %6s", sw, ks_fmt_site(site, sizeof(site), c->site, sw),
			cells[0], cells[1], cells[2]);
		for (k = 0; k < 3; k++) {
			if (ns)
				ks_fmt_value(cells[3], sizeof(cells[3]), v[k], node->unit);
			else
				snprintf(cells[3], sizeof(cells[3]), "%llu", (unsigned long long)v[k]);
			fprintf(f, " %*s", vw, cells[3]);
		}
		fputc('\n', f);
	}
	if (!markdown && !(how & KS_TBL_BRIEF))
		fprintf(f, "calls%%, time%%: of all calls, of their total time (calls x mean)%s%s\n",
			ns ? "" : "; in ", ns ? "" : node->unit);
}

/*
 * A node holding only call site @c of @node (NULL: no call from there):
 * its histogram and figures, for ks_cmp_pair() (free with ks_view_free()).
 */
static int ks_caller_view(struct ks_view *v, const struct ks_view *node,
			  const struct ks_caller *c)
{
	__u32 s;

	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", node->name);
	snprintf(v->unit, sizeof(v->unit), "%s", node->unit);
	v->sample = 1;
	v->pid = v->tgid = -1;
	if (ks_view_setup(v, node->bits, node->buckets))
		return -1;
	if (!c || !c->count)
		return 0;
	memcpy(v->total, c->slots, node->nr_slots * sizeof(*v->total));
	v->samples = c->count;
	v->avg = ks_slots_sum(c->slots, node->nr_slots) / c->count;
	v->max = c->max;
	for (s = 0; !c->slots[s].count; s++)
		;
	v->min = kstats_slot_lo(s, node->bits);
	kstats_percentiles(v->total, v->nr_slots, v->bits, v->pct);
	v->has_pct = 1;
	return 0;
}

/*
 * The site of @node that call site @c (of another kernel's node) is:
 * the same FUNCTION+0xOFF, else the one site of the same FUNCTION not
 * taken yet (@taken; *@by_name set), else -1.  "other" is "other".
 */
static int ks_caller_match(const struct ks_view *node, const struct ks_caller *c,
			   const int *taken, int *by_name)
{
	char want[KS_SITE_MAX], key[KS_SITE_MAX];
	int h, found = -1, n = 0, other = !strcmp(c->id, KS_CALLER_OTHER);

	*by_name = 0;
	ks_caller_key(want, sizeof(want), c->site, 1);
	for (h = 0; h < (int)node->nr_callers; h++) {
		const struct ks_caller *o = &node->callers[h];
		int o_other = !strcmp(o->id, KS_CALLER_OTHER);

		if (other || o_other) {
			if (other && o_other)
				return h;
			continue;
		}
		if (!taken[h] && !strcmp(ks_caller_key(key, sizeof(key), o->site, 1), want))
			return h;
	}
	if (other)
		return -1;
	ks_caller_key(want, sizeof(want), c->site, 0);
	for (h = 0; h < (int)node->nr_callers; h++) {
		const struct ks_caller *o = &node->callers[h];

		if (!taken[h] && strcmp(o->id, KS_CALLER_OTHER) &&
		    !strcmp(ks_caller_key(key, sizeof(key), o->site, 0), want)) {
			found = h;
			n++;
		}
	}
	*by_name = n == 1;
	return n == 1 ? found : -1;
}

/* Width of the site column of the plain per-site table (80 columns). */
#define KS_CMP_SITE_W	24

/*
 * One row of the per-site table: @site, then @a and @b's calls and p50
 * (either may be NULL: no call from there), the change and the verdict.
 */
static int ks_cmp_caller_row(FILE *f, const struct ks_view *na, const struct ks_caller *a,
			     const struct ks_view *nb, const struct ks_caller *b,
			     const char *site, int markdown)
{
	char ca[32], pa[32], cb[32], pb[32], chg[32], verdict[32] = "-";
	struct ks_view va, vb;
	int ret = 0;

	if (ks_caller_view(&va, na, a) || ks_caller_view(&vb, nb, b)) {
		ks_view_free(&va);
		ks_err("compare: out of memory");
		return -1;
	}
	snprintf(ca, sizeof(ca), "%llu", (unsigned long long)va.samples);
	snprintf(cb, sizeof(cb), "%llu", (unsigned long long)vb.samples);
	snprintf(pa, sizeof(pa), "-");
	snprintf(pb, sizeof(pb), "-");
	snprintf(chg, sizeof(chg), "-");
	if (va.samples)
		ks_fmt_value(pa, sizeof(pa), va.pct[KSTATS_P50], va.unit);
	if (vb.samples)
		ks_fmt_value(pb, sizeof(pb), vb.pct[KSTATS_P50], vb.unit);
	if (va.samples && vb.samples) {
		struct ks_row rows[KS_CMP_ROWS];

		ks_fmt_change(chg, sizeof(chg), vb.pct[KSTATS_P50], va.pct[KSTATS_P50],
			      na->precision_ppm / 10000.0);
		ret = ks_cmp_pair(&va, &vb, rows);
		if (!ret)
			snprintf(verdict, sizeof(verdict), "%s", ks_row_mark(&rows[1 + KSTATS_P50]));
	} else if (va.samples || vb.samples) {
		snprintf(verdict, sizeof(verdict), "%s", va.samples ? "gone" : "new");
	}
	if (markdown)
		fprintf(f, "| %s | %s | %s | %s | %s | %s | %s |\n", site, ca, pa, cb, pb, chg,
			verdict);
	else
		fprintf(f, "%-*s %6s %8s %6s %8s %7s %s\n", KS_CMP_SITE_W, site, ca, pa, cb, pb,
			chg, verdict);
	ks_view_free(&va);
	ks_view_free(&vb);
	return ret;
}

int ks_callers_compare(FILE *f, struct ks_view *const *nodes, const char *const *labels,
		       int n, int style)
{
	const struct ks_caller *by[KS_CALLERS_MAX + 1];
	int taken[KS_CALLERS_MAX + 1], markdown = (style & ~KS_PRINT_BRIEF) == KS_PRINT_MARKDOWN;
	char site[KS_SITE_MAX], cell[KS_SITE_MAX + 8];
	int i, h, by_name, names;
	__u32 k;

	for (i = 0; i < n; i++)
		if (!nodes[i]->nr_callers || nodes[i]->nr_callers > KS_CALLERS_MAX + 1 ||
		    nodes[i]->bits != nodes[0]->bits || nodes[i]->buckets != nodes[0]->buckets)
			return 0;
	ks_callers_by_time(nodes[0], by);
	for (i = 1; i < n; i++) {
		const struct ks_view *a = nodes[0], *b = nodes[i];

		memset(taken, 0, sizeof(taken));
		names = 0;
		if (markdown) {
			fprintf(f, "\n**%s per call site** (the same FUNCTION+0xOFF): %s against %s, calls and p50; verdict of the p50 as above.\n\n",
				a->name, labels[i], labels[0]);
			fprintf(f, "| site | %s calls | p50 | %s calls | p50 | change | verdict |\n",
				labels[0], labels[i]);
			fprintf(f, "|:--|--:|--:|--:|--:|--:|:--|\n");
		} else {
			snprintf(cell, sizeof(cell), "per call site (the same FUNCTION+0xOFF): %s %s, %s %s",
				 n > 2 ? "A" : "base", labels[0], n > 2 ? "B" : "new", labels[i]);
			fputc('\n', f);
			ks_print_wrapped(f, "", "  ", cell, KS_MAIL_WIDTH);
			fprintf(f, "%-*s %6s %8s %6s %8s %7s %s\n", KS_CMP_SITE_W, "site",
				n > 2 ? "A" : "base", "p50", n > 2 ? "B" : "new", "p50", "change",
				"verdict");
		}
		for (k = 0; k < a->nr_callers; k++) {
			const struct ks_caller *c = by[k];

			h = ks_caller_match(b, c, taken, &by_name);
			if (h >= 0)
				taken[h] = 1;
			if (!c->count && (h < 0 || !b->callers[h].count))
				continue;
			names |= by_name;
			if (markdown) {
				if (strcmp(c->site, "-"))
					snprintf(cell, sizeof(cell), "`%s`%s", c->site, by_name ? " *" : "");
				else
					snprintf(cell, sizeof(cell), "(%s)", KS_CALLER_OTHER);
			} else {
				ks_fmt_site(site, sizeof(site), c->site, KS_CMP_SITE_W - !!by_name);
				snprintf(cell, sizeof(cell), "%s%s", site, by_name ? "*" : "");
			}
			if (ks_cmp_caller_row(f, a, c, b, h >= 0 ? &b->callers[h] : NULL, cell,
					      markdown))
				return -1;
		}
		for (h = 0; h < (int)b->nr_callers; h++) {
			const struct ks_caller *c = &b->callers[h];

			if (taken[h] || !c->count)
				continue;
			if (markdown)
				snprintf(cell, sizeof(cell), "`%s`", c->site);
			else
				ks_fmt_site(cell, sizeof(cell), c->site, KS_CMP_SITE_W);
			if (ks_cmp_caller_row(f, a, NULL, b, c, cell, markdown))
				return -1;
		}
		if (!(style & KS_PRINT_BRIEF)) {
			snprintf(cell, sizeof(cell), "%sgone, new: called from one side only",
				 names ? "*: the same function at another offset; " : "");
			if (markdown)
				fputc('\n', f);
			ks_print_wrapped(f, "", "", cell, markdown ? INT_MAX / 2 : KS_MAIL_WIDTH);
		}
	}
	return 0;
}
