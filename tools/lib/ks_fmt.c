// SPDX-License-Identifier: GPL-2.0
/*
 * ks_fmt: units, summaries, bar histograms (funclatency style) and the
 * comparison table a patch review wants.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_fmt.h"

#define KS_BAR_WIDTH	40

/* Why calls are clamped to 0, as show and compare say it. */
#define KS_CLAMPED_WHY	"they ended on a CPU whose clock read earlier than the start's"

static const struct ks_scale ks_ns_scales[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
};

void ks_scale_pick(struct ks_scale *sc, __u64 v, const char *unit)
{
	size_t i;

	sc->name = unit;
	sc->div = 1;
	if (strcmp(unit, "ns"))
		return;
	for (i = 1; i < sizeof(ks_ns_scales) / sizeof(ks_ns_scales[0]); i++)
		if (v >= ks_ns_scales[i].div)
			*sc = ks_ns_scales[i];
}

const char *ks_unit_words(char *buf, size_t len, const struct ks_scale *sc, int icount)
{
	const char *ns_unit = NULL;
	size_t i;

	for (i = 0; i < sizeof(ks_ns_scales) / sizeof(ks_ns_scales[0]); i++)
		if (!strcmp(sc->name, ks_ns_scales[i].name))
			ns_unit = sc->name;
	if (!icount)
		snprintf(buf, len, "%s", sc->name);
	else if (!ns_unit)
		snprintf(buf, len, "%s, QEMU -icount", sc->name);
	else if (sc->div == 1)
		snprintf(buf, len, "ns = 1 instruction, QEMU -icount");
	else	/* 1,000 1,000,000 1,000,000,000 */
		snprintf(buf, len, "%s = 1,%s instructions, QEMU -icount", sc->name,
			 sc->div == 1000 ? "000" : sc->div == 1000000 ? "000,000" : "000,000,000");
	return buf;
}

char *ks_fmt_scaled(char *buf, size_t len, __u64 v, const struct ks_scale *sc)
{
	double x = (double)v / (double)sc->div;

	if (sc->div == 1)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else if (x < 9.995)
		snprintf(buf, len, "%.2f", x);
	else if (x < 99.95)
		snprintf(buf, len, "%.1f", x);
	else
		snprintf(buf, len, "%.0f", x);
	return buf;
}

char *ks_fmt_value(char *buf, size_t len, __u64 v, const char *unit)
{
	struct ks_scale sc;
	char num[32];

	ks_scale_pick(&sc, v, unit);
	snprintf(buf, len, "%s %s", ks_fmt_scaled(num, sizeof(num), v, &sc), sc.name);
	return buf;
}

int ks_value_width(const char *unit)
{
	return strcmp(unit, "ns") ? 15 : 10;
}

/* Print one right-aligned row of @n cells of width @w. */
static void ks_print_cells(FILE *f, const char *const *cells, int n, int w)
{
	int i;

	for (i = 0; i < n; i++)
		fprintf(f, "%*s", w, cells[i]);
	fputc('\n', f);
}

/* Width of a value column of @node: the raw one, or what ks_fmt_value() takes. */
static int ks_col_width(const struct ks_view *node, int raw)
{
	if (raw)
		return ks_value_width(node->unit);
	return strcmp(node->unit, "ns") ? 15 : 7;	/* "1023 us", "12345678 cycles" */
}

/* A line of show: as it is (@raw), else wrapped at 80 columns. */
static void ks_show_line(FILE *f, int raw, const char *text)
{
	if (raw)
		fprintf(f, "%s\n", text);
	else
		ks_print_wrapped(f, "", "  ", text, 80);
}

void ks_print_summary(FILE *f, const struct ks_view *node, int raw)
{
	static const char * const head[] = { "samples", "missed", "min", "avg", "max" };
	char cells[KSTATS_NR_PCT][32], line[1024], syms[KS_NAME_MAX + 32];
	const char *ptr[KSTATS_NR_PCT], *sym;
	int k, nsym = 0, w = ks_col_width(node, raw) + 2;
	char hz[32] = "";

	if (node->hz && raw)
		snprintf(hz, sizeof(hz), " %llu Hz", (unsigned long long)node->hz);
	sym = node->symbols && node->symbols[0] ? node->symbols : node->name;
	for (k = 0; sym[k]; k++)
		nsym += sym[k] == ',';
	/* 80 columns: the first symbol when not the name, how many more */
	if (raw)
		snprintf(syms, sizeof(syms), ":%s", sym);
	else if (nsym)
		snprintf(syms, sizeof(syms), ":%.*s +%d more", (int)strcspn(sym, ","), sym, nsym);
	else if (strcmp(sym, node->name))
		snprintf(syms, sizeof(syms), ":%s", sym);
	else
		syms[0] = '\0';
	snprintf(line, sizeof(line), raw ? "%s: %s%s, clock %s%s (%s%s%s), bits %u, state %s" :
		 "%s: %s%s, clock %s%s (%s%s%s), bits %u, %s",
		 node->name, node->attach[0] ? node->attach : "?", syms,
		 node->clock[0] ? node->clock : "?", hz, node->unit,
		 node->slots_unit[0] && strcmp(node->slots_unit, node->unit) ?
		 ", recorded in " : "",
		 node->slots_unit[0] && strcmp(node->slots_unit, node->unit) ?
		 node->slots_unit : "", node->bits,
		 node->state[0] ? node->state : "?");
	fprintf(f, "%s\n", line);	/* one line: scripts read the lines after by number */
	if (node->fell_back)
		fprintf(f, "  the counter went unstable: local_clock() since\n");
	ks_print_cells(f, head, 5, w);
	snprintf(cells[0], 32, "%llu", (unsigned long long)node->samples);
	snprintf(cells[1], 32, "%llu", (unsigned long long)node->missed);
	ks_fmt_value(cells[2], 32, node->min, node->unit);
	ks_fmt_value(cells[3], 32, node->avg, node->unit);
	ks_fmt_value(cells[4], 32, node->max, node->unit);
	for (k = 0; k < 5; k++)
		ptr[k] = cells[k];
	ks_print_cells(f, ptr, 5, w);
	ks_print_cells(f, kstats_pct_name, KSTATS_NR_PCT, w);
	for (k = 0; k < KSTATS_NR_PCT; k++) {
		if (node->samples)
			ks_fmt_value(cells[k], 32, node->pct[k], node->unit);
		else
			strcpy(cells[k], "-");
		ptr[k] = cells[k];
	}
	ks_print_cells(f, ptr, KSTATS_NR_PCT, w);
	fprintf(f, "percentiles are slot means, within %.1f%% of the true value (bits %u)\n",
		node->precision_ppm / 10000.0, node->bits);
	if (node->undisturbed)
		fprintf(f, "undisturbed: %llu disturbed call%s left out\n",
			(unsigned long long)node->left_out, node->left_out == 1 ? "" : "s");
	if (node->sample > 1)
		fprintf(f, "sampling 1 call in %u: counts are about 1/%u of the calls\n",
			node->sample, node->sample);
	if (node->floor)
		fprintf(f, "floor %s: what this backend reports for an empty function\n",
			ks_fmt_value(cells[0], 32, node->floor, node->unit));
	if (node->missed) {
		snprintf(line, sizeof(line), "warning: %llu events were missed by the backend (not in the histogram)",
			 (unsigned long long)node->missed);
		ks_show_line(f, raw, line);
	}
	if (node->clamped) {
		snprintf(line, sizeof(line), "warning: %llu calls recorded as 0: %s",
			 (unsigned long long)node->clamped, KS_CLAMPED_WHY);
		ks_show_line(f, raw, line);
	}
	if (ks_timing_note(&node->meta))
		fprintf(f, "units: %s\n", ks_timing_note(&node->meta));
	if (node->pid >= 0 || node->tgid >= 0 || node->comm[0] || node->cpulist[0]) {
		k = snprintf(line, sizeof(line), "filters:");
		if (node->pid >= 0)
			k += snprintf(line + k, sizeof(line) - k, " pid %d", node->pid);
		if (node->tgid >= 0)
			k += snprintf(line + k, sizeof(line) - k, " tgid %d", node->tgid);
		if (node->comm[0])
			k += snprintf(line + k, sizeof(line) - k, " comm %s", node->comm);
		if (node->cpulist[0])
			k += snprintf(line + k, sizeof(line) - k, " cpus %s", node->cpulist);
		snprintf(line + k, sizeof(line) - k, ": only matching calls are recorded");
		ks_show_line(f, raw, line);
	}
}

void ks_print_cpu_table(FILE *f, const struct ks_view *node, int raw)
{
	int k, w = ks_col_width(node, raw);
	__u64 pct[KSTATS_NR_PCT];
	char buf[32];
	__u32 c;

	fprintf(f, raw ? "%5s %12s" : "%4s %10s", "CPU", "samples");
	for (k = 0; k < KSTATS_NR_PCT; k++)
		fprintf(f, " %*s", w, kstats_pct_name[k]);
	fputc('\n', f);
	for (c = 0; c <= node->nr_cpus; c++) {
		const struct kstats_slot *sl = c < node->nr_cpus ?
			node->cpus[c].slots : node->total;
		__u64 total = kstats_total(sl, node->nr_slots);

		if (c < node->nr_cpus)
			fprintf(f, "%*u", raw ? 5 : 4, node->cpus[c].cpu);
		else
			fprintf(f, "%*s", raw ? 5 : 4, "all");
		fprintf(f, " %*llu", raw ? 12 : 10, (unsigned long long)total);
		kstats_percentiles(sl, node->nr_slots, node->bits, pct);
		for (k = 0; k < KSTATS_NR_PCT; k++)
			fprintf(f, " %*s", w, total ? ks_fmt_value(buf, sizeof(buf), pct[k],
								 node->unit) : "-");
		fputc('\n', f);
	}
}

/* One printed line of a bar histogram. */
struct ks_bar {
	__u64 lo, hi, count;
	int inf;
};

/* Number of decimal digits of @v. */
static int ks_digits(__u64 v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

void ks_print_hist(FILE *f, const struct ks_view *node,
		   const struct kstats_slot *slots, int log2)
{
	__u32 ovf = kstats_overflow_slot(node->bits, node->buckets);
	__u32 group = log2 ? 1U << node->bits : 1;
	struct ks_bar *bars;
	size_t nb = 0, i, first = (size_t)-1, last = 0;
	__u64 maxc = 0;
	int w = 1;
	__u32 s, e;

	bars = calloc(node->nr_slots, sizeof(*bars));
	if (!bars)
		return;
	/* group slots into lines: one per slot, or one per power of two */
	for (s = 0; s < node->nr_slots; s = e + 1) {
		struct ks_bar *b = &bars[nb];
		__u32 t;

		e = s == ovf ? ovf : s + group - 1;
		if (s < ovf && e >= ovf)
			e = ovf - 1;
		b->lo = kstats_slot_lo(s, node->bits);
		b->hi = kstats_slot_hi(e, node->bits, node->buckets);
		b->inf = e == ovf;
		for (t = s; t <= e; t++)
			b->count += slots[t].count;
		if (b->count) {
			if (first == (size_t)-1)
				first = nb;
			last = nb;
		}
		nb++;
	}
	if (first == (size_t)-1) {
		fprintf(f, "(no samples)\n");
		free(bars);
		return;
	}
	/* collapse runs of 3+ empty lines into one */
	nb = 0;
	for (i = first; i <= last; i++) {
		size_t j = i;

		while (j <= last && !bars[j].count)
			j++;
		if (j - i >= 3) {
			bars[nb] = bars[i];
			bars[nb++].hi = bars[j - 1].hi;
			i = j - 1;
			continue;
		}
		bars[nb++] = bars[i];
	}
	for (i = 0; i < nb; i++) {
		if (bars[i].count > maxc)
			maxc = bars[i].count;
		if (ks_digits(bars[i].lo) > w)
			w = ks_digits(bars[i].lo);
		if (!bars[i].inf && ks_digits(bars[i].hi) > w)
			w = ks_digits(bars[i].hi);
	}
	fprintf(f, "%*s : count     distribution\n", 2 * w + 4, node->unit);
	for (i = 0; i < nb; i++) {
		int len = (int)(bars[i].count * KS_BAR_WIDTH / maxc);
		char bar[KS_BAR_WIDTH + 1];

		memset(bar, '*', len);
		bar[len] = '\0';
		if (bars[i].inf)
			fprintf(f, "%*llu -> %-*s", w, (unsigned long long)bars[i].lo,
				w, "inf");
		else
			fprintf(f, "%*llu -> %-*llu", w, (unsigned long long)bars[i].lo,
				w, (unsigned long long)bars[i].hi);
		fprintf(f, " : %-9llu |%-*s|\n", (unsigned long long)bars[i].count,
			KS_BAR_WIDTH, bar);
	}
	free(bars);
}

/* ---- compare ---- */

#define KS_CMP_COLS	(2 + KSTATS_NR_PCT)	/* count, missed, percentiles */
#define KS_MAIL_WIDTH	72			/* what a review email takes */

void ks_print_wrapped(FILE *f, const char *first, const char *next,
		      const char *text, int width)
{
	const char *pre = first, *p = text;
	int col;

	while (*p) {
		const char *w = p;
		int n;

		col = fprintf(f, "%s", pre);
		pre = next;
		/* words while they fit; one word always */
		for (n = 0; *w; ) {
			int len = (int)strcspn(w, " ");

			if (n && col + 1 + len > width)
				break;
			col += fprintf(f, "%s%.*s", n++ ? " " : "", len, w);
			w += len;
			w += strspn(w, " ");
		}
		fputc('\n', f);
		p = w;
	}
}

/* A "# " note of the plain table, wrapped at 72 columns. */
static void ks_mail_note(FILE *f, const char *text)
{
	ks_print_wrapped(f, "# ", "# ", text, KS_MAIL_WIDTH);
}

/* Relative change of @v against @base: "+12.3%", or "+123%" when @shortf. */
static void ks_fmt_change(char *buf, size_t len, __u64 v, __u64 base, int shortf)
{
	double x;

	if (!base) {
		snprintf(buf, len, "-");
		return;
	}
	x = ((double)v - (double)base) * 100.0 / (double)base;
	snprintf(buf, len, shortf && (x >= 99.95 || x <= -99.95) ? "%+.0f%%" : "%+.1f%%", x);
}

/*
 * Footnote the rows whose highest percentiles rest on fewer than 10
 * samples above them: such tails are single events, not a distribution.
 */
static void ks_note_thin_tails(FILE *f, int style,
			       struct ks_view *const *nodes,
			       const char *const *labels, int n)
{
	int i, k, notes = 0, markdown = style == KS_PRINT_MARKDOWN;
	char buf[512];

	for (i = 0; i < n; i++) {
		if (nodes[i]->clamped) {
			if (markdown && !notes++)
				fputc('\n', f);
			snprintf(buf, sizeof(buf), "%s: %llu calls recorded as 0 (clamped: %s)",
				 labels[i], (unsigned long long)nodes[i]->clamped, KS_CLAMPED_WHY);
			if (style == KS_PRINT_PLAIN)
				ks_mail_note(f, buf);
			else
				fprintf(f, "%s%s%s\n", markdown ? "Note: " : "# ", buf,
					markdown ? ".  " : "");
		}
		for (k = 0; k < KSTATS_NR_PCT; k++)
			if (nodes[i]->samples / 1000 * (1000 - kstats_pct_milli[k]) +
			    nodes[i]->samples % 1000 * (1000 - kstats_pct_milli[k]) / 1000 < 10)
				break;
		if (k == KSTATS_NR_PCT || !nodes[i]->samples)
			continue;
		if (markdown && !notes++)
			fputc('\n', f);
		snprintf(buf, sizeof(buf), "%s: %llu samples, %s and above rest on fewer than 10 samples",
			 labels[i], (unsigned long long)nodes[i]->samples, kstats_pct_name[k]);
		if (style == KS_PRINT_PLAIN)
			ks_mail_note(f, buf);
		else
			fprintf(f, "%s%s%s\n", markdown ? "Note: " : "# ", buf, markdown ? ".  " : "");
	}
}

/* Were all @n nodes recorded under QEMU -icount (meta.timing)? */
static int ks_all_icount(struct ks_view *const *nodes, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!ks_timing_note(&nodes[i]->meta))
			return 0;
	return n > 0;
}

/* Is column @k (count, missed, then the percentiles) in the plain table? */
static int ks_cmp_col(int k, int style, int show_missed)
{
	if (k == 1)
		return show_missed && style != KS_PRINT_PLAIN;
	if (style != KS_PRINT_PLAIN || k < 2)
		return 1;
	return k - 2 != KSTATS_P95 && k - 2 != KSTATS_P98;
}

/* Width of the plain table with a row-name column of @lw. */
static int ks_cmp_width(const int *width, int lw, int style, int show_missed)
{
	int k, w = lw;

	for (k = 0; k < KS_CMP_COLS; k++)
		if (ks_cmp_col(k, style, show_missed))
			w += 2 + width[k];
	return w;
}

void ks_print_compare(FILE *f, struct ks_view *const *nodes,
		      const char *const *labels, const char *const *verdicts,
		      const char *verdict_note, int n, int style)
{
	char val[64][KS_CMP_COLS][32], chg[64][KS_CMP_COLS][32], shortl[64][8];
	const char *head[KS_CMP_COLS] = { "count", "missed" }, *rows[64];
	const char *first = style == KS_PRINT_PLAIN ? "config" : "CONFIGURATION";
	int width[KS_CMP_COLS], lw = (int)strlen(first), vw = 0;
	int show_missed = 0, same_name = 1, i, k;
	struct ks_scale sc;
	char unitdesc[64], buf[512];

	if (n > 64)
		n = 64;
	if (lw < (int)strlen("  change"))
		lw = (int)strlen("  change");
	for (i = 1; verdicts && i < n; i++)
		if ((int)strlen(verdicts[i]) > vw)
			vw = (int)strlen(verdicts[i]);
	if (verdicts && vw < (int)strlen("verdict"))
		vw = (int)strlen("verdict");
	for (k = 0; k < KSTATS_NR_PCT; k++)
		head[2 + k] = kstats_pct_name[k];
	ks_scale_pick(&sc, nodes[0]->pct[KSTATS_P50], nodes[0]->unit);
	for (i = 0; i < n; i++) {
		show_missed |= nodes[i]->missed != 0;
		same_name &= !strcmp(nodes[i]->name, nodes[0]->name);
		if ((int)strlen(labels[i]) > lw)
			lw = (int)strlen(labels[i]);
		rows[i] = labels[i];
		snprintf(val[i][0], 32, "%llu", (unsigned long long)nodes[i]->samples);
		snprintf(val[i][1], 32, "%llu", (unsigned long long)nodes[i]->missed);
		chg[i][0][0] = chg[i][1][0] = '\0';
		for (k = 0; k < KSTATS_NR_PCT; k++) {
			if (nodes[i]->samples)
				ks_fmt_scaled(val[i][2 + k], 32, nodes[i]->pct[k], &sc);
			else
				strcpy(val[i][2 + k], "-");
			if (nodes[0]->samples && nodes[i]->samples)
				ks_fmt_change(chg[i][2 + k], 32, nodes[i]->pct[k],
					      nodes[0]->pct[k], style != KS_PRINT_WIDE);
			else
				strcpy(chg[i][2 + k], "-");
		}
	}
	for (k = 0; k < KS_CMP_COLS; k++) {
		width[k] = (int)strlen(head[k]);
		for (i = 0; i < n; i++) {
			if ((int)strlen(val[i][k]) > width[k])
				width[k] = (int)strlen(val[i][k]);
			if (i && (int)strlen(chg[i][k]) > width[k])
				width[k] = (int)strlen(chg[i][k]);
		}
	}
	ks_unit_words(unitdesc, sizeof(unitdesc), &sc, ks_all_icount(nodes, n));

	if (style == KS_PRINT_MARKDOWN) {
		fprintf(f, "**%s**: latency in %s; percentiles are slot means, within %.1f%% (bits %u)",
			same_name ? nodes[0]->name : "functions differ", unitdesc,
			nodes[0]->precision_ppm / 10000.0, nodes[0]->bits);
		if (n > 1)
			fprintf(f, "; (change) against %s", labels[0]);
		fprintf(f, ".\n\n| configuration |");
		for (k = 0; k < KS_CMP_COLS; k++)
			if (k != 1 || show_missed)
				fprintf(f, " %s |", head[k]);
		fprintf(f, "%s\n|:--|", verdicts ? " verdict |" : "");
		for (k = 0; k < KS_CMP_COLS; k++)
			if (k != 1 || show_missed)
				fprintf(f, "--:|");
		fprintf(f, "%s\n", verdicts ? ":--|" : "");
		for (i = 0; i < n; i++) {
			fprintf(f, "| %s |", labels[i]);
			for (k = 0; k < KS_CMP_COLS; k++) {
				if (k == 1 && !show_missed)
					continue;
				if (i && chg[i][k][0])
					fprintf(f, " %s (%s) |", val[i][k], chg[i][k]);
				else
					fprintf(f, " %s |", val[i][k]);
			}
			if (verdicts)
				fprintf(f, " %s |", i ? verdicts[i] : "-");
			fputc('\n', f);
		}
		ks_note_thin_tails(f, style, nodes, labels, n);
		if (verdict_note)
			fprintf(f, "\n%s  \n", verdict_note);
		if (ks_all_icount(nodes, n))
			fprintf(f, "\nUnits: %s.\n", KS_ICOUNT_NOTE);
		return;
	}

	/* plain: rows named A, B... and a legend when the labels do not fit */
	if (style == KS_PRINT_PLAIN &&
	    ks_cmp_width(width, lw, style, show_missed) + (vw ? 1 + vw : 0) > KS_MAIL_WIDTH) {
		for (i = 0; i < n; i++) {
			snprintf(shortl[i], sizeof(shortl[i]), "%c%s", 'A' + i % 26,
				 i >= 26 ? "'" : "");
			rows[i] = shortl[i];
		}
		lw = (int)strlen("  change");
	}
	snprintf(buf, sizeof(buf), style == KS_PRINT_PLAIN ?
		 "%s: latency in %s; percentiles: slot means within %.1f%% (bits %u)" :
		 "%s: latency in %s; percentiles are slot means, within %.1f%% (bits %u)",
		 same_name ? nodes[0]->name : "functions differ", unitdesc,
		 nodes[0]->precision_ppm / 10000.0, nodes[0]->bits);
	if (style == KS_PRINT_PLAIN)
		ks_mail_note(f, buf);
	else
		fprintf(f, "# %s\n", buf);
	fprintf(f, "%-*s", lw, first);
	for (k = 0; k < KS_CMP_COLS; k++)
		if (ks_cmp_col(k, style, show_missed))
			fprintf(f, "  %*s", width[k], head[k]);
	/* the verdict reads after the last change: one blank between */
	fprintf(f, "%s\n", vw ? " verdict" : "");
	for (i = 0; i < n; i++) {
		fprintf(f, "%-*s", lw, rows[i]);
		for (k = 0; k < KS_CMP_COLS; k++)
			if (ks_cmp_col(k, style, show_missed))
				fprintf(f, "  %*s", width[k], val[i][k]);
		fputc('\n', f);
		if (!i)
			continue;
		fprintf(f, "%-*s", lw, "  change");
		for (k = 0; k < KS_CMP_COLS; k++)
			if (ks_cmp_col(k, style, show_missed))
				fprintf(f, "  %*s", width[k], chg[i][k]);
		if (vw)
			fprintf(f, " %s", verdicts[i]);
		fputc('\n', f);
	}
	for (i = 0; rows[0] != labels[0] && i < n; i++) {
		snprintf(buf, sizeof(buf), "%s: %s", rows[i], labels[i]);
		ks_mail_note(f, buf);
	}
	if (n > 1) {
		snprintf(buf, sizeof(buf), "change: against %s; changes below %.1f%% are within the histogram resolution",
			 rows[0], nodes[0]->precision_ppm / 10000.0);
		if (style == KS_PRINT_PLAIN)
			ks_mail_note(f, buf);
		else
			fprintf(f, "# %s\n", buf);
	}
	if (verdict_note) {
		if (style == KS_PRINT_PLAIN)
			ks_mail_note(f, verdict_note);
		else
			fprintf(f, "# %s\n", verdict_note);
	}
	if (style == KS_PRINT_PLAIN)
		ks_mail_note(f, "p95, p98 and the missed column: kstats compare --wide");
	for (i = 0; style == KS_PRINT_PLAIN && i < n; i++) {
		if (!nodes[i]->missed)
			continue;
		snprintf(buf, sizeof(buf), "%s: %llu events missed by the backend, not in the figures",
			 rows[i], (unsigned long long)nodes[i]->missed);
		ks_mail_note(f, buf);
	}
	ks_note_thin_tails(f, style, nodes, rows, n);
	if (!same_name) {
		for (i = 0; i < n; i++)
			fprintf(f, "# %s: %s\n", rows[i], nodes[i]->name);
	}
	if (ks_all_icount(nodes, n))
		fprintf(f, "# %s\n", KS_ICOUNT_NOTE);
}

char *ks_fmt_site(char *buf, size_t len, const char *site, int width)
{
	size_t fn = strcspn(site, "+/ "), off = strcspn(site, "/ ");
	const char *mod = strchr(site, ' ');
	int w;

	if (!strcmp(site, "-") || !*site) {
		snprintf(buf, len, "(%s)", KS_CALLER_OTHER);
		return buf;
	}
	w = snprintf(buf, len, "%s", site);
	if (w <= width)
		return buf;
	/* FUNCTION+0xOFF [MODULE] */
	w = snprintf(buf, len, "%.*s%s", (int)off, site, mod ? mod : "");
	if (w <= width)
		return buf;
	/* FUNCTION+0xOFF */
	w = snprintf(buf, len, "%.*s", (int)off, site);
	if (w <= width)
		return buf;
	/* FUNCT~+0xOFF: what the offset leaves of the function */
	w = width - (int)(off - fn) - 1;
	snprintf(buf, len, "%.*s~%.*s", w > 1 ? w : 1, site, (int)(off - fn), site + fn);
	return buf;
}
