// SPDX-License-Identifier: GPL-2.0
/*
 * kstats direct backend: ftrace direct calls into the trampolines of
 * ks_tramp.S.  Each traced symbol takes one slot (a stub and an ftrace_ops);
 * the slot's node is found by index, with no lookup.
 *
 * Cost per timed call: the direct call, two short handlers and two clock
 * reads; untimed calls (filtered, sampled out) return into the body right
 * after ks_direct_enter().  The handlers call nothing traceable, so a
 * traced function cannot recurse through them.
 *
 * Removal: after unregistering, synchronize_rcu_tasks() waits for tasks
 * that were preempted inside a trampoline before the body; then the slot
 * is free again at once (a call in the body keeps its node on its own
 * trampoline frame, and never reads the slot again).  Calls still running
 * the body (the traced function may sleep, for as long as it likes) are
 * counted per CPU in ks_pcpu.inflight: detach does not wait for them, and
 * the node is freed once that count reaches zero (ks_node.c, ks_reap).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/error-injection.h>
#include <linux/kprobes.h>
#include <linux/slab.h>
#include "ks_node.h"
#include "ks_direct.h"
#include "ks_compat.h"

struct ks_dslot {
	struct ftrace_ops ops;
	bool registered;
};

/*
 * Slots are assigned and freed under ks_lock.  The stub of slot i loads
 * ks_direct_nodes[i] for the trampoline: no lookup on the hot path.
 */
struct ks_node *ks_direct_nodes[KS_DIRECT_SLOTS];
static struct ks_dslot ks_dslots[KS_DIRECT_SLOTS];

static_assert(offsetof(struct ks_node, active) == KS_NODE_ACTIVE);
static_assert(offsetof(struct ks_node, fast_sample) == KS_NODE_FAST_SAMPLE);
static_assert(offsetof(struct ks_node, pcpu) == KS_NODE_PCPU);
static_assert(offsetof(struct ks_pcpu, skip) == KS_PCPU_SKIP);
/*
 * What one timed call reads of its node lies in its first cache line:
 * kzalloc() serves a node from kmalloc-256 or a larger cache, whose
 * power-of-two objects are aligned to their size.
 */
static_assert(sizeof(struct ks_node) > 192);
static_assert(offsetofend(struct ks_node, cmd.cpus[0]) <= L1_CACHE_BYTES);

static unsigned long ks_tramp_addr(unsigned int slot)
{
	return (unsigned long)ks_direct_tramps + slot * KS_TRAMP_SIZE;
}

/**
 * ks_direct_enter() - a traced call starts (called by the trampoline)
 * @node: the slot's node (NULL while the slot is being set up)
 *
 * Return: the start time, or 0 if this call is not to be timed.
 */
notrace u64 ks_direct_enter(struct ks_node *node)
{
	u64 now = 0;

	if (unlikely(!node))
		return 0;
	preempt_disable_notrace();	/* ks_want()'s sampling count */
	if (ks_want(node)) {
		this_cpu_inc(node->pcpu->inflight);
		now = ks_now(node);
		ks_gap(node, now);
	}
	preempt_enable_notrace();
	return now;
}

NOKPROBE_SYMBOL(ks_direct_enter);

/**
 * ks_direct_exit() - a timed call returned (called by the trampoline)
 * @node: what ks_direct_enter() got for this call
 * @start: what ks_direct_enter() returned for this call
 */
notrace void ks_direct_exit(struct ks_node *node, u64 start)
{
	ks_record(node, ks_delta(node, start, ks_now(node)));
	this_cpu_dec(node->pcpu->inflight);	/* may be another CPU's +1 */
}

NOKPROBE_SYMBOL(ks_direct_exit);

/* Calls of @node still running a traced body, summed over CPUs. */
static long ks_inflight(struct ks_node *node)
{
	long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += READ_ONCE(per_cpu_ptr(node->pcpu, cpu)->inflight);
	return n;
}

static long ks_direct_busy(struct ks_node *node)
{
	return ks_inflight(node);
}

/* Unhook every symbol of @node; calls inside the body go on (busy). */
static void ks_direct_detach(struct ks_node *node)
{
	unsigned int i;
	bool any = false;

	for (i = 0; i < KS_DIRECT_SLOTS; i++) {
		struct ks_dslot *ds = &ks_dslots[i];

		if (ks_direct_nodes[i] != node || !ds->registered)
			continue;
		ks_ftrace_direct_off(&ds->ops, ks_tramp_addr(i));
		ds->registered = false;
		any = true;
	}
	/* tasks preempted inside a trampoline, before the body */
	if (any)
		synchronize_rcu_tasks();
	for (i = 0; i < KS_DIRECT_SLOTS; i++)
		if (ks_direct_nodes[i] == node)
			WRITE_ONCE(ks_direct_nodes[i], NULL);
	node->priv = NULL;
}

static int ks_direct_attach(struct ks_node *node)
{
	const struct ks_cmd *c = &node->cmd;
	unsigned int i, s = 0;
	int ret = 0;

	/* sampling alone: the trampoline counts calls down by itself */
	node->fast_sample = c->sample > 1 && c->pid < 0 && c->tgid < 0 &&
			    !c->comm[0] && !c->cpus[0];

	for (i = 0; i < node->nsyms; i++) {
		const char *colon = strchr(node->syms[i], ':');
		const char *sym = colon ? colon + 1 : node->syms[i];
		char buf[KS_NAME_MAX];
		struct ks_dslot *ds;

		while (s < KS_DIRECT_SLOTS && ks_direct_nodes[s])
			s++;
		if (s == KS_DIRECT_SLOTS) {
			pr_err("%s: all %d direct slots in use\n",
			       node->cmd.name, KS_DIRECT_SLOTS);
			ret = -ENOSPC;
			break;
		}
		ds = &ks_dslots[s];
		memset(&ds->ops, 0, sizeof(ds->ops));
		WRITE_ONCE(ks_direct_nodes[s], node);
		node->priv = node;	/* something to detach */
		strscpy(buf, sym, sizeof(buf));	/* the filter writes in it */
		ret = ks_ftrace_filter(&ds->ops, buf);
		if (ret)
			break;
		ret = ks_ftrace_direct_on(&ds->ops, ks_tramp_addr(s));
		if (ret) {
			ftrace_free_filter(&ds->ops);
			break;
		}
		ds->registered = true;
	}
	if (ret && node->priv)
		ks_direct_detach(node);
	return ret;
}
ALLOW_ERROR_INJECTION(ks_direct_attach, ERRNO);

/* Nothing to miss: each call keeps its state on its own stack. */
static u64 ks_direct_missed(struct ks_node *node)
{
	return 0;
}

const struct ks_backend ks_direct_backend = {
	.name = "direct",
	.attach = ks_direct_attach,
	.detach = ks_direct_detach,
	.missed = ks_direct_missed,
	.busy = ks_direct_busy,
	.by_address = true,
};
