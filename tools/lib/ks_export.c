// SPDX-License-Identifier: GPL-2.0
/*
 * ks_export: CSV rows and Prometheus exposition of kstats histograms.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
		fprintf(f, "%u,%llu,%llu,%llu,%llu,%llu,%.6f,%s\n", s,
			(unsigned long long)kstats_slot_lo(s, node->bits),
			(unsigned long long)kstats_slot_hi(s, node->bits, node->buckets),
			(unsigned long long)slots[s].count,
			(unsigned long long)kstats_slot_mean(&slots[s]),
			(unsigned long long)seen, (double)seen / (double)total,
			node->meta.timing);
	}
}

int ks_export_csv(FILE *f, struct ks_view *const *nodes, int n,
		  unsigned int flags)
{
	__u32 c;
	int i;

	fputs("function,unit,cpu,slot,lo,hi,count,avg,n,p,timing\n", f);
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

/* @v in the metric's unit, into @buf: ns as exact decimal seconds. */
static void ks_prom_value_fmt(char *buf, size_t size, __u64 v, int seconds)
{
	char frac[16];
	int len;

	if (!seconds) {
		snprintf(buf, size, "%llu", (unsigned long long)v);
		return;
	}
	len = snprintf(frac, sizeof(frac), "%09llu",
		       (unsigned long long)(v % 1000000000ULL));
	while (len > 0 && frac[len - 1] == '0')
		frac[--len] = '\0';
	snprintf(buf, size, "%llu%s%s", (unsigned long long)(v / 1000000000ULL),
		 len ? "." : "", frac);
}

/* @v in the metric's unit: ns printed as exact decimal seconds. */
static void ks_prom_value(FILE *f, __u64 v, int seconds)
{
	char buf[48];

	ks_prom_value_fmt(buf, sizeof(buf), v, seconds);
	fputs(buf, f);
}

/* One label name="value" after a ',' unless it is the first; "" is left out. */
static void ks_prom_pair(FILE *f, int *first, const char *name, const char *val)
{
	if (!val || !*val)
		return;
	fprintf(f, "%s%s=\"", *first ? "" : ",", name);
	ks_prom_label(f, val);
	fputc('"', f);
	*first = 0;
}

int ks_export_labels(const struct ks_view *node, long cpu, const char *caller,
		     char *cpubuf, size_t cpulen, struct ks_prom_label *l)
{
	const char *pairs[][2] = {
		{ "node", node->name }, { "function", node->symbols },
		{ "backend", node->attach }, { "clock", node->clock },
		{ "release", node->meta.kernel },
		/* a "ns" is one guest instruction */
		{ "timing", ks_timing_note(&node->meta) ? node->meta.timing : NULL },
		{ "cpu", cpu >= 0 ? cpubuf : NULL }, { "caller", caller },
	};
	size_t k;
	int n = 0;

	if (cpu >= 0)
		snprintf(cpubuf, cpulen, "%ld", cpu);
	for (k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
		if (!pairs[k][1] || !*pairs[k][1])
			continue;
		l[n].name = pairs[k][0];
		l[n++].value = pairs[k][1];
	}
	return n;
}

/*
 * The labels of a node's series, without the closing brace:
 * {node=...,cpu=...,caller=...  (@caller: the site's label value, or NULL)
 */
static void ks_prom_labels(FILE *f, const struct ks_view *node, long cpu,
			   const char *caller)
{
	struct ks_prom_label l[KS_PROM_LABELS_MAX];
	char cpubuf[24];
	int first = 1, i, n;

	n = ks_export_labels(node, cpu, caller, cpubuf, sizeof(cpubuf), l);
	fputc('{', f);
	for (i = 0; i < n; i++)
		ks_prom_pair(f, &first, l[i].name, l[i].value);
}

/* One bucket line: cumulative @count of the values <= @le (as printed). */
static void ks_prom_bucket(FILE *f, const char *metric, const struct ks_view *node,
			   long cpu, const char *caller, const char *le, __u64 count)
{
	fprintf(f, "%s_bucket", metric);
	ks_prom_labels(f, node, cpu, caller);
	fprintf(f, ",le=\"%s\"} %llu\n", le, (unsigned long long)count);
}

/* 2^(i/@per), @per 4 or 8: the same double on every machine (no libm rounding in it). */
static double ks_prom_q_edge(int i, int per)
{
	static const double frac[8] = {
		1.0, 0x1.172b83c7d517bp+0, 0x1.306fe0a31b715p+0, 0x1.4bfdad5362a27p+0,
		0x1.6a09e667f3bcdp+0, 0x1.8ace5422aa0dbp+0, 0x1.ae89f995ad3adp+0,
		0x1.d5818dcfba487p+0,
	};
	int q = i >= 0 ? i / per : -((per - 1 - i) / per);	/* floor(i / per) */

	return ldexp(frac[(i - per * q) * (8 / per)], q);
}

/*
 * The default buckets (KS_PROM_Q_*, twice as many with KS_EXPORT_SCHEMA3):
 * each slot's calls in the first bucket whose edge is at or above the
 * slot's mean, in @counts (one per edge, then +Inf); the edges in @edges.
 * Return: the number of edges.
 */
static int ks_prom_q_counts(const struct ks_view *node,
			    const struct kstats_slot *slots, int seconds,
			    unsigned int flags, double *edges, __u64 *counts)
{
	int per = flags & KS_EXPORT_SCHEMA3 ? 8 : 4;
	int lo = (seconds ? KS_PROM_Q_SEC_LO : KS_PROM_Q_CYC_LO) * per / 4;
	int hi = (seconds ? KS_PROM_Q_SEC_HI : KS_PROM_Q_CYC_HI) * per / 4;
	int n = hi - lo + 1, j;
	__u32 s;

	for (j = 0; j < n; j++) {
		edges[j] = ks_prom_q_edge(lo + j, per);
		counts[j] = 0;
	}
	counts[n] = 0;
	for (s = 0; s < node->nr_slots; s++) {
		double mean;

		if (!slots[s].count)
			continue;
		mean = (double)slots[s].sum / slots[s].count;
		if (seconds)
			mean /= 1e9;
		for (j = 0; j < n && edges[j] < mean; j++)
			;
		counts[j] += slots[s].count;
	}
	return n;
}

/*
 * One histogram: buckets, +Inf, _sum and _count of @slots.  By default
 * the edges of KS_PROM_Q_*; with KS_EXPORT_LOG2 le = 2^k - 1 for k =
 * 1..KS_PROM_LE_MAX, each the top of a slot (every power of two is a slot
 * edge), as far as the node's range goes; with KS_EXPORT_SLOTS one bucket
 * per slot.
 */
static void ks_prom_series(FILE *f, const char *metric,
			   const struct ks_view *node,
			   const struct kstats_slot *slots, long cpu,
			   const char *caller, unsigned int flags, int seconds)
{
	__u32 ovf = kstats_overflow_slot(node->bits, node->buckets);
	__u32 range = node->bits + node->buckets;	/* values < 2^range */
	__u64 seen = 0, hi, counts[KS_PROM_Q_MAX + 1];
	double edges[KS_PROM_Q_MAX];
	char le[48];
	__u32 s, k = 1;
	int j, n;

	if (!(flags & (KS_EXPORT_SLOTS | KS_EXPORT_LOG2))) {
		n = ks_prom_q_counts(node, slots, seconds, flags, edges, counts);
		for (j = 0; j < n; j++) {
			seen += counts[j];
			snprintf(le, sizeof(le), "%.17g", edges[j]);
			ks_prom_bucket(f, metric, node, cpu, caller, le, seen);
		}
		seen += counts[n];
	} else {
		for (s = 0; s < ovf; s++) {
			seen += slots[s].count;
			hi = kstats_slot_hi(s, node->bits, node->buckets);
			if (!(flags & KS_EXPORT_SLOTS)) {
				/* a slot never straddles 2^k: its top is 2^k - 1 or below */
				if (k > KS_PROM_LE_MAX || k > range || hi != (1ULL << k) - 1)
					continue;
				k++;
			}
			ks_prom_value_fmt(le, sizeof(le), hi, seconds);
			ks_prom_bucket(f, metric, node, cpu, caller, le, seen);
		}
		seen += slots[ovf].count;
	}
	ks_prom_bucket(f, metric, node, cpu, caller, "+Inf", seen);
	fprintf(f, "%s_sum", metric);
	ks_prom_labels(f, node, cpu, caller);
	fputs("} ", f);
	ks_prom_value(f, ks_slots_sum(slots, node->nr_slots), seconds);
	fputc('\n', f);
	fprintf(f, "%s_count", metric);
	ks_prom_labels(f, node, cpu, caller);
	fprintf(f, "} %llu\n", (unsigned long long)seen);
}

/*
 * KS_EXPORT_CALLERS: @node's call sites, one histogram each, labelled
 * with the site (FUNCTION+0xOFF) or "other"; sites never called are left
 * out.  Return: 0, or -1 when the node has none (then the merge is due).
 */
static int ks_prom_sites(FILE *f, const char *metric, const struct ks_view *node,
			 unsigned int flags, int seconds)
{
	char key[KS_SITE_MAX];
	__u32 i;

	if (!node->nr_callers)
		return -1;
	for (i = 0; i < node->nr_callers; i++) {
		const struct ks_caller *c = &node->callers[i];

		if (!c->count && !strcmp(c->id, KS_CALLER_OTHER))
			continue;
		ks_prom_series(f, metric, node, c->slots, -1,
			       strcmp(c->site, "-") ?
			       ks_caller_key(key, sizeof(key), c->site, 1) :
			       KS_CALLER_OTHER, flags, seconds);
	}
	return 0;
}

/* The metric of each unit. */
static const struct {
	const char *unit, *metric, *help;
} ks_prom_fam[] = {
	{ "ns", "kstats_latency_seconds",
	  "Time spent in a kernel function, measured by kstats; goes back to 0 on reset or re-trace." },
	{ "cycles", "kstats_latency_cycles",
	  "Time spent in a kernel function in TSC cycles, measured by kstats; goes back to 0 on reset or re-trace." },
};
#define KS_PROM_NR_FAM	(sizeof(ks_prom_fam) / sizeof(ks_prom_fam[0]))

const char *ks_export_metric(const char *unit, const char **help)
{
	size_t k;

	for (k = 0; k < KS_PROM_NR_FAM; k++)
		if (!strcmp(unit, ks_prom_fam[k].unit)) {
			if (help)
				*help = ks_prom_fam[k].help;
			return ks_prom_fam[k].metric;
		}
	return NULL;
}

/* 0 when every node has a metric for its unit, else -1 and why in @err. */
static int ks_prom_check(struct ks_view *const *nodes, int n, char *err,
			 size_t errlen)
{
	size_t k;
	int i;

	for (i = 0; i < n; i++) {
		for (k = 0; k < KS_PROM_NR_FAM; k++)
			if (!strcmp(nodes[i]->unit, ks_prom_fam[k].unit))
				break;
		if (k == KS_PROM_NR_FAM) {
			snprintf(err, errlen, "%s: unit '%s' has no Prometheus metric",
				 nodes[i]->name, nodes[i]->unit);
			return -1;
		}
	}
	return 0;
}

int ks_export_prometheus(FILE *f, struct ks_view *const *nodes, int n,
			 unsigned int flags)
{
	char err[256];
	size_t k;
	__u32 c;
	int i, head;

	if (ks_prom_check(nodes, n, err, sizeof(err))) {
		fprintf(stderr, "kstats: %s\n", err);
		return -1;
	}
	for (k = 0; k < KS_PROM_NR_FAM; k++) {
		const char *metric = ks_prom_fam[k].metric;
		int seconds = !strcmp(ks_prom_fam[k].unit, "ns");

		head = 0;
		for (i = 0; i < n; i++) {
			const struct ks_view *node = nodes[i];

			if (strcmp(node->unit, ks_prom_fam[k].unit))
				continue;
			if (!head++)
				fprintf(f, "# HELP %s %s\n# TYPE %s histogram\n",
					metric, ks_prom_fam[k].help, metric);
			if ((flags & KS_EXPORT_CALLERS) &&
			    !ks_prom_sites(f, metric, node, flags, seconds))
				continue;
			if (!(flags & KS_EXPORT_PER_CPU)) {
				ks_prom_series(f, metric, node, node->total, -1,
					       NULL, flags, seconds);
				continue;
			}
			for (c = 0; c < node->nr_cpus; c++)
				ks_prom_series(f, metric, node, node->cpus[c].slots,
					       node->cpus[c].cpu, NULL, flags, seconds);
		}
	}
	if (n)
		fputs("# HELP kstats_missed_events_total Calls the kstats backend dropped (not in the histogram).\n"
		      "# TYPE kstats_missed_events_total counter\n", f);
	for (i = 0; i < n; i++) {
		fputs("kstats_missed_events_total", f);
		ks_prom_labels(f, nodes[i], -1, NULL);
		fprintf(f, "} %llu\n", (unsigned long long)nodes[i]->missed);
	}
	return ferror(f) ? -1 : 0;
}

int ks_export_prometheus_file(const char *path, struct ks_view *const *nodes,
			      int n, unsigned int flags, char *err, size_t errlen)
{
	char tmp[4096];
	FILE *f;
	int fd;

	if (ks_prom_check(nodes, n, err, errlen))
		return -1;
	if (!strcmp(path, "-")) {
		if (ks_export_prometheus(stdout, nodes, n, flags) || fflush(stdout)) {
			snprintf(err, errlen, "standard output: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >=
	    sizeof(tmp)) {
		snprintf(err, errlen, "%s: file name too long", path);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		snprintf(err, errlen, "cannot write %s: %s: %s (%s left as it was)",
			 path, tmp, strerror(errno), path);
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return -1;
	}
	errno = 0;
	if (ks_export_prometheus(f, nodes, n, flags) || fflush(f) || fsync(fd)) {
		snprintf(err, errlen, "cannot write %s: %s: %s (%s left as it was)",
			 path, tmp, errno ? strerror(errno) : "write error", path);
		fclose(f);
		unlink(tmp);
		return -1;
	}
	if (fclose(f) || rename(tmp, path)) {
		snprintf(err, errlen, "cannot write %s: %s (%s left as it was)",
			 path, strerror(errno), path);
		unlink(tmp);
		return -1;
	}
	return 0;
}
