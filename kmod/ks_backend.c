// SPDX-License-Identifier: GPL-2.0
/*
 * kstats backends: the one table of the hooks a node can be timed with
 * (struct ks_backend, ks_types.h), indexed by what "via" names; the
 * default's order; and what the core asks of all of them at once.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/error-injection.h>
#include "ks_compat.h"
#include "ks_backend.h"

/* Every backend this kernel has, by enum ks_via (NULL: not here). */
static const struct ks_backend *const ks_backends[KS_VIA_NR] = {
	[KS_VIA_KRETPROBE] = &ks_kretprobe_backend,
#ifdef CONFIG_FPROBE
	[KS_VIA_FPROBE] = &ks_fprobe_backend,
#endif
	[KS_VIA_DIRECT] = KS_HAVE_DIRECT ? &ks_direct_backend : NULL,
	[KS_VIA_SECTION] = &ks_section_backend,
};

/* The default's order, the cheapest first: the first that fits is taken. */
static const enum ks_via ks_default_order[] = {
	KS_VIA_DIRECT, KS_VIA_FPROBE, KS_VIA_KRETPROBE,
};

/* The names of the backends no "via" names (ks_types.h). */
static const char *const ks_other_names[KS_VIA_ALL - KS_VIA_NR] = {
	[KS_VIA_API - KS_VIA_NR] = "api",
	[KS_VIA_GAP - KS_VIA_NR] = "gap",
};

/**
 * ks_backend_name() - what attach= and _last call a backend
 * @via: its struct ks_backend's @via
 *
 * Return: its name (include/kstats/cmd.h's ks_via_names[] for those
 * "via" names), "?" for none.
 */
const char *ks_backend_name(unsigned int via)
{
	const char *name = via < KS_VIA_NR ? ks_via_names[via] :
			   via < KS_VIA_ALL ? ks_other_names[via - KS_VIA_NR] : NULL;

	return name ? name : "?";
}

/**
 * ks_pick_backend() - the backend "via" asks for
 * @via: the backend named, or KS_VIA_DEFAULT for the cheapest the running
 *	kernel has that takes any function (ks_backend_choose() then looks
 *	for a cheaper one that takes the node's)
 *
 * Return: the backend, or ERR_PTR(-EOPNOTSUPP) if this kernel lacks it.
 */
const struct ks_backend *ks_pick_backend(enum ks_via via)
{
	unsigned int i;

	if (via == KS_VIA_DEFAULT) {
		for (i = 0; i < ARRAY_SIZE(ks_default_order); i++) {
			const struct ks_backend *b = ks_backends[ks_default_order[i]];

			if (b && !b->fits)
				return b;
		}
		return ERR_PTR(-EOPNOTSUPP);
	}
	if (via >= KS_VIA_NR || !ks_backends[via])
		return ERR_PTR(-EOPNOTSUPP);
	return ks_backends[via];
}

/**
 * ks_backend_choose() - the backend of a node "via" left to kstats
 * @node: a detached node with its symbols
 *
 * Return: the first backend of the default's order that fits every
 * symbol of @node (a backend without @fits takes any).
 */
const struct ks_backend *ks_backend_choose(struct ks_node *node)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ks_default_order); i++) {
		const struct ks_backend *b = ks_backends[ks_default_order[i]];

		if (b && (!b->fits || !b->fits(node, false)))
			return b;
	}
	return ERR_PTR(-EOPNOTSUPP);
}

/**
 * ks_backend_next() - the backend after @b in the default's order
 * @b: a backend the default chose, that could not attach
 *
 * Return: the next this kernel has that takes any function, or
 * ERR_PTR(-EOPNOTSUPP).
 */
const struct ks_backend *ks_backend_next(const struct ks_backend *b)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ks_default_order); i++)
		if (ks_default_order[i] == b->via)
			break;
	for (i++; i < ARRAY_SIZE(ks_default_order); i++) {
		const struct ks_backend *n = ks_backends[ks_default_order[i]];

		if (n && !n->fits)
			return n;
	}
	return ERR_PTR(-EOPNOTSUPP);
}

/**
 * ks_backends_settle() - after hooks were removed: none of theirs runs
 *
 * Once for any number of detach calls, of any backend: each backend's
 * @settle (the direct backend's trampoline), then every handler (they run
 * with preemption off).
 */
void ks_backends_settle(void)
{
	unsigned int i;

	for (i = 0; i < KS_VIA_NR; i++)
		if (ks_backends[i] && ks_backends[i]->settle)
			ks_backends[i]->settle();
	synchronize_rcu();
}

/**
 * ks_backends_start() - what backends need while the module is loaded
 *
 * Each backend's @start (the direct backend's exit scan), undone on
 * failure.
 *
 * Return: 0 or a negative errno (logged).
 */
int ks_backends_start(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < KS_VIA_NR; i++) {
		if (!ks_backends[i] || !ks_backends[i]->start)
			continue;
		ret = ks_backends[i]->start();
		if (ret) {
			while (i--)
				if (ks_backends[i] && ks_backends[i]->stop)
					ks_backends[i]->stop();
			return ret;
		}
	}
	return 0;
}

/**
 * ks_backends_stop() - undo ks_backends_start(), once no node is left
 */
void ks_backends_stop(void)
{
	unsigned int i;

	for (i = KS_VIA_NR; i--; )
		if (ks_backends[i] && ks_backends[i]->stop)
			ks_backends[i]->stop();
}

/**
 * ks_backends_wake() - wake the tasks asleep inside a timed call
 * @say: name some of them in the log
 *
 * For unloading: each backend's @wake (the direct backend's calls must
 * return before the module goes).  The others' return trampolines are the
 * kernel's.
 */
void ks_backends_wake(bool say)
{
	unsigned int i;

	for (i = 0; i < KS_VIA_NR; i++)
		if (ks_backends[i] && ks_backends[i]->wake)
			ks_backends[i]->wake(say);
}
