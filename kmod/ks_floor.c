// SPDX-License-Identifier: GPL-2.0
/*
 * kstats floor: what a backend reports for an empty function, measured
 * once per backend and clock and shown on every node ("floor" in the
 * samples line); and, measured with it, what the tracing of one call adds
 * to its caller's time (ncost), which ks_unnest() takes off a call's time
 * for each traced call that ended inside it (ks_record.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include "ks_slots.h"
#include "ks_backend.h"
#include "ks_node.h"
#include "ks_record.h"
#include "ks_floor.h"

/*
 * unnest=0: nodes traced from then on keep the time of the traced calls
 * inside their calls (a cost of 0), as kstats did before it took it off.
 */
static bool unnest = true;
module_param(unnest, bool, 0644);
MODULE_PARM_DESC(unnest, "take off a call's time what the traced calls inside it added (default 1)");

/* What the tool reports for an empty function: calibration target. */
static noinline void ks_calib_target(void)
{
	asm volatile("" ::: "memory");
}

#define KS_CALIB_CALLS	1000
#define KS_CALIB_RUNS	5

/*
 * Floor and ncost per backend and clock, 0 until measured (under
 * ks_lock): the floor in the unit of the text, ncost in the slots'.
 */
static u64 ks_floors[KS_VIA_SECTION][2];
static u64 ks_ncosts[KS_VIA_SECTION][2];

/*
 * The same, at another address: the call site table's home of one of the
 * two may be shared with another call site's (ks_direct.h), which makes
 * its calls search, a few instructions more; ncost is the cheaper one's.
 */
static noinline void ks_calib_other(void)
{
	asm volatile("nop" ::: "memory");
}

/*
 * The shortest of KS_CALIB_RUNS runs of KS_CALIB_CALLS calls of @fn, in
 * @node's clock.
 */
static u64 ks_calib_runs(const struct ks_node *node, void (*fn)(void))
{
	u64 best = U64_MAX, t;
	int r, i;

	for (r = 0; r < KS_CALIB_RUNS; r++) {
		/*
		 * no reschedule pending: without full preemption one sends
		 * each timed call through preempt_enable()'s slow path
		 * until the task schedules (13 instructions more a call on
		 * x86-64): the shortest run is the common case
		 */
		cond_resched();
		t = ks_now(node);
		for (i = 0; i < KS_CALIB_CALLS; i++)
			fn();
		best = min(best, ks_now(node) - t);
	}
	return best;
}

/*
 * ncost on @node, not yet attached, of @fn, its function: KS_CALIB_CALLS
 * calls traced less untraced, per call, << KS_NCOST_SHIFT; U64_MAX if it
 * cannot attach.  @node stays attached.
 */
static u64 ks_ncost_of(struct ks_node *node, void (*fn)(void))
{
	u64 untraced = ks_calib_runs(node, fn);

	node->active = true;
	if (node->backend->attach(node))
		return U64_MAX;
	return div_u64((ks_delta(node, untraced, ks_calib_runs(node, fn)) <<
			KS_NCOST_SHIFT) + KS_CALIB_CALLS / 2, KS_CALIB_CALLS);
}

/* ncost on a node like @model's of ks_calib_other(), or U64_MAX. */
static u64 ks_ncost_other(const struct ks_node *model, struct ks_cmd *cmd)
{
	struct ks_node *node;
	u64 cost = U64_MAX;

	strscpy(cmd->name, "ks_calib_other", sizeof(cmd->name));
	node = ks_node_alloc(cmd, model->backend);
	if (IS_ERR(node))
		return cost;
	if (!ks_set_syms(node, cmd->name, NULL))
		cost = ks_ncost_of(node, ks_calib_other);
	ks_node_destroy(node);
	return cost;
}

/**
 * ks_floor() - the floor of @model's backend with @model's clock
 * @model: a node whose backend and clock are settled
 *
 * The floor is the p50 the backend reports for an empty function of this
 * module, measured once on first use.  ncost with it: the time
 * KS_CALIB_CALLS calls of that function take traced, less the time they
 * take untraced, per call (the shortest of KS_CALIB_RUNS runs each), or
 * of ks_calib_other()'s if less.
 * Caller holds ks_lock.
 *
 * Return: the floor, or 0 if it cannot be measured.
 */
u64 ks_floor(const struct ks_node *model)
{
	struct ks_cmd cmd = { .spec = model->cmd };
	u64 pct[KSTATS_NR_PCT], *floor, cost;
	struct kstats_slot *all;
	struct ks_node *node;
	int cpu;

	if (cmd.via >= KS_VIA_SECTION)
		return 0;	/* sections are not calibrated */
	floor = &ks_floors[cmd.via][cmd.clock];
	if (*floor)
		return *floor;
	strscpy(cmd.name, "ks_calib_target", sizeof(cmd.name));
	cmd.bits = 5;
	cmd.buckets = kstats_default_buckets(cmd.bits);
	cmd.sample = 1;
	cmd.pid = -1;
	cmd.tgid = -1;
	cmd.comm[0] = '\0';	/* a cpus filter is not in the node's spec */
	cmd.gap = false;
	node = ks_node_alloc(&cmd, model->backend);
	if (IS_ERR(node))
		return 0;
	all = kvcalloc(node->nslots, sizeof(*all), GFP_KERNEL);
	if (!all || ks_set_syms(node, cmd.name, NULL))
		goto out;
	cost = ks_ncost_of(node, ks_calib_target);
	if (cost == U64_MAX) {
		pr_warn("cannot calibrate %s: floor unknown\n",
			ks_backend_name(node->backend->via));
		goto out;
	}
	ks_ncosts[cmd.via][cmd.clock] = min(cost, ks_ncost_other(model, &cmd));
	for_each_possible_cpu(cpu) {
		struct kstats_slot *sl = ks_cpu_slots(node, cpu);

		if (sl)
			kstats_merge(all, sl, node->nslots);
	}
	kstats_percentiles(all, node->nslots, cmd.bits, pct);
	/* in the unit of the text: ns for cycles read as time */
	*floor = node->show_mult ? mul_u64_u32_shr(pct[KSTATS_P50],
						   node->show_mult,
						   KS_MULT_SHIFT) :
				   pct[KSTATS_P50];
out:
	kvfree(all);
	ks_node_destroy(node);
	return *floor;
}

/**
 * ks_nest_cost() - give @node the ncost of its backend and clock
 * @node: attached, after ks_floor() on it
 *
 * Caller holds ks_lock.
 */
void ks_nest_cost(struct ks_node *node)
{
	u64 cost = node->cmd.via < KS_VIA_SECTION && READ_ONCE(unnest) ?
		   ks_ncosts[node->cmd.via][node->cmd.clock] : 0;

	WRITE_ONCE(node->ncost, cost);
}
