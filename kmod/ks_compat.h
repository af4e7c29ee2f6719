/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats: kernel API differences, keyed on what the headers provide
 * (Kbuild greps them and defines the KS_ macros tested here).
 */
#ifndef _KSTATS_COMPAT_H
#define _KSTATS_COMPAT_H

#include <linux/ftrace.h>
#include <linux/overflow.h>

/*
 * The unbound system workqueue: system_dfl_wq where the kernel has it
 * (its system_unbound_wq logs "deprecated workqueue" on first use).
 */
#ifdef KS_DFL_WQ
#define ks_unbound_wq	system_dfl_wq
#else
#define ks_unbound_wq	system_unbound_wq
#endif

/* struct_size_t() came to 6.1 in a stable update (6.1.0-50 lacks it) */
#ifndef struct_size_t
#define struct_size_t(type, member, count) \
	struct_size((type *)NULL, member, count)
#endif

/*
 * Set @ops' filter to the functions matching @buf (a name or a glob; ftrace
 * writes into it).  ftrace_set_filter() says -EINVAL when nothing matches:
 * that is -ENOENT here; its other errors (-ENOMEM: no filter hash) stay.
 */
static inline int ks_ftrace_filter(struct ftrace_ops *ops, char *buf)
{
	int ret = ftrace_set_filter(ops, buf, strlen(buf), 1);

	return ret == -EINVAL ? -ENOENT : ret;
}

#ifdef KS_FTRACE_DIRECT_MULTI
/* up to 6.5: the ops-based direct API carries a _multi suffix */
static inline int ks_ftrace_direct_on(struct ftrace_ops *ops, unsigned long addr)
{
	return register_ftrace_direct_multi(ops, addr);
}

static inline int ks_ftrace_direct_off(struct ftrace_ops *ops,
				       unsigned long addr)
{
	int ret = unregister_ftrace_direct_multi(ops, addr);

	ftrace_free_filter(ops);
	return ret;
}
#else
static inline int ks_ftrace_direct_on(struct ftrace_ops *ops, unsigned long addr)
{
	return register_ftrace_direct(ops, addr);
}

static inline int ks_ftrace_direct_off(struct ftrace_ops *ops,
				       unsigned long addr)
{
	return unregister_ftrace_direct(ops, addr, true);
}
#endif

/*
 * fprobe: up to 6.13 its handlers get pt_regs and a rethook pool of
 * nr_maxactive instances; from 6.14 it runs on the function-graph shadow
 * stack, its handlers get ftrace_regs, and there is no pool to size.
 */
#ifdef KS_FPROBE_FTRACE_REGS
#define ks_fprobe_regs ftrace_regs
#else
#define ks_fprobe_regs pt_regs
#endif

#ifdef KS_FPROBE_POOL
#define KS_FPROBE_HAS_POOL	true
#define ks_fprobe_set_pool(fp, n)	((fp)->nr_maxactive = (n))
#else
#define KS_FPROBE_HAS_POOL	false
#define ks_fprobe_set_pool(fp, n)	((void)(fp), (void)(n))
#endif

/* Indirect calls are type-checked (clang kCFI; CONFIG_CFI from 6.18). */
#if defined(CONFIG_CFI_CLANG) || defined(CONFIG_CFI)
#define KS_KCFI	1
#else
#define KS_KCFI	0
#endif

#endif /* _KSTATS_COMPAT_H */
