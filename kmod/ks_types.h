/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats types: a node is one traced function (or section) with its
 * per-CPU histogram; a backend attaches the entry/exit hooks that feed it.
 * The hot path that records into a node is ks_record.h.
 */
#ifndef _KSTATS_TYPES_H
#define _KSTATS_TYPES_H

#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <kstats/hist.h>
#include <kstats/cmd.h>
#include "ks_arch.h"
#include "ks_direct.h"
#include "ks_files.h"

struct ks_node;

/*
 * Per-CPU part of a node: exact extremes, and where this CPU's slots are.
 * The slots themselves are allocated only for CPUs that record
 * (ks_slots.c): a CPU takes a spare of its size's pool the first time it
 * records (spares wait on each online CPU, within spares_max), and records
 * with none count as missed (the node's @unslotted).  80 bytes: what every
 * timed call reads, and no more (a whole-kernel trace has one for every
 * function on every CPU, and the per-CPU allocator as much again of its
 * own for each byte); a node with callers, slowest or sampling has a
 * struct ks_pcpu_x.
 */
struct ks_pcpu {
	union {
		u64 t0;		/* section start, or last call for GAP- */
		long gate;	/* direct: calls to let by, see ks_direct.h */
	};
	u64 min;
	u64 max;		/* after @min: arm64's ldp reads both */
	struct kstats_slot *slots;	/* this CPU's, or NULL */
	struct ks_node *node;	/* whose part this is */
	/* the direct trampoline's plain case reads these alone (ks_direct.h) */
	u64 one;		/* 1 << cmd.bits */
	/* nested calls (ks_unnest() in ks_record.h), every fast case */
	u64 nested;		/* traced calls inside the calls recorded here */
	u32 two;		/* 2 << cmd.bits */
	u32 bits;		/* cmd.bits */
	u32 buckets;		/* cmd.buckets, after @bits (arm64's ldp) */
	u32 clamped;		/* negative times recorded as 0 */
	int inflight;		/* direct backend: timed calls in the body */
	u8 fast;		/* KS_FAST_* (ks_direct.h) */
};

/*
 * The per-CPU part of a node with callers, slowest or sample N
 * (ks_pcpu_wide()): the trampoline's KS_FAST_EXTRA case reads @ctab and
 * @floor, the C path's sampling @skip.
 */
struct ks_pcpu_x {
	struct ks_pcpu p;
	struct ks_centry *ctab;	/* callers: node->callers->tab, or NULL */
	u64 floor;		/* slowest: its floor, else U64_MAX (ks_slowest.c) */
	s32 skip;		/* sampling: calls left to skip, then -1 */
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

struct ks_pool;

/*
 * The backends of nodes that no "via" names, after enum ks_via's: nodes
 * kernel code makes (ks_api.c) and GAP- nodes (ks_trace.c).
 */
enum {
	KS_VIA_API = KS_VIA_NR,
	KS_VIA_GAP,
	KS_VIA_ALL
};

/* What a backend can and cannot do (struct ks_backend's @caps). */
#define KS_CAP_BY_ADDRESS	BIT(0)	/* see @caps */
#define KS_CAP_NO_POOL		BIT(1)	/* no instances in flight: maxactive 0 */
#define KS_CAP_EXCLUSIVE	BIT(2)	/* -EBUSY: another tracer holds the function */

/**
 * struct ks_backend - one way of hooking function entry and exit
 * @via: what it is (enum ks_via, KS_VIA_API, KS_VIA_GAP): its name
 *	(ks_backend_name()) and its place in ks_backend.c's table
 * @caps: KS_CAP_BY_ADDRESS: hooks through an ftrace_ops filter, which keeps
 *	a function's address after its module goes (kprobes forget such
 *	probes themselves): the node must be detached before that module is
 *	freed; KS_CAP_NO_POOL: its calls keep their state on a stack, so
 *	maxactive does not apply; KS_CAP_EXCLUSIVE: a function another tracer
 *	holds for its own direct call fails with -EBUSY, and a node whose
 *	backend was chosen for it takes the next (ks_backend_next())
 * @fits: may it time every symbol of @node?  0, or a negative errno,
 *	logged when @asked ("via" named it); NULL: any function
 * @attach: hook every symbol of @node; undo everything on failure
 * @attach_many: hook many nodes with one operation (NULL: one by one)
 * @detach: unhook; after it returns no handler runs any more
 * @settle: after any number of @detach calls, wait until no handler or
 *	trampoline of theirs runs any more (NULL: @detach waits itself)
 * @missed: events the hooks dropped so far
 * @busy: calls still running a traced body after @detach, which will
 *	still record into the node when they return (NULL: none can)
 * @acted: follow a start, stop or reset of the node (NULL: nothing to do)
 * @start: what it needs while the module is loaded (NULL: nothing)
 * @stop: undo @start, once no node is left
 * @wake: wake the tasks asleep inside a timed call, before the module
 *	goes, naming some in the log with @say (NULL: the kernel's own
 *	return trampolines hold them)
 * @owner_removes: NULL, or why "remove" on _control refuses the node (logged
 *	after its name): the code that made it alone removes it
 *
 * The core calls these and never a backend by name: ks_backend.c's table
 * is the one place that knows them.
 */
struct ks_backend {
	unsigned int via;
	unsigned int caps;
	int (*fits)(struct ks_node *node, bool asked);
	int (*attach)(struct ks_node *node);
	int (*attach_many)(struct ks_node **nodes, unsigned int n);
	void (*detach)(struct ks_node *node);
	void (*settle)(void);
	u64 (*missed)(struct ks_node *node);
	long (*busy)(struct ks_node *node);
	void (*acted)(struct ks_node *node);
	int (*start)(void);
	void (*stop)(void);
	void (*wake)(bool say);
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
 *	(ks_clock.c's watch); or ns per counter cycle, for a node whose slots
 *	hold ns but whose sections read the counter (ks_clock_ns())
 * @pcpu: per-CPU extremes, and each CPU's slots
 * @gap: the GAP-NAME node fed by the same hooks, or NULL
 * @cmd: what the trace command that made it says of it (name, bits,
 *	filters...; struct ks_cmd's @spec)
 * @by_cpu: the command had a cpus filter: @cpus
 * @cpus: CPUs to record on, allocated with a cpus filter (its text is
 *	the command's, shown as the kernel prints a cpulist)
 * @list: in ks_nodes, under ks_lock
 * @by_name: in ks_nodes' hash by name (ks_node.c), under ks_lock
 * @nslots: slots of one histogram, overflow included
 * @nhist: histograms in each CPU's slots: the node's; with @callers one
 *	per call site and the rest's; with @slowest, last, the disturbed
 *	calls' (ks_record_disturbed())
 * @callers: the call sites (cmd.callers), or NULL
 * @slowest: the slowest calls (cmd.slowest), or NULL
 * @file: the node's file in /proc/kstats (ks_files.c)
 * @backend: the hooks in use
 * @priv: the backend's state
 * @floor: what the backend reports for an empty function (calibration)
 * @syms: symbols attached (the name and its compiler clones); @cmd.name
 *	itself when that is the one symbol (ks_syms_shrink())
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
 *	recorded: local_clock() since (ks_clock.c's watch)
 * @clock_by: the rule that chose its clock (KS_CLOCK_BY_*, contract.h)
 * @pool: the spares of its size, shared with every node of that size
 *	(ks_slots.c)
 * @pblock: the block @pcpu was cut from, or NULL (ks_pcpu.c)
 * @recursed: direct backend: calls its recursion guard turned away
 * @unslotted: calls timed with no slots to go to (counted as missed)
 * @ncost: what a traced call adds to its caller, slot units <<
 *	KS_NCOST_SHIFT (ks_unnest() in ks_record.h; ks_floor.c)
 *
 * The direct trampoline's plain case reads one cache line of it, the
 * fields up to cmd.comm[0] (static_asserts in ks_direct.c); the C path
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
	bool by_cpu;
	struct ks_spec cmd;		/* bits, buckets, filters first */
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
	unsigned long *ips;
	unsigned int nsyms;
	unsigned int nips;
	u32 maxactive;
	u32 show_mult;
	bool chosen;
	bool fast_extra;
	bool fell_back;
	u64 mem;
	u64 hz;
	const char *clock_by;
	struct ks_pool *pool;
	struct ks_pblock *pblock;
	atomic_long_t recursed;
	atomic_long_t unslotted;
	u64 ncost;
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

/* Does a node of @cmd need a struct ks_pcpu_x a CPU? */
static inline bool ks_pcpu_wide(const struct ks_spec *cmd)
{
	return cmd->callers || cmd->slowest || cmd->sample > 1;
}

/* @node's per-CPU parts as struct ks_pcpu_x: a node ks_pcpu_wide() only. */
static inline struct ks_pcpu_x __percpu *ks_pcpu_x(const struct ks_node *node)
{
	return (struct ks_pcpu_x __percpu *)node->pcpu;
}

#define KS_MULT_SHIFT	24	/* fixed point of to_count and show_mult */

#endif /* _KSTATS_TYPES_H */
