/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats internals: a node is one traced function (or section) with its
 * per-CPU histogram; a backend attaches the entry/exit hooks that feed it.
 */
#ifndef _KSTATS_NODE_H
#define _KSTATS_NODE_H

#include <linux/list.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <asm/local64.h>
#include <kstats/hist.h>
#include <kstats/cmd.h>
#include "ks_arch.h"
#include "ks_direct.h"
#include "ks_files.h"

struct ks_node;

/*
 * Per-CPU part of a node: exact extremes, sampling counter, and where this
 * CPU's slots are.  The slots themselves are allocated only for CPUs that
 * record (ks_slots.c): a CPU takes one of the node's spares the first time
 * it records (a spare waits for each online CPU, up to KS_SPARES), and
 * records with none count as missed (@unslotted).
 */
struct ks_pcpu {
	union {
		u64 t0;		/* section start, or last call for GAP- */
		long gate;	/* direct: calls to let by, see ks_direct.h */
	};
	u64 min;
	u64 max;
	s32 skip;		/* sampling: calls left to skip, then -1 */
	u32 clamped;		/* negative times recorded as 0 */
	long inflight;		/* direct backend: timed calls in the body */
	struct kstats_slot *slots;	/* this CPU's, or NULL */
	/* the direct trampoline's plain case reads these alone (ks_direct.h) */
	u64 one;		/* 1 << cmd.bits */
	u32 two;		/* 2 << cmd.bits */
	u32 bits;		/* cmd.bits */
	u32 buckets;		/* cmd.buckets */
	u8 fast;		/* KS_FAST_* (ks_direct.h) */
	struct ks_node *node;	/* whose part this is */
	u64 unslotted;		/* timed with no slots to go to */
	/* and with KS_FAST_EXTRA */
	struct ks_centry *ctab;	/* callers: node->callers->tab, or NULL */
	u64 floor;		/* slowest: its floor, else U64_MAX (ks_slowest.c) */
};

/**
 * struct ks_callers - the call sites of a node with "callers N"
 * @n: call sites kept apart (cmd.callers)
 * @ip: the return address each stands for, in the order first seen,
 *	claimed once with a compare-exchange and kept until the node goes
 *	(0: free)
 * @max: each one's longest call, and the rest's at @n, in slot units
 * @tab: the x86-64 trampoline's cache of @ip (KS_CTAB_* in ks_direct.h)
 *
 * Each CPU's slots hold, after the node's own histogram, one histogram
 * per call site and one for the rest (ks_slots.c): a call goes to the
 * node's and to its site's, so the sites' counts add up to the node's.
 */
struct ks_callers {
	u32 n;
	unsigned long ip[KS_CALLERS_MAX];
	u64 max[KS_CALLERS_MAX + 1];
	struct ks_centry tab[KS_CTAB_ENTRIES];
};

/* How a kept call went: through on its CPU, or disturbed (ks_ctx()). */
enum ks_by {
	KS_BY_RAN,
	KS_BY_SWITCHED,		/* its task left the CPU: slept or preempted */
	KS_BY_INTERRUPTED,	/* its CPU took an interrupt */
};

/**
 * struct ks_slow_call - one of the slowest calls of a node
 * @time: how long it took, in slot units
 * @at: when it ended, local_clock() ns (the kernel log's timestamps)
 * @caller: where it returned to, or 0
 * @pid: its task
 * @cpu: the CPU it ended on
 * @by: enum ks_by
 * @nr: frames in @stack
 * @comm: its task's
 * @stack: the stack it ended on, from its caller outwards
 */
struct ks_slow_call {
	u64 time;
	u64 at;
	unsigned long caller;
	pid_t pid;
	u32 cpu;
	u8 by;
	u8 nr;
	char comm[TASK_COMM_LEN];
	unsigned long stack[KS_STACK_MAX];
};

/**
 * struct ks_slowest - the slowest calls of a node with "slowest K"
 * @floor: the K-th slowest time once K are kept, else 0: only a call
 *	slower than it takes the lock (ks_slowest_keep())
 * @lock: guards @n, @low and @call
 * @k: calls kept at most (cmd.slowest)
 * @n: calls kept
 * @low: the index of the fastest kept, once @n is @k
 * @switched: calls whose task left the CPU on the way (ks_ctx())
 * @interrupted: calls whose CPU took an interrupt on the way
 * @call: the calls kept, in no order
 */
struct ks_slowest {
	u64 floor;
	raw_spinlock_t lock;
	u32 k;
	u32 n;
	u32 low;
	atomic_long_t switched;
	atomic_long_t interrupted;
	struct ks_slow_call call[];
};

/* Spares a node keeps for CPUs that have not recorded yet (ks_slots.c). */
#define KS_SPARES	8

/**
 * struct ks_backend - one way of hooking function entry and exit
 * @name: as written after "via" and shown in attach=
 * @attach: hook every symbol of @node; undo everything on failure
 * @detach: unhook; after it returns no handler runs any more
 * @missed: events the hooks dropped so far
 * @busy: calls still running a traced body after @detach, which will
 *	still record into the node when they return (NULL: none can)
 * @acted: follow a start, stop or reset of the node (NULL: nothing to do)
 * @settle: after any number of @detach calls, wait until no handler or
 *	trampoline of theirs runs any more (NULL: @detach waits itself)
 * @attach_many: hook many nodes with one operation (NULL: one by one)
 * @by_address: hooks through an ftrace_ops filter, which keeps a function's
 *	address after its module goes (kprobes forget such probes themselves):
 *	the node must be detached before that module is freed
 * @owner_removes: NULL, or why "remove" on _control refuses the node (logged
 *	after its name): the code that made it alone removes it
 */
struct ks_backend {
	const char *name;
	int (*attach)(struct ks_node *node);
	void (*detach)(struct ks_node *node);
	u64 (*missed)(struct ks_node *node);
	long (*busy)(struct ks_node *node);
	void (*acted)(struct ks_node *node);
	void (*settle)(void);
	int (*attach_many)(struct ks_node **nodes, unsigned int n);
	bool by_address;
	const char *owner_removes;
};

/**
 * struct ks_node - one histogram and what feeds it
 * @active: record samples (start/stop)
 * @fast_sample: the direct trampoline counts the sampling down itself
 * @fast: the direct trampoline times and records calls itself (no filter,
 *	no sampling, no GAP- node, the TSC as clock)
 * @fast_extra: as @fast, with callers or slowest: x86-64's trampoline
 *	records those too (KS_FAST_EXTRA); @fast stays false
 * @filtered: any pid/tgid/comm/cpus filter or sampling is set
 * @use_counter: ks_now() reads the counter (ks_cycles()): clock tsc, or the
 *	default clock where the counter stands for time (ks_counter_rule())
 * @to_count: 0, or the factor << KS_MULT_SHIFT ks_delta() applies to a
 *	time: counter cycles per ns, turning local_clock()'s ns into the
 *	cycles the slots hold once the counter no longer stands for time
 *	(ks_clock_check()); or ns per counter cycle, for a node whose slots
 *	hold ns but whose sections read the counter (ks_clock_ns())
 * @pcpu: per-CPU extremes, and each CPU's slots
 * @gap: the GAP-NAME node fed by the same hooks, or NULL
 * @cmd: the trace command that made it (name, bits, filters...)
 * @cpus: CPUs to record on, when cmd.cpus is set
 * @list: in ks_nodes, under ks_lock
 * @by_name: in ks_nodes' hash by name (ks_node.c), under ks_lock
 * @nslots: slots of one histogram, overflow included
 * @nhist: histograms in each CPU's slots: the node's; with @callers one
 *	per call site and the rest's; with @slowest, last, the disturbed
 *	calls' (ks_record_disturbed())
 * @callers: the call sites (cmd.callers), or NULL
 * @slowest: the slowest calls (cmd.slowest), or NULL
 * @file: the node's file, in debugfs and /proc/kstats (ks_files.c)
 * @backend: the hooks in use
 * @priv: the backend's state
 * @floor: what the backend reports for an empty function (calibration)
 * @syms: symbols attached (the name and its compiler clones)
 * @nsyms: entries in @syms
 * @ips: the ftrace addresses of @syms, once known (direct backend)
 * @nips: entries in @ips
 * @chosen: the backend was chosen by kstats, not asked for
 * @mem: bytes it counts against the mem_max budget (ks_slots.c)
 * @maxactive: the instances in flight asked for (cmd.maxactive is 0 where
 *	the backend has no pool)
 * @hz: the counter's frequency when the slots hold counter cycles, else 0
 * @show_mult: ns per counter cycle << KS_MULT_SHIFT when the slots hold
 *	cycles and the text shows ns (ks_show.c scales them), else 0
 * @fell_back: the counter stopped standing for time while the node
 *	recorded: local_clock() since (ks_clock_check())
 * @clock_by: the rule that chose its clock (KS_CLOCK_BY_*, contract.h)
 * @spare: zeroed slots for the next CPUs that record (ks_slots.c)
 * @slots_flags: KS_SLOTS_ASKED (ks_slots.c)
 * @slots_list: in ks_slots.c's list of every allocated node
 * @slots_warned: said once that mem_max stops its spares
 * @recursed: direct backend: calls its recursion guard turned away
 *
 * The direct trampoline's plain case reads one cache line of it, the
 * fields up to cmd.cpus[0] (static_asserts in ks_direct.c); the C path
 * also reads @gap, and @cpus with a cpus filter, from another.
 */
struct ks_node {
	/* read by ks_tramp.S: offsets in ks_direct.h, checked in ks_direct.c */
	bool active;
	bool fast_sample;
	bool fast;
	/* read by every timed call */
	bool filtered;
	u32 to_count;
	struct ks_pcpu __percpu *pcpu;
	bool use_counter;
	struct ks_cmd cmd;		/* bits, buckets, filters first */
	/* the rest */
	struct ks_node *gap;
	cpumask_var_t cpus;
	struct list_head list;
	struct hlist_node by_name;
	u32 nslots;
	u32 nhist;
	struct ks_callers *callers;
	struct ks_slowest *slowest;
	struct ks_file file;
	const struct ks_backend *backend;
	void *priv;
	u64 floor;
	char (*syms)[KS_NAME_MAX];
	unsigned int nsyms;
	unsigned long *ips;
	unsigned int nips;
	bool chosen;
	bool fast_extra;
	u32 maxactive;
	u64 mem;
	u64 hz;
	u32 show_mult;
	bool fell_back;
	const char *clock_by;
	struct kstats_slot *spare[KS_SPARES];
	unsigned long slots_flags;
	struct list_head slots_list;
	bool slots_warned;
	atomic_long_t recursed;
	unsigned long magic;	/* ks_node_magic(): the exit scan's check */
};

/*
 * What a node's magic holds while it lives: its own address, scrambled,
 * so that neither a copy of a node nor a freed one passes for a node.
 */
static inline unsigned long ks_node_magic(const struct ks_node *node)
{
	return (unsigned long)node ^ 0x6b7374617473UL;	/* "kstats" */
}

/*
 * @node's trampoline case on (as @fast and @fast_extra say) or off: the
 * flag and each CPU's copy of it, which the direct trampoline reads (a
 * call already past it is timed as before).
 */
static inline void ks_node_set_fast(struct ks_node *node, bool on)
{
	u8 how = !on ? KS_FAST_C : node->fast ? KS_FAST_PLAIN :
		 node->fast_extra ? KS_FAST_EXTRA : KS_FAST_C;
	int cpu;

	if (!on) {
		WRITE_ONCE(node->fast, false);
		WRITE_ONCE(node->fast_extra, false);
	}
	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu_ptr(node->pcpu, cpu)->fast, how);
}

#define KS_MULT_SHIFT	24	/* fixed point of to_count and show_mult */

struct module;
struct tracepoint;

#define KS_MATCH_MAX	65536	/* functions one glob may match in ftrace */

int ks_resolve_syms(struct ks_node *node);
int ks_ftrace_ips(struct ks_node *node);
int ks_ftrace_each(const char *pattern, const char *mod,
		   int (*fn)(void *arg, unsigned long ip, const char *name,
			     const char *mod),
		   void *arg);
bool ks_module_has(struct module *mod, const char *name);
struct tracepoint *ks_find_tracepoint(const char *name);
int ks_btf_args_in_regs(const struct ks_node *node, int *res);
int ks_btf_prepare(void);
void ks_btf_release(void);
void ks_btf_hold(void);
void ks_btf_drop(void);

extern const struct ks_backend ks_kretprobe_backend;
extern const struct ks_backend ks_section_backend;
extern const struct ks_backend ks_direct_backend;
int ks_direct_watch_exits(void);
void ks_direct_unwatch_exits(void);
void ks_direct_wake(void);
#ifdef CONFIG_FPROBE
extern const struct ks_backend ks_fprobe_backend;
#endif

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
	if (node->cmd.cpus[0] &&
	    !cpumask_test_cpu(raw_smp_processor_id(), node->cpus))
		return false;
	if (node->cmd.sample > 1) {
		/* the trampoline counts down its gate if fast_sample */
		if (node->fast_sample) {
			this_cpu_write(node->pcpu->gate, node->cmd.sample - 1);
			return true;
		}
		if (this_cpu_dec_return(node->pcpu->skip) >= 0)
			return false;
		this_cpu_write(node->pcpu->skip, node->cmd.sample - 1);
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

/* ks_slots.c */
struct kstats_slot *ks_slots_claim(struct ks_node *node);
int ks_slots_init(struct ks_node *node);
void ks_slots_free(struct ks_node *node);
u64 ks_slots_bytes(const struct ks_node *node, unsigned int *cpus,
		   unsigned int *spares);
int ks_slots_setup(void);
void ks_slots_exit(void);

/* One CPU's slots, or NULL where that CPU has none (it never recorded). */
static inline struct kstats_slot *ks_cpu_slots(const struct ks_node *node,
					       int cpu)
{
	return READ_ONCE(per_cpu_ptr(node->pcpu, cpu)->slots);
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
			this_cpu_inc(pc->unslotted);
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

/* ks_slowest.c */
struct ks_slowest *ks_slowest_alloc(u32 k);
void ks_slowest_free(struct ks_slowest *sw);
void ks_slowest_exit(void);
void ks_slowest_reset(struct ks_node *node);
void ks_slowest_keep(struct ks_node *node, u64 v, unsigned long ip,
		     enum ks_by by);
u32 ks_slowest_copy(struct ks_slowest *sw, struct ks_slow_call *out);

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

static __always_inline void ks_record_call(struct ks_node *node, u64 v,
					   unsigned long ip, u64 ctx)
{
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

#endif /* _KSTATS_NODE_H */
