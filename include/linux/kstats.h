/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats annotation API: histograms that kernel code fills itself.
 *
 *	static struct kstats *ks;
 *
 *	ks = kstats_new("my_section", 3);	// NULL on failure
 *	...
 *	KSTATS_SECTION_START(ks);		// the node's clock
 *	<code to time: may sleep, may run in any context>
 *	KSTATS_SECTION_END(ks);			// one sample: the time between
 *	...
 *	KSTATS_RECORD(ks, queue_len);		// or any u64 value
 *	...
 *	WRITE_ONCE(ks, NULL);			// see "Lifetime" below
 *	kstats_delete(old_ks);
 *
 * A node made here is a kstats node like those "trace" makes through
 * /sys/kernel/debug/kstats/_control: its file /sys/kernel/debug/kstats/NAME
 * prints the same header (attach=api:NAME) and rows, "start", "stop" and
 * "reset" written to it or to _control act on it, and tools/kstats shows,
 * saves and compares it.  Only kstats_delete() removes it ("remove" on
 * _control fails with EBUSY, "remove all" leaves it).  2^frac_bits slots per
 * power of two: a slot is at most 2^-frac_bits wide, relative to its values.
 *
 * Where the calls go:
 *  - CONFIG_KSTATS=y: kstats built into the kernel
 *    (scripts/kstats-into-tree.sh), usable from core code;
 *  - a module using the kstats module: build it with
 *    "ccflags-y += -DCONFIG_KSTATS_MODULE=1" and KBUILD_EXTRA_SYMBOLS set to
 *    kstats' kmod/Module.symvers; kstats.ko must be loaded first;
 *  - neither: every call is an empty inline, kstats_new() returns NULL and
 *    the macros compile to nothing.
 *
 * Cost: while no node made here is active, KSTATS_RECORD() and each half
 * of a section pair cost one no-op jump (the static key kstats_key, enabled
 * while some API node is active).  An active section pair costs two calls,
 * two reads of the node's clock and one histogram update; a stopped node,
 * while another is active, a test (KSTATS_RECORD) or one call (a section
 * start).  Measured by make bench (bench/scenarios/42-api.sh, guest
 * instructions under QEMU -icount, an empty pair against the same function
 * without it): disabled 3 instructions per pair on Debian's 6.1, 6.12 and
 * 7.3; enabled 87, 86 and 98.
 *
 * Context: kstats_record(), KSTATS_RECORD() and the section pair may be
 * used wherever a function kstats traces may run: process, softirq, hard
 * interrupt and NMI context, with or without preemption or interrupts
 * disabled.  They take no lock and are not traceable themselves.
 * kstats_new(), kstats2_new() and kstats_delete() sleep: process context.
 *
 * Lifetime: kstats_delete(ks) unpublishes the node, stops it, and waits
 * (synchronize_rcu()) for every call that is reading it before it frees it.
 * KSTATS_RECORD() and the section macros read their @ks argument with
 * preemption disabled, so a recorder that reads the node through a shared
 * pointer is safe against deletion if the deleter clears that pointer
 * first: WRITE_ONCE(shared, NULL); kstats_delete(old).  A recorder then
 * sees either NULL (nothing is recorded; a section whose end sees NULL is
 * dropped) or a node that lives until its call returns.  Calling
 * kstats_record() directly, or keeping the pointer in a local variable
 * across a sleep, the caller must itself guarantee that the node is not
 * deleted before the call (for instance by holding rcu_read_lock() from
 * reading the pointer to the call).  No call may start with a node once
 * kstats_delete() on it has returned.
 *
 * Differences from the original kstats header (lr-cstats):
 *  - frac_bits is 0..8 (KSTATS_BITS_MAX), and NAME follows the node-name
 *    rules of _control; anything else makes kstats_new() return NULL;
 *  - kstats2_new() makes histograms only (cfg->entry_size 0, with
 *    cfg->frac_bits); a log (entry_size > 0) is not supported and returns
 *    NULL, kstats_log() does nothing, and entries_bits, wrap and printf are
 *    ignored;
 *  - kstats_ctr() is local_clock() (no ctr_mode parameter);
 *  - the node file takes start/stop/reset in lower case (the original:
 *    START/STOP/RESET);
 *  - KSTATS_RECORD() evaluates @_ks with preemption disabled, behind the
 *    static key, and the section pair is new.
 */
#ifndef _LINUX_KSTATS_H
#define _LINUX_KSTATS_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/jump_label.h>
#include <linux/sched/clock.h>

struct seq_file;

/* Histogram parameters for kstats2_new(); frac_bits 255 in the original. */
struct kstats_cfg {
	const char *is_null;	/* marker for a new config */
	const char *name;
	u32 entries_bits;	/* ignored */
	u16 entry_size;		/* 0: histogram; >0: log (not supported) */
	u8 frac_bits;
	u8 wrap:1;		/* ignored */
	int (*printf)(struct seq_file *m, const char *s, int len); /* ignored */
};

/* A node.  Opaque but for its first field, read inline by kstats_active(). */
struct kstats;

/* The head of every node (kmod/ks_api.c checks the layout). */
struct kstats_head {
	bool active;
};

#if IS_ENABLED(CONFIG_KSTATS)

DECLARE_STATIC_KEY_FALSE(kstats_key);

struct kstats *kstats_new(const char *name, u8 frac_bits);
struct kstats *kstats2_new(const struct kstats_cfg *cfg);
void kstats_record(struct kstats *ks, u64 value);
void kstats_delete(struct kstats *ks);
u64 kstats_section_begin(struct kstats *ks);
void kstats_section_end(struct kstats *ks, u64 t0);

/* Does @ks record now (started, not deleted)?  NULL is never active. */
static inline bool kstats_active(struct kstats *ks)
{
	return ks && READ_ONCE(((struct kstats_head *)ks)->active);
}

/* Record @_val into @_ks if it is active; @_val is evaluated only then. */
#define KSTATS_RECORD(_ks, _val) do {					\
	if (static_branch_unlikely(&kstats_key)) {			\
		struct kstats *__kstats_ks;				\
									\
		preempt_disable_notrace();				\
		__kstats_ks = (_ks);					\
		if (kstats_active(__kstats_ks))				\
			kstats_record(__kstats_ks, (_val));		\
		preempt_enable_notrace();				\
	}								\
} while (0)

/*
 * Time the code between KSTATS_SECTION_START(ks) and KSTATS_SECTION_END(ks)
 * into @ks.  The pair opens and closes one block (variables declared
 * between them are local to it), in the same function; a pair may nest in
 * another's block.  The start is taken only if @ks is active then.
 */
#define KSTATS_SECTION_START(ks) do {					\
	u64 __kstats_t0 = 0;						\
									\
	if (static_branch_unlikely(&kstats_key)) {			\
		preempt_disable_notrace();				\
		__kstats_t0 = kstats_section_begin(ks);			\
		preempt_enable_notrace();				\
	}								\
	do {} while (0)

#define KSTATS_SECTION_END(ks)						\
	if (static_branch_unlikely(&kstats_key) && __kstats_t0) {	\
		preempt_disable_notrace();				\
		kstats_section_end((ks), __kstats_t0);			\
		preempt_enable_notrace();				\
	}								\
} while (0)

#else /* !CONFIG_KSTATS */

static inline struct kstats *kstats_new(const char *name, u8 frac_bits)
{
	return NULL;
}

static inline struct kstats *kstats2_new(const struct kstats_cfg *cfg)
{
	return NULL;
}

static inline void kstats_record(struct kstats *ks, u64 value) {}
static inline void kstats_delete(struct kstats *ks) {}

static inline bool kstats_active(struct kstats *ks)
{
	return false;
}

#define KSTATS_RECORD(_ks, _val) do {					\
	if (0)								\
		kstats_record((_ks), (_val));				\
} while (0)

#define KSTATS_SECTION_START(ks) do {					\
	(void)(ks);							\
	do {} while (0)

#define KSTATS_SECTION_END(ks)						\
	(void)(ks);							\
} while (0)

#endif /* CONFIG_KSTATS */

/* The original's log buffers are not supported: nothing is logged. */
static inline void kstats_log(struct kstats *ks, const void *src, int len) {}

/* The original's default counter: local_clock(), ns. */
static inline u64 kstats_ctr(void)
{
	return local_clock();
}

#ifdef CONFIG_X86
/* Read performance counter @reg (the original's helper; x86 only). */
static inline u64 kstats_rdpmc(u32 reg)
{
	u32 low, high;

	asm volatile("rdpmc" : "=a" (low), "=d" (high) : "c" (reg));
	return low | ((u64)high << 32);
}
#endif

#endif /* _LINUX_KSTATS_H */
