// SPDX-License-Identifier: GPL-2.0
/*
 * mkcallers: write the text of a node traced with "callers N" as the
 * module would (docs/format.md, version 2), using include/kstats/hist.h.
 *
 *   mkcallers NAME N COUNT:NS:SITE...
 *
 * Each COUNT:NS:SITE is a call site called COUNT times, call i taking
 * NS + (i * 37) % (NS / 50 + 1) ns, on CPU i % 2; SITE is its %pS text
 * ("kt_site_a+0x1c/0x30 [kstats_target]").  The first N sites are kept
 * apart (IDs 0..N-1 in the order given), the rest go to "other".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kstats/hist.h>

#define BITS	3
#define NCPUS	2

/* The rows of one histogram: @lead, "slot S", @what @who, the figures. */
static void rows(const struct kstats_slot *sl, __u32 nr, const char *lead,
		 const char *what, const char *who)
{
	__u64 t = kstats_total(sl, nr), seen = 0, frac;
	__u32 s;

	for (s = 0; s < nr; s++) {
		if (!sl[s].count)
			continue;
		seen += sl[s].count;
		frac = seen * 1000000ULL / t;
		printf("%sslot %-3u  %-4s %-3s  count %8llu  avg %8llu  p %llu.%06llu  n %8llu\n",
		       lead, s, what, who, (unsigned long long)sl[s].count,
		       (unsigned long long)kstats_slot_mean(&sl[s]),
		       (unsigned long long)(frac / 1000000), (unsigned long long)(frac % 1000000),
		       (unsigned long long)seen);
	}
}

int main(int argc, char **argv)
{
	__u32 buckets = kstats_default_buckets(BITS), nr = kstats_nr_slots(BITS, buckets);
	__u64 min = ~0ULL, max = 0, sum = 0, n, pct[KSTATS_NR_PCT], hmax[KS_CALLERS_MAX + 1] = { 0 };
	struct kstats_slot *cpu, *total, *hist;
	unsigned int keep, nsites, h, c, k;
	const char *site[64];
	char who[16];

	if (argc < 4 || argc - 3 > 64) {
		fprintf(stderr, "usage: mkcallers NAME N COUNT:NS:SITE...\n");
		return 2;
	}
	keep = (unsigned int)atoi(argv[2]);
	nsites = (unsigned int)(argc - 3);
	if (keep < 1 || keep > KS_CALLERS_MAX)
		return 2;
	cpu = calloc((size_t)nr * NCPUS, sizeof(*cpu));
	total = calloc(nr, sizeof(*total));
	hist = calloc((size_t)nr * (keep + 1), sizeof(*hist));
	if (!cpu || !total || !hist)
		return 1;
	for (k = 0; k < nsites; k++) {
		char *end;
		unsigned long cnt = strtoul(argv[3 + k], &end, 10), i;
		__u64 ns = strtoull(end + 1, &end, 10);

		site[k] = end + 1;
		h = k < keep ? k : keep;
		for (i = 0; i < cnt; i++) {
			__u64 v = ns + (i * 37) % (ns / 50 + 1);

			kstats_hist_add(cpu + (size_t)(i % NCPUS) * nr, v, BITS, buckets);
			kstats_hist_add(hist + (size_t)h * nr, v, BITS, buckets);
			min = v < min ? v : min;
			max = v > max ? v : max;
			hmax[h] = v > hmax[h] ? v : hmax[h];
			sum += v;
		}
	}
	for (c = 0; c < NCPUS; c++)
		kstats_merge(total, cpu + (size_t)c * nr, nr);
	n = kstats_total(total, nr);
	kstats_percentiles(total, nr, BITS, pct);
	printf("# kstats %s attach=direct:%s clock=local clock_by=no_stable_counter unit=ns slots=ns bits=%u buckets=%u sample=1 maxactive=0 state=active "
	       KS_KEY_CALLERS "=%u\n",
	       argv[1], argv[1], BITS, buckets, keep);
	printf("# samples %llu missed 0 min %llu avg %llu max %llu floor 0\n",
	       (unsigned long long)n, (unsigned long long)(n ? min : 0),
	       (unsigned long long)(n ? sum / n : 0), (unsigned long long)max);
	printf("# percentiles");
	for (k = 0; k < KSTATS_NR_PCT; k++)
		printf(" %s %llu", kstats_pct_name[k], (unsigned long long)pct[k]);
	printf(" precision_ppm %u estimate slot-mean\n", kstats_precision_ppm(BITS));
	for (h = 0; h <= keep; h++) {
		const struct kstats_slot *sl = hist + (size_t)h * nr;
		__u64 cnt = kstats_total(sl, nr);

		if (h < keep && h >= nsites)
			continue;	/* not seen */
		kstats_percentiles(sl, nr, BITS, pct);
		if (h < keep)
			snprintf(who, sizeof(who), "%u", h);
		else
			snprintf(who, sizeof(who), "%s", KS_CALLER_OTHER);
		printf("# " KS_LINE_CALLER " %s " KS_ROW_COUNT " %llu %s %llu %s %llu "
		       KS_SAMPLES_MAX " %llu " KS_CALLER_SITE " %s\n", who,
		       (unsigned long long)cnt, kstats_pct_name[KSTATS_P50],
		       (unsigned long long)pct[KSTATS_P50], kstats_pct_name[KSTATS_P99],
		       (unsigned long long)pct[KSTATS_P99], (unsigned long long)hmax[h],
		       h < keep ? site[h] : "-");
	}
	for (c = 0; c <= NCPUS; c++) {
		snprintf(who, sizeof(who), "%u", c);
		rows(c < NCPUS ? cpu + (size_t)c * nr : total, nr, "",
		     c < NCPUS ? "CPU" : "CPUS", who);
	}
	for (h = 0; h <= keep; h++) {
		if (h < keep && h >= nsites)
			continue;
		if (h < keep)
			snprintf(who, sizeof(who), "%u", h);
		else
			snprintf(who, sizeof(who), "%s", KS_CALLER_OTHER);
		rows(hist + (size_t)h * nr, nr, "# ", KS_ROW_CALLER, who);
	}
	free(cpu);
	free(total);
	free(hist);
	return 0;
}
