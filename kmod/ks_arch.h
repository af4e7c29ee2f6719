/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats architecture differences: the counter clock ("clock tsc": the
 * TSC on x86-64, the arch timer's CNTVCT on arm64) and its frequency;
 * whether the direct backend has a trampoline here (ks_tramp.S,
 * ks_tramp_arm64.S) and the calling convention its BTF rule follows.
 * Everything else is shared.
 */
#ifndef _KSTATS_ARCH_H
#define _KSTATS_ARCH_H

#include <linux/errno.h>
#include <linux/kconfig.h>
#include <linux/types.h>

#if defined(CONFIG_X86_64)
#include <asm/msr.h>
#include <asm/tsc.h>

#define KS_HAVE_DIRECT	1
/* the trampoline counts sampled-out calls down itself (one decl %gs:) */
#define KS_TRAMP_SAMPLES	1

/*
 * The calling convention the direct backend's BTF rule follows (ks_btf.c):
 * six argument registers; a struct argument of more than 16 bytes goes on
 * the stack (refused); a returned one takes rdi for its address.
 */
#define KS_ARG_REGS		6
#define KS_BIG_STRUCT_REGS	(-E2BIG)
#define KS_BIG_RETURN_REGS	1

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

/* ks_tramp_arm64.S, through ftrace's direct calls (6.12 and later) */
#define KS_HAVE_DIRECT	IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS)
#define KS_TRAMP_SAMPLES	0

/*
 * AAPCS64: eight argument registers; a struct argument of more than 16
 * bytes is passed by reference, one register; a returned one takes x8,
 * which the trampoline does not keep (refused).
 */
#define KS_ARG_REGS		8
#define KS_BIG_STRUCT_REGS	1
#define KS_BIG_RETURN_REGS	(-E2BIG)

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
