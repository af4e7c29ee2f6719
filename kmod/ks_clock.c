// SPDX-License-Identifier: GPL-2.0
/*
 * kstats clock: what a node reads for time, and the unit of its slots.
 * A node of the default clock counts cycles of the counter (ks_cycles())
 * where it stands for time (ks_counter_rule(), ks_arch.h): its slots hold
 * cycles, and its text shows them as ns (ks_show.c).  If the counter stops
 * standing for time later (the kernel marks the TSC unstable, or leaves
 * the TSC clocksource), the node falls back to local_clock(), whose ns
 * ks_delta() turns into cycles so that every slot keeps one unit; its text
 * says so.  The registry watches for that (ks_node.c: ks_clock_check()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/math64.h>
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

/**
 * ks_clock_watched() - does @node fall back if the counter turns unstable?
 * @node: a node
 *
 * Return: true if it reads the counter for the default clock (not a node
 * of clock tsc: its cycles stay cycles).
 */
bool ks_clock_watched(const struct ks_node *node)
{
	return (node->show_mult && !node->fell_back) || ks_counter_to_ns(node);
}

/**
 * ks_clock_fall_back() - @node reads local_clock() from now on
 * @node: a node; nothing happens unless ks_clock_watched()
 *
 * Caller holds ks_lock.
 */
void ks_clock_fall_back(struct ks_node *node)
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

/**
 * ks_clock_setup() - a new node's clock and the unit of its slots
 * @node: a node no sample has reached yet
 * @cmd: its trace command (clock tsc, or the default)
 * @rule: why the counter stands for time now (KS_CLOCK_BY_*), or NULL
 */
void ks_clock_setup(struct ks_node *node, const struct ks_cmd *cmd,
		    const char *rule)
{
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
	} else {
		node->hz = 0;		/* ns, from local_clock() */
	}
}

/**
 * ks_clock_ns() - a node whose slots hold ns
 * @node: a node no sample has reached yet
 * @rule: why the counter stands for time now (KS_CLOCK_BY_*), or NULL
 *
 * For a node whose maker records values of its own (kstats_record(): ns,
 * or any unit it likes), which the text must show as they came.  Its
 * sections read the counter where it stands for time, as a traced
 * function's calls do, and ks_delta() turns each time into ns (ns per
 * cycle in @node->to_count); else, or once the counter no longer stands
 * for time, local_clock().
 */
void ks_clock_ns(struct ks_node *node, const char *rule)
{
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
	}
}
