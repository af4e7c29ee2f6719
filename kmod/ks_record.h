/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats hot path: what every backend's handlers run for a timed call,
 * from the filters at its entry to the slots it is added to.
 */
#ifndef _KSTATS_RECORD_H
#define _KSTATS_RECORD_H

#include <linux/math64.h>
#include <linux/sched/clock.h>
#include <asm/local64.h>
#include "ks_types.h"
#include "ks_slots.h"
#include "ks_slowest.h"

/*
 * The hot path, shared by every backend.  Its own functions are notrace;
 * what it reaches that can be traced (the irq_work a CPU without slots
 * raises) runs under the backends' recursion guards: ftrace's on the
 * direct backend (ks_direct.c), the kprobe framework's and fprobe's on
 * the others, so no handler recurses into itself.  Counters (skip,
 * clamped, inflight, GAP's t0) are single this_cpu instructions, safe
 * against interrupts, NMIs and migration without disabling anything;
 * ks_record() holds preemption off for the few instructions that find
 * this CPU's slots and add to them (the direct backend's exit runs
 * preemptible; the others' handlers run with preemption off).
 */

/* Eight bytes at @p, whatever its alignment (one load on x86). */
static __always_inline u64 ks_load8(const void *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Does the current task's comm equal @want (both NUL-padded to 16)? */
static __always_inline bool ks_comm_is(const char *want)
{
	return ks_load8(current->comm) == ks_load8(want) &&
	       ks_load8(current->comm + 8) == ks_load8(want + 8);
}

/* Should the call starting now on this CPU be timed? */
static __always_inline bool ks_want(struct ks_node *node)
{
	if (!READ_ONCE(node->active))
		return false;
	if (likely(!node->filtered))
		return true;
	if (node->cmd.pid >= 0 && current->pid != node->cmd.pid)
		return false;
	if (node->cmd.tgid >= 0 && current->tgid != node->cmd.tgid)
		return false;
	if (node->cmd.comm[0] && !ks_comm_is(node->cmd.comm))
		return false;
	if (node->by_cpu &&
	    !cpumask_test_cpu(raw_smp_processor_id(), node->cpus))
		return false;
	if (node->cmd.sample > 1) {
		/* the trampoline counts down its gate if fast_sample */
		if (node->fast_sample) {
			this_cpu_write(node->pcpu->gate, node->cmd.sample - 1);
			return true;
		}
		if (this_cpu_dec_return(ks_pcpu_x(node)->skip) >= 0)
			return false;
		this_cpu_write(ks_pcpu_x(node)->skip, node->cmd.sample - 1);
	}
	return true;
}

/*
 * The node's clock, in raw units: the counter (the TSC, CNTVCT) when the
 * node counts cycles, which the text shows as ns where the counter stands
 * for time (as local_clock() itself does on such machines, for a tenth of
 * its cost), else local_clock().
 */
static __always_inline u64 ks_now(const struct ks_node *node)
{
	if (likely(node->use_counter))
		return ks_cycles();
	return local_clock();
}

/*
 * The time from @start to @end, two ks_now() readings, in the unit of the
 * node's slots: as read, or local_clock()'s ns turned into counter cycles
 * once a node that counts cycles has fallen back to local_clock().  A
 * negative time (a call that moved to a CPU whose clock reads earlier)
 * counts as 0.
 */
static __always_inline u64 ks_delta(struct ks_node *node, u64 start, u64 end)
{
	u64 d = end - start;

	if (unlikely((s64)d < 0)) {
		this_cpu_inc(node->pcpu->clamped);
		return 0;
	}
	if (likely(!node->to_count))
		return d;
	/*
	 * mul_u64_u32_shr() as math64.h writes it without __int128: exact,
	 * since the high half's product is a whole number of 2^24.  Its
	 * __int128 form makes gcc realign the stack (the kernel's is 8-byte
	 * aligned) in every handler that inlines it: 9 to 13 instructions
	 * more per timed call, measured with make bench.
	 */
	return (mul_u32_u32(d, node->to_count) >> KS_MULT_SHIFT) +
	       (mul_u32_u32(d >> 32, node->to_count) << (32 - KS_MULT_SHIFT));
}

/*
 * Which of @c's histograms a call from @ip goes to: its call site's, the
 * first free one claimed for it, or the rest's (@c->n).
 */
static __always_inline u32 ks_caller_index(struct ks_callers *c,
					   unsigned long ip)
{
	unsigned long seen;
	u32 i;

	if (unlikely(!ip))
		return c->n;
	for (i = 0; i < c->n; i++) {
		seen = READ_ONCE(c->ip[i]);
		if (seen == ip)
			return i;
		if (!seen) {
			seen = cmpxchg(&c->ip[i], 0, ip);
			if (!seen || seen == ip)
				return i;
		}
	}
	return c->n;
}

/*
 * Add @v to slot @s of a histogram on this CPU (preemption off): count and
 * sum, each one local (interrupt- and NMI-safe) addition.
 */
static __always_inline void ks_slot_add(struct kstats_slot *sl, u32 s, u64 v)
{
	local64_inc((local64_t *)&sl[s].count);
	local64_add(v, (local64_t *)&sl[s].sum);
}

/* Add @v to @node's histogram @i of ks_caller_index(), as ks_record() does. */
static __always_inline void ks_record_site(struct ks_node *node,
					   struct kstats_slot *sl, u32 s,
					   u64 v, u32 i)
{
	struct ks_callers *c = node->callers;
	u64 old;

	sl += (size_t)(i + 1) * node->nslots;
	ks_slot_add(sl, s, v);
	old = READ_ONCE(c->max[i]);
	while (v > old) {
		u64 seen = cmpxchg64(&c->max[i], old, v);

		if (seen == old)
			break;
		old = seen;
	}
}

/* Add @v to @node's histogram of the call site @ip. */
static __always_inline void ks_record_caller(struct ks_node *node,
					     struct kstats_slot *sl, u32 s,
					     u64 v, unsigned long ip)
{
	ks_record_site(node, sl, s, v, ks_caller_index(node->callers, ip));
}

/*
 * Account one value on this CPU.  Preemption is off, so the slots are this
 * CPU's throughout: count and sum are single local (interrupt- and
 * NMI-safe) additions, min and max a per-CPU compare-exchange retried
 * until it holds.  An interrupt between them may bring a reset (ks_reset()'s
 * IPI): the reader repairs such a slot (ks_show.c).  A CPU without slots
 * takes a spare, or counts the call as unslotted (missed).  As ks_tramp.S's
 * ks_direct_fast does it.  A call that returns to @ip (0: unknown) also
 * goes to its call site's histogram when the node keeps them.
 */
static __always_inline void ks_record_from(struct ks_node *node, u64 v,
					   unsigned long ip)
{
	struct ks_pcpu __percpu *pc = node->pcpu;
	u32 s = kstats_slot(v, node->cmd.bits, node->cmd.buckets);
	struct kstats_slot *sl;
	u64 old;

	preempt_disable_notrace();
	sl = __this_cpu_read(pc->slots);
	if (unlikely(!sl)) {
		sl = ks_slots_claim(node);
		if (!sl) {
			atomic_long_inc(&node->unslotted);
			goto out;
		}
	}
	ks_slot_add(sl, s, v);
	old = this_cpu_read(pc->min);
	while (v < old) {
		u64 seen = this_cpu_cmpxchg(pc->min, old, v);

		if (seen == old)
			break;
		old = seen;
	}
	old = this_cpu_read(pc->max);
	while (v > old) {
		u64 seen = this_cpu_cmpxchg(pc->max, old, v);

		if (seen == old)
			break;
		old = seen;
	}
	if (unlikely(node->callers))
		ks_record_caller(node, sl, s, v, ip);
out:
	preempt_enable_notrace();
}

static __always_inline void ks_record(struct ks_node *node, u64 v)
{
	ks_record_from(node, v, 0);
}

/*
 * What a call's entry and end compare for "slowest": this CPU's
 * disturbance word (ks_slowest.c).  It holds the CPU's number in its low
 * bits; every interrupt on the CPU adds KS_GEN_IRQ to it and every context
 * switch away from a task on it KS_GEN_SWITCH, while a node keeps its
 * slowest calls.  The same word at both ends: nothing ran in between.
 * ks_tramp.S reads it as ks_ctx() does.
 */
DECLARE_PER_CPU(u64, ks_cpu_gen);
#define KS_GEN_CPUS	BIT_ULL(16)	/* CPUs the low bits tell apart */
#define KS_GEN_IRQ	KS_GEN_CPUS
#define KS_GEN_SWITCH	BIT_ULL(40)

static __always_inline u64 ks_ctx(void)
{
	return this_cpu_read(ks_cpu_gen);
}

/*
 * Another CPU's word (the task moved) or a switch on this one: the call
 * left its CPU; else an interrupt ran on it.
 */
static __always_inline enum ks_by ks_disturbed(u64 entry)
{
	u64 d = ks_ctx() - entry;

	if (likely(!d))
		return KS_BY_RAN;
	if (d % KS_GEN_CPUS || d >= KS_GEN_SWITCH)
		return KS_BY_SWITCHED;
	return KS_BY_INTERRUPTED;
}

/*
 * A disturbed call of a node with slowest: also in the node's last
 * histogram, which keeps such calls apart (compare --undisturbed leaves
 * them out).  On the CPU it ended on; none where that CPU has no slots
 * (the call was counted missed).
 */
static __always_inline void ks_record_disturbed(struct ks_node *node, u64 v)
{
	struct kstats_slot *sl;
	u32 s = kstats_slot(v, node->cmd.bits, node->cmd.buckets);

	preempt_disable_notrace();
	sl = __this_cpu_read(node->pcpu->slots);
	if (likely(sl))
		ks_slot_add(sl + (size_t)(node->nhist - 1) * node->nslots, s, v);
	preempt_enable_notrace();
}

/*
 * A function's call ended: record its time @v, from the call site @ip,
 * whose entry read @ctx (ks_ctx(), with "slowest" only).  A node that
 * keeps its slowest calls counts the disturbed ones, and hands on a call
 * slower than the K-th slowest kept: one compare for every other.
 */
static __always_inline void ks_slowest_call(struct ks_node *node, u64 v,
					    unsigned long ip, u64 ctx)
{
	struct ks_slowest *sw = node->slowest;
	enum ks_by by = ks_disturbed(ctx);

	if (unlikely(by)) {
		atomic_long_inc(by == KS_BY_SWITCHED ? &sw->switched :
				&sw->interrupted);
		ks_record_disturbed(node, v);
	}
	if (unlikely(v > READ_ONCE(sw->floor)))
		ks_slowest_keep(node, v, ip, by);
}

/*
 * Nested calls.  Every recorded call of a function adds one to its CPU's
 * ks_cpu_calls as it ends; a call reads the word at its entry and at its
 * end, and the difference is how many traced calls ended inside it on
 * its CPU (interrupts included).  Each added to this call's time what
 * the tracing of one call adds to its caller's (the per-CPU part's
 * ncost: the whole entry and exit, calibrated with the floor in
 * ks_floor.c), which is taken off again; the count is kept in the part's
 * nested, and the node's text shows both (docs/format.md).  Each CPU's
 * word starts at its number << 48 (ks_nest_init()), so that a call that
 * ended on another CPU than it started on (it slept, or was preempted
 * and moved) finds a difference of 2^32 or more, or below 0, and is left
 * as it is.  ks_tramp.S and ks_tramp_arm64.S do the same.  The word
 * lives in ks_slowest.c, beside the disturbance word.
 */
DECLARE_PER_CPU(u64, ks_cpu_calls);
#define KS_CALLS_CPU_SHIFT	48

/* A call starts: what its end compares in ks_unnest(). */
static __always_inline u64 ks_call_calls(void)
{
	return this_cpu_read(ks_cpu_calls);
}

/* A call of @node that took @v and read @calls at its entry ends. */
static __always_inline u64 ks_unnest(struct ks_node *node, u64 v, u64 calls)
{
	u64 n = this_cpu_inc_return(ks_cpu_calls) - 1 - calls;
	u64 cost;

	if (likely(!n) || n >> 32)
		return v;
	this_cpu_add(node->pcpu->nested, n);
	cost = n * READ_ONCE(node->ncost) >> KS_NCOST_SHIFT;
	return v > cost ? v - cost : 0;
}

/*
 * A traced call of @node that took @v ends: taken off what the traced
 * calls inside it added (ks_unnest(), from @calls its entry read),
 * recorded, and counted for the calls it ran inside.
 */
static __always_inline void ks_record_call(struct ks_node *node, u64 v,
					   unsigned long ip, u64 ctx, u64 calls)
{
	v = ks_unnest(node, v, calls);
	ks_record_from(node, v, ip);
	if (unlikely(node->slowest))
		ks_slowest_call(node, v, ip, ctx);
}

/* A call starts: what its end compares (ks_record_call()), or 0. */
static __always_inline u64 ks_call_ctx(const struct ks_node *node)
{
	return unlikely(node->slowest) ? ks_ctx() : 0;
}

/* A timed call (or section) starts at @now: feed the GAP- node if any. */
static __always_inline void ks_gap(struct ks_node *node, u64 now)
{
	struct ks_node *gap = node->gap;
	u64 last;

	if (!gap)
		return;
	last = this_cpu_xchg(gap->pcpu->t0, now);
	if (last && READ_ONCE(gap->active))
		ks_record(gap, ks_delta(gap, last, now));
}

#endif /* _KSTATS_RECORD_H */
