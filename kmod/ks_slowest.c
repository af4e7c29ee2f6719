// SPDX-License-Identifier: GPL-2.0
/*
 * kstats "slowest K": the K slowest calls of a node since its last reset,
 * each with its time, CPU, task, end time, caller, the stack it ended on
 * and whether it was disturbed on the way (ks_ctx() in ks_node.h).
 *
 * Only a call slower than the K-th slowest kept gets here (its floor, one
 * compare in ks_record_call()); the first K of a node all do.  It runs
 * where the call ended, in any context: interrupts off and a per-CPU
 * guard, so that neither an interrupt's nor an NMI's call on this CPU
 * enters twice (what the unwinder calls may be traced too: a nested call
 * is not kept, never a recursion); an NMI only tries the lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stacktrace.h>
#include <linux/sort.h>
#include <linux/hardirq.h>
#include <linux/kprobes.h>
#include "ks_core.h"

/* Frames saved: the stack's own first ones (kstats', a probe's) are dropped */
#define KS_STACK_SAVE	(KS_STACK_MAX + 16)

struct ks_slow_scratch {
	int nest;
	unsigned long stack[KS_STACK_SAVE];
};

static DEFINE_PER_CPU(struct ks_slow_scratch, ks_slow_scratch);

/**
 * ks_slowest_alloc() - room for the @k slowest calls of a node
 * @k: 1..KS_SLOWEST_MAX
 *
 * Return: the table, empty, or NULL.
 */
struct ks_slowest *ks_slowest_alloc(u32 k)
{
	struct ks_slowest *sw;

	sw = kvzalloc(struct_size(sw, call, k), GFP_KERNEL);
	if (!sw)
		return NULL;
	raw_spin_lock_init(&sw->lock);
	sw->k = k;
	return sw;
}

/**
 * ks_slowest_reset() - forget every kept call and the disturbed counts
 * @sw: the table
 */
void ks_slowest_reset(struct ks_slowest *sw)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&sw->lock, flags);
	sw->n = 0;
	sw->low = 0;
	WRITE_ONCE(sw->floor, 0);
	atomic_long_set(&sw->switched, 0);
	atomic_long_set(&sw->interrupted, 0);
	raw_spin_unlock_irqrestore(&sw->lock, flags);
}

/*
 * The stack from @ip, the call's caller, outwards: the frames before it
 * are the hooks' own (kstats', the kprobe or rethook trampoline's).
 * Where the unwinder does not show @ip (the return hook took its place:
 * fprobe on arm64 7.x), @ip comes first, then what follows kstats' own
 * frames, the hook's included.
 */
static notrace void ks_slow_stack(struct ks_slow_call *c, unsigned long ip,
				  unsigned long *st)
{
	unsigned int nr = stack_trace_save(st, KS_STACK_SAVE, 0), i = 0, n = 0;

	while (i < nr && st[i] != ip)
		i++;
	if (i == nr) {
		for (i = 0; i < nr && within_module(st[i], THIS_MODULE); i++)
			;
		if (ip)
			c->stack[n++] = ip;
	}
	for (; i < nr && n < KS_STACK_MAX; i++)
		c->stack[n++] = st[i];
	c->nr = n;
}

/* Once K are kept: the fastest of them, whose time is the floor. */
static notrace void ks_slow_floor(struct ks_slowest *sw)
{
	u32 i, low = 0;

	for (i = 1; i < sw->n; i++)
		if (sw->call[i].time < sw->call[low].time)
			low = i;
	sw->low = low;
	WRITE_ONCE(sw->floor, sw->call[low].time);
}

/**
 * ks_slowest_keep() - keep a call slower than the node's floor
 * @node: its node, with slowest
 * @v: its time, in slot units
 * @ip: its caller, or 0
 * @by: how it went (ks_disturbed())
 */
notrace noinline void ks_slowest_keep(struct ks_node *node, u64 v,
				      unsigned long ip, enum ks_by by)
{
	struct ks_slowest *sw = node->slowest;
	struct ks_slow_scratch *s;
	struct ks_slow_call *c;
	unsigned long flags;

	local_irq_save(flags);
	s = this_cpu_ptr(&ks_slow_scratch);
	if (++s->nest != 1)	/* a call of what this one runs */
		goto out;
	if (in_nmi()) {
		if (!raw_spin_trylock(&sw->lock))
			goto out;
	} else {
		raw_spin_lock(&sw->lock);
	}
	if (sw->n < sw->k)
		c = &sw->call[sw->n++];
	else if (v > sw->call[sw->low].time)
		c = &sw->call[sw->low];
	else
		goto unlock;	/* another CPU's raised the floor meanwhile */
	c->time = v;
	c->at = local_clock();
	c->caller = ip;
	c->pid = current->pid;
	c->cpu = raw_smp_processor_id();
	c->by = by;
	memcpy(c->comm, current->comm, sizeof(c->comm));
	ks_slow_stack(c, ip, s->stack);
	if (sw->n == sw->k)
		ks_slow_floor(sw);
unlock:
	raw_spin_unlock(&sw->lock);
out:
	s->nest--;
	local_irq_restore(flags);
}

NOKPROBE_SYMBOL(ks_slowest_keep);

static int ks_slow_cmp(const void *a, const void *b)
{
	const struct ks_slow_call *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? 1 : -1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/**
 * ks_slowest_copy() - the kept calls, slowest first
 * @sw: the table
 * @out: room for @sw->k calls
 *
 * Return: how many were copied.
 */
u32 ks_slowest_copy(struct ks_slowest *sw, struct ks_slow_call *out)
{
	unsigned long flags;
	u32 n;

	raw_spin_lock_irqsave(&sw->lock, flags);
	n = sw->n;
	memcpy(out, sw->call, n * sizeof(*out));
	raw_spin_unlock_irqrestore(&sw->lock, flags);
	sort(out, n, sizeof(*out), ks_slow_cmp, NULL);
	return n;
}
