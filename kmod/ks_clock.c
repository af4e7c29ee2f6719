// SPDX-License-Identifier: GPL-2.0
/*
 * kstats clock: what a node reads for time, and the unit of its slots.
 * A node of the default clock counts cycles of the counter (ks_cycles())
 * where it stands for time (ks_counter_rule(), ks_arch.h): its slots hold
 * cycles, and its text shows them as ns (ks_show.c).  If the counter stops
 * standing for time later (the kernel marks the TSC unstable, or leaves
 * the TSC clocksource), the node falls back to local_clock(), whose ns
 * ks_delta() turns into cycles so that every slot keeps one unit; its text
 * says so.  The watch below looks for that while such a node exists, over
 * the registry's nodes and under its lock (ks_clock_watch_init()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <linux/time64.h>
#include "ks_clock.h"

/*
 * @num / @den, fixed point (KS_MULT_SHIFT), or 0 if @den is 0 or the
 * factor does not fit 32 bits (ns per cycle of a counter under 3.9 MHz).
 */
static u32 ks_mult(u64 num, u64 den)
{
	u64 m = den ? div64_u64(num << KS_MULT_SHIFT, den) : 0;

	return m <= U32_MAX ? m : 0;
}

/*
 * Does @node read the counter and turn each time into the ns its slots
 * hold (ks_clock_ns())?
 */
static bool ks_counter_to_ns(const struct ks_node *node)
{
	return node->use_counter && !node->show_mult && node->to_count;
}

/*
 * Does @node fall back if the counter turns unstable?  Yes if it reads the
 * counter for the default clock (not a node of clock tsc: its cycles stay
 * cycles).
 */
static bool ks_clock_watched(const struct ks_node *node)
{
	return (node->show_mult && !node->fell_back) || ks_counter_to_ns(node);
}

/* @node reads local_clock() from now on, if ks_clock_watched(); under the lock. */
static void ks_clock_fall_back(struct ks_node *node)
{
	if (!ks_clock_watched(node))
		return;
	pr_warn("%s: the %s is unstable: local_clock() from now on\n",
		node->cmd.name, KS_COUNTER_NAME);
	/* a call in the body or a section open now: timed wrong, once */
	if (ks_counter_to_ns(node)) {
		WRITE_ONCE(node->use_counter, false);
		WRITE_ONCE(node->to_count, 0);	/* ns as read */
		node->clock_by = KS_CLOCK_BY_UNSTABLE;
		return;
	}
	/* its ns turned into the cycles the slots hold */
	WRITE_ONCE(node->to_count, ks_mult(node->hz, NSEC_PER_SEC));
	ks_node_set_fast(node, false);
	WRITE_ONCE(node->use_counter, false);
	node->fell_back = true;
	node->clock_by = KS_CLOCK_BY_UNSTABLE;
}

/*
 * The clock watch.  A node that reads the counter for the default clock
 * (ks_clock.c) is followed every KS_CLOCK_WATCH_MS: once the counter no
 * longer stands for time, by the kernel's rules or counter_unstable, it
 * falls back to local_clock().
 */
static bool counter_unstable;
static struct mutex *ks_watch_lock;		/* the registry's (ks_lock) */
static struct list_head *ks_watch_nodes;	/* its nodes, under it */
static void ks_clock_watch(struct work_struct *work);
static DECLARE_DELAYED_WORK(ks_clock_work, ks_clock_watch);
#define KS_CLOCK_WATCH_MS	1000

/* The rule by which the counter stands for time now, or NULL. */
static const char *ks_counter_usable(void)
{
	return READ_ONCE(counter_unstable) ? NULL : ks_counter_rule();
}

/* Watch the counter while a node reads it for the default clock. */
static void ks_clock_watch_start(void)
{
	schedule_delayed_work(&ks_clock_work,
			      msecs_to_jiffies(KS_CLOCK_WATCH_MS));
}

/* Fall back to local_clock() if the counter is unstable; under the lock. */
static void ks_clock_check(void)
{
	struct ks_node *node;

	if (ks_counter_usable() || !ks_watch_nodes)
		return;
	list_for_each_entry(node, ks_watch_nodes, list) {
		ks_clock_fall_back(node);
		if (node->gap)
			ks_clock_fall_back(node->gap);
	}
}

/* Every KS_CLOCK_WATCH_MS while a node counts cycles as ns. */
static void ks_clock_watch(struct work_struct *work)
{
	struct ks_node *node;
	bool again = false;

	/*
	 * ks_lock may be held for long: a removal waits for RCU Tasks grace
	 * periods under it, which take many seconds under emulation while
	 * CPUs go offline and online.  The watch never waits for it: it
	 * looks again a period later.
	 */
	if (!mutex_trylock(ks_watch_lock)) {
		ks_clock_watch_start();
		return;
	}
	ks_clock_check();
	list_for_each_entry(node, ks_watch_nodes, list)
		again |= ks_clock_watched(node);
	mutex_unlock(ks_watch_lock);
	if (again)
		ks_clock_watch_start();
}

/**
 * ks_clock_watch_init() - the nodes the watch looks at, and their lock
 * @lock: the registry's lock (ks_lock), taken by the watch
 * @nodes: the registry's nodes (ks_nodes), read under @lock
 */
void ks_clock_watch_init(struct mutex *lock, struct list_head *nodes)
{
	ks_watch_lock = lock;
	ks_watch_nodes = nodes;
}

/**
 * ks_clock_watch_stop() - stop watching the counter (unload)
 */
void ks_clock_watch_stop(void)
{
	cancel_delayed_work_sync(&ks_clock_work);
}

static int ks_set_counter_unstable(const char *val,
				   const struct kernel_param *kp)
{
	int ret = param_set_bool(val, kp);

	if (!ret && ks_watch_lock) {
		mutex_lock(ks_watch_lock);
		ks_clock_check();
		mutex_unlock(ks_watch_lock);
	}
	return ret;
}

static const struct kernel_param_ops ks_counter_unstable_ops = {
	.set = ks_set_counter_unstable,
	.get = param_get_bool,
};
module_param_cb(counter_unstable, &ks_counter_unstable_ops, &counter_unstable,
		0644);
MODULE_PARM_DESC(counter_unstable, "Act as if the kernel had found the TSC unstable: local_clock() for every node (default 0)");

/**
 * ks_clock_setup() - a new node's clock and the unit of its slots
 * @node: a node no sample has reached yet
 * @cmd: its trace command (clock tsc, or the default)
 *
 * A node that reads the counter for the default clock is watched.
 */
void ks_clock_setup(struct ks_node *node, const struct ks_cmd *cmd)
{
	const char *rule = ks_counter_usable();

	node->hz = ks_cycles_hz();
	node->clock_by = KS_CLOCK_BY_LOCAL;
	if (cmd->clock == KS_CLOCK_TSC) {
		node->use_counter = true;	/* cycles, shown as cycles */
		node->clock_by = KS_CLOCK_BY_ASKED;
		return;
	}
	if (rule)
		node->show_mult = ks_mult(NSEC_PER_SEC, node->hz);
	if (node->show_mult) {
		node->use_counter = true;
		node->clock_by = rule;
		ks_clock_watch_start();
	} else {
		node->hz = 0;		/* ns, from local_clock() */
	}
}

/**
 * ks_clock_ns() - a node whose slots hold ns
 * @node: a node no sample has reached yet
 *
 * For a node whose maker records values of its own (kstats_record(): ns,
 * or any unit it likes), which the text must show as they came.  Its
 * sections read the counter where it stands for time, as a traced
 * function's calls do, and ks_delta() turns each time into ns (ns per
 * cycle in @node->to_count); else, or once the counter no longer stands
 * for time, local_clock().
 */
void ks_clock_ns(struct ks_node *node)
{
	const char *rule = ks_counter_usable();

	node->hz = 0;
	node->show_mult = 0;
	node->use_counter = false;
	node->to_count = 0;
	node->clock_by = KS_CLOCK_BY_LOCAL;
	if (rule)
		node->to_count = ks_mult(NSEC_PER_SEC, ks_cycles_hz());
	if (node->to_count) {
		node->use_counter = true;
		node->clock_by = rule;
		ks_clock_watch_start();
	}
}
