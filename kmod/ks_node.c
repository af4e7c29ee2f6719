// SPDX-License-Identifier: GPL-2.0
/*
 * kstats nodes: the registry (ks_nodes under ks_lock), and each node's
 * lifetime: allocation, start/stop/reset, removal, and the reaper that
 * frees a removed node once the last call still inside it has returned;
 * and the watch of the counter the nodes read for time (ks_clock.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/smp.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/workqueue.h>
#include <linux/error-injection.h>
#include <linux/glob.h>
#include <linux/hashtable.h>
#include <linux/stringhash.h>
#include "ks_slots.h"
#include "ks_pcpu.h"
#include "ks_slowest.h"
#include "ks_backend.h"
#include "ks_node.h"
#include "ks_clock.h"

#define KS_SLOTS_MAX	PCPU_MIN_UNIT_SIZE	/* bytes of one CPU's slots */

DEFINE_MUTEX(ks_lock);		/* ks_nodes and every node's state */
LIST_HEAD(ks_nodes);
static unsigned int ks_nr_nodes;
/* ks_nodes by name: a glob's thousand new nodes each look theirs up */
static DEFINE_HASHTABLE(ks_by_name, 14);

/*
 * Nodes in a cache of their own: a whole-kernel trace makes tens of
 * thousands, and kmalloc would round each up to a power of two.
 */
static struct kmem_cache *ks_node_cache;

/**
 * ks_node_cache_init() - the nodes' cache (module load)
 *
 * Return: 0 or -ENOMEM.
 */
int ks_node_cache_init(void)
{
	ks_node_cache = KMEM_CACHE(ks_node, 0);
	return ks_node_cache ? 0 : -ENOMEM;
}

/* Module exit, once every node is freed (ks_reap_wait()). */
void ks_node_cache_exit(void)
{
	ks_pcpu_exit();
	kmem_cache_destroy(ks_node_cache);
}

static u32 ks_name_hash(const char *name)
{
	return full_name_hash(NULL, name, strlen(name));
}

/**
 * ks_find() - the node called @name
 * @name: a node name
 *
 * Caller holds ks_lock.
 *
 * Return: the node, or NULL.
 */
struct ks_node *ks_find(const char *name)
{
	struct ks_node *node;

	hash_for_each_possible(ks_by_name, node, by_name, ks_name_hash(name))
		if (!strcmp(node->cmd.name, name))
			return node;
	return NULL;
}

/* Zero one CPU's part of @node. */
static void ks_zero_pcpu(struct ks_node *node, struct ks_pcpu *p)
{
	if (p->slots)
		memset(p->slots, 0, (size_t)node->nhist * node->nslots *
		       sizeof(p->slots[0]));
	p->min = U64_MAX;
	p->max = 0;
	p->clamped = 0;
	p->nested = 0;
	if (ks_pcpu_wide(&node->cmd))
		container_of(p, struct ks_pcpu_x, p)->skip = 0;
}

/* Zero this CPU's part of @arg's node; runs with interrupts off. */
static void ks_reset_cpu(void *arg)
{
	struct ks_node *node = arg;

	ks_zero_pcpu(node, this_cpu_ptr(node->pcpu));
}

/*
 * Zero the histogram.  Each CPU clears its own slots from an IPI, with
 * interrupts off, so no update on that CPU is half done while it clears.
 */
static void ks_reset(struct ks_node *node)
{
	int cpu;
	u32 i;

	cpus_read_lock();
	on_each_cpu(ks_reset_cpu, node, 1);
	/* CPUs that are offline cannot take the IPI: they record nothing */
	for_each_possible_cpu(cpu)
		if (!cpu_online(cpu))
			ks_zero_pcpu(node, per_cpu_ptr(node->pcpu, cpu));
	cpus_read_unlock();
	atomic_long_set(&node->unslotted, 0);
	/* the call sites stay: their histograms start again, empty */
	if (node->callers)
		for (i = 0; i <= node->callers->n; i++)
			WRITE_ONCE(node->callers->max[i], 0);
	if (node->slowest)
		ks_slowest_reset(node);
}

/* Free a detached node and its GAP- node, files already removed. */
static void ks_node_free(struct ks_node *node)
{
	if (!node)
		return;
	ks_node_free(node->gap);
	ks_slots_free(node);
	ks_pcpu_free(node->pcpu, node->pblock);
	free_cpumask_var(node->cpus);	/* allocated with a cpus filter */
	if (node->syms != &node->cmd.name)
		kfree(node->syms);
	kfree(node->ips);
	kfree(node->callers);
	ks_slowest_free(node->slowest);
	WRITE_ONCE(node->magic, 0);
	kmem_cache_free(ks_node_cache, node);
}

/*
 * Nodes detached while calls were still running a traced body (the direct
 * backend: a call that sleeps there keeps its node on its trampoline
 * frame, and records into it when it returns).  Nobody else sees them;
 * ks_reap() frees each once its last call has left.
 */
static LIST_HEAD(ks_dying);
static DEFINE_MUTEX(ks_dying_lock);
static void ks_reap(struct work_struct *work);
static DECLARE_DELAYED_WORK(ks_reaper, ks_reap);
#define KS_REAP_MS	100

/* Free the dying nodes no call uses any more; are there others left? */
static bool ks_reap_once(void)
{
	struct ks_node *node, *tmp;
	LIST_HEAD(done);
	bool left;

	mutex_lock(&ks_dying_lock);
	list_for_each_entry_safe(node, tmp, &ks_dying, list)
		if (node->backend->busy(node) <= 0)
			list_move_tail(&node->list, &done);
	left = !list_empty(&ks_dying);
	mutex_unlock(&ks_dying_lock);
	if (list_empty(&done))
		return left;
	/* the calls that just left may still be in the trampoline's tail */
	synchronize_rcu_tasks();
	list_for_each_entry_safe(node, tmp, &done, list)
		ks_node_free(node);
	return left;
}

static void ks_reap(struct work_struct *work)
{
	if (ks_reap_once())
		schedule_delayed_work(&ks_reaper, msecs_to_jiffies(KS_REAP_MS));
}

/* Remove a node's files and hooks, without waiting; was it hooked? */
static bool ks_node_unhook(struct ks_node *node)
{
	ks_file_remove(&node->file);	/* waits for readers in progress */
	if (node->gap)
		ks_file_remove(&node->gap->file);
	if (!node->priv)
		return false;
	node->backend->detach(node);
	return true;
}

/* Free an unhooked node: now, or once its calls have left (no wait). */
static void ks_node_release(struct ks_node *node)
{
	if (node->pcpu && node->backend && node->backend->busy &&
	    node->backend->busy(node) > 0) {
		mutex_lock(&ks_dying_lock);
		list_add_tail(&node->list, &ks_dying);
		mutex_unlock(&ks_dying_lock);
		schedule_delayed_work(&ks_reaper, msecs_to_jiffies(KS_REAP_MS));
		return;
	}
	ks_node_free(node);
}

/**
 * ks_node_destroy() - remove a node's files and hooks, and free it
 * @node: attached or not, registered or half-built, or NULL
 *
 * Frees it now, or once the calls still inside the traced body have left
 * (never waiting for them here: they may sleep for ever).
 */
void ks_node_destroy(struct ks_node *node)
{
	if (!node)
		return;
	if (ks_node_unhook(node))
		ks_backends_settle();
	ks_node_release(node);
}

/**
 * ks_node_remove() - detach, unlink and free @node
 * @node: listed in ks_nodes
 *
 * Caller holds ks_lock.
 */
void ks_node_remove(struct ks_node *node)
{
	list_del(&node->list);
	hash_del(&node->by_name);
	ks_nr_nodes--;
	ks_node_destroy(node);
}

/**
 * ks_node_matches() - does a verb's @glob name the node called @name?
 * @glob: a glob
 * @name: a node's name: a function's, or MODULE:FUNCTION
 *
 * A glob without a module matches a node by its function's name, so that
 * what "trace GLOB" made (a module's function whose name vmlinux also has
 * is called MODULE:NAME) a verb on GLOB reaches.
 */
bool ks_node_matches(const char *glob, const char *name)
{
	const char *colon = strchr(name, ':');

	return glob_match(glob, name) ||
	       (colon && !strchr(glob, ':') && glob_match(glob, colon + 1));
}

/**
 * ks_nodes_remove() - remove many nodes, waiting for their hooks once
 * @glob: only the nodes whose name matches it, or NULL for every node
 * @owned: also those whose owner removes them (backend->owner_removes)
 *
 * Caller holds ks_lock.
 * Return: how many were removed.
 */
unsigned int ks_nodes_remove(const char *glob, bool owned)
{
	struct ks_node *node, *tmp;
	LIST_HEAD(gone);
	bool hooked = false;
	unsigned int n = 0;

	list_for_each_entry_safe(node, tmp, &ks_nodes, list) {
		if ((!owned && node->backend->owner_removes) ||
		    (glob && !ks_node_matches(glob, node->cmd.name)))
			continue;
		list_move_tail(&node->list, &gone);
		hash_del(&node->by_name);
		ks_nr_nodes--;
		hooked |= ks_node_unhook(node);
		n++;
	}
	if (hooked)
		ks_backends_settle();
	list_for_each_entry_safe(node, tmp, &gone, list) {
		list_del(&node->list);
		ks_node_release(node);
	}
	return n;
}

/**
 * ks_node_act() - start, stop or reset @node (and its GAP- node)
 * @node: the node
 * @verb: KS_VERB_START, KS_VERB_STOP or KS_VERB_RESET
 */
void ks_node_act(struct ks_node *node, enum ks_verb verb)
{
	if (node->gap)
		ks_node_act(node->gap, verb);
	switch (verb) {
	case KS_VERB_START:
		WRITE_ONCE(node->active, true);
		break;
	case KS_VERB_STOP:
		WRITE_ONCE(node->active, false);
		break;
	case KS_VERB_RESET:
		ks_reset(node);
		break;
	default:
		break;
	}
	if (node->backend->acted)
		node->backend->acted(node);
}

/**
 * ks_node_alloc() - allocate a detached node with its histogram and filters
 * @cmd: the parsed trace command
 * @backend: the backend it will be attached with
 *
 * Steps of "trace" that can fail without an allocation failing are
 * fault-injection points (fail_function: tests/debug/scenarios/90-faults.sh),
 * noinline so that an injected failure reaches every caller.
 *
 * Return: the node, with @backend, or an ERR_PTR.
 */
noinline struct ks_node *ks_node_alloc(const struct ks_cmd *cmd,
				       const struct ks_backend *backend)
{
	struct ks_node *node;
	int ret, cpu;
	size_t size;

	node = kmem_cache_zalloc(ks_node_cache, GFP_KERNEL);
	if (!node)
		return ERR_PTR(-ENOMEM);
	node->magic = ks_node_magic(node);
	node->cmd = cmd->spec;
	/*
	 * Calls in flight (nested, recursive, sleeping) each hold an instance;
	 * the kernels' defaults (2 per CPU for fprobe) drop recursion early.
	 */
	if (!node->cmd.maxactive)
		node->cmd.maxactive = min_t(u32, KS_MAXACTIVE_MAX,
					    max_t(u32, KS_MAXACTIVE_MIN_DEFAULT,
						  16 * num_possible_cpus()));
	node->nslots = kstats_nr_slots(cmd->bits, cmd->buckets);
	/* its own, its sites' and the rest's, the disturbed calls' (last) */
	node->nhist = 1 + (cmd->callers ? cmd->callers + 1 : 0) +
		      (cmd->slowest ? 1 : 0);
	ks_clock_setup(node, cmd);
	node->filtered = cmd->pid >= 0 || cmd->tgid >= 0 || cmd->comm[0] ||
			 cmd->cpus[0] || cmd->sample > 1;
	node->backend = backend;

	if (node->nslots * sizeof(struct kstats_slot) > KS_SLOTS_MAX) {
		pr_err("%s: bits %u buckets %u need %zu bytes per CPU, at most %lu\n",
		       cmd->name, cmd->bits, cmd->buckets,
		       node->nslots * sizeof(struct kstats_slot),
		       (unsigned long)KS_SLOTS_MAX);
		ret = -EINVAL;
		goto err;
	}
	ret = -ENOMEM;
	if (cmd->callers) {
		node->callers = kzalloc(sizeof(*node->callers), GFP_KERNEL);
		if (!node->callers)
			goto err;
		node->callers->n = cmd->callers;
	}
	if (cmd->slowest) {
		node->slowest = ks_slowest_alloc(cmd->slowest);
		if (IS_ERR(node->slowest)) {
			ret = PTR_ERR(node->slowest);
			node->slowest = NULL;
			goto err;
		}
	}
	size = ks_pcpu_wide(&node->cmd) ? sizeof(struct ks_pcpu_x) :
					  sizeof(struct ks_pcpu);
	node->pcpu = ks_pcpu_alloc(size, &node->pblock);
	if (!node->pcpu)
		goto err;
	for_each_possible_cpu(cpu)
		ks_zero_pcpu(node, per_cpu_ptr(node->pcpu, cpu));
	node->mem = size * num_possible_cpus() +
		    sizeof(*node) + (node->callers ? sizeof(*node->callers) : 0) +
		    (node->slowest ? struct_size(node->slowest, call,
						 cmd->slowest) : 0);
	ret = ks_slots_init(node);
	if (ret)
		goto err;
	if (cmd->cpus[0]) {
		ret = -ENOMEM;
		if (!zalloc_cpumask_var(&node->cpus, GFP_KERNEL))
			goto err;
		ret = cpulist_parse(cmd->cpus, node->cpus);
		if (ret) {	/* -ERANGE beyond the CPUs: a bad value too */
			pr_err("%s: bad cpu list '%s'\n", cmd->name, cmd->cpus);
			ret = -EINVAL;
			goto err;
		}
		node->by_cpu = true;
	}
	return node;

err:
	ks_node_destroy(node);
	return ERR_PTR(ret);
}
ALLOW_ERROR_INJECTION(ks_node_alloc, ERRNO);

/**
 * ks_set_syms() - give @node the symbols @first and, unless NULL, @second
 * @node: a node without symbols
 * @first: the first symbol
 * @second: the second symbol, or NULL
 *
 * Return: 0 or -ENOMEM.
 */
int ks_set_syms(struct ks_node *node, const char *first, const char *second)
{
	node->nsyms = second ? 2 : 1;
	node->syms = kcalloc(node->nsyms, sizeof(*node->syms), GFP_KERNEL);
	if (!node->syms) {
		node->nsyms = 0;
		return -ENOMEM;
	}
	strscpy(node->syms[0], first, KS_NAME_MAX);
	if (second)
		strscpy(node->syms[1], second, KS_NAME_MAX);
	return 0;
}

/**
 * ks_syms_shrink() - @node's symbols in its name, when its name is all
 * @node: a node whose symbols are known
 *
 * A function without clones (most of a whole-kernel trace) has its name
 * for its one symbol: @node->syms then points at @node->cmd.name, the 64
 * bytes of an allocation of their own saved (ks_node_free() knows).
 */
void ks_syms_shrink(struct ks_node *node)
{
	if (node->nsyms != 1 || node->syms == &node->cmd.name ||
	    strcmp(node->syms[0], node->cmd.name))
		return;
	kfree(node->syms);
	node->syms = &node->cmd.name;
}

/**
 * ks_node_room() - may a new node be called @name?
 * @name: the new node's name
 *
 * Caller holds ks_lock.
 *
 * Return: 0, -EEXIST if the name is taken or -ENOSPC if the nodes are
 * too many (logged).
 */
int ks_node_room(const char *name)
{
	if (ks_find(name)) {
		pr_err("%s: already traced\n", name);
		return -EEXIST;
	}
	if (ks_nr_nodes >= KS_NODES_MAX) {
		pr_err("%s: too many nodes (at most %d)\n", name, KS_NODES_MAX);
		return -ENOSPC;
	}
	return 0;
}

/* List a published node (attached, with its files); caller holds ks_lock. */
void ks_node_list(struct ks_node *node)
{
	list_add_tail(&node->list, &ks_nodes);
	hash_add(ks_by_name, &node->by_name, ks_name_hash(node->cmd.name));
	ks_nr_nodes++;
}

/* Unpublish, stop and free a node made by ks_node_create(); takes ks_lock. */
void ks_node_delete(struct ks_node *node)
{
	mutex_lock(&ks_lock);
	ks_node_remove(node);
	mutex_unlock(&ks_lock);
}

/* Say, in one line, which calls unloading waits for. */
static void ks_say_dying(void)
{
	struct ks_node *node, *first = NULL;
	long calls = 0;

	mutex_lock(&ks_dying_lock);
	list_for_each_entry(node, &ks_dying, list) {
		first = first ?: node;
		calls += node->backend->busy(node);
	}
	if (first)
		pr_info("unloading waits for %ld call%s still inside %s%s to return\n",
			calls, calls == 1 ? "" : "s", first->cmd.name,
			list_is_singular(&ks_dying) ? "" :
			" and other traced functions");
	mutex_unlock(&ks_dying_lock);
}

/**
 * ks_reap_wait() - free every removed node, waiting for its calls to return
 *
 * For unloading: no call may still return into this module's text when it
 * goes.  Says, once, which calls it waits for.
 */
void ks_reap_wait(void)
{
	unsigned int round = 0;

	cancel_delayed_work_sync(&ks_reaper);
	if (!ks_reap_once())
		return;
	ks_say_dying();
	/*
	 * A call inside the idle loop (what do_idle() calls) returns only
	 * once its CPU leaves idle, which an idle CPU of a quiet machine may
	 * not do for minutes: have idle CPUs go round.  Once a second, tasks
	 * asleep inside a body, which may sleep there for ever (an idle
	 * worker in schedule()), are woken, as livepatch moves its sleepers
	 * on; those still there after a second are named, once a minute.
	 */
	do {
		wake_up_all_idle_cpus();
		if (++round % (1000 / KS_REAP_MS) == 0)
			ks_backends_wake(round % (60000 / KS_REAP_MS) ==
					 1000 / KS_REAP_MS);
		msleep(KS_REAP_MS);
	} while (ks_reap_once());
}
