// SPDX-License-Identifier: GPL-2.0
/*
 * The direct trampoline's slot computation against kstats_slot() of
 * include/kstats/hist.h: for every bits, the default and the largest
 * number of buckets, at every slot's lowest and highest value and one
 * past each, and at a million random values of every magnitude.  Built
 * twice: x86-64's (kmod/ks_slot_x86.h, assembled by slot_asm.S) as
 * test_slot_asm, arm64's (kmod/ks_slot_arm64.h, by slot_asm_arm64.S) as
 * test_slot_asm_arm64, cross-built and run under qemu-aarch64 where this
 * is not an arm64 machine (Makefile).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kstats/hist.h>
/* where the assembly reads the per-CPU constants */
#include "slot_offsets.h"
#include "../tap.h"

#if defined(__x86_64__)
#define SLOT_ARCH	"x86-64"
#elif defined(__aarch64__)
#define SLOT_ARCH	"arm64"
#else
#error "no trampoline slot code for this architecture"
#endif

unsigned int ks_test_slot(unsigned long long v, const void *pcpu);

/* The per-CPU part the assembly reads, as ks_direct.c fills it. */
static unsigned int asm_slot(__u64 v, __u32 bits, __u32 buckets)
{
	unsigned char pcpu[128] __attribute__((aligned(16)));
	__u64 one = 1ULL << bits;
	__u32 two = 2U << bits;

	memset(pcpu, 0xa5, sizeof(pcpu));
	memcpy(pcpu + KS_PCPU_ONE, &one, sizeof(one));
	memcpy(pcpu + KS_PCPU_TWO, &two, sizeof(two));
	memcpy(pcpu + KS_PCPU_BITS, &bits, sizeof(bits));
	memcpy(pcpu + KS_PCPU_BUCKETS, &buckets, sizeof(buckets));
	return ks_test_slot(v, pcpu);
}

/* One value: the first disagreement goes into @why. */
static int same(__u64 v, __u32 bits, __u32 buckets, char *why, size_t n)
{
	unsigned int a = asm_slot(v, bits, buckets);
	__u32 c = kstats_slot(v, bits, buckets);

	if (a == c)
		return 1;
	if (!why[0])
		snprintf(why, n, "bits %u buckets %u value %llu: assembly %u, hist.h %u",
			 bits, buckets, (unsigned long long)v, a, c);
	return 0;
}

static __u64 next(__u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int main(void)
{
	__u64 seed = 0x9e3779b97f4a7c15ULL;
	__u32 bits;

	for (bits = 0; bits <= KSTATS_BITS_MAX; bits++) {
		__u32 sizes[2] = { kstats_default_buckets(bits), kstats_max_buckets(bits) };
		int k;

		for (k = 0; k < 2; k++) {
			__u32 buckets = sizes[k], ovf = kstats_overflow_slot(bits, buckets);
			unsigned long checks = 0, bad = 0;
			char why[160] = "";
			__u32 s;
			int i;

			for (s = 0; s < ovf; s++) {
				__u64 lo = kstats_slot_lo(s, bits), hi = kstats_slot_hi(s, bits, buckets);
				__u64 vs[4] = { lo, hi, lo - 1, hi + 1 };
				int j;

				for (j = 0; j < 4; j++) {
					if ((j == 2 && !lo) || (j == 3 && hi == ~0ULL))
						continue;
					checks++;
					bad += !same(vs[j], bits, buckets, why, sizeof(why));
				}
			}
			for (i = 0; i < 1000000 / 18; i++) {
				__u64 v = next(&seed) >> (next(&seed) % 64);

				checks++;
				bad += !same(v, bits, buckets, why, sizeof(why));
			}
			checks++;
			bad += !same(~0ULL, bits, buckets, why, sizeof(why));
			tap_result(!bad, SLOT_ARCH " trampoline slot = kstats_slot(): bits %u, %u buckets, %lu values at every slot edge and random%s%s",
				   bits, buckets, checks, bad ? ": " : "", why);
		}
	}
	return tap_end();
}
