/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats: kernel API differences, keyed on what the headers provide
 * (Kbuild greps them: see KS_FTRACE_DIRECT_MULTI there).
 */
#ifndef _KSTATS_COMPAT_H
#define _KSTATS_COMPAT_H

#include <linux/ftrace.h>

#ifdef KS_FTRACE_DIRECT_MULTI
/* up to 6.5: the ops-based direct API carries a _multi suffix */
static inline int ks_ftrace_direct_on(struct ftrace_ops *ops, unsigned long addr)
{
	return register_ftrace_direct_multi(ops, addr);
}

static inline void ks_ftrace_direct_off(struct ftrace_ops *ops,
					unsigned long addr)
{
	unregister_ftrace_direct_multi(ops, addr);
	ftrace_free_filter(ops);
}
#else
static inline int ks_ftrace_direct_on(struct ftrace_ops *ops, unsigned long addr)
{
	return register_ftrace_direct(ops, addr);
}

static inline void ks_ftrace_direct_off(struct ftrace_ops *ops,
					unsigned long addr)
{
	unregister_ftrace_direct(ops, addr, true);
}
#endif

#endif /* _KSTATS_COMPAT_H */
