// SPDX-License-Identifier: GPL-2.0
/*
 * ks_export: CSV rows and Prometheus exposition of kstats histograms.
 */
#include <stdio.h>
#include <string.h>

#include "ks_export.h"

/* CSV rows of one histogram; @cpu < 0 for the merge. */
static void ks_csv_rows(FILE *f, const struct ks_view *node,
			const struct kstats_slot *slots, long cpu)
{
	__u64 total = kstats_total(slots, node->nr_slots), seen = 0;
	__u32 s;

	for (s = 0; s < node->nr_slots; s++) {
		if (!slots[s].count)
			continue;
		seen += slots[s].count;
		fprintf(f, "%s,%s,", node->name, node->unit);
		if (cpu < 0)
			fputs("all,", f);
		else
			fprintf(f, "%ld,", cpu);
		fprintf(f, "%u,%llu,%llu,%llu,%llu,%llu,%.6f\n", s,
			(unsigned long long)kstats_slot_lo(s, node->bits),
			(unsigned long long)kstats_slot_hi(s, node->bits, node->buckets),
			(unsigned long long)slots[s].count,
			(unsigned long long)kstats_slot_mean(&slots[s]),
			(unsigned long long)seen, (double)seen / (double)total);
	}
}

int ks_export_csv(FILE *f, struct ks_view *const *nodes, int n,
		  unsigned int flags)
{
	__u32 c;
	int i;

	fputs("function,unit,cpu,slot,lo,hi,count,avg,n,p\n", f);
	for (i = 0; i < n; i++) {
		for (c = 0; !(flags & KS_EXPORT_TOTAL) && c < nodes[i]->nr_cpus; c++)
			ks_csv_rows(f, nodes[i], nodes[i]->cpus[c].slots,
				    nodes[i]->cpus[c].cpu);
		ks_csv_rows(f, nodes[i], nodes[i]->total, -1);
	}
	return ferror(f) ? -1 : 0;
}

/* A label value with \, " and newline escaped. */
static void ks_prom_label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

/* @v in the metric's unit: ns printed as exact decimal seconds. */
static void ks_prom_value(FILE *f, __u64 v, int seconds)
{
	char frac[16];
	int len;

	if (!seconds) {
		fprintf(f, "%llu", (unsigned long long)v);
		return;
	}
	fprintf(f, "%llu", (unsigned long long)(v / 1000000000ULL));
	len = snprintf(frac, sizeof(frac), "%09llu",
		       (unsigned long long)(v % 1000000000ULL));
	while (len > 0 && frac[len - 1] == '0')
		frac[--len] = '\0';
	if (len)
		fprintf(f, ".%s", frac);
}

/* The labels {function="...",cpu="..."} with an optional le. */
static void ks_prom_labels(FILE *f, const struct ks_view *node, long cpu)
{
	fputs("{function=\"", f);
	ks_prom_label(f, node->name);
	if (cpu < 0)
		fputs("\",cpu=\"all\"", f);
	else
		fprintf(f, "\",cpu=\"%ld\"", cpu);
}

/* One series: buckets, +Inf, _sum and _count of @slots. */
static void ks_prom_series(FILE *f, const char *metric,
			   const struct ks_view *node,
			   const struct kstats_slot *slots, long cpu,
			   unsigned int flags, int seconds)
{
	__u32 ovf = kstats_overflow_slot(node->bits, node->buckets);
	__u32 step = (flags & KS_EXPORT_LOG2) ? 1U << node->bits : 1;
	__u64 seen = 0;
	__u32 s;

	for (s = 0; s < ovf; s++) {
		seen += slots[s].count;
		if ((s + 1) % step)
			continue;
		fprintf(f, "%s_bucket", metric);
		ks_prom_labels(f, node, cpu);
		fputs(",le=\"", f);
		ks_prom_value(f, kstats_slot_hi(s, node->bits, node->buckets), seconds);
		fprintf(f, "\"} %llu\n", (unsigned long long)seen);
	}
	seen += slots[ovf].count;
	fprintf(f, "%s_bucket", metric);
	ks_prom_labels(f, node, cpu);
	fprintf(f, ",le=\"+Inf\"} %llu\n", (unsigned long long)seen);
	fprintf(f, "%s_sum", metric);
	ks_prom_labels(f, node, cpu);
	fputs("} ", f);
	ks_prom_value(f, ks_slots_sum(slots, node->nr_slots), seconds);
	fputc('\n', f);
	fprintf(f, "%s_count", metric);
	ks_prom_labels(f, node, cpu);
	fprintf(f, "} %llu\n", (unsigned long long)seen);
}

int ks_export_prometheus(FILE *f, struct ks_view *const *nodes, int n,
			 unsigned int flags)
{
	static const struct {
		const char *unit, *metric, *help;
	} fam[] = {
		{ "ns", "kstats_latency_seconds",
		  "Time spent in a kernel function, measured by kstats (slot means; CPU clock)." },
		{ "cycles", "kstats_latency_cycles",
		  "Time spent in a kernel function in TSC cycles, measured by kstats." },
	};
	size_t k;
	__u32 c;
	int i, head;

	for (i = 0; i < n; i++) {
		for (k = 0; k < sizeof(fam) / sizeof(fam[0]); k++)
			if (!strcmp(nodes[i]->unit, fam[k].unit))
				break;
		if (k == sizeof(fam) / sizeof(fam[0])) {
			fprintf(stderr, "kstats: %s: unit '%s' has no Prometheus metric\n",
				nodes[i]->name, nodes[i]->unit);
			return -1;
		}
	}
	for (k = 0; k < sizeof(fam) / sizeof(fam[0]); k++) {
		int seconds = !strcmp(fam[k].unit, "ns");

		head = 0;
		for (i = 0; i < n; i++) {
			const struct ks_view *node = nodes[i];

			if (strcmp(node->unit, fam[k].unit))
				continue;
			if (!head++)
				fprintf(f, "# HELP %s %s\n# TYPE %s histogram\n",
					fam[k].metric, fam[k].help, fam[k].metric);
			for (c = 0; !(flags & KS_EXPORT_TOTAL) && c < node->nr_cpus; c++)
				ks_prom_series(f, fam[k].metric, node, node->cpus[c].slots,
					       node->cpus[c].cpu, flags, seconds);
			ks_prom_series(f, fam[k].metric, node, node->total, -1,
				       flags, seconds);
		}
	}
	fputs("# HELP kstats_missed_events_total Calls the kstats backend dropped (not in the histogram).\n"
	      "# TYPE kstats_missed_events_total counter\n", f);
	for (i = 0; i < n; i++) {
		fputs("kstats_missed_events_total{function=\"", f);
		ks_prom_label(f, nodes[i]->name);
		fprintf(f, "\"} %llu\n", (unsigned long long)nodes[i]->missed);
	}
	return ferror(f) ? -1 : 0;
}
