// SPDX-License-Identifier: GPL-2.0
/*
 * kstats direct backend: the table of call sites the trampolines search
 * (ks_tramp.S, ks_tramp_arm64.S), written by ks_direct.c under ks_lock:
 * each traced call site's entry, found from its key (the return address
 * of its fentry call) by open addressing with linear probing, and the
 * words of each key's home that the trampoline reads first (ks_direct.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/percpu.h>
#include <linux/ratelimit.h>
#include "ks_types.h"
#include "ks_direct.h"

/*
 * Written under ks_lock, read by ks_direct_tramp without a lock: an entry
 * gets its key before its node, and keeps its key for ever (a search goes
 * on past a tombstone, and ends at an entry never used).
 */
struct ks_hent ks_direct_hash[KS_HASH_ENTRIES] __aligned(64);
/* What ks_tramp.S reads of each entry, one array each (ks_direct.h). */
unsigned long ks_direct_tip[KS_HASH_ENTRIES] __aligned(64);
void __percpu *ks_direct_tpcpu[KS_HASH_ENTRIES] __aligned(64);
struct ks_node *ks_direct_tnode[KS_HASH_ENTRIES] __aligned(64);

static_assert(sizeof(struct ks_hent) == 1 << KS_HENT_SHIFT);
/* What an entry that times nothing any more points at: never active. */
static DEFINE_PER_CPU(struct ks_pcpu, ks_direct_idle_pcpu) = {
	.gate = LONG_MAX,
};

struct ks_node ks_direct_idle = {
	.pcpu = &ks_direct_idle_pcpu,
};

/*
 * The gate of a home whose keys are not alone: never shut, so that the
 * call compares its key (ks_direct_thkey 0: never equal) and searches.
 * Its calls go to C should one find its key there all the same (KS_FAST_C).
 */
static DEFINE_PER_CPU(struct ks_pcpu, ks_direct_probe_pcpu) = {
	.gate = LONG_MIN / 2,
};

/* and by home: the key alone there and its gate (ks_direct.h) */
unsigned long ks_direct_thkey[KS_HASH_SIZE] __aligned(64);
void __percpu *ks_direct_thome[KS_HASH_SIZE] __aligned(64);

/*
 * Every home idle, before any call site is hooked (the direct backend's
 * start: module load); in .bss, not a 512 KiB initialized array.
 */
void ks_direct_table_init(void)
{
	unsigned int h;

	for (h = 0; h < KS_HASH_SIZE; h++)
		ks_direct_thome[h] = (void __percpu *)&ks_direct_idle_pcpu;
}

/* first: arm64's ldadd takes no offset */
static_assert(offsetof(struct ks_pcpu, gate) == 0);
static_assert(sizeof_field(struct ks_pcpu, gate) == 8);

/* Where ks_direct_tramp starts looking for @key (as it computes it). */
static unsigned int ks_hhome(unsigned long key)
{
	if (IS_ENABLED(CONFIG_ARM64))
		return ((key ^ key >> KS_HOME_FOLD) >> KS_HOME_LOW) &
		       KS_HASH_MASK;
	return (u32)((u32)key * KS_HASH_MUL) >> KS_HASH_SHIFT;
}

/*
 * Home @h's words for the trampoline's first step (ks_direct.h), after
 * the entries changed: the key alone there and its node's per-CPU part,
 * else no key and the gate of ks_direct_probe (or ks_direct_idle's, for
 * a home of no key).  A key that comes to share its home makes it
 * ks_direct_probe's here, before its call site is ever hooked.
 */
static void ks_home_sync(unsigned int h)
{
	unsigned int i, n = 0;

	/*
	 * A key is never taken out, only replaced: no empty entry lies
	 * between a key's home and the key (ks_hslot() stops at one).
	 */
	for (i = h; i < h + KS_HASH_PROBE && ks_direct_tip[i]; i++)
		if (ks_hhome(ks_direct_tip[i]) == h)
			n++;
	if (n == 1 && ks_direct_tip[h] && ks_hhome(ks_direct_tip[h]) == h) {
		WRITE_ONCE(ks_direct_thkey[h], ks_direct_tip[h]);
		WRITE_ONCE(ks_direct_thome[h], ks_direct_tpcpu[h]);
		return;
	}
	WRITE_ONCE(ks_direct_thkey[h], 0);
	smp_wmb();	/* a call that finds the probe's gate finds no key */
	WRITE_ONCE(ks_direct_thome[h], n ?
		   (void __percpu *)&ks_direct_probe_pcpu :
		   (void __percpu *)&ks_direct_idle_pcpu);
}

/* Call sites that time a node now (ks_direct_attach_many()'s limit). */
unsigned int ks_direct_live;
bool ks_direct_unsettled;

/* Entry @e times @node (ks_direct_idle: nothing), for both trampolines. */
void ks_hent_set(struct ks_hent *e, struct ks_node *node)
{
	unsigned int i = e - ks_direct_hash;
	bool was = e->node && e->node != &ks_direct_idle;
	bool is = node != &ks_direct_idle;

	if (was != is)
		ks_direct_live += is ? 1 : -1;
	ks_direct_unsettled |= was;
	WRITE_ONCE(e->node, node);
	WRITE_ONCE(ks_direct_tnode[i], node);
	WRITE_ONCE(ks_direct_tpcpu[i], (void __percpu *)node->pcpu);
	if (i < KS_HASH_SIZE)
		ks_home_sync(i);
}

/* Entry @e gets its key @key, idle (before it is ever found). */
void ks_hent_key(struct ks_hent *e, unsigned long key)
{
	unsigned long old = e->ip;

	ks_hent_set(e, &ks_direct_idle);
	smp_wmb();	/* node before key: a found key has a node */
	WRITE_ONCE(e->ip, key);
	WRITE_ONCE(ks_direct_tip[e - ks_direct_hash], key);
	if (old)
		ks_home_sync(ks_hhome(old));
	ks_home_sync(ks_hhome(key));
}

/* The key of a call site: the return address of its fentry call. */
unsigned long ks_hkey(unsigned long ip)
{
	return ip + MCOUNT_INSN_SIZE;
}

/*
 * The entry for @key: its own (with or without a node), else the first
 * free or tombstoned one on its probe sequence, else NULL (crowded).
 */
struct ks_hent *ks_hslot(unsigned long key)
{
	struct ks_hent *e = &ks_direct_hash[ks_hhome(key)], *spare = NULL;
	unsigned int i;

	for (i = 0; i < KS_HASH_PROBE; i++, e++) {
		if (e->ip == key)
			return e;
		if (!e->ip)
			return spare ? spare : e;
		if (!spare && e->node == &ks_direct_idle && !e->batch)
			spare = e;
	}
	return spare;
}

/**
 * ks_direct_room() - may @total more call sites be traced?
 * @total: call sites
 *
 * When not, said once in 10 s, not each time: a glob past the room meets
 * it with each half and each node (the default backend times them another
 * way, _last lists them).
 *
 * Return: true if they fit.
 */
bool ks_direct_room(unsigned int total)
{
	static DEFINE_RATELIMIT_STATE(full, 10 * HZ, 1);

	if (ks_direct_live + total <= KS_DIRECT_SITES_MAX)
		return true;
	if (__ratelimit(&full))
		pr_err("no room for more direct call sites (%u traced, %d at most on this kernel)\n",
		       ks_direct_live, KS_DIRECT_SITES_MAX);
	return false;
}

/*
 * A call site whose home's entries are all taken, said once in 10 s too:
 * a glob meets it with each half (arm64 7.3's '*': 1,952 sites, each
 * named up to six times, before).
 */
void ks_direct_home_full(void)
{
	static DEFINE_RATELIMIT_STATE(full, 10 * HZ, 1);

	if (__ratelimit(&full))
		pr_err("no room for a call site: the %d entries from its home are taken (%d in all)\n",
		       KS_HASH_PROBE, KS_HASH_SIZE);
}
