/* SPDX-License-Identifier: GPL-2.0 */
/* kstats direct-call backend: what the trampoline and the C side share. */
#ifndef _KSTATS_DIRECT_H
#define _KSTATS_DIRECT_H

/*
 * The trampoline finds a call's node by its call site: the return address
 * the fentry call pushed, looked up in ks_direct_hash, open addressing
 * with linear probing.  KS_HASH_BITS bits of the key's multiplicative
 * hash (bits KS_HASH_SHIFT.. of the low 32 bits of key * KS_HASH_MUL)
 * index the table; a probe never runs past KS_HASH_PROBE entries, and the
 * table has that many more, plus an empty one that ends every search.
 *
 * On x86-64 the trampoline reads arrays beside the table, one word per
 * entry, indexed as the table: ks_direct_tip (the key), ks_direct_tpcpu
 * (its node's per-CPU part) and ks_direct_tnode (its node).  Two more are
 * indexed by a key's home, the entry its search starts at: where the key
 * is alone there (the only one whose home it is, in its home entry),
 * ks_direct_thome holds its node's per-CPU part and ks_direct_thkey the
 * key; else ks_direct_thkey is 0 and ks_direct_thome the per-CPU part of
 * ks_direct_probe (some key of that home is elsewhere: search) or of
 * ks_direct_idle (no key has that home).  The trampoline's first step is
 * "decq %gs:gate" of the home's per-CPU part, before it compares the key:
 * a call that leaves the gate at 0 or above returns into the body at
 * once.  The gate is LONG_MAX on every CPU while the node is stopped (and
 * for ks_direct_idle), counts sampled-out calls down with fast_sample
 * (ks_want() sets it to sample - 1 after a call it times), and otherwise
 * only goes down from 0, as ks_direct_probe's does from LONG_MIN / 2.  A
 * key is made to share its home (ks_direct_probe) before its call site is
 * hooked, so a call never passes or stops at another node's gate than its
 * own; a call that finds the key of its home but a gate of ks_direct_probe
 * (the two words changing as it reads them) goes to C, which decides
 * again (ks_want()).
 */
#define KS_HASH_BITS	17
#define KS_HASH_SIZE	131072			/* 1 << KS_HASH_BITS: call sites */
#define KS_HASH_MASK	(KS_HASH_SIZE - 1)
#define KS_HASH_PROBE	64
#define KS_HASH_MUL	0x61c88647		/* 2^32 / golden ratio */
#define KS_HASH_SHIFT	(32 - KS_HASH_BITS)
/*
 * arm64 folds the key instead, bits KS_HOME_LOW.. of key ^ key >>
 * KS_HOME_FOLD: two instructions and no constant to load, which the
 * budget of a sampled-out call there has no room for.
 */
#define KS_HOME_FOLD	12
#define KS_HOME_LOW	4
#define KS_HENT_SHIFT	5			/* 32 bytes per entry */

/*
 * What the trampolines read of struct ks_node, struct ks_pcpu, struct
 * ks_hent and struct ks_centry, at the offsets of the C types: the
 * KS_NODE_*, KS_PCPU_*, KS_HENT_* and KS_CENT_* offsets are generated
 * from them at build into ks_offsets.h (ks_offsets.c, Kbuild), as the
 * kernel's asm-offsets.h.  The userspace tests of the slot macros bring
 * their own (tests/unit).
 */
#if defined(__ASSEMBLY__) && !defined(KS_OFFSETS_GIVEN)
#include "ks_offsets.h"
#endif

/*
 * Each CPU's copy of how a call of the node is timed: through C, or by the
 * trampoline alone (the plain case), or by the trampoline with a node's
 * call sites ("callers") and slowest calls ("slowest"), x86-64 only.
 */
/*
 * ks_pcpu's ncost (ks_unnest() in ks_record.h) in 256ths of the slots'
 * unit: arm64's counter ticks every 16 ns under QEMU, and a whole tick
 * more or less on each of a thousand nested calls is 16 us.
 */
#define KS_NCOST_SHIFT		8

#define KS_FAST_C		0
#define KS_FAST_PLAIN		1
#define KS_FAST_EXTRA		2

/*
 * "callers N" on x86-64: the trampoline finds a call site's histogram in
 * a cache of the node's call sites (struct ks_callers' @tab), open
 * addressing as ks_direct_hash, KS_CTAB_BITS bits of the same hash.  An
 * entry names the site, the byte offset of its histogram in a CPU's
 * slots, and where its longest call is kept.  A site not found there goes
 * through C (ks_direct_caller()), which adds it; the cache only speeds up
 * what ks_caller_index() decides.
 */
#define KS_CTAB_BITS		6
#define KS_CTAB_SIZE		64		/* 1 << KS_CTAB_BITS */
#define KS_CTAB_PROBE		8
#define KS_CTAB_SHIFT		(32 - KS_CTAB_BITS)
#define KS_CTAB_ENTRIES		(KS_CTAB_SIZE + KS_CTAB_PROBE + 1)
#define KS_CENT_SHIFT		5		/* 32 bytes per entry */

/*
 * The fast path's preempt_disable() and preempt_enable(): the per-CPU
 * preemption count as x86's asm/preempt.h keeps it, whose place moved
 * with the kernel (ks_direct.c checks it against the kernel's headers).
 * The decrement sets ZF when preemption is due, as preempt_enable()'s.
 */
#ifdef CONFIG_X86_64
#ifdef KS_PCPU_HOT	/* 6.2 to 6.14: struct pcpu_hot (Kbuild) */
#define KS_PREEMPT_COUNT	(pcpu_hot + KS_PCPU_HOT_PREEMPT)	/* ks_offsets.h */
#else
#define KS_PREEMPT_COUNT	__preempt_count
#endif
#ifdef CONFIG_HAS_SEPARATE_PREEMPT_RESCHED_BITS
#define KS_PREEMPT_BYTES	8	/* ks_tramp.S: incq, decq */
#else
#define KS_PREEMPT_BYTES	4	/* ks_tramp.S: incl, decl */
#endif
#endif /* CONFIG_X86_64 */

/*
 * The exit scan (ks_direct.c): on the stack of a task that ends inside a
 * body, a timed call's node lies KS_FRAME_NODE bytes from its mark (the
 * body's return address into ks_tramp.S on x86-64; ks_direct_tramp's
 * address in its frame on arm64, whose return addresses may be signed).
 */
#ifdef CONFIG_X86_64
#define KS_FRAME_NODE		16
#else
#define KS_FRAME_NODE		(-96)
#endif

#ifndef __ASSEMBLY__
#include <linux/types.h>

struct ks_node;
struct ks_dbatch;
struct kstats_slot;

/**
 * struct ks_hent - one traced call site
 * @ip: the return address of its fentry call (0: never used; an entry
 *	keeps its key once set, so that no search ever stops short)
 * @node: its node; ks_direct_idle while not timed (a tombstone)
 * @batch: the ftrace_ops that hooks it, or NULL once unhooked
 */
struct ks_hent {
	unsigned long ip;
	struct ks_node *node;
	struct ks_dbatch *batch;
	unsigned long pad;
};

#define KS_HASH_ENTRIES	(KS_HASH_SIZE + KS_HASH_PROBE + 1)

extern char ks_direct_tramp[];
#ifdef CONFIG_X86_64
/* where bodies return, from ks_direct_tramp (absolute symbols) */
extern const char ks_direct_back_common_off[], ks_direct_back_fast_off[];
extern const char ks_direct_back_fast_x_off[];
#endif
extern struct ks_node ks_direct_idle;
extern struct ks_hent ks_direct_hash[KS_HASH_ENTRIES];
extern unsigned long ks_direct_tip[KS_HASH_ENTRIES];
extern void __percpu *ks_direct_tpcpu[KS_HASH_ENTRIES];
extern struct ks_node *ks_direct_tnode[KS_HASH_ENTRIES];
extern unsigned long ks_direct_thkey[KS_HASH_SIZE];
extern void __percpu *ks_direct_thome[KS_HASH_SIZE];
/* the table's writers, ks_direct_table.c (under ks_lock) */
unsigned long ks_hkey(unsigned long ip);
struct ks_hent *ks_hslot(unsigned long key);
void ks_direct_table_init(void);
extern unsigned int ks_direct_live;
/* a node left an entry since the last wait for the trampoline's tasks */
extern bool ks_direct_unsettled;

/*
 * Call sites at once: the table's size, or 8,192 where ftrace's direct
 * API is the _multi one (up to 6.5): there, Debian's 6.1 took 9 KiB of
 * slab a call site for the first 9,583 of a glob and 34 KiB for the next
 * 9,900, kept after the remove, and a whole-kernel trace ran a 1 GiB
 * machine out of memory.
 */
#ifdef KS_FTRACE_DIRECT_MULTI
#define KS_DIRECT_SITES_MAX	8192
#else
#define KS_DIRECT_SITES_MAX	KS_HASH_SIZE
#endif
void ks_hent_set(struct ks_hent *e, struct ks_node *node);
void ks_hent_key(struct ks_hent *e, unsigned long key);
bool ks_direct_room(unsigned int total);
void ks_direct_home_full(void);
/**
 * struct ks_centry - a call site in the trampoline's cache (KS_CTAB_*)
 * @ip: the site (0: free, or not yet published)
 * @off: its histogram's offset in a CPU's slots, in bytes
 * @max: its longest call (struct ks_callers' @max)
 * @claim: set by the one writer of the entry
 */
struct ks_centry {
	unsigned long ip;
	unsigned long off;
	u64 *max;
	unsigned long claim;
};

u64 ks_direct_enter(struct ks_node *node, u64 *ends);
void ks_direct_exit(struct ks_node *node, u64 start, unsigned long caller,
		    const u64 *ends);
void ks_direct_record(struct ks_node *node, u64 v, unsigned long ip);
void ks_direct_caller(struct ks_node *node, struct kstats_slot *sl, u64 v,
		      unsigned long ip, u32 s);
void ks_direct_slow(struct ks_node *node, u64 v, unsigned long ip, u64 ctx);
void ks_direct_resched(void);
int ks_direct_attach_many(struct ks_node **nodes, unsigned int n);
/* ks_direct_stack.c: the calls on tasks' stacks */
int ks_direct_watch_exits(void);
void ks_direct_unwatch_exits(void);
void ks_direct_wake(bool say);
bool ks_direct_thread_fn(const char *name);
#endif

#endif /* _KSTATS_DIRECT_H */
