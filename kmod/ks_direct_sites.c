// SPDX-License-Identifier: GPL-2.0
/*
 * kstats direct backend, x86-64: what ks_tramp.S's ks_direct_fast_x calls
 * C for, for a node with callers or slowest: a call site its cache does
 * not hold yet, and a call slower than the floor or disturbed on the way.
 */
#include <linux/kprobes.h>
#include "ks_record.h"
#include "ks_direct.h"

/*
 * The trampoline's cache (KS_CTAB_* in ks_direct.h): calls from @ip go to
 * @node's histogram @i.  Entries are claimed once, filled, then published
 * by their @ip; none is ever freed, so a search stops short only at an
 * entry still being filled, and such a call comes here again.  A site
 * whose probe range is full stays out of the cache: it is recorded here.
 */
static __always_inline void ks_ctab_add(struct ks_node *node,
					unsigned long ip, u32 i)
{
	struct ks_callers *c = node->callers;
	u32 h = (u32)ip * KS_HASH_MUL >> KS_CTAB_SHIFT, j;

	for (j = h; j < h + KS_CTAB_PROBE; j++) {
		struct ks_centry *e = &c->tab[j];

		if (READ_ONCE(e->ip) == ip)
			return;
		if (READ_ONCE(e->claim) || cmpxchg(&e->claim, 0, 1))
			continue;
		e->off = (unsigned long)(i + 1) * node->nslots *
			 sizeof(struct kstats_slot);
		e->max = &c->max[i];
		/* @off and @max before @ip: the trampoline reads them once it matches */
		smp_store_release(&e->ip, ip);
		return;
	}
}

/**
 * ks_direct_caller() - a call site the trampoline's cache does not hold
 * @node: the call's node, with callers
 * @sl: this CPU's slots
 * @v: the call's time
 * @ip: where it returns to
 * @s: its slot
 *
 * Called by ks_tramp.S with preemption off, once the node's own histogram
 * has the call: its site's histogram gets it too (claimed here, or the
 * rest's), and the cache learns the site.
 */
notrace void ks_direct_caller(struct ks_node *node, struct kstats_slot *sl,
			      u64 v, unsigned long ip, u32 s)
{
	u32 i = ks_caller_index(node->callers, ip);

	ks_record_site(node, sl, s, v, i);
	ks_ctab_add(node, ip, i);
}

NOKPROBE_SYMBOL(ks_direct_caller);

/**
 * ks_direct_slow() - a call slower than the node's floor, or disturbed
 * @node: the call's node, with slowest
 * @v: the call's time
 * @ip: where it returns to
 * @ctx: what its entry read (ks_ctx())
 *
 * Called by ks_tramp.S with preemption off, once the call is recorded:
 * as the end of ks_record_call().
 */
notrace void ks_direct_slow(struct ks_node *node, u64 v, unsigned long ip,
			    u64 ctx)
{
	if (node->slowest)	/* else a disturbed call of a node with callers */
		ks_slowest_call(node, v, ip, ctx);
}

NOKPROBE_SYMBOL(ks_direct_slow);
