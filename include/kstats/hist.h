/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * kstats histogram core: the one definition of the log-linear histogram
 * shared by the kernel module, the command-line tool and the unit tests.
 *
 * A value v (u64, ns or cycles) with b fractional bits maps to a slot:
 *   - v < 2^b:  slot v (exact, one value per slot);
 *   - v >= 2^b: with m = index of the leading one bit (m >= b), the
 *     power-of-two range k = m - b + 1 (1 .. 64 - b) and the b bits after
 *     the leading one pick one of 2^b linear sub-slots:
 *         slot = k * 2^b + ((v >> (m - b)) & (2^b - 1)).
 *   - a histogram with N power-of-two ranges has (N + 1) * 2^b regular
 *     slots; values of range k > N land in the overflow slot, the last one.
 * A slot of range k >= 1 holds [lo, lo + 2^(k-1)), lo >= 2^(b+k-1), so its
 * relative width is at most 2^-b: that is the precision of every estimate.
 *
 * Percentiles are the mean of the slot that holds the ranked sample
 * (each slot keeps count and sum), clamped into the slot, so they are exact
 * for values below 2^b and within the slot, hence within 2^-b relative
 * error, above.
 *
 * Freestanding: only the __u64/__u32 types of <linux/types.h>, usable from
 * the kernel and from userspace alike.  Everything is static inline.
 */
#ifndef _KSTATS_HIST_H
#define _KSTATS_HIST_H

#include <linux/types.h>
#include <kstats/contract.h>	/* the reported percentiles */

#define KSTATS_BITS_MAX		8	/* 256 sub-slots per power of two */
#define KSTATS_BITS_DEFAULT	3

/* Power-of-two ranges above the linear part; default covers up to 2^40. */
#define KSTATS_RANGE_BITS	40

/* One slot: how many values fell in it and their sum. */
struct kstats_slot {
	__u64 count;
	__u64 sum;
};

/* Largest number of power-of-two ranges @bits allows (value fits in u64). */
static inline __u32 kstats_max_buckets(__u32 bits)
{
	return 64 - bits;
}

/* Default number of power-of-two ranges for @bits (values up to 2^40). */
static inline __u32 kstats_default_buckets(__u32 bits)
{
	return KSTATS_RANGE_BITS - bits;
}

/* Number of slots, the overflow slot included. */
static inline __u32 kstats_nr_slots(__u32 bits, __u32 buckets)
{
	return ((buckets + 1) << bits) + 1;
}

/* Index of the overflow slot. */
static inline __u32 kstats_overflow_slot(__u32 bits, __u32 buckets)
{
	return (buckets + 1) << bits;
}

/*
 * Slot of value @v.  With sh = max(m - b, 0), m the leading one's index,
 * the slot is (sh << b) + (v >> sh): for v >= 2^b, v >> sh is 2^b plus the
 * sub-slot, which turns ((sh + 1) << b) + sub into that sum; below 2^b,
 * sh = 0 and the slot is v.  Setting bit b before finding the leading one
 * gives that sh without a branch.  This runs on every traced call.
 */
static inline __u32 kstats_slot(__u64 v, __u32 bits, __u32 buckets)
{
	/* clz ^ 63 is the leading one's index (one bsr on x86) */
	__u32 sh = ((__u32)__builtin_clzll(v | (1ULL << bits)) ^ 63) - bits;

	if (sh >= buckets && (v >> bits))	/* range sh + 1 is past the last */
		return kstats_overflow_slot(bits, buckets);
	return (sh << bits) + (__u32)(v >> sh);
}

/* Smallest value of slot @s (the overflow slot starts past the last range). */
static inline __u64 kstats_slot_lo(__u32 s, __u32 bits)
{
	__u32 k = s >> bits;
	__u64 sub = s & ((1U << bits) - 1);

	if (k == 0)
		return s;
	if (k + bits - 1 >= 64)		/* overflow slot of a full-range histogram */
		return ~0ULL;
	return ((1ULL << bits) + sub) << (k - 1);
}

/* Largest value of slot @s, inclusive (U64_MAX for the overflow slot). */
static inline __u64 kstats_slot_hi(__u32 s, __u32 bits, __u32 buckets)
{
	__u32 k = s >> bits;

	if (s >= kstats_overflow_slot(bits, buckets))
		return ~0ULL;
	if (k == 0)
		return s;
	return kstats_slot_lo(s, bits) + ((1ULL << (k - 1)) - 1);
}

/* Account value @v in @slots. */
static inline void kstats_hist_add(struct kstats_slot *slots, __u64 v,
				   __u32 bits, __u32 buckets)
{
	struct kstats_slot *sl = &slots[kstats_slot(v, bits, buckets)];

	sl->count++;
	sl->sum += v;
}

/* Add @n slots of @src into @dst. */
static inline void kstats_merge(struct kstats_slot *dst,
				const struct kstats_slot *src, __u32 n)
{
	__u32 i;

	for (i = 0; i < n; i++) {
		dst[i].count += src[i].count;
		dst[i].sum += src[i].sum;
	}
}

/* Mean of one slot (0 when empty). */
static inline __u64 kstats_slot_mean(const struct kstats_slot *sl)
{
	return sl->count ? sl->sum / sl->count : 0;
}

/*
 * @v kept inside slot @s: a slot's mean (or an extreme) read racily, or
 * from a sum that wrapped, lies in the slot again.  The one clamp of the
 * tree: the module's node text, the CLI's reader and its deltas use it.
 */
static inline __u64 kstats_slot_clamp(__u64 v, __u32 s, __u32 bits,
				      __u32 buckets)
{
	__u64 lo = kstats_slot_lo(s, bits);
	__u64 hi = kstats_slot_hi(s, bits, buckets);

	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * The value reported for slot @s of @n: its mean, clamped into the slot's
 * bounds (the u64 sum of a slot wraps once count * value reaches 2^64,
 * which only full-range histograms of huge values can reach).  Slot
 * @n - 1 is the overflow slot, so the buckets are @n's.
 */
static inline __u64 kstats_slot_value(const struct kstats_slot *slots,
				      __u32 s, __u32 bits, __u32 n)
{
	__u32 buckets = ((n - 1) >> bits) - 1;	/* kstats_nr_slots() undone */

	return kstats_slot_clamp(kstats_slot_mean(&slots[s]), s, bits, buckets);
}

/* Total number of values in @n slots. */
static inline __u64 kstats_total(const struct kstats_slot *slots, __u32 n)
{
	__u64 t = 0;
	__u32 i;

	for (i = 0; i < n; i++)
		t += slots[i].count;
	return t;
}

/*
 * Rank (1-based) of the @milli/1000 quantile of @total values: the smallest
 * r with r >= total * milli / 1000, at least 1.
 */
static inline __u64 kstats_rank(__u64 total, __u32 milli)
{
	__u64 r = total / 1000 * milli + ((total % 1000) * milli + 999) / 1000;

	return r ? r : 1;
}

/*
 * Slot holding the value of rank @rank (1-based) in @n slots,
 * or -1 when there are fewer values than @rank.
 */
static inline int kstats_rank_slot(const struct kstats_slot *slots, __u32 n,
				   __u64 rank)
{
	__u64 seen = 0;
	__u32 i;

	for (i = 0; i < n; i++) {
		seen += slots[i].count;
		if (seen >= rank)
			return (int)i;
	}
	return -1;
}

/*
 * The @milli/1000 quantile estimate of @n slots of @bits: the value of the
 * slot holding it (0 when the histogram is empty).
 */
static inline __u64 kstats_percentile(const struct kstats_slot *slots,
				      __u32 n, __u32 bits, __u64 total,
				      __u32 milli)
{
	int s;

	if (!total)
		return 0;
	s = kstats_rank_slot(slots, n, kstats_rank(total, milli));
	return s < 0 ? 0 : kstats_slot_value(slots, (__u32)s, bits, n);
}

/* All KSTATS_NR_PCT percentiles of @n slots of @bits in one pass. */
static inline void kstats_percentiles(const struct kstats_slot *slots,
				      __u32 n, __u32 bits,
				      __u64 out[KSTATS_NR_PCT])
{
	__u64 total = kstats_total(slots, n), seen = 0, rank;
	__u32 i, p = 0;

	for (p = 0; p < KSTATS_NR_PCT; p++)
		out[p] = 0;
	if (!total)
		return;
	p = 0;
	rank = kstats_rank(total, kstats_pct_milli[0]);
	for (i = 0; i < n && p < KSTATS_NR_PCT; i++) {
		seen += slots[i].count;
		while (p < KSTATS_NR_PCT && seen >= rank) {
			out[p++] = kstats_slot_value(slots, i, bits, n);
			if (p < KSTATS_NR_PCT)
				rank = kstats_rank(total, kstats_pct_milli[p]);
		}
	}
}

/* Precision of estimates in parts per million: 2^-bits. */
static inline __u32 kstats_precision_ppm(__u32 bits)
{
	return 1000000U >> bits;
}

#endif /* _KSTATS_HIST_H */
