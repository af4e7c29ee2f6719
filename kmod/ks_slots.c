// SPDX-License-Identifier: GPL-2.0
/*
 * kstats slots: each CPU's histogram of a node is allocated only when that
 * CPU records, so a node's memory does not grow with CPUs that never call
 * its function (nor with possible CPUs that are never online).
 *
 * A node keeps zeroed spares.  A CPU without slots that records takes one
 * (ks_slots_claim(), with interrupts off: no claim of its own can cut in)
 * and keeps it until the node goes; a CPU that finds none counts the call
 * in its unslotted counter, shown as missed, and asks for more.  The ask
 * is an irq_work (recording may happen in any context, NMI included),
 * which queues ks_slots_work: it allocates spares with GFP_KERNEL.
 *
 * A new node has up to KS_SPARES spares, as many as CPUs are online, so
 * that the CPUs that start calling at once each find one.  Once it is
 * spare_ms old it keeps one (none when every online CPU has slots); the
 * rest are freed.  So its memory is, with slots = kstats_nr_slots():
 *
 *   sizeof(struct ks_node) + possible CPUs * sizeof(struct ks_pcpu)
 *     + (CPUs that recorded + spares) * 16 * slots bytes
 *
 * counted against mem_max, which refuses a node (ENOSPC) or further
 * spares (the calls of CPUs without slots are then missed, and the log
 * says so once per node).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/irq_work.h>
#include <linux/workqueue.h>
#include <linux/kprobes.h>
#include <linux/hardirq.h>
#include "ks_core.h"

static unsigned int mem_max = 256;
module_param(mem_max, uint, 0644);
MODULE_PARM_DESC(mem_max, "MiB the nodes may take in all, their slots included (default 256)");

static unsigned int spare_ms = 10000;
module_param(spare_ms, uint, 0644);
MODULE_PARM_DESC(spare_ms, "ms a new node keeps a spare for each online CPU, up to 8 (default 10000)");

static atomic64_t ks_mem_used;	/* freed nodes, from the reaper too */

/* node->slots_flags */
#define KS_SLOTS_ASKED		0	/* a CPU found no spare, or took one */
#define KS_SLOTS_TRIMMED	1	/* tended once past young */

/* Every allocated node, listed or not, until it is freed. */
static LIST_HEAD(ks_slots_nodes);
static DEFINE_MUTEX(ks_slots_lock);

static void ks_slots_tend_all(struct work_struct *work);
static DECLARE_DELAYED_WORK(ks_slots_work, ks_slots_tend_all);

static void ks_slots_raise(struct irq_work *iw)
{
	mod_delayed_work(system_unbound_wq, &ks_slots_work, 0);
}

static struct irq_work ks_slots_iw = IRQ_WORK_INIT(ks_slots_raise);

/* Count @bytes against mem_max; false (nothing counted) past it. */
static bool ks_mem_take(u64 bytes)
{
	u64 max = (u64)READ_ONCE(mem_max) << 20;
	s64 used = atomic64_add_return(bytes, &ks_mem_used);

	if (used <= max)
		return true;
	atomic64_sub(bytes, &ks_mem_used);
	return false;
}

/* @bytes counted by ks_mem_take() are freed. */
static void ks_mem_give(u64 bytes)
{
	atomic64_sub(bytes, &ks_mem_used);
}

static u64 ks_mem_in_use(void)
{
	return atomic64_read(&ks_mem_used);
}

static size_t ks_slots_size(const struct ks_node *node)
{
	return node->nslots * sizeof(struct kstats_slot);
}

/*
 * Ask for spares, once until ks_slots_tend() has looked at the node: a
 * CPU that keeps recording without slots asks no more than that.
 */
static __always_inline void ks_slots_ask(struct ks_node *node)
{
	if (!test_and_set_bit(KS_SLOTS_ASKED, &node->slots_flags))
		irq_work_queue(&ks_slots_iw);
}

/**
 * ks_slots_claim() - slots for this CPU, which has none
 * @node: the node it records into
 *
 * Called with preemption off by ks_record() (and ks_tramp.S) when this
 * CPU's slots are NULL.  Takes a spare, with interrupts off so that no
 * interrupt on this CPU claims one at the same time; in an NMI (which
 * could cut into such a claim) it takes none.  Either way it asks for
 * more spares.
 *
 * Return: this CPU's slots, or NULL: the call is not recorded.
 */
notrace struct kstats_slot *ks_slots_claim(struct ks_node *node)
{
	struct kstats_slot *sl = NULL;
	unsigned long flags;
	int i;

	if (!in_nmi()) {
		raw_local_irq_save(flags);
		sl = __this_cpu_read(node->pcpu->slots);
		for (i = 0; !sl && i < KS_SPARES; i++)
			if (READ_ONCE(node->spare[i]))
				sl = xchg(&node->spare[i], NULL);
		if (sl)
			__this_cpu_write(node->pcpu->slots, sl);
		raw_local_irq_restore(flags);
	}
	ks_slots_ask(node);
	return sl;
}

NOKPROBE_SYMBOL(ks_slots_claim);

/* CPUs of @node with slots, and its spares. */
static unsigned int ks_slots_count(const struct ks_node *node,
				   unsigned int *spares)
{
	unsigned int n = 0, i;
	int cpu;

	for_each_possible_cpu(cpu)
		n += !!ks_cpu_slots(node, cpu);
	*spares = 0;
	for (i = 0; i < KS_SPARES; i++)
		*spares += !!READ_ONCE(node->spare[i]);
	return n;
}

/*
 * Bring @node's spares to what it should keep now.  Only this (under
 * ks_slots_lock) adds spares; claims take them with xchg(), and so does
 * a trim, so a spare goes to exactly one of them.
 */
static void ks_slots_tend(struct ks_node *node)
{
	bool young = time_before(jiffies, node->young);
	unsigned int have, spares, online = num_online_cpus(), want = 0, i;
	size_t size = ks_slots_size(node);
	struct kstats_slot *sl;

	clear_bit(KS_SLOTS_ASKED, &node->slots_flags);
	have = ks_slots_count(node, &spares);
	if (have < online)
		want = min(online - have, young ? KS_SPARES : 1);
	for (i = 0; i < KS_SPARES && spares > want; i++) {
		sl = xchg(&node->spare[i], NULL);
		if (!sl)
			continue;
		kfree(sl);
		ks_mem_give(size);
		node->mem -= size;
		spares--;
	}
	for (i = 0; i < KS_SPARES && spares < want; i++) {
		if (READ_ONCE(node->spare[i]))
			continue;
		if (!ks_mem_take(size)) {
			if (!node->slots_warned)
				pr_warn("%s: mem_max (%u MiB) reached: calls on CPUs without slots are missed\n",
					node->cmd.name, mem_max);
			node->slots_warned = true;
			break;
		}
		sl = kzalloc(size, GFP_KERNEL);
		if (!sl) {
			ks_mem_give(size);
			break;
		}
		node->mem += size;
		/* zeroed before a claim's xchg() can see it */
		smp_store_release(&node->spare[i], sl);
		spares++;
	}
}

static void ks_slots_tend_all(struct work_struct *work)
{
	struct ks_node *node;
	bool again = false;

	mutex_lock(&ks_slots_lock);
	list_for_each_entry(node, &ks_slots_nodes, slots_list) {
		bool old = time_after_eq(jiffies, node->young);

		if (!old)
			again = true;	/* to be trimmed later */
		/* nodes nobody asked for: only the trim, once */
		if (test_bit(KS_SLOTS_ASKED, &node->slots_flags) ||
		    (old && !test_and_set_bit(KS_SLOTS_TRIMMED,
					      &node->slots_flags)))
			ks_slots_tend(node);
	}
	mutex_unlock(&ks_slots_lock);
	/* never later than a run already queued (a claim's: at once) */
	if (again)
		queue_delayed_work(system_unbound_wq, &ks_slots_work,
				   msecs_to_jiffies(min(spare_ms, 1000U)));
}

/**
 * ks_slots_init() - a new node's first spares
 * @node: allocated, with nslots and pcpu set
 *
 * As many as CPUs are online, up to KS_SPARES, counted in node->mem.
 *
 * Return: 0, -ENOSPC past mem_max (logged) or -ENOMEM.
 */
int ks_slots_init(struct ks_node *node)
{
	unsigned int i, n = min_t(unsigned int, num_online_cpus(), KS_SPARES);
	size_t size = ks_slots_size(node);

	if (!ks_mem_take(node->mem + n * size)) {
		pr_err("%s: would take the nodes' memory past mem_max (%u MiB; %llu KiB in use)\n",
		       node->cmd.name, mem_max, ks_mem_in_use() >> 10);
		node->mem = 0;
		return -ENOSPC;
	}
	node->mem += n * size;
	for (i = 0; i < n; i++) {
		node->spare[i] = kzalloc(size, GFP_KERNEL);
		if (!node->spare[i])
			return -ENOMEM;	/* ks_slots_free() gives it all back */
	}
	node->young = jiffies + msecs_to_jiffies(spare_ms);
	mutex_lock(&ks_slots_lock);
	list_add_tail(&node->slots_list, &ks_slots_nodes);
	mutex_unlock(&ks_slots_lock);
	if (n > 1)	/* trimmed to one then, if not already */
		queue_delayed_work(system_unbound_wq, &ks_slots_work,
				   msecs_to_jiffies(spare_ms));
	return 0;
}

/**
 * ks_slots_free() - free @node's slots and spares, and its memory count
 * @node: nothing records into it any more (or ks_slots_init() failed)
 */
void ks_slots_free(struct ks_node *node)
{
	unsigned int i;
	int cpu;

	if (node->slots_list.next) {
		mutex_lock(&ks_slots_lock);
		list_del(&node->slots_list);
		mutex_unlock(&ks_slots_lock);
	}
	for (i = 0; i < KS_SPARES; i++)
		kfree(node->spare[i]);
	if (node->pcpu)
		for_each_possible_cpu(cpu)
			kfree(ks_cpu_slots(node, cpu));
	ks_mem_give(node->mem);
	node->mem = 0;
}

/**
 * ks_slots_bytes() - what @node takes now
 * @node: a node
 * @cpus: set to the CPUs with slots
 * @spares: set to its spares
 *
 * Return: its bytes, as counted against mem_max.
 */
u64 ks_slots_bytes(const struct ks_node *node, unsigned int *cpus,
		   unsigned int *spares)
{
	*cpus = ks_slots_count(node, spares);
	return node->mem;
}

/* Module exit: no node is left, so nothing asks any more. */
void ks_slots_exit(void)
{
	irq_work_sync(&ks_slots_iw);
	cancel_delayed_work_sync(&ks_slots_work);
}
