/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats architecture differences: the counter clock ("clock tsc": the
 * TSC on x86-64, the arch timer's CNTVCT on arm64), its name in the node
 * text, its frequency and whether it can stand for time;
 * whether the direct backend has a trampoline here (ks_tramp.S,
 * ks_tramp_arm64.S) and the calling convention its BTF rule follows.
 * Everything else is shared.
 */
#ifndef _KSTATS_ARCH_H
#define _KSTATS_ARCH_H

#include <linux/errno.h>
#include <linux/kconfig.h>
#include <linux/types.h>
#include <kstats/contract.h>

#include <linux/kernel_stat.h>

#if defined(CONFIG_X86_64)
#include <asm/msr.h>
#include <asm/tsc.h>
#include <asm/hardirq.h>
#ifdef KS_CSID_TSC
#include <linux/timekeeping.h>
#endif

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

/* ks_tramp.S reads the TSC itself wherever it stands for time. */
static inline bool ks_counter_plain(void)
{
	return true;
}

/* The counter's name in the node text (clock=). */
#define KS_COUNTER_NAME		KS_CLOCK_NAME_TSC

/* The counter's frequency in Hz (0: unknown). */
static inline u64 ks_cycles_hz(void)
{
	return boot_cpu_has(X86_FEATURE_TSC) ? tsc_khz * 1000ULL : 0;
}

/*
 * Does the counter stand for time, and by which rule (KS_CLOCK_BY_*)?
 * Never once the kernel has found the TSC unstable (its clocksource
 * watchdog, a CPU whose TSC disagrees: it then stops trusting it for
 * sched_clock() too).  Else where it ticks at one rate whatever the CPU's
 * frequency (constant) and in every C-state (nonstop); or, without those
 * flags (QEMU's default CPU model, many KVM and cloud guests), where the
 * kernel keeps its own time on the TSC clocksource (6.12 and later name
 * it in a timekeeping snapshot).  Either can change at any time:
 * ks_clock.c's watch asks again every second.
 *
 * Return: the rule, or NULL: local_clock().
 */
static inline const char *ks_counter_rule(void)
{
	if (!boot_cpu_has(X86_FEATURE_TSC) || check_tsc_unstable())
		return NULL;
	if (boot_cpu_has(X86_FEATURE_CONSTANT_TSC) &&
	    boot_cpu_has(X86_FEATURE_NONSTOP_TSC))
		return KS_CLOCK_BY_INVARIANT;
#ifdef KS_CSID_TSC
	{
		struct system_time_snapshot snap;

#ifdef KS_SNAPSHOT_ID
		ktime_get_snapshot_id(CLOCK_MONOTONIC, &snap);
#else
		ktime_get_snapshot(&snap);
#endif
		if (snap.cs_id == CSID_X86_TSC)
			return KS_CLOCK_BY_CLOCKSOURCE;
	}
#endif
	return NULL;
}

#elif defined(CONFIG_ARM64)
#include <asm/arch_timer.h>

/* ks_tramp_arm64.S, through ftrace's direct calls (6.12 and later) */
#define KS_HAVE_DIRECT	IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS)
#define KS_TRAMP_SAMPLES	1

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
 * May ks_tramp_arm64.S read CNTVCT itself?  Not where a CPU's counter
 * needs the kernel's workaround (an erratum handler): the C path then.
 */
static inline bool ks_counter_plain(void)
{
#if IS_ENABLED(CONFIG_ARM_ARCH_TIMER_OOL_WORKAROUND)
	int cpu;

	for_each_possible_cpu(cpu) {
		const struct arch_timer_erratum_workaround *wa =
			per_cpu(timer_unstable_counter_workaround, cpu);

		if (wa && wa->read_cntvct_el0)
			return false;
	}
#endif
	return true;
}

#define KS_COUNTER_NAME		KS_CLOCK_NAME_CNTVCT

/* The counter's frequency in Hz. */
static inline u64 ks_cycles_hz(void)
{
	return arch_timer_get_cntfrq();
}

/*
 * The architecture makes the generic timer's counter run at one fixed
 * rate on every CPU, in every power state: sched_clock(), and so
 * local_clock(), is always that counter scaled on arm64.
 */
static inline const char *ks_counter_rule(void)
{
	return KS_CLOCK_BY_ARCH;
}

#endif

#endif /* _KSTATS_ARCH_H */
