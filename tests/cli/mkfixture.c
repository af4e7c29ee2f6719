// SPDX-License-Identifier: GPL-2.0
/*
 * mkfixture: write a node file as the module would (docs/format.md) from
 * a deterministic stream of latencies, using include/kstats/hist.h.
 *
 *   mkfixture NAME BITS SEED SCALE_PCT MISSED [FROM:]TO_CPU0 [[FROM:]TO_CPU1 ...]
 *
 * CPU c records values FROM..TO-1 of its stream; value i of CPU c depends
 * only on SEED, c and i, so a larger TO extends a smaller one (a later
 * read of the same node) and FROM:TO is what a later read adds.
 * SCALE_PCT stretches every value (200: twice as slow).  With
 * MKFIXTURE_QUANTIZE=1 in the environment each value is the low bound of
 * its slot, so slot means are exact and differences of reads are exact.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kstats/hist.h>

/* Value @i of CPU @cpu: mostly 60..160 ns, a tail to a few us. */
static __u64 value(unsigned long seed, unsigned int cpu, unsigned long i,
		   unsigned int scale)
{
	unsigned long long x = seed * 0x9e3779b97f4a7c15ULL + cpu * 0xbf58476d1ce4e5b9ULL +
		i * 0x94d049bb133111ebULL;
	__u64 v;

	x ^= x >> 31;
	x *= 0xd6e8feb86659fd93ULL;
	x ^= x >> 32;
	v = 60 + x % 100;
	if (x % 10 == 0)
		v *= 2;
	if (x % 97 == 0)
		v *= 20;
	return v * scale / 100;
}

int main(int argc, char **argv)
{
	__u32 bits, buckets, nr, ncpus, c, s;
	struct kstats_slot *slots, *total;
	__u64 min = ~0ULL, max = 0, sum = 0, n, pct[KSTATS_NR_PCT];
	unsigned long seed, i, *cnt, from;
	const char *q = getenv("MKFIXTURE_QUANTIZE");
	unsigned int scale;
	char *end;
	int k;

	if (argc < 7) {
		fprintf(stderr, "usage: mkfixture NAME BITS SEED SCALE_PCT MISSED [FROM:]TO_CPU0 [...]\n");
		return 2;
	}
	bits = (__u32)atoi(argv[2]);
	seed = strtoul(argv[3], NULL, 10);
	scale = (unsigned int)atoi(argv[4]);
	ncpus = (__u32)(argc - 6);
	buckets = kstats_default_buckets(bits);
	nr = kstats_nr_slots(bits, buckets);
	slots = calloc((size_t)nr * ncpus, sizeof(*slots));
	total = calloc(nr, sizeof(*total));
	cnt = calloc(ncpus, sizeof(*cnt));
	if (!slots || !total || !cnt)
		return 1;
	for (c = 0; c < ncpus; c++) {
		from = 0;
		cnt[c] = strtoul(argv[6 + c], &end, 10);
		if (*end == ':') {
			from = cnt[c];
			cnt[c] = strtoul(end + 1, NULL, 10);
		}
		for (i = from; i < cnt[c]; i++) {
			__u64 v = value(seed, c, i, scale);

			if (q && *q == '1')
				v = kstats_slot_lo(kstats_slot(v, bits, buckets), bits);

			kstats_hist_add(slots + (size_t)c * nr, v, bits, buckets);
			min = v < min ? v : min;
			max = v > max ? v : max;
			sum += v;
		}
		cnt[c] -= from;
		kstats_merge(total, slots + (size_t)c * nr, nr);
	}
	n = kstats_total(total, nr);
	kstats_percentiles(total, nr, bits, pct);
	printf("# kstats %s attach=kretprobe:%s clock=local unit=ns bits=%u buckets=%u sample=1 maxactive=64 state=active\n",
	       argv[1], argv[1], bits, buckets);
	printf("# samples %llu missed %s min %llu avg %llu max %llu floor 0\n",
	       (unsigned long long)n, argv[5], (unsigned long long)(n ? min : 0),
	       (unsigned long long)(n ? sum / n : 0), (unsigned long long)max);
	printf("# percentiles");
	for (k = 0; k < KSTATS_NR_PCT; k++)
		printf(" %s %llu", kstats_pct_name[k], (unsigned long long)pct[k]);
	printf(" precision_ppm %u estimate slot-mean\n", kstats_precision_ppm(bits));
	/* as the module prints them: CPU after CPU, then the merge */
	for (c = 0; c <= ncpus; c++) {
		const struct kstats_slot *sl = c < ncpus ? &slots[(size_t)c * nr] : total;
		__u64 t = c < ncpus ? cnt[c] : n, seen = 0, frac;

		for (s = 0; s < nr; s++) {
			if (!sl[s].count)
				continue;
			seen += sl[s].count;
			frac = seen * 1000000ULL / t;
			printf("slot %-3u  %-4s %-3u  count %8llu  avg %8llu  p %llu.%06llu  n %8llu\n",
			       s, c < ncpus ? "CPU" : "CPUS", c < ncpus ? c : ncpus,
			       (unsigned long long)sl[s].count,
			       (unsigned long long)kstats_slot_mean(&sl[s]),
			       (unsigned long long)(frac / 1000000),
			       (unsigned long long)(frac % 1000000),
			       (unsigned long long)seen);
		}
	}
	free(slots);
	free(total);
	free(cnt);
	return 0;
}
