// SPDX-License-Identifier: GPL-2.0
/*
 * ks_fmt: units, summaries, bar histograms (funclatency style) and the
 * comparison table a patch review wants.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_fmt.h"

#define KS_BAR_WIDTH	40

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
		ks_print_wrapped(f, "", "  ", text, KS_MAIL_WIDTH);
}

/*
 * What show's figures rest on: precision, calls left out, sampling, the
 * floor, the filters; a line each with --raw, else one paragraph in 72
 * columns (3 lines), none with KS_SUM_BRIEF.
 */
static void ks_summary_notes(FILE *f, const struct ks_view *node, int how)
{
	const char *sep = (how & KS_SUM_RAW) ? "\n" : "; ";
	char buf[2048], v[32];
	size_t n;

	if ((how & KS_SUM_BRIEF) && !(how & KS_SUM_RAW))
		return;
	n = (size_t)snprintf(buf, sizeof(buf), "percentiles are slot means, within %.1f%% of the true value (bits %u)",
			     node->precision_ppm / 10000.0, node->bits);
	if (node->undisturbed)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%sundisturbed: %llu disturbed call%s left out; min, max: bounds",
				      sep, (unsigned long long)node->left_out,
				      node->left_out == 1 ? "" : "s");
	if (node->sample > 1 && n < sizeof(buf))
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%ssampling 1 call in %u: counts are about 1/%u of the calls",
				      sep, node->sample, node->sample);
	if (node->floor && n < sizeof(buf))
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%sfloor %s: what this backend reports for an empty function",
				      sep, ks_fmt_value(v, sizeof(v), node->floor, node->unit));
	if (node->nested && n < sizeof(buf))
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%snested: %llu traced calls ended inside these, %s each taken off",
				      sep, (unsigned long long)node->nested,
				      ks_fmt_value(v, sizeof(v), node->ncost, node->unit));
	if ((how & KS_SUM_RAW) && ks_timing_note(&node->meta) && n < sizeof(buf))
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%sunits: %s", sep,
				      ks_timing_note(&node->meta));
	if ((node->pid >= 0 || node->tgid >= 0 || node->comm[0] || node->cpulist[0]) &&
	    n < sizeof(buf)) {
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%sfilters:", sep);
		if (node->pid >= 0 && n < sizeof(buf))
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, " pid %d", node->pid);
		if (node->tgid >= 0 && n < sizeof(buf))
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, " tgid %d", node->tgid);
		if (node->comm[0] && n < sizeof(buf))
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, " comm %s", node->comm);
		if (node->cpulist[0] && n < sizeof(buf))
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, " cpus %s", node->cpulist);
		if (n < sizeof(buf))
			snprintf(buf + n, sizeof(buf) - n, ": only matching calls are recorded");
	}
	if (how & KS_SUM_RAW)
		fprintf(f, "%s\n", buf);
	else
		ks_print_wrapped(f, "", "", buf, KS_MAIL_WIDTH);
}

void ks_print_summary(FILE *f, const struct ks_view *node, int how)
{
	int raw = how & KS_SUM_RAW;
	static const char * const head[] = { "samples", "missed", "min", "avg", "max" };
	char cells[KSTATS_NR_PCT][32], line[1024], syms[KS_NAME_MAX + 32];
	const char *ptr[KSTATS_NR_PCT], *sym;
	int k, nsym = 0, w = ks_col_width(node, raw) + 2;
	int icount = ks_timing_note(&node->meta) != NULL;
	char hz[32] = "";

	w += node->undisturbed && node->samples ? 2 : 0;	/* ">=", "<=" */

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
	if (icount && !raw)	/* the unit in the heading, the clock aside */
		snprintf(line, sizeof(line), "%s: %s%s, ns = instructions (QEMU -icount), bits %u, %s",
			 node->name, node->attach[0] ? node->attach : "?", syms, node->bits,
			 node->state[0] ? node->state : "?");
	else
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
	/* undisturbed: min and max are bounds, not calls measured */
	snprintf(cells[2], 32, "%s", node->undisturbed && node->samples ? ">=" : "");
	ks_fmt_value(cells[2] + strlen(cells[2]), 30, node->min, node->unit);
	ks_fmt_value(cells[3], 32, node->avg, node->unit);
	snprintf(cells[4], 32, "%s", node->undisturbed && node->samples ? "<=" : "");
	ks_fmt_value(cells[4] + strlen(cells[4]), 30, node->max, node->unit);
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
	ks_summary_notes(f, node, how);
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
	int w = 1, bw;
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
	/* 72 columns: "LO -> HI : COUNT |BAR|", the bar no wider than 40 */
	bw = KS_MAIL_WIDTH - (2 * w + 4) - 3 - 9 - 3;
	bw = bw > KS_BAR_WIDTH ? KS_BAR_WIDTH : bw < 16 ? 16 : bw;
	fprintf(f, "%*s : count     distribution\n", 2 * w + 4, node->unit);
	for (i = 0; i < nb; i++) {
		int len = (int)(bars[i].count * (__u64)bw / maxc);
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
			bw, bar);
	}
	free(bars);
}

/* ---- notes and changes ---- */


int ks_print_wrapped(FILE *f, const char *first, const char *next,
		     const char *text, int width)
{
	const char *pre = first, *p = text;
	int col, lines = 0, i;

	while (*p) {
		const char *w = p;
		int n;

		col = (int)strlen(pre);
		if (f)
			fputs(pre, f);
		pre = next;
		/* words while they fit; one word always */
		for (n = 0; *w; ) {
			int len = (int)strcspn(w, " ");

			if (n && col + 1 + len > width)
				break;
			if (f && n)
				fputc(' ', f);
			for (i = 0; f && i < len; i++)	/* KS_NBSP: a blank, no break */
				fputc(w[i] == KS_NBSP ? ' ' : w[i], f);
			col += (n++ ? 1 : 0) + len;
			w += len;
			w += strspn(w, " ");
		}
		if (f)
			fputc('\n', f);
		lines++;
		p = w;
	}
	return lines;
}

void ks_fmt_change(char *buf, size_t len, __u64 v, __u64 base, double precision)
{
	double x;

	if (!base) {
		snprintf(buf, len, "-");
		return;
	}
	x = ((double)v - (double)base) * 100.0 / (double)base;
	if (fabs(x) < precision) {
		/* "<12.5%", "<25%" */
		snprintf(buf, len, "<%.1f", precision);
		if (!strcmp(buf + strlen(buf) - 2, ".0"))
			buf[strlen(buf) - 2] = '\0';
		snprintf(buf + strlen(buf), len - strlen(buf), "%%");
		return;
	}
	/* three digits at most: the histogram carries no more */
	if (fabs(x) >= 1000)
		x = round(x / pow(10, floor(log10(fabs(x))) - 2)) *
		    pow(10, floor(log10(fabs(x))) - 2);
	snprintf(buf, len, precision >= 1 || fabs(x) >= 100 ? "%+.0f%%" : "%+.1f%%", x);
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

/*
 * The heading: @node's name, under QEMU -icount what a "ns" is, then
 * @text; wrapped at 72 columns, in Markdown one line and a blank.
 */
void ks_print_heading(FILE *f, const struct ks_view *node, int markdown, const char *text)
{
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s%s%s%s: %s", markdown ? "**" : "", node->name,
		 markdown ? "**" : "",
		 ks_timing_note(&node->meta) ? " (ns = 1 instruction, QEMU -icount)" : "", text);
	if (markdown)
		fprintf(f, "%s\n\n", buf);
	else
		ks_print_wrapped(f, "", "  ", buf, KS_MAIL_WIDTH);
}
