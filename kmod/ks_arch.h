/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats architecture differences: the counter clock ("clock tsc": the
 * TSC on x86-64, the arch timer's CNTVCT on arm64) and its frequency, and
 * whether the direct backend has a trampoline here (ks_tramp.S: x86-64).
 * Everything else is shared.
 */
#ifndef _KSTATS_ARCH_H
#define _KSTATS_ARCH_H

#include <linux/types.h>

#if defined(CONFIG_X86_64)
#include <asm/msr.h>
#include <asm/tsc.h>

#define KS_HAVE_DIRECT	1

/* The counter clock, ordered against the code it times. */
static __always_inline u64 ks_cycles(void)
{
	return rdtsc_ordered();
}

/*
 * The counter's frequency in kHz when local_clock() is that counter scaled
 * (a stable TSC), else 0.
 */
static inline u32 ks_cycles_khz(void)
{
	if (!boot_cpu_has(X86_FEATURE_TSC) || check_tsc_unstable())
		return 0;
	return tsc_khz;
}

#elif defined(CONFIG_ARM64)
#include <asm/arch_timer.h>

#define KS_HAVE_DIRECT	0

/*
 * The counter clock: CNTVCT, through the kernel's workaround for CPUs
 * whose counter needs one, ordered against the code it times.
 */
static __always_inline u64 ks_cycles(void)
{
	return __arch_counter_get_cntvct_stable();
}

/*
 * The counter's frequency in kHz: sched_clock(), and so local_clock(), is
 * always that counter scaled on arm64.
 */
static inline u32 ks_cycles_khz(void)
{
	return arch_timer_get_cntfrq() / 1000;
}

#endif

#endif /* _KSTATS_ARCH_H */
