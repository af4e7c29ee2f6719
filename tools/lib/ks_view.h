/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_view: a node as tools/kstats knows it.  A node, whether read from
 * debugfs, from a captured text file (ks_parse.h) or from a snapshot
 * (ks_snap.h), ends up in a struct ks_view: the header figures, the
 * merged ("CPUS") histogram and one histogram per CPU that has samples.
 * Slot bounds always come from include/kstats/hist.h.
 */
#ifndef KS_VIEW_H
#define KS_VIEW_H

#include <linux/types.h>
#include <kstats/hist.h>		/* and kstats/contract.h: KS_NAME_MAX... */
#include <kstats/version.h>	/* KS_VERSION: meta.tool of a snapshot */

#define KS_META_MAX	128	/* kernel release, host name, label */
#define KS_WORD_MAX	64
#define KS_ERR_MAX	1024		/* an error message, with its source */
#define KS_TIMING_ICOUNT "qemu-icount"	/* meta.timing of an -icount guest */
/*
 * What every output says of a node taken under QEMU -icount, in these
 * words (ks_timing_note()); plots/kstats_snapshot.py says the same.
 */
#define KS_ICOUNT_NOTE "instructions, QEMU -icount: a \"ns\" is one guest instruction"

/* Where a node came from and when (filled for snapshots). */
struct ks_meta {
	char kernel[KS_META_MAX];
	char date[KS_WORD_MAX];
	char hostname[KS_META_MAX];
	char tool[KS_WORD_MAX];
	char label[KS_META_MAX];
	char timing[KS_WORD_MAX];	/* "qemu-icount", or "": real time */
};

/* The histogram of one CPU. */
struct ks_cpu {
	__u32 cpu;
	struct kstats_slot *slots;	/* nr_slots entries */
};

#define KS_SITE_MAX	256	/* a call site's text, NUL included */
#define KS_CALLER_ID_MAX 16	/* a call site's ID: 0..N-1 or KS_CALLER_OTHER */

/*
 * One call site of a node traced with "callers N" (docs/format.md): its
 * "# caller" line and its merged histogram (the "# slot S CALLER ID" rows).
 */
struct ks_caller {
	char id[KS_CALLER_ID_MAX];	/* 0..N-1 in the order seen, or "other" */
	char site[KS_SITE_MAX];		/* FUNCTION+0xOFF/0xSIZE [MODULE], "-": other */
	__u64 count, p50, p99, max;
	struct kstats_slot *slots;	/* nr_slots, merged over the CPUs */
};

#define KS_BY_MAX	16	/* a kept call's "by": KS_BY_* */

/*
 * One of the slowest calls of a node traced with "slowest K"
 * (docs/format.md): its "# slow" line and its "# stack" lines.
 */
struct ks_slow {
	__u64 time, at;			/* in the node's unit; local_clock() ns */
	__u32 cpu;
	__s32 pid;
	char by[KS_BY_MAX];		/* KS_BY_NONE, KS_BY_SWITCH, KS_BY_IRQ */
	char comm[KS_COMM_MAX];
	char caller[KS_SITE_MAX];	/* as a call site, "-": unknown */
	char (*frames)[KS_SITE_MAX];	/* the stack, caller first */
	__u32 nr_frames;
};

/*
 * What a reader knows of one node (the module's own is struct ks_node).
 * Slot sums are count * avg as printed by the module, so the
 * mean of every slot is exactly the printed avg.
 */
struct ks_view {
	struct ks_meta meta;
	char name[KS_NAME_MAX];
	char attach[KS_WORD_MAX];	/* backend: kretprobe, fprobe, ... */
	char *symbols;			/* comma-separated attached symbols */
	char clock[KS_WORD_MAX];	/* the clock read: local, tsc, cntvct */
	__u64 hz;			/* the counter's frequency, 0: none */
	char unit[KS_WORD_MAX];		/* of every figure */
	char slots_unit[KS_WORD_MAX];	/* recorded in (ns, cycles), "": unit */
	int fell_back;			/* the counter went unstable: local since */
	char state[KS_WORD_MAX];
	char estimate[KS_WORD_MAX];
	__u32 bits, buckets, sample, maxactive, ncpus, precision_ppm;
	__s32 pid, tgid;		/* filters, -1: any */
	char comm[KS_COMM_MAX];		/* filter, "": any */
	char cpulist[KS_CPUS_MAX];	/* filter (cpus=), "": any */
	__u64 samples, missed, min, avg, max, floor;
	__u64 clamped;			/* calls recorded as 0 (clock steps) */
	__u64 nested, ncost;		/* "# nested N cost C": calls inside, C off each */
	__u64 pct[KSTATS_NR_PCT];
	int has_pct;
	__u32 nr_slots;
	struct kstats_slot *total;	/* merged histogram, nr_slots */
	struct ks_cpu *cpus;		/* CPUs with samples, ascending */
	__u32 nr_cpus;
	__u32 callers_n;		/* callers=N of the head, 0: not asked */
	struct ks_caller *callers;	/* in the order of the text */
	__u32 nr_callers;
	__u32 slowest_k;		/* slowest=K of the head, 0: not asked */
	__u64 switched, interrupted;	/* calls disturbed each way */
	struct kstats_slot *disturbed;	/* their histogram, nr_slots, or NULL */
	int undisturbed;		/* they were left out (ks_view_undisturbed()) */
	__u64 left_out;			/* that many calls */
	struct ks_slow *slow;		/* slowest first */
	__u32 nr_slow;
};

/**
 * ks_view_setup() - start an empty node with a slot layout
 * @node:    node to initialise (any previous content is dropped, not freed)
 * @bits:    fractional bits
 * @buckets: power-of-two ranges
 *
 * Return: 0, or -1 when out of memory or the layout is invalid.
 */
int ks_view_setup(struct ks_view *node, __u32 bits, __u32 buckets);

/**
 * ks_view_cpu() - histogram of one CPU, created empty on first use
 * @node: node set up with ks_view_setup()
 * @cpu:  CPU number
 *
 * Return: the CPU's nr_slots slots, or NULL when out of memory.
 */
struct kstats_slot *ks_view_cpu(struct ks_view *node, __u32 cpu);

/**
 * ks_view_caller() - add an empty call site @id to @node
 * @node: node set up with ks_view_setup()
 * @id:   its ID (0..N-1, or KS_CALLER_OTHER)
 *
 * Return: the new site (its slots zeroed), or NULL when out of memory or
 * @id is too long.
 */
struct ks_caller *ks_view_caller(struct ks_view *node, const char *id);

/**
 * ks_view_slow() - add an empty kept call to @node, after the others
 * @node: a node
 *
 * Return: the call, or NULL when out of memory.
 */
struct ks_slow *ks_view_slow(struct ks_view *node);

/**
 * ks_slow_frame() - add @frame to the stack of @c
 * @c:     a kept call
 * @frame: a frame's text, as a call site
 *
 * Return: 0, or -1 when out of memory, too long or past KS_STACK_MAX.
 */
int ks_slow_frame(struct ks_slow *c, const char *frame);

/**
 * ks_caller_find() - the call site of @node with ID @id
 * @node: node
 * @id:   ID
 *
 * Return: its index in node->callers, or -1.
 */
int ks_caller_find(const struct ks_view *node, const char *id);

/**
 * ks_caller_key() - what call sites are matched by across kernels
 * @buf:    output
 * @len:    size of @buf
 * @site:   FUNCTION+0xOFF/0xSIZE [MODULE]
 * @offset: keep "+0xOFF" (FUNCTION+0xOFF), else FUNCTION alone
 *
 * Return: @buf.
 */
char *ks_caller_key(char *buf, size_t len, const char *site, int offset);

/**
 * ks_callers_by_time() - @node's call sites, most total time first
 * @node: node
 * @out:  room for node->nr_callers pointers; ties go to the most calls,
 *        then the order of the text
 */
void ks_callers_by_time(const struct ks_view *node, const struct ks_caller **out);

/**
 * ks_view_free() - release what a node owns
 * @node: node (may be zeroed or half built)
 */
void ks_view_free(struct ks_view *node);

/**
 * ks_view_undisturbed() - leave a node's disturbed calls out of it
 * @node: a node; one traced with slowest K keeps its disturbed calls'
 *        histogram apart (node->disturbed), which is taken out of its
 *        merged histogram (node->total), count, mean, extremes and
 *        percentiles; its CPUs' and call sites' histograms keep them
 *
 * A node they were left out of already (a snapshot saved with
 * --undisturbed) stays as it is.
 *
 * Return: the calls left out, or -1 when the node keeps none apart.
 */
long long ks_view_undisturbed(struct ks_view *node);

/**
 * ks_view_delta() - histogram of what happened between two reads
 * @out:  set up here; @cur's header strings, counts @cur - @prev
 * @cur:  later read
 * @prev: earlier read of the same node
 *
 * When a count went down (the node was reset in between), @cur is taken
 * as the delta.  Slot means are kept inside their slot bounds.  Min and
 * max are exact when the interval reached them, else the tightest bounds
 * the slots and @cur's own min and max give.  Each call site of @cur
 * (callers N) gets what it added the same way; the slowest calls are not
 * kept (an interval has none of its own).
 *
 * Return: 0, 1 when a reset was detected, -1 on error (layouts differ,
 * out of memory).
 */
int ks_view_delta(struct ks_view *out, const struct ks_view *cur,
		  const struct ks_view *prev);

/**
 * ks_timing_note() - what an output says of the clock @m was timed by
 * @m: the node's origin (meta.timing)
 *
 * The one reader of a node's timing for output: show, compare, top and
 * export say it in these words.
 *
 * Return: KS_ICOUNT_NOTE under QEMU -icount, NULL for real time.
 */
const char *ks_timing_note(const struct ks_meta *m);

/**
 * ks_slots_sum() - sum of all values in @n slots (count * mean per slot)
 * @slots: slots
 * @n:     number of slots
 *
 * Return: the sum, saturated at U64_MAX.
 */
__u64 ks_slots_sum(const struct kstats_slot *slots, __u32 n);

#endif /* KS_VIEW_H */
