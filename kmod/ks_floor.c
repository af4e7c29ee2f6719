// SPDX-License-Identifier: GPL-2.0
/*
 * kstats floor: what a backend reports for an empty function, measured
 * once per backend and clock and shown on every node ("floor" in the
 * samples line).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include "ks_slots.h"
#include "ks_backend.h"
#include "ks_node.h"
#include "ks_floor.h"

/* What the tool reports for an empty function: calibration target. */
static noinline void ks_calib_target(void)
{
	asm volatile("" ::: "memory");
}

#define KS_CALIB_CALLS	1000

/* Floor per backend and clock, 0 until measured (under ks_lock). */
static u64 ks_floors[KS_VIA_SECTION][2];

/**
 * ks_floor() - the floor of @model's backend with @model's clock
 * @model: a node whose backend and clock are settled
 *
 * The floor is the p50 the backend reports for an empty function of this
 * module, measured once on first use.  Caller holds ks_lock.
 *
 * Return: the floor, or 0 if it cannot be measured.
 */
u64 ks_floor(const struct ks_node *model)
{
	struct ks_cmd cmd = model->cmd;
	u64 pct[KSTATS_NR_PCT], *floor;
	struct kstats_slot *all;
	struct ks_node *node;
	int i, cpu;

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
	cmd.comm[0] = '\0';
	cmd.cpus[0] = '\0';
	cmd.gap = false;
	node = ks_node_alloc(&cmd, model->backend);
	if (IS_ERR(node))
		return 0;
	all = kvcalloc(node->nslots, sizeof(*all), GFP_KERNEL);
	if (!all || ks_set_syms(node, cmd.name, NULL))
		goto out;
	node->active = true;
	if (node->backend->attach(node)) {
		pr_warn("cannot calibrate %s: floor unknown\n",
			ks_backend_name(node->backend->via));
		goto out;
	}
	for (i = 0; i < KS_CALIB_CALLS; i++)
		ks_calib_target();
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
