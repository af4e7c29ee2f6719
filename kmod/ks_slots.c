// SPDX-License-Identifier: GPL-2.0
/*
 * kstats slots: each CPU's histogram of a node is allocated only when that
 * CPU records, so a node's memory does not grow with CPUs that never call
 * its function (nor with possible CPUs that are never online).
 *
 * A node keeps zeroed spares: one for each online CPU that has no slots
 * yet, up to KS_SPARES, for as long as it lives.  A CPU without slots that
 * records takes one (ks_slots_claim(), with interrupts off: no claim of
 * its own can cut in) and keeps it until the node goes, so on a machine
 * of up to KS_SPARES CPUs every CPU finds its slots ready, however many
 * start at once and however busy the machine is.  The CPU-hotplug
 * callback tops every node's spares up for a CPU before it comes online
 * (ks_slots_cpu_prepare(), before the CPU runs anything).  A CPU that
 * finds none (more than KS_SPARES CPUs starting at once, or mem_max
 * reached) counts the call in its unslotted counter, shown as missed, and
 * asks for more: an irq_work (recording may happen in any context, NMI
 * included), which queues ks_slots_work, which allocates them with
 * GFP_KERNEL.  So a node's memory is, with slots = kstats_nr_slots():
 *
 *   sizeof(struct ks_node) + possible CPUs * sizeof(struct ks_pcpu)
 *     + (CPUs that recorded + spares) * 16 * slots * histograms bytes
 *
 * where histograms is 1, or N + 2 for a node with "callers N" (its own,
 * one per call site, the rest's), and spares = min(online CPUs without slots, KS_SPARES), counted
 * against mem_max, which refuses a node (ENOSPC) or further spares (the
 * calls of CPUs without slots are then missed, and the log says so once
 * per node).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/irq_work.h>
#include <linux/workqueue.h>
#include <linux/kprobes.h>
#include <linux/hardirq.h>
#include "ks_record.h"
#include "ks_slots.h"

static unsigned int mem_max = 256;
module_param(mem_max, uint, 0644);
MODULE_PARM_DESC(mem_max, "MiB the nodes may take in all, their slots included (default 256)");

static atomic64_t ks_mem_used;	/* freed nodes, from the reaper too */

/* node->slots_flags */
#define KS_SLOTS_ASKED		0	/* a CPU found no spare, or took one */

/* Every allocated node, listed or not, until it is freed. */
static LIST_HEAD(ks_slots_nodes);
static DEFINE_MUTEX(ks_slots_lock);

static void ks_slots_tend_all(struct work_struct *work);
static DECLARE_WORK(ks_slots_work, ks_slots_tend_all);

static void ks_slots_raise(struct irq_work *iw)
{
	queue_work(system_unbound_wq, &ks_slots_work);
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

/* One CPU's slots: the node's histogram, and its call sites' if kept. */
static size_t ks_slots_size(const struct ks_node *node)
{
	return (size_t)node->nhist * node->nslots * sizeof(struct kstats_slot);
}

/*
 * Ask for spares, once until ks_slots_tend() has looked at the node: a
 * CPU that keeps recording without slots asks no more than that.
 */
static __always_inline void ks_slots_ask(struct ks_node *node)
{
	/*
	 * Never from a CPU that is not online: one going down records its
	 * last calls (the stopper thread's, the idle task's) after its last
	 * irq_work flush (CPUHP_AP_SMPCFD_DYING).  Queued there, the work
	 * would stay on that CPU's list, and each irq_work queued on the CPU
	 * once it is back, the kernel's own included (the wakeup of the RCU
	 * Tasks kthread that a removal waits for, say), would wait behind
	 * it without an interrupt raised.  The hotplug prepare callback
	 * gives the CPU its spares before it comes back; the online CPUs
	 * ask for theirs.
	 */
	if (!cpu_online(raw_smp_processor_id()))
		return;
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

/* The spares @node has now. */
static unsigned int ks_slots_spares(const struct ks_node *node)
{
	unsigned int n = 0, i;

	for (i = 0; i < KS_SPARES; i++)
		n += !!READ_ONCE(node->spare[i]);
	return n;
}

/*
 * Bring @node's spares to one for each online CPU without slots (and
 * @coming, a CPU about to come online, if it has none), up to KS_SPARES.
 * Only this (under ks_slots_lock) adds spares; claims take them with
 * xchg(), and so does a trim, so a spare goes to exactly one of them.
 */
static void ks_slots_tend(struct ks_node *node, int coming)
{
	unsigned int spares, want = 0, i;
	size_t size = ks_slots_size(node);
	struct kstats_slot *sl;
	int cpu;

	clear_bit(KS_SLOTS_ASKED, &node->slots_flags);
	spares = ks_slots_spares(node);
	for_each_online_cpu(cpu)
		want += !ks_cpu_slots(node, cpu);
	if (coming >= 0 && !cpu_online(coming) && !ks_cpu_slots(node, coming))
		want++;
	want = min_t(unsigned int, want, KS_SPARES);
	for (i = 0; i < KS_SPARES && spares > want; i++) {
		sl = xchg(&node->spare[i], NULL);
		if (!sl)
			continue;
		kvfree(sl);
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
		sl = kvzalloc(size, GFP_KERNEL);
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

/* The nodes a CPU asked spares for, with the online CPUs held still. */
static void ks_slots_tend_all(struct work_struct *work)
{
	struct ks_node *node;

	cpus_read_lock();
	mutex_lock(&ks_slots_lock);
	list_for_each_entry(node, &ks_slots_nodes, slots_list)
		if (test_bit(KS_SLOTS_ASKED, &node->slots_flags))
			ks_slots_tend(node, -1);
	mutex_unlock(&ks_slots_lock);
	cpus_read_unlock();
}

/*
 * CPU hotplug, prepare stage: runs on another CPU before @cpu comes
 * online, and may sleep.  Every node gets a spare for @cpu (if it has no
 * slots there), so that its first calls are recorded.  An allocation
 * that fails (mem_max) leaves those calls to be missed, as said above;
 * it never stops the CPU from coming up.
 */
static int ks_slots_cpu_prepare(unsigned int cpu)
{
	struct ks_node *node;

	mutex_lock(&ks_slots_lock);
	list_for_each_entry(node, &ks_slots_nodes, slots_list)
		ks_slots_tend(node, cpu);
	mutex_unlock(&ks_slots_lock);
	return 0;
}

static int ks_slots_cpuhp = -1;

/**
 * ks_slots_setup() - follow CPUs coming online (module init)
 *
 * Return: 0, or the error of cpuhp_setup_state_nocalls().
 */
int ks_slots_setup(void)
{
	int ret = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN,
					    "kstats:slots",
					    ks_slots_cpu_prepare, NULL);

	if (ret < 0) {
		pr_err("cannot follow CPU hotplug: error %d\n", ret);
		return ret;
	}
	ks_slots_cpuhp = ret;
	return 0;
}

/**
 * ks_slots_init() - a new node's first spares
 * @node: allocated, with nslots and pcpu set
 *
 * One for each online CPU, up to KS_SPARES, counted in node->mem.
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
		node->spare[i] = kvzalloc(size, GFP_KERNEL);
		if (!node->spare[i])
			return -ENOMEM;	/* ks_slots_free() gives it all back */
	}
	mutex_lock(&ks_slots_lock);
	list_add_tail(&node->slots_list, &ks_slots_nodes);
	mutex_unlock(&ks_slots_lock);
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
		kvfree(node->spare[i]);
	if (node->pcpu)
		for_each_possible_cpu(cpu)
			kvfree(ks_cpu_slots(node, cpu));
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
	unsigned int n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += !!ks_cpu_slots(node, cpu);
	*cpus = n;
	*spares = ks_slots_spares(node);
	return node->mem;
}

/* Module exit: no node is left, so nothing asks any more. */
void ks_slots_exit(void)
{
	if (ks_slots_cpuhp >= 0)
		cpuhp_remove_state_nocalls(ks_slots_cpuhp);
	irq_work_sync(&ks_slots_iw);
	cancel_work_sync(&ks_slots_work);
}
