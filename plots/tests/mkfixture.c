// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mkfixture - write a synthetic kstats-snapshot/1 file for the plot tests.
 *
 * Draws find_vma-like latencies (a fast lognormal body, a slower mode and
 * a rare long tail) from a fixed-seed generator, records them per CPU with
 * the histogram core of include/kstats/hist.h and prints the snapshot JSON
 * the way docs/format.md describes it.  Same arguments, same bytes.
 *
 *   gcc -O2 -Wall -Wextra -I include -o mkfixture plots/tests/mkfixture.c -lm
 *   ./mkfixture LABEL SCALE SAMPLES MISSED SEED > plots/tests/fixtures/LABEL.json
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <kstats/hist.h>

#define NCPUS	2
#define BITS	KSTATS_BITS_DEFAULT

static __u64 rng_state;

/* xorshift64*: small, fast and the same everywhere. */
static __u64 rng_next(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

/* Uniform in (0, 1). */
static double rng_unit(void)
{
	return ((rng_next() >> 11) + 0.5) / 9007199254740992.0;
}

/* Lognormal with the given median and shape (Box-Muller). */
static double lognormal(double median, double sigma)
{
	double z = sqrt(-2.0 * log(rng_unit())) * cos(2.0 * M_PI * rng_unit());

	return median * exp(sigma * z);
}

/* One find_vma-like latency in ns, before the configuration's scale. */
static double draw(int cpu)
{
	double u = rng_unit(), v;

	if (u < 0.86)
		v = lognormal(104.0, 0.22);
	else if (u < 0.995)
		v = lognormal(330.0, 0.55);
	else
		v = lognormal(2500.0, 0.9);
	return cpu ? v * 1.08 : v;	/* CPU 1 runs a little slower */
}

static void print_percentiles(const struct kstats_slot *t, __u32 n)
{
	__u64 pct[KSTATS_NR_PCT];
	int i;

	kstats_percentiles(t, n, pct);
	printf("    \"percentiles\": {");
	for (i = 0; i < KSTATS_NR_PCT; i++)
		printf("%s \"%s\": %llu", i ? "," : "", kstats_pct_name[i],
		       (unsigned long long)pct[i]);
	printf(" },\n");
}

int main(int argc, char **argv)
{
	__u32 buckets = kstats_default_buckets(BITS);
	__u32 n = kstats_nr_slots(BITS, buckets), s;
	struct kstats_slot *cpu[NCPUS], *tot;
	__u64 samples, missed, i, min = ~0ULL, max = 0, sum = 0, v;
	double scale;
	const char *label, *sep;
	int c;

	if (argc != 6) {
		fprintf(stderr, "usage: mkfixture LABEL SCALE SAMPLES MISSED SEED\n");
		return 2;
	}
	label = argv[1];
	scale = atof(argv[2]);
	samples = strtoull(argv[3], NULL, 0);
	missed = strtoull(argv[4], NULL, 0);
	rng_state = strtoull(argv[5], NULL, 0) | 1;

	tot = calloc(n, sizeof(*tot));
	for (c = 0; c < NCPUS; c++)
		cpu[c] = calloc(n, sizeof(*tot));
	for (i = 0; i < samples; i++) {
		c = rng_unit() < 0.6 ? 0 : 1;
		v = (__u64)llround(draw(c) * scale);
		kstats_hist_add(cpu[c], v, BITS, buckets);
		min = v < min ? v : min;
		max = v > max ? v : max;
		sum += v;
	}
	for (c = 0; c < NCPUS; c++)
		kstats_merge(tot, cpu[c], n);

	printf("{\n  \"schema\": \"kstats-snapshot/1\",\n");
	printf("  \"meta\": { \"kernel\": \"6.1.0-57-amd64\", \"date\": \"2026-11-30T05:40:00Z\",\n");
	printf("            \"hostname\": \"vm\", \"tool\": \"kstats 0.1\", \"label\": \"%s\" },\n", label);
	printf("  \"node\": {\n");
	printf("    \"name\": \"find_vma\", \"attach\": \"kretprobe\", \"symbols\": [\"find_vma\"],\n");
	printf("    \"clock\": \"local\", \"unit\": \"ns\", \"bits\": %u, \"buckets\": %u, \"sample\": 1,\n",
	       BITS, buckets);
	printf("    \"state\": \"stopped\",\n");
	printf("    \"samples\": %llu, \"missed\": %llu, \"min\": %llu, \"avg\": %llu, \"max\": %llu,\n",
	       (unsigned long long)samples, (unsigned long long)missed,
	       (unsigned long long)(samples ? min : 0),
	       (unsigned long long)(samples ? sum / samples : 0),
	       (unsigned long long)max);
	printf("    \"floor\": 0,\n");
	print_percentiles(tot, n);
	printf("    \"precision_ppm\": %u, \"estimate\": \"slot-mean\",\n",
	       kstats_precision_ppm(BITS));
	printf("    \"ncpus\": %d,\n    \"slots\": [", NCPUS);
	sep = "\n";
	for (s = 0; s < n; s++)
		for (c = 0; c < NCPUS; c++) {
			if (!cpu[c][s].count)
				continue;
			printf("%s      { \"slot\": %u, \"lo\": %llu, \"hi\": %llu, \"cpu\": %d, \"count\": %llu, \"avg\": %llu }",
			       sep, s,
			       (unsigned long long)kstats_slot_lo(s, BITS),
			       (unsigned long long)kstats_slot_hi(s, BITS, buckets),
			       c, (unsigned long long)cpu[c][s].count,
			       (unsigned long long)kstats_slot_mean(&cpu[c][s]));
			sep = ",\n";
		}
	printf("\n    ],\n    \"total\": [");
	sep = "\n";
	for (s = 0; s < n; s++) {
		if (!tot[s].count)
			continue;
		printf("%s      { \"slot\": %u, \"lo\": %llu, \"hi\": %llu, \"count\": %llu, \"avg\": %llu }",
		       sep, s,
		       (unsigned long long)kstats_slot_lo(s, BITS),
		       (unsigned long long)kstats_slot_hi(s, BITS, buckets),
		       (unsigned long long)tot[s].count,
		       (unsigned long long)kstats_slot_mean(&tot[s]));
		sep = ",\n";
	}
	printf("\n    ]\n  }\n}\n");
	return 0;
}
