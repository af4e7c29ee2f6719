// SPDX-License-Identifier: GPL-2.0
/*
 * kstats backends: the one table of the hooks a node can be timed with
 * (struct ks_backend, ks_types.h), the one named by "via", and what waits
 * for all of them after a detach.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/error-injection.h>
#include "ks_compat.h"
#include "ks_backend.h"

/**
 * ks_pick_backend() - the backend "via" asks for
 * @via: the backend named, or KS_VIA_DEFAULT for the cheapest the running
 *	kernel has
 *
 * Return: the backend, or ERR_PTR(-EOPNOTSUPP) if this kernel lacks it.
 */
const struct ks_backend *ks_pick_backend(enum ks_via via)
{
	switch (via) {
	case KS_VIA_KRETPROBE:
		return &ks_kretprobe_backend;
	case KS_VIA_SECTION:
		return &ks_section_backend;
	case KS_VIA_DIRECT:
		if (!KS_HAVE_DIRECT)
			return ERR_PTR(-EOPNOTSUPP);
		return &ks_direct_backend;
	case KS_VIA_FPROBE:
#ifdef CONFIG_FPROBE
		return &ks_fprobe_backend;
#else
		return ERR_PTR(-EOPNOTSUPP);
#endif
	default:
#ifdef CONFIG_FPROBE
		return &ks_fprobe_backend;
#else
		return &ks_kretprobe_backend;
#endif
	}
}

/**
 * ks_backends_settle() - after hooks were removed: none of theirs runs
 *
 * Once for any number of detach calls, of any backend: the direct
 * backend's trampoline, then every handler (they run with preemption off).
 */
void ks_backends_settle(void)
{
	if (KS_HAVE_DIRECT)
		ks_direct_backend.settle();
	synchronize_rcu();
}

/**
 * ks_backends_start() - what backends need while the module is loaded
 *
 * The direct backend's exit scan (ks_direct.c).
 *
 * Return: 0 or a negative errno (logged).
 */
int ks_backends_start(void)
{
	return KS_HAVE_DIRECT ? ks_direct_watch_exits() : 0;
}

/**
 * ks_backends_stop() - undo ks_backends_start(), once no node is left
 */
void ks_backends_stop(void)
{
	if (KS_HAVE_DIRECT)
		ks_direct_unwatch_exits();
}

/**
 * ks_backends_wake() - wake the tasks asleep inside a timed call
 *
 * For unloading: the direct backend's calls must return before the
 * module goes (ks_direct_wake()).  The others' return trampolines are the
 * kernel's.
 */
void ks_backends_wake(void)
{
	if (KS_HAVE_DIRECT)
		ks_direct_wake();
}
