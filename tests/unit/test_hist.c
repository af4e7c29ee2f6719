// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Unit tests of the kstats histogram core (include/kstats/hist.h).
 *
 * Every check is counted per area; each area prints one TAP line:
 *   ok N - what (checks)
 *   not ok N - what (failed/checks failed; first: details, value X, expected Y)
 *
 * The slot layout is checked against an independent reference written from
 * the definition in the header comment; percentiles are checked against the
 * exact quantile of a sorted copy of the samples.
 *
 * Over 600 lines on purpose: one file per header under test, as the other
 * unit tests; each area (slot edges, overflow, widths, record and merge,
 * percentiles, mean wrap, rank) is a function of its own, its reference
 * next to it.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kstats/hist.h>
#include "../tap.h"

typedef unsigned __int128 u128;

#define U64_MAX		(~0ULL)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------- checks */

struct check {
	unsigned long long n;		/* checks done */
	unsigned long long bad;		/* checks failed */
	char first[320];		/* details of the first failure */
};

static void check_init(struct check *c)
{
	memset(c, 0, sizeof(*c));
}

static void __attribute__((format(printf, 2, 3)))
check_fail(struct check *c, const char *fmt, ...)
{
	va_list ap;

	if (c->bad++)
		return;
	va_start(ap, fmt);
	vsnprintf(c->first, sizeof(c->first), fmt, ap);
	va_end(ap);
}

#define CHECK(c, cond, ...)					\
	do {							\
		(c)->n++;					\
		if (!(cond))					\
			check_fail((c), __VA_ARGS__);		\
	} while (0)

/* Check that @val == @exp, with the printed name @what. */
#define CHECK_EQ(c, val, exp, fmt, ...)					\
	do {								\
		unsigned long long __v = (val), __e = (exp);		\
		CHECK((c), __v == __e, fmt ": value %llu, expected %llu", \
		      ##__VA_ARGS__, __v, __e);				\
	} while (0)

static void __attribute__((format(printf, 2, 3)))
report(const struct check *c, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!c->bad)
		tap_result(1, "%s (%llu checks)", what, c->n);
	else
		tap_result(0, "%s (%llu/%llu failed; first: %s)", what, c->bad,
			   c->n, c->first);
}

/* ---------------------------------------------------------------- PRNG */

static __u64 rng_state;

static void rng_seed(__u64 seed)
{
	rng_state = seed;
}

/* splitmix64: fixed-seed, reproducible everywhere. */
static __u64 rnd(void)
{
	__u64 z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1), never 0 nor 1. */
static double rnd_open(void)
{
	return ((double)(rnd() >> 11) + 0.5) * 0x1.0p-53;
}

/* Random value with a log-uniform magnitude over the whole u64 range. */
static __u64 rnd_mag(void)
{
	return rnd() >> (rnd() % 64);
}

/* ------------------------------------------------------------ reference */

/*
 * Reference slot layout, written from the definition (not from the code):
 * range k = 0 holds the 2^b values 0 .. 2^b - 1, one per slot; range
 * k >= 1 holds [2^(b+k-1), 2^(b+k)) cut into 2^b slots of width 2^(k-1).
 * Computed in 128 bits so that nothing wraps.
 */
static u128 ref_lo(__u32 s, __u32 b)
{
	__u32 k = s / (1U << b), sub = s % (1U << b);

	if (k == 0)
		return s;
	return ((u128)1 << (b + k - 1)) + (u128)sub * ((u128)1 << (k - 1));
}

static u128 ref_width(__u32 s, __u32 b)
{
	__u32 k = s / (1U << b);

	return k ? (u128)1 << (k - 1) : 1;
}

static u128 ref_hi(__u32 s, __u32 b)
{
	return ref_lo(s, b) + ref_width(s, b) - 1;
}

/* Slot of @v: found by looking for the leading one bit with a loop. */
static __u32 ref_slot(__u64 v, __u32 b, __u32 nb)
{
	__u32 m = 0, k;

	if (v < (1ULL << b))
		return (__u32)v;
	while (m < 63 && (v >> (m + 1)))
		m++;
	k = m - b + 1;
	if (k > nb)
		return (nb + 1) << b;
	return (k << b) + (__u32)((v - (1ULL << m)) / (1ULL << (m - b)));
}

/* First value past the last regular range: 2^(b+nb), 2^64 when full. */
static u128 ref_end(__u32 b, __u32 nb)
{
	return (u128)1 << (b + nb);
}

/* ---------------------------------------------------------- configs */

#define NR_CFG_MAX	8

/* Bucket counts tested for @bits; returns how many. */
static unsigned int bucket_list(__u32 bits, __u32 *out)
{
	const __u32 want[] = {
		0, 1, 2, 13, kstats_default_buckets(bits),
		kstats_max_buckets(bits) - 1, kstats_max_buckets(bits),
	};
	unsigned int i, j, n = 0;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		if (want[i] > kstats_max_buckets(bits))
			continue;
		for (j = 0; j < n; j++)
			if (out[j] == want[i])
				break;
		if (j == n)
			out[n++] = want[i];
	}
	return n;
}

static const char *bucket_str(const __u32 *nb, unsigned int n)
{
	static char buf[96];
	size_t len = 0;
	unsigned int i;

	buf[0] = 0;
	for (i = 0; i < n; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%u",
				i ? "," : "", nb[i]);
	return buf;
}

/* ------------------------------------------------------- slot layout */

/*
 * Every regular slot: bounds equal the reference, lo <= hi, both map back
 * to the slot, consecutive slots are contiguous; first and last bounds.
 */
static void test_slot_edges(__u32 bits)
{
	__u32 nbs[NR_CFG_MAX], nb;
	unsigned int ncfg = bucket_list(bits, nbs), c;
	unsigned long long slots = 0;
	struct check ck;

	check_init(&ck);
	for (c = 0; c < ncfg; c++) {
		__u32 ovf, s;

		nb = nbs[c];
		ovf = kstats_overflow_slot(bits, nb);
		for (s = 0; s < ovf; s++) {
			__u64 lo = kstats_slot_lo(s, bits);
			__u64 hi = kstats_slot_hi(s, bits, nb);

			slots++;
			CHECK(&ck, lo == ref_lo(s, bits),
			      "bits=%u buckets=%u lo(%u): value %llu, expected %llu",
			      bits, nb, s, lo,
			      (unsigned long long)ref_lo(s, bits));
			CHECK(&ck, hi == ref_hi(s, bits),
			      "bits=%u buckets=%u hi(%u): value %llu, expected %llu",
			      bits, nb, s, hi,
			      (unsigned long long)ref_hi(s, bits));
			CHECK(&ck, lo <= hi,
			      "bits=%u buckets=%u slot %u: lo %llu > hi %llu",
			      bits, nb, s, lo, hi);
			CHECK_EQ(&ck, kstats_slot(lo, bits, nb), s,
				 "bits=%u buckets=%u slot(lo(%u)=%llu)",
				 bits, nb, s, lo);
			CHECK_EQ(&ck, kstats_slot(hi, bits, nb), s,
				 "bits=%u buckets=%u slot(hi(%u)=%llu)",
				 bits, nb, s, hi);
			if (s + 1 < ovf)
				CHECK_EQ(&ck, kstats_slot_lo(s + 1, bits),
					 (u128)hi + 1,
					 "bits=%u buckets=%u lo(%u) vs hi(%u)+1",
					 bits, nb, s + 1, s);
		}
		CHECK_EQ(&ck, kstats_slot_lo(0, bits), 0,
			 "bits=%u buckets=%u lo(0)", bits, nb);
		/* The last regular slot ends where the overflow starts. */
		CHECK(&ck, (u128)kstats_slot_hi(ovf - 1, bits, nb) + 1 ==
			   ref_end(bits, nb),
		      "bits=%u buckets=%u hi(last=%u): value %llu, expected 2^%u-1",
		      bits, nb, ovf - 1, kstats_slot_hi(ovf - 1, bits, nb),
		      bits + nb);
	}
	report(&ck, "slot edges bits=%u buckets=%s (%llu slots)",
	       bits, bucket_str(nbs, ncfg), slots);
}

/* Overflow slot and slot count. */
static void test_overflow(__u32 bits)
{
	__u32 nbs[NR_CFG_MAX], nb;
	unsigned int ncfg = bucket_list(bits, nbs), c, k;
	struct check ck;

	check_init(&ck);
	for (c = 0; c < ncfg; c++) {
		__u32 ovf, nr;
		int full;

		nb = nbs[c];
		ovf = kstats_overflow_slot(bits, nb);
		nr = kstats_nr_slots(bits, nb);
		full = nb == kstats_max_buckets(bits);
		CHECK_EQ(&ck, ovf, (nb + 1) << bits,
			 "bits=%u buckets=%u overflow slot", bits, nb);
		CHECK_EQ(&ck, nr, ovf + 1,
			 "bits=%u buckets=%u nr_slots", bits, nb);
		CHECK_EQ(&ck, kstats_slot_hi(ovf, bits, nb), U64_MAX,
			 "bits=%u buckets=%u hi(overflow)", bits, nb);
		if (full) {
			/* Nothing overflows: U64_MAX is in the last slot. */
			CHECK_EQ(&ck, kstats_slot(U64_MAX, bits, nb), ovf - 1,
				 "bits=%u buckets=%u (full) slot(U64_MAX)",
				 bits, nb);
			CHECK_EQ(&ck, kstats_slot_lo(ovf, bits), U64_MAX,
				 "bits=%u buckets=%u (full) lo(overflow)",
				 bits, nb);
			CHECK_EQ(&ck, kstats_slot(1ULL << 63, bits, nb),
				 ovf - (1U << bits),
				 "bits=%u buckets=%u (full) slot(2^63)",
				 bits, nb);
		} else {
			__u64 end = (__u64)ref_end(bits, nb);

			CHECK_EQ(&ck, kstats_slot_lo(ovf, bits), end,
				 "bits=%u buckets=%u lo(overflow)", bits, nb);
			CHECK_EQ(&ck, kstats_slot(end, bits, nb), ovf,
				 "bits=%u buckets=%u slot(2^%u)",
				 bits, nb, bits + nb);
			CHECK_EQ(&ck, kstats_slot(end - 1, bits, nb), ovf - 1,
				 "bits=%u buckets=%u slot(2^%u-1)",
				 bits, nb, bits + nb);
			CHECK_EQ(&ck, kstats_slot(U64_MAX, bits, nb), ovf,
				 "bits=%u buckets=%u slot(U64_MAX)", bits, nb);
		}
		/* Every value lands inside the array, in the overflow at most. */
		for (k = 0; k < 64; k++) {
			__u64 v = 1ULL << k;

			CHECK(&ck, kstats_slot(v, bits, nb) < nr &&
				   kstats_slot(v - 1, bits, nb) < nr &&
				   kstats_slot(v + 1, bits, nb) < nr &&
				   kstats_slot(v | (v - 1), bits, nb) < nr,
			      "bits=%u buckets=%u slot(~2^%u) out of %u slots",
			      bits, nb, k, nr);
		}
		for (k = 0; k < 4096; k++) {
			__u64 v = rnd_mag();
			__u32 s = kstats_slot(v, bits, nb);

			CHECK(&ck, s < nr && (!full || s < ovf),
			      "bits=%u buckets=%u slot(%llu)=%u, nr_slots %u",
			      bits, nb, v, s, nr);
		}
	}
	report(&ck, "overflow slot and nr_slots bits=%u buckets=%s",
	       bits, bucket_str(nbs, ncfg));
}

/* Check that @v maps to the reference slot, and that slot holds @v. */
static void check_value(struct check *ck, __u64 v, __u32 bits, __u32 nb)
{
	__u32 s = kstats_slot(v, bits, nb), ovf = kstats_overflow_slot(bits, nb);

	CHECK_EQ(ck, s, ref_slot(v, bits, nb), "bits=%u buckets=%u slot(%llu)",
		 bits, nb, v);
	if (s < ovf)
		CHECK(ck, kstats_slot_lo(s, bits) <= v &&
			  v <= kstats_slot_hi(s, bits, nb),
		      "bits=%u buckets=%u %llu not in slot %u [%llu, %llu]",
		      bits, nb, v, s, kstats_slot_lo(s, bits),
		      kstats_slot_hi(s, bits, nb));
	else
		CHECK(ck, s == ovf && v > kstats_slot_hi(ovf - 1, bits, nb),
		      "bits=%u buckets=%u %llu in overflow slot %u below hi(last) %llu",
		      bits, nb, v, s, kstats_slot_hi(ovf - 1, bits, nb));
}

/* 0, 1, 2^k-1, 2^k, 2^k+1 for every k, U64_MAX. */
static void test_values(__u32 bits)
{
	__u32 nbs[NR_CFG_MAX];
	unsigned int ncfg = bucket_list(bits, nbs), c, k;
	struct check ck;

	check_init(&ck);
	for (c = 0; c < ncfg; c++) {
		check_value(&ck, 0, bits, nbs[c]);
		check_value(&ck, 1, bits, nbs[c]);
		check_value(&ck, U64_MAX, bits, nbs[c]);
		check_value(&ck, U64_MAX - 1, bits, nbs[c]);
		for (k = 1; k < 64; k++) {
			check_value(&ck, (1ULL << k) - 1, bits, nbs[c]);
			check_value(&ck, 1ULL << k, bits, nbs[c]);
			check_value(&ck, (1ULL << k) + 1, bits, nbs[c]);
		}
	}
	report(&ck, "values 0, 1, 2^k-1, 2^k, 2^k+1, U64_MAX bits=%u buckets=%s",
	       bits, bucket_str(nbs, ncfg));
}

#define DENSE_MAX	(1U << 18)
#define RANDOM_PAIRS	50000

/*
 * Monotonic mapping: dense sweep 0 .. 2^18, where consecutive values stay
 * in the same slot or move to the next one, and random pairs of large
 * values (v1 <= v2), each also checked against the reference.
 */
static void test_monotonic(__u32 bits)
{
	__u32 nbs[NR_CFG_MAX], nb;
	unsigned int ncfg = bucket_list(bits, nbs), c, i;
	struct check ck;

	check_init(&ck);
	for (c = 0; c < ncfg; c++) {
		__u32 prev, s;
		__u64 v;

		nb = nbs[c];
		prev = kstats_slot(0, bits, nb);
		CHECK_EQ(&ck, prev, 0, "bits=%u buckets=%u slot(0)", bits, nb);
		for (v = 1; v <= DENSE_MAX; v++) {
			s = kstats_slot(v, bits, nb);
			CHECK(&ck, s == prev || s == prev + 1,
			      "bits=%u buckets=%u slot(%llu)=%u after slot(%llu)=%u",
			      bits, nb, v, s, v - 1, prev);
			if (s < kstats_overflow_slot(bits, nb))
				CHECK(&ck, kstats_slot_lo(s, bits) <= v &&
					   v <= kstats_slot_hi(s, bits, nb),
				      "bits=%u buckets=%u %llu not in slot %u",
				      bits, nb, v, s);
			prev = s;
		}
		for (i = 0; i < RANDOM_PAIRS; i++) {
			__u64 v1 = rnd_mag(), v2, d = rnd_mag();

			/* A close neighbour half of the time, anything else. */
			if (i & 1)
				d >>= rnd() % 64;
			v2 = v1 + d < v1 ? U64_MAX : v1 + d;
			CHECK(&ck, kstats_slot(v1, bits, nb) <=
				   kstats_slot(v2, bits, nb),
			      "bits=%u buckets=%u slot(%llu)=%u > slot(%llu)=%u",
			      bits, nb, v1, kstats_slot(v1, bits, nb),
			      v2, kstats_slot(v2, bits, nb));
			check_value(&ck, v1, bits, nb);
			check_value(&ck, v2, bits, nb);
		}
	}
	report(&ck, "monotonic: dense 0..2^18, %u random pairs bits=%u buckets=%s",
	       RANDOM_PAIRS, bits, bucket_str(nbs, ncfg));
}

/* (hi - lo + 1) / lo <= 2^-bits for every slot with lo >= 2^bits. */
static void test_width(__u32 bits)
{
	__u32 nb = kstats_max_buckets(bits), s;
	__u32 ovf = kstats_overflow_slot(bits, nb);
	unsigned int tight = 0;
	struct check ck;

	check_init(&ck);
	for (s = 0; s < ovf; s++) {
		__u64 lo = kstats_slot_lo(s, bits), hi = kstats_slot_hi(s, bits, nb);
		u128 w = (u128)hi - lo + 1;

		if (lo < (1ULL << bits)) {
			CHECK(&ck, w == 1,
			      "bits=%u slot %u below 2^bits has width %llu",
			      bits, s, (unsigned long long)w);
			continue;
		}
		CHECK(&ck, (w << bits) <= lo,
		      "bits=%u slot %u [%llu, %llu]: width %llu * 2^%u > lo",
		      bits, s, lo, hi, (unsigned long long)w, bits);
		tight += (w << bits) == lo;
	}
	/* The bound is reached exactly at the first slot of every range. */
	CHECK_EQ(&ck, tight, kstats_max_buckets(bits),
		 "bits=%u slots of relative width exactly 2^-bits", bits);
	CHECK_EQ(&ck, kstats_precision_ppm(bits), 1000000U >> bits,
		 "bits=%u precision_ppm", bits);
	CHECK(&ck, (__u64)kstats_precision_ppm(bits) << bits <= 1000000 &&
		   ((__u64)kstats_precision_ppm(bits) + 1) << bits > 1000000,
	      "bits=%u precision_ppm %u is not floor(10^6 / 2^bits)",
	      bits, kstats_precision_ppm(bits));
	report(&ck, "relative slot width <= 2^-%u, full range (%u slots, %u at the bound)",
	       bits, ovf, tight);
}

/* ------------------------------------------------ record/merge/total */

#define NR_CPUS_TEST	4
#define MERGE_VALUES	20000

static __u64 merge_value(__u32 bits, unsigned int i)
{
	switch (i % 4) {
	case 0:
		return rnd() % (4ULL << bits);		/* around 2^bits */
	case 1:
		return rnd() % 1000000;
	case 2:
		return rnd_mag();			/* overflow too */
	default:
		return rnd() >> 24;			/* up to 2^40 */
	}
}

/*
 * Values spread over NR_CPUS_TEST per-CPU arrays then merged give the same
 * slots as all values recorded in one; counts, sums and per-slot sums are
 * right; slot means lie in their slot.
 */
static void test_record_merge(__u32 bits)
{
	__u32 nbs[3] = { 0, kstats_default_buckets(bits), kstats_max_buckets(bits) };
	unsigned int c, i;
	struct check ck;

	check_init(&ck);
	for (c = 0; c < ARRAY_SIZE(nbs); c++) {
		__u32 nb = nbs[c], n = kstats_nr_slots(bits, nb), s, cpu;
		struct kstats_slot *pcpu[NR_CPUS_TEST], *all, *merged;
		__u64 *cnt = calloc(n, sizeof(*cnt)), sum = 0;
		u128 *rsum = calloc(n, sizeof(*rsum));

		all = calloc(n, sizeof(*all));
		merged = calloc(n, sizeof(*merged));
		for (cpu = 0; cpu < NR_CPUS_TEST; cpu++)
			pcpu[cpu] = calloc(n, sizeof(*pcpu[cpu]));
		if (!cnt || !rsum || !all || !merged) {
			fprintf(stderr, "out of memory\n");
			exit(2);
		}
		for (i = 0; i < MERGE_VALUES; i++) {
			__u64 v = merge_value(bits, i);

			/* Uneven spread: CPU 3 gets few values. */
			cpu = (rnd() % 16) % NR_CPUS_TEST;
			kstats_hist_add(pcpu[cpu], v, bits, nb);
			kstats_hist_add(all, v, bits, nb);
			s = ref_slot(v, bits, nb);
			cnt[s]++;
			rsum[s] += v;
			sum += v;
		}
		for (cpu = 0; cpu < NR_CPUS_TEST; cpu++)
			kstats_merge(merged, pcpu[cpu], n);
		CHECK(&ck, !memcmp(merged, all, n * sizeof(*all)),
		      "bits=%u buckets=%u merge of %u CPUs differs from one array",
		      bits, nb, NR_CPUS_TEST);
		CHECK_EQ(&ck, kstats_total(merged, n), MERGE_VALUES,
			 "bits=%u buckets=%u total", bits, nb);
		CHECK_EQ(&ck, kstats_total(pcpu[0], n) + kstats_total(pcpu[1], n) +
			      kstats_total(pcpu[2], n) + kstats_total(pcpu[3], n),
			 MERGE_VALUES, "bits=%u buckets=%u sum of per-CPU totals",
			 bits, nb);
		{
			__u64 ssum = 0;

			for (s = 0; s < n; s++)
				ssum += merged[s].sum;
			/* Both sides modulo 2^64. */
			CHECK_EQ(&ck, ssum, sum, "bits=%u buckets=%u sum of sums",
				 bits, nb);
		}
		for (s = 0; s < n; s++) {
			CHECK_EQ(&ck, merged[s].count, cnt[s],
				 "bits=%u buckets=%u count of slot %u", bits, nb, s);
			CHECK_EQ(&ck, merged[s].sum, (__u64)rsum[s],
				 "bits=%u buckets=%u sum of slot %u", bits, nb, s);
			if (!cnt[s]) {
				CHECK_EQ(&ck, kstats_slot_mean(&merged[s]), 0,
					 "bits=%u buckets=%u mean of empty slot %u",
					 bits, nb, s);
				continue;
			}
			/* The exact mean, as long as the sum did not wrap. */
			if (rsum[s] <= U64_MAX)
				CHECK_EQ(&ck, kstats_slot_mean(&merged[s]),
					 (__u64)(rsum[s] / cnt[s]),
					 "bits=%u buckets=%u mean of slot %u",
					 bits, nb, s);
		}
		/* Merging a partial range touches only that range. */
		memset(merged, 0, n * sizeof(*merged));
		kstats_merge(merged, all, n / 2);
		CHECK(&ck, !memcmp(merged, all, (n / 2) * sizeof(*all)) &&
			   kstats_total(merged + n / 2, n - n / 2) == 0,
		      "bits=%u buckets=%u merge of %u slots", bits, nb, n / 2);
		for (cpu = 0; cpu < NR_CPUS_TEST; cpu++)
			free(pcpu[cpu]);
		free(all);
		free(merged);
		free(cnt);
		free(rsum);
	}
	report(&ck, "record/merge/total %u CPUs, %u values bits=%u buckets=%u,%u,%u",
	       NR_CPUS_TEST, MERGE_VALUES, bits, nbs[0], nbs[1], nbs[2]);
}

/* ------------------------------------------------------- percentiles */

enum dist {
	D_UNIFORM, D_EXP, D_LOGNORMAL, D_BIMODAL, D_CONST, D_BELOW,
	D_AROUND, D_HEAVY, NR_DIST
};

static const char * const dist_name[NR_DIST] = {
	"uniform", "exponential", "lognormal", "bimodal", "constant",
	"below-2^bits", "around-2^bits", "heavy-tail",
};

/* @x as an integer, at most 2^40 - 1. */
static __u64 clamp40(double x)
{
	return x >= 0x1.0p40 ? (1ULL << 40) - 1 : (__u64)x;
}

/* All distributions stay below 2^40, the range of the default buckets. */
static __u64 draw(enum dist d, __u32 bits)
{
	double z;

	switch (d) {
	case D_UNIFORM:
		return 1000 + rnd() % 999000;
	case D_EXP:
		return (__u64)(-50000.0 * log(rnd_open()));
	case D_LOGNORMAL:
		z = sqrt(-2.0 * log(rnd_open())) * cos(2 * M_PI * rnd_open());
		return clamp40(exp(10.0 + 1.5 * z));
	case D_BIMODAL:
		if (rnd() & 1)
			return 2000 + rnd() % 200;
		return 5000000 + rnd() % 1000000;
	case D_CONST:
		return 123457;
	case D_BELOW:
		return rnd() & ((1ULL << bits) - 1);
	case D_AROUND:
		return rnd() % (4ULL << bits);
	case D_HEAVY:	/* Pareto, alpha 0.6, from 1000 up to 2^40 - 1 */
		return clamp40(1000.0 * pow(rnd_open(), -1.0 / 0.6));
	default:
		return 0;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/* Quantiles tested with kstats_percentile() besides the standard ones. */
static const __u32 extra_milli[] = { 0, 1, 10, 250, 333, 750, 995, 1000 };

struct pct_stat {
	double worst;		/* largest |est - true| / (true >> bits) */
	unsigned long long exact;	/* true < 2^bits, compared exactly */
};

/*
 * One quantile: est must equal the exact value below 2^bits, be in the same
 * slot and within true >> bits above; the value is never in the overflow
 * slot here.
 */
static void check_quantile(struct check *ck, struct pct_stat *st,
			   const __u64 *sorted, __u64 n, __u32 milli, __u64 est,
			   __u32 bits, __u32 nb, const char *what)
{
	__u64 rank = kstats_rank(n, milli), tv, err;

	CHECK(ck, rank >= 1 && rank <= n, "%s rank(%llu, %u)=%llu out of 1..%llu",
	      what, n, milli, rank, n);
	if (rank < 1 || rank > n)
		return;
	tv = sorted[rank - 1];
	if (tv < (1ULL << bits)) {
		st->exact++;
		CHECK(ck, est == tv, "%s p%u.%u: value %llu, expected %llu (exact)",
		      what, milli / 10, milli % 10, est, tv);
		return;
	}
	err = est > tv ? est - tv : tv - est;
	CHECK(ck, err <= (tv >> bits) &&
		  kstats_slot(est, bits, nb) == kstats_slot(tv, bits, nb),
	      "%s p%u.%u: value %llu, expected %llu +- %llu",
	      what, milli / 10, milli % 10, est, tv, tv >> bits);
	if ((double)err / (double)(tv >> bits) > st->worst)
		st->worst = (double)err / (double)(tv >> bits);
}

/*
 * Record @n samples in a histogram of @bits/@nb and compare percentiles
 * with the sorted reference.
 */
static void check_percentiles(struct check *ck, struct pct_stat *st,
			      const __u64 *vals, const __u64 *sorted, __u64 n,
			      __u32 bits, __u32 nb, const char *dname)
{
	__u32 ns = kstats_nr_slots(bits, nb), p;
	struct kstats_slot *h = calloc(ns, sizeof(*h));
	__u64 out[KSTATS_NR_PCT], total, i;
	char what[96];

	if (!h) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	snprintf(what, sizeof(what), "%s n=%llu bits=%u buckets=%u",
		 dname, n, bits, nb);
	for (i = 0; i < n; i++)
		kstats_hist_add(h, vals[i], bits, nb);
	total = kstats_total(h, ns);
	CHECK_EQ(ck, total, n, "%s total", what);
	kstats_percentiles(h, ns, bits, out);
	for (p = 0; p < KSTATS_NR_PCT; p++) {
		__u32 milli = kstats_pct_milli[p];
		__u64 one = kstats_percentile(h, ns, bits, total, milli);

		CHECK(ck, one == out[p],
		      "%s %s: kstats_percentile %llu, kstats_percentiles %llu",
		      what, kstats_pct_name[p], one, out[p]);
		check_quantile(ck, st, sorted, n, milli, out[p], bits, nb, what);
	}
	for (p = 0; p < ARRAY_SIZE(extra_milli); p++)
		check_quantile(ck, st, sorted, n, extra_milli[p],
			       kstats_percentile(h, ns, bits, total, extra_milli[p]),
			       bits, nb, what);
	free(h);
}

#define BIG_N		1000000
#define SMALL_N		100000

static void test_percentiles(__u32 bits, __u64 *vals, __u64 *sorted)
{
	__u32 nbs[2] = { kstats_default_buckets(bits), kstats_max_buckets(bits) };
	__u64 n = (bits == 0 || bits == 3 || bits == 5) ? BIG_N : SMALL_N, i;
	struct check ck[2];
	struct pct_stat st[2];
	unsigned int c;
	int d;

	memset(st, 0, sizeof(st));
	check_init(&ck[0]);
	check_init(&ck[1]);
	for (d = 0; d < NR_DIST; d++) {
		rng_seed(0x6b7374617473ULL + d * 1000 + bits);
		for (i = 0; i < n; i++)
			vals[i] = draw(d, bits);
		memcpy(sorted, vals, n * sizeof(*vals));
		qsort(sorted, n, sizeof(*sorted), cmp_u64);
		for (c = 0; c < 2; c++)
			check_percentiles(&ck[c], &st[c], vals, sorted, n, bits,
					  nbs[c], dist_name[d]);
	}
	for (c = 0; c < 2; c++)
		report(&ck[c], "percentiles bits=%u buckets=%u n=%llu, %d distributions (%llu exact, worst error %.3f of true>>bits)",
		       bits, nbs[c], n, NR_DIST, st[c].exact, st[c].worst);
}

/*
 * Log-uniform samples over the whole u64 range in a full-range histogram.
 * A slot whose count * value reaches 2^64 has its u64 sum wrapped, so its
 * mean (and the percentile) falls out of the slot: a known hist.h
 * limitation.
 */
static void test_percentiles_full_range(__u64 *vals, __u64 *sorted)
{
	const __u32 bits_list[] = { 0, 3, 5 };
	struct pct_stat st;
	struct check ck;
	unsigned int b;
	__u64 i, n = SMALL_N;

	memset(&st, 0, sizeof(st));
	check_init(&ck);
	for (b = 0; b < ARRAY_SIZE(bits_list); b++) {
		__u32 bits = bits_list[b];

		rng_seed(0x66756c6cULL + bits);
		for (i = 0; i < n; i++)
			vals[i] = rnd_mag();
		memcpy(sorted, vals, n * sizeof(*vals));
		qsort(sorted, n, sizeof(*sorted), cmp_u64);
		check_percentiles(&ck, &st, vals, sorted, n, bits,
				  kstats_max_buckets(bits), "log-uniform-u64");
	}
	report(&ck, "percentiles full u64 range (slot sums wrap), log-uniform n=%llu bits=0,3,5 max buckets",
	       n);
}

/* Two values >= 2^63: the slot sum wraps, the estimate stays in bound. */
static void test_mean_wrap(void)
{
	struct check ck;
	__u32 bits;

	check_init(&ck);
	for (bits = 0; bits <= KSTATS_BITS_MAX; bits++) {
		__u32 nb = kstats_max_buckets(bits), ns = kstats_nr_slots(bits, nb);
		const __u64 v[] = { U64_MAX, 1ULL << 63 };
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(v); i++) {
			struct kstats_slot *h = calloc(ns, sizeof(*h));

			if (!h)
				exit(2);
			kstats_hist_add(h, v[i], bits, nb);
			kstats_hist_add(h, v[i], bits, nb);
			{
				__u64 est = kstats_percentile(h, ns, bits, 2, 500);
				__u64 err = est > v[i] ? est - v[i] : v[i] - est;

				CHECK(&ck, err <= v[i] >> bits,
				      "bits=%u p50 of {%llu, %llu}: value %llu, error %llu > bound %llu",
				      bits, v[i], v[i], est, err, v[i] >> bits);
			}
			free(h);
		}
	}
	report(&ck, "slot sum wraps: p50 of two equal values >= 2^63 within bound, bits=0..%u max buckets",
	       KSTATS_BITS_MAX);
}

/* ----------------------------------------------------------- ranks */

/* Definition: smallest r >= total * milli / 1000, at least 1. */
static __u64 ref_rank(__u64 total, __u32 milli)
{
	u128 num = (u128)total * milli;
	u128 r = (num + 999) / 1000;

	return r ? (__u64)r : 1;
}

static void check_rank(struct check *ck, __u64 total, __u32 milli)
{
	__u64 r = kstats_rank(total, milli);
	u128 num = (u128)total * milli;

	CHECK_EQ(ck, r, ref_rank(total, milli), "rank(%llu, %u)", total, milli);
	/* Double-check the reference against the definition itself. */
	CHECK(ck, r >= 1 && (u128)r * 1000 >= num &&
		  (r == 1 || (u128)(r - 1) * 1000 < num),
	      "rank(%llu, %u)=%llu is not ceil(total*milli/1000)",
	      total, milli, r);
	CHECK(ck, total == 0 || r <= total, "rank(%llu, %u)=%llu > total",
	      total, milli, r);
}

static void test_rank(void)
{
	const __u64 small[] = { 1, 2, 999, 1000, 1001 };
	const __u64 big[] = {
		3, 7, 1999, 123456789, (1ULL << 32) + 1, U64_MAX / 1000,
		U64_MAX / 1000 * 1000, U64_MAX - 1, U64_MAX,
	};
	struct check ck;
	unsigned int i, m;

	check_init(&ck);
	for (i = 0; i < ARRAY_SIZE(small); i++)
		for (m = 0; m <= 1000; m++)
			check_rank(&ck, small[i], m);
	/* Spot values: 10% of 1 is the 1st, 99.9% of 1001 the 1000th... */
	CHECK_EQ(&ck, kstats_rank(1, 100), 1, "rank(1, 100)");
	CHECK_EQ(&ck, kstats_rank(2, 500), 1, "rank(2, 500)");
	CHECK_EQ(&ck, kstats_rank(2, 501), 2, "rank(2, 501)");
	CHECK_EQ(&ck, kstats_rank(999, 999), 999, "rank(999, 999)");
	CHECK_EQ(&ck, kstats_rank(1000, 999), 999, "rank(1000, 999)");
	CHECK_EQ(&ck, kstats_rank(1001, 999), 1000, "rank(1001, 999)");
	CHECK_EQ(&ck, kstats_rank(1001, 1000), 1001, "rank(1001, 1000)");
	report(&ck, "kstats_rank totals 1,2,999,1000,1001, milli 0..1000");

	check_init(&ck);
	for (i = 0; i < ARRAY_SIZE(big); i++)
		for (m = 0; m <= 1000; m++)
			check_rank(&ck, big[i], m);
	for (i = 0; i < 20000; i++)
		check_rank(&ck, rnd_mag(), rnd() % 1001);
	report(&ck, "kstats_rank large and random totals up to U64_MAX");
}

/* Percentiles of small histograms, and of an empty one. */
static void test_small_and_empty(void)
{
	const __u64 totals[] = { 1, 2, 3, 999, 1000, 1001 };
	const __u32 bits_list[] = { 0, 3, 8 };
	__u64 vals[1001], sorted[1001];
	struct pct_stat st;
	struct check ck;
	unsigned int t, b, p;

	memset(&st, 0, sizeof(st));
	check_init(&ck);
	for (b = 0; b < ARRAY_SIZE(bits_list); b++) {
		__u32 bits = bits_list[b], nb = kstats_default_buckets(bits);

		for (t = 0; t < ARRAY_SIZE(totals); t++) {
			__u64 i;

			for (i = 0; i < totals[t]; i++)
				vals[i] = rnd() % ((i & 1) ? 300 : 100000);
			memcpy(sorted, vals, totals[t] * sizeof(*vals));
			qsort(sorted, totals[t], sizeof(*sorted), cmp_u64);
			check_percentiles(&ck, &st, vals, sorted, totals[t],
					  bits, nb, "small");
		}
	}
	report(&ck, "percentiles of 1, 2, 3, 999, 1000, 1001 samples bits=0,3,8");

	check_init(&ck);
	for (b = 0; b <= KSTATS_BITS_MAX; b++) {
		__u32 nb = kstats_default_buckets(b), ns = kstats_nr_slots(b, nb);
		struct kstats_slot *h = calloc(ns, sizeof(*h));
		__u64 out[KSTATS_NR_PCT];

		if (!h)
			exit(2);
		for (p = 0; p < KSTATS_NR_PCT; p++)
			out[p] = 0xdeadbeef;
		kstats_percentiles(h, ns, b, out);
		CHECK_EQ(&ck, kstats_total(h, ns), 0, "bits=%u empty total", b);
		for (p = 0; p < KSTATS_NR_PCT; p++) {
			CHECK_EQ(&ck, out[p], 0, "bits=%u empty kstats_percentiles %s",
				 b, kstats_pct_name[p]);
			CHECK_EQ(&ck, kstats_percentile(h, ns, b, 0, kstats_pct_milli[p]),
				 0, "bits=%u empty kstats_percentile %s",
				 b, kstats_pct_name[p]);
		}
		CHECK(&ck, kstats_rank_slot(h, ns, 1) == -1,
		      "bits=%u empty rank_slot: value %d, expected -1",
		      b, kstats_rank_slot(h, ns, 1));
		/* One value: every percentile is that value, rank 2 is absent. */
		kstats_hist_add(h, 77, b, nb);
		kstats_percentiles(h, ns, b, out);
		for (p = 0; p < KSTATS_NR_PCT; p++)
			CHECK_EQ(&ck, out[p], 77, "bits=%u single value %s",
				 b, kstats_pct_name[p]);
		CHECK(&ck, kstats_rank_slot(h, ns, 2) == -1,
		      "bits=%u rank_slot(2) of 1 value: value %d, expected -1",
		      b, kstats_rank_slot(h, ns, 2));
		CHECK_EQ(&ck, kstats_rank_slot(h, ns, 1), kstats_slot(77, b, nb),
			 "bits=%u rank_slot(1) of 1 value", b);
		free(h);
	}
	report(&ck, "empty and single-value histograms bits=0..%u", KSTATS_BITS_MAX);
}

/* ------------------------------------------------------------ main */

int main(void)
{
	struct timespec t0, t1;
	__u64 *vals, *sorted;
	__u32 bits;

	setvbuf(stdout, NULL, _IOLBF, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rng_seed(0x6b73746174730001ULL);

	for (bits = 0; bits <= KSTATS_BITS_MAX; bits++) {
		test_slot_edges(bits);
		test_values(bits);
		test_overflow(bits);
		test_monotonic(bits);
		test_width(bits);
	}
	for (bits = 0; bits <= KSTATS_BITS_MAX; bits++)
		test_record_merge(bits);
	test_rank();
	test_small_and_empty();

	vals = malloc(BIG_N * sizeof(*vals));
	sorted = malloc(BIG_N * sizeof(*sorted));
	if (!vals || !sorted) {
		fprintf(stderr, "out of memory\n");
		return 2;
	}
	for (bits = 0; bits <= KSTATS_BITS_MAX; bits++)
		test_percentiles(bits, vals, sorted);
	test_percentiles_full_range(vals, sorted);
	test_mean_wrap();
	free(vals);
	free(sorted);

	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# %.2f s\n", (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	return tap_end();
}
