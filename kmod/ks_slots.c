// SPDX-License-Identifier: GPL-2.0
/*
 * kstats slots: each CPU's histogram of a node is allocated only when that
 * CPU records, so a node's memory does not grow with CPUs that never call
 * its function (nor with possible CPUs that are never online), and a node
 * nobody calls has no slots at all.
 *
 * Zeroed spares wait in pools, one pool for each size of slots (the nodes
 * of one bits, buckets and callers share it), on each CPU: one for each of
 * the pool's nodes that has no slots on that CPU, as long as the pool's
 * spares stay within spares_max (MiB, at least one a CPU).  A CPU without
 * slots that records takes one of its own CPU's spares (ks_slots_claim(),
 * with interrupts off: no claim of its own can cut in) and keeps it until
 * the node goes, so the nodes of a glob, however many start on a CPU at
 * once and however busy the machine is, find their slots ready while
 * spares_max holds them all.  The CPU-hotplug callback fills the pools for
 * a CPU before it comes online (ks_slots_cpu_prepare(), before the CPU
 * runs anything).  A CPU that finds none (spares_max reached: more nodes
 * starting there at once than it holds, or mem_max reached) counts the
 * call in its unslotted counter, shown as missed, and asks for more: an
 * irq_work (recording may happen in any context, NMI included), which
 * queues ks_slots_work, which allocates them with GFP_KERNEL.  So a node
 * takes, with slots = kstats_nr_slots():
 *
 *   sizeof(struct ks_node) + possible CPUs * sizeof(struct ks_pcpu)
 *     + CPUs that recorded * 16 * slots * histograms bytes
 *
 * where histograms is 1, or N + 2 for a node with "callers N" (its own,
 * one per call site, the rest's), and a pool 16 * slots * histograms
 * bytes for each spare, spares_max MiB at most (beyond one a CPU).  All
 * of it counts against mem_max, which refuses a node (ENOSPC) or further
 * spares (the calls of CPUs without slots are then missed, and the log
 * says so once until spares can be had again).
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
#include "ks_compat.h"
#include "ks_record.h"
#include "ks_slots.h"

static unsigned int mem_max = 256;
module_param(mem_max, uint, 0644);
MODULE_PARM_DESC(mem_max, "MiB the nodes may take in all, their slots included (default 256)");

static unsigned int spares_max = 16;
module_param(spares_max, uint, 0644);
MODULE_PARM_DESC(spares_max, "MiB the zeroed slots kept for nodes' first calls may take (default 16)");

static atomic64_t ks_mem_used;	/* freed nodes, from the reaper too */

/*
 * The spares of one size of slots, on each CPU, for the nodes of that
 * size (@users of them).  A CPU's spares are a stack, linked through
 * each block's first word (zeroed again when it is taken), under @lock,
 * an arch spinlock: nothing in it can be traced, and it is only taken
 * with interrupts off, never in an NMI.  @slotted counts, on each CPU,
 * the nodes that have slots there: a CPU wants @users - @slotted spares,
 * as many as spares_max allows (ks_pool_want()).
 */
struct ks_pool_cpu {
	arch_spinlock_t lock;
	void *top;
	unsigned int n;
	atomic_t slotted;
};

struct ks_pool {
	struct list_head list;
	size_t size;
	unsigned int users;
	unsigned long flags;		/* KS_SLOTS_ASKED */
	bool warned;			/* said that mem_max stops its spares */
	struct ks_pool_cpu __percpu *cpu;
	struct kmem_cache *cache;	/* blocks of @size, or NULL: kvzalloc */
	char name[32];			/* @cache's */
};

/*
 * Blocks up to this size come from a cache of their own size (bits 3:
 * 4,880 bytes, which kmalloc would round up to 8 KiB); larger ones from
 * kvzalloc().
 */
#define KS_POOL_CACHE_MAX	(64 * 1024)

static void *ks_block_alloc(struct ks_pool *pool)
{
	return pool->cache ? kmem_cache_zalloc(pool->cache, GFP_KERNEL) :
			     kvzalloc(pool->size, GFP_KERNEL);
}

static void ks_block_free(struct ks_pool *pool, void *sl)
{
	if (pool->cache)
		kmem_cache_free(pool->cache, sl);
	else
		kvfree(sl);
}

#define KS_SLOTS_ASKED		0	/* a CPU found no spare, or took one */

/* Every pool, each with at least one node of its size. */
static LIST_HEAD(ks_pools);
static DEFINE_MUTEX(ks_slots_lock);

static void ks_slots_tend_all(struct work_struct *work);
static DECLARE_WORK(ks_slots_work, ks_slots_tend_all);

static void ks_slots_raise(struct irq_work *iw)
{
	queue_work(ks_unbound_wq, &ks_slots_work);
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
 * Ask for spares, once until ks_slots_tend() has looked at the pool: a
 * CPU that keeps recording without slots asks no more than that.
 */
static __always_inline void ks_slots_ask(struct ks_pool *pool)
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
	if (!test_and_set_bit(KS_SLOTS_ASKED, &pool->flags))
		irq_work_queue(&ks_slots_iw);
}

/**
 * ks_slots_claim() - slots for this CPU, which has none
 * @node: the node it records into
 *
 * Called with preemption off by ks_record() (and ks_tramp.S) when this
 * CPU's slots are NULL.  Takes a spare of this CPU's in the node's pool,
 * with interrupts off so that no interrupt on this CPU claims one at the
 * same time; in an NMI (which could cut into such a claim) it takes none.
 * Either way it asks for more spares.
 *
 * Return: this CPU's slots, or NULL: the call is not recorded.
 */
/* Pop a spare of @pc, or NULL; interrupts off. */
static notrace void *ks_pool_pop(struct ks_pool_cpu *pc)
{
	void **sl;

	arch_spin_lock(&pc->lock);
	sl = pc->top;
	if (sl) {
		pc->top = *sl;
		pc->n--;
	}
	arch_spin_unlock(&pc->lock);
	if (sl)
		*sl = NULL;	/* the first slot's count, zero again */
	return sl;
}

/* Push @sl, zeroed but for its first word, onto @pc. */
static void ks_pool_push(struct ks_pool_cpu *pc, void **sl)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	arch_spin_lock(&pc->lock);
	*sl = pc->top;
	pc->top = sl;
	pc->n++;
	arch_spin_unlock(&pc->lock);
	raw_local_irq_restore(flags);
}

notrace struct kstats_slot *ks_slots_claim(struct ks_node *node)
{
	struct ks_pool *pool = node->pool;
	struct kstats_slot *sl = NULL;
	struct ks_pool_cpu *pc;
	unsigned long flags;

	if (!in_nmi()) {
		raw_local_irq_save(flags);
		sl = __this_cpu_read(node->pcpu->slots);
		if (!sl) {
			pc = this_cpu_ptr(pool->cpu);
			sl = ks_pool_pop(pc);
			if (sl) {
				__this_cpu_write(node->pcpu->slots, sl);
				atomic_inc(&pc->slotted);
			}
		}
		raw_local_irq_restore(flags);
	}
	ks_slots_ask(pool);
	return sl;
}

NOKPROBE_SYMBOL(ks_slots_claim);

/* The spares @pool has now on @cpu. */
static unsigned int ks_pool_spares(struct ks_pool *pool, int cpu)
{
	return READ_ONCE(per_cpu_ptr(pool->cpu, cpu)->n);
}

/*
 * What @pool wants on @cpu: a spare for each of its nodes without slots
 * there, as many as spares_max allows spread over the online CPUs, and
 * at least one; none where @cpu is neither online nor @coming.
 */
static unsigned int ks_pool_want(struct ks_pool *pool, int cpu, bool coming)
{
	int slotted = atomic_read(&per_cpu_ptr(pool->cpu, cpu)->slotted);
	u64 room = ((u64)READ_ONCE(spares_max) << 20) /
		   (pool->size * max(num_online_cpus() + coming, 1U));

	if ((!coming && !cpu_online(cpu)) || pool->users <= slotted)
		return 0;
	return min_t(u64, pool->users - slotted, max_t(u64, room, 1));
}

/*
 * Bring @pool's spares on @cpu to what it wants there (ks_pool_want()),
 * with ks_slots_lock held.  Only this adds spares; claims take them, and
 * so does a trim, under the CPU's lock, so a spare goes to exactly one
 * of them.
 */
static void ks_pool_tend_cpu(struct ks_pool *pool, int cpu, bool coming)
{
	struct ks_pool_cpu *pc = per_cpu_ptr(pool->cpu, cpu);
	unsigned int want = ks_pool_want(pool, cpu, coming);
	unsigned long flags;
	void **sl;

	while (READ_ONCE(pc->n) > want) {
		raw_local_irq_save(flags);
		sl = ks_pool_pop(pc);
		raw_local_irq_restore(flags);
		if (!sl)
			break;
		ks_block_free(pool, sl);
		ks_mem_give(pool->size);
	}
	while (READ_ONCE(pc->n) < want) {
		if (!ks_mem_take(pool->size)) {
			if (!pool->warned)
				pr_warn("mem_max (%u MiB) reached: calls on CPUs without slots are missed (nodes of %zu-byte slots)\n",
					mem_max, pool->size);
			pool->warned = true;
			return;
		}
		sl = ks_block_alloc(pool);
		if (!sl) {
			ks_mem_give(pool->size);
			return;
		}
		ks_pool_push(pc, sl);
	}
	pool->warned = false;
}

/* @pool's spares on every possible CPU, and @coming's, if >= 0. */
static void ks_pool_tend(struct ks_pool *pool, int coming)
{
	int cpu;

	clear_bit(KS_SLOTS_ASKED, &pool->flags);
	for_each_possible_cpu(cpu)
		ks_pool_tend_cpu(pool, cpu, cpu == coming);
}

/* The pools a CPU asked spares for, with the online CPUs held still. */
static void ks_slots_tend_all(struct work_struct *work)
{
	struct ks_pool *pool;

	cpus_read_lock();
	mutex_lock(&ks_slots_lock);
	list_for_each_entry(pool, &ks_pools, list)
		if (test_bit(KS_SLOTS_ASKED, &pool->flags))
			ks_pool_tend(pool, -1);
	mutex_unlock(&ks_slots_lock);
	cpus_read_unlock();
}

/*
 * CPU hotplug, prepare stage: runs on another CPU before @cpu comes
 * online, and may sleep.  Every pool gets its spares on @cpu, so that the
 * first calls there are recorded.  An allocation that fails (mem_max)
 * leaves those calls to be missed, as said above; it never stops the CPU
 * from coming up.
 */
static int ks_slots_cpu_prepare(unsigned int cpu)
{
	struct ks_pool *pool;

	mutex_lock(&ks_slots_lock);
	list_for_each_entry(pool, &ks_pools, list)
		ks_pool_tend_cpu(pool, cpu, true);
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

/* The pool of @size, made if there is none yet; with ks_slots_lock held. */
static struct ks_pool *ks_pool_get(size_t size)
{
	struct ks_pool *pool;
	int cpu;

	list_for_each_entry(pool, &ks_pools, list)
		if (pool->size == size)
			goto found;
	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return NULL;
	pool->cpu = alloc_percpu(struct ks_pool_cpu);
	if (!pool->cpu) {
		kfree(pool);
		return NULL;
	}
	for_each_possible_cpu(cpu)
		per_cpu_ptr(pool->cpu, cpu)->lock =
			(arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
	pool->size = size;
	if (size <= KS_POOL_CACHE_MAX) {
		snprintf(pool->name, sizeof(pool->name), "kstats_slots_%zu", size);
		pool->cache = kmem_cache_create(pool->name, size, 0, 0, NULL);
		if (!pool->cache) {
			free_percpu(pool->cpu);
			kfree(pool);
			return NULL;
		}
	}
	list_add_tail(&pool->list, &ks_pools);
found:
	pool->users++;
	return pool;
}

/* @pool has one node fewer; freed with its spares after its last. */
static void ks_pool_put(struct ks_pool *pool)
{
	int cpu;

	if (--pool->users) {
		ks_pool_tend(pool, -1);
		return;
	}
	for_each_possible_cpu(cpu)
		ks_pool_tend_cpu(pool, cpu, false);	/* wants none: frees all */
	list_del(&pool->list);
	free_percpu(pool->cpu);
	kmem_cache_destroy(pool->cache);
	kfree(pool);
}

/**
 * ks_slots_init() - a new node's pool, and spares there for it
 * @node: allocated, with nslots, nhist, pcpu and mem set
 *
 * The pool of its size gets a spare for the node on each online CPU
 * (within spares_max), so that its first calls find their slots.
 *
 * Return: 0, -ENOSPC past mem_max (logged) or -ENOMEM.
 */
int ks_slots_init(struct ks_node *node)
{
	if (!ks_mem_take(node->mem)) {
		pr_err("%s: would take the nodes' memory past mem_max (%u MiB; %llu KiB in use)\n",
		       node->cmd.name, mem_max, ks_mem_in_use() >> 10);
		node->mem = 0;
		return -ENOSPC;
	}
	cpus_read_lock();
	mutex_lock(&ks_slots_lock);
	node->pool = ks_pool_get(ks_slots_size(node));
	if (node->pool)
		ks_pool_tend(node->pool, -1);
	mutex_unlock(&ks_slots_lock);
	cpus_read_unlock();
	return node->pool ? 0 : -ENOMEM;	/* ks_slots_free() gives it back */
}

/**
 * ks_slots_free() - free @node's slots, and its memory count
 * @node: nothing records into it any more (or ks_slots_init() failed)
 *
 * Its pool keeps the spares its other nodes want, and goes with the last.
 */
void ks_slots_free(struct ks_node *node)
{
	struct kstats_slot *sl;
	int cpu;

	if (!node->pool) {
		ks_mem_give(node->mem);
		node->mem = 0;
		return;
	}
	cpus_read_lock();
	mutex_lock(&ks_slots_lock);
	for_each_possible_cpu(cpu) {
		sl = ks_cpu_slots(node, cpu);
		if (!sl)
			continue;
		ks_block_free(node->pool, sl);
		ks_mem_give(node->pool->size);
		atomic_dec(&per_cpu_ptr(node->pool->cpu, cpu)->slotted);
	}
	ks_pool_put(node->pool);
	node->pool = NULL;
	mutex_unlock(&ks_slots_lock);
	cpus_read_unlock();
	ks_mem_give(node->mem);
	node->mem = 0;
}

/**
 * ks_slots_bytes() - what @node takes now
 * @node: a node
 * @cpus: set to the CPUs with slots
 * @spares: set to the spares of its pool on the online CPUs
 * @users: set to the nodes that share them
 *
 * Return: its bytes (itself and its slots), as counted against mem_max.
 */
u64 ks_slots_bytes(const struct ks_node *node, unsigned int *cpus,
		   unsigned int *spares, unsigned int *users)
{
	unsigned int n = 0, s = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += !!ks_cpu_slots(node, cpu);
	*cpus = n;
	*users = node->pool ? READ_ONCE(node->pool->users) : 0;
	if (node->pool)
		for_each_online_cpu(cpu)
			s += ks_pool_spares(node->pool, cpu);
	*spares = s;
	return node->mem + (node->pool ? n * node->pool->size : 0);
}

/* Module exit: no node is left, so nothing asks any more. */
void ks_slots_exit(void)
{
	if (ks_slots_cpuhp >= 0)
		cpuhp_remove_state_nocalls(ks_slots_cpuhp);
	irq_work_sync(&ks_slots_iw);
	cancel_work_sync(&ks_slots_work);
}
