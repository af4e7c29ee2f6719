// SPDX-License-Identifier: GPL-2.0
/*
 * kstats section backend: the time from one point to another on the same
 * CPU ("trace NAME start A end B").  A point is a function entry (a kprobe)
 * or a tracepoint ("tp:NAME" or "tp:SUBSYSTEM:NAME"; tracepoints are found
 * with for_each_kernel_tracepoint(), and probed with a function of their
 * own type where the kernel has one: ks_tp_attach()).  The start time
 * lives in the per-CPU part of the node; an end without a start on that
 * CPU is ignored.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/error-injection.h>
#include <linux/tracepoint.h>
#include <linux/slab.h>
#include "ks_record.h"
#include "ks_syms.h"
#include "ks_backend.h"
#include "ks_compat.h"

/* One end of the section. */
struct ks_point {
	struct ks_node *node;
	bool is_end;
	struct kprobe kp;		/* a function entry, or */
	struct tracepoint *tp;		/* a tracepoint */
	bool registered;
};

struct ks_sec {
	struct ks_point pt[2];
};

static __always_inline void ks_sec_hit(struct ks_point *pt)
{
	struct ks_node *node = pt->node;
	struct ks_pcpu *p;
	u64 now, t0;

	preempt_disable_notrace();
	p = this_cpu_ptr(node->pcpu);
	if (!pt->is_end) {
		if (ks_want(node)) {
			p->t0 = ks_now(node);
			ks_gap(node, p->t0);
		}
	} else if (p->t0) {
		now = ks_now(node);
		t0 = p->t0;
		p->t0 = 0;
		ks_record(node, ks_delta(node, t0, now));
	}
	preempt_enable_notrace();
}

static int ks_sec_kprobe(struct kprobe *kp, struct pt_regs *regs)
{
	ks_sec_hit(container_of(kp, struct ks_point, kp));
	return 0;
}

NOKPROBE_SYMBOL(ks_sec_kprobe);

#ifdef KS_TP_PROBESTUB
/*
 * Every tracepoint has an empty function of its own prototype,
 * tp->probestub.  Registered as the probe, it is called with exactly the
 * type the tracepoint calls (kCFI checks that), and a kprobe on its entry
 * times the point.  Each registration of the stub calls it, so the kprobe
 * takes only the calls that carry this point as their data.
 */
static int ks_sec_stub(struct kprobe *kp, struct pt_regs *regs)
{
	struct ks_point *pt = container_of(kp, struct ks_point, kp);

	if (regs_get_kernel_argument(regs, 0) == (unsigned long)pt)
		ks_sec_hit(pt);
	return 0;
}

NOKPROBE_SYMBOL(ks_sec_stub);

/* Hook tracepoint @tp through its stub. */
static int ks_tp_attach(struct ks_point *pt, struct tracepoint *tp)
{
	int ret;

	if (!tp->probestub)
		return -EOPNOTSUPP;
	pt->kp.addr = tp->probestub;
	pt->kp.pre_handler = ks_sec_stub;
	ret = register_kprobe(&pt->kp);
	if (ret)
		return ret;
	ret = tracepoint_probe_register(tp, tp->probestub, pt);
	if (ret)
		unregister_kprobe(&pt->kp);
	return ret;
}

static void ks_tp_detach(struct ks_point *pt)
{
	tracepoint_probe_unregister(pt->tp, pt->tp->probestub, pt);
	unregister_kprobe(&pt->kp);	/* waits for running handlers */
}
#else
/*
 * Kernels before tp->probestub (6.1): a probe that takes only its data,
 * whatever the tracepoint's prototype (the caller's extra arguments are
 * ignored, which the x86-64 ABI allows).  A kernel that checks the type of
 * indirect calls (kCFI) would stop that call: refused there.
 */
static void notrace ks_sec_tp(void *data)
{
	ks_sec_hit(data);
}

NOKPROBE_SYMBOL(ks_sec_tp);

static int ks_tp_attach(struct ks_point *pt, struct tracepoint *tp)
{
	if (KS_KCFI)
		return -EOPNOTSUPP;
	return tracepoint_probe_register(tp, (void *)ks_sec_tp, pt);
}

static void ks_tp_detach(struct ks_point *pt)
{
	tracepoint_probe_unregister(pt->tp, (void *)ks_sec_tp, pt);
}
#endif

/* Hook one point; @spec is "SYMBOL" or "tp:[SUBSYSTEM:]NAME". */
static noinline int ks_point_attach(struct ks_node *node,
				    struct ks_point *pt, const char *spec)
{
	struct tracepoint *tp;
	const char *colon;
	int ret;

	pt->node = node;
	if (strncmp(spec, "tp:", 3)) {
		pt->kp.symbol_name = spec;
		pt->kp.pre_handler = ks_sec_kprobe;
		ret = register_kprobe(&pt->kp);
		if (ret == -EINVAL)
			ret = -ENOENT;
		if (ret)
			pr_err("%s: cannot probe %s: error %d\n",
			       node->cmd.name, spec, ret);
		pt->registered = !ret;
		return ret;
	}
	colon = strrchr(spec, ':');	/* tp:sched:sched_switch -> sched_switch */
	tp = ks_find_tracepoint(colon + 1);
	if (!tp) {
		pr_err("%s: no tracepoint %s in this kernel\n",
		       node->cmd.name, colon + 1);
		return -ENOENT;
	}
	pt->tp = tp;
	ret = ks_tp_attach(pt, tp);
	if (ret == -EOPNOTSUPP)
		pr_err("%s: tracepoint %s: no probe of its type in this kernel, which checks indirect call types (kCFI); use a function as the point\n",
		       node->cmd.name, colon + 1);
	else if (ret)
		pr_err("%s: cannot hook tracepoint %s: error %d\n",
		       node->cmd.name, colon + 1, ret);
	pt->registered = !ret;
	return ret;
}
ALLOW_ERROR_INJECTION(ks_point_attach, ERRNO);

static void ks_point_detach(struct ks_point *pt)
{
	if (!pt->registered)
		return;
	if (pt->tp)
		ks_tp_detach(pt);
	else
		unregister_kprobe(&pt->kp);
	pt->registered = false;
}

static void ks_sec_detach(struct ks_node *node)
{
	struct ks_sec *sec = node->priv;

	if (!sec)
		return;
	ks_point_detach(&sec->pt[0]);
	ks_point_detach(&sec->pt[1]);
	/* tracepoint probes may still run until a grace period ends */
	tracepoint_synchronize_unregister();
	kfree(sec);
	node->priv = NULL;
}

static int ks_sec_attach(struct ks_node *node)
{
	struct ks_sec *sec;
	int ret;

	sec = kzalloc(sizeof(*sec), GFP_KERNEL);
	if (!sec)
		return -ENOMEM;
	node->priv = sec;
	sec->pt[1].is_end = true;
	/* the end first: a start alone would only leave stale times */
	ret = ks_point_attach(node, &sec->pt[1], node->syms[1]);
	if (!ret)
		ret = ks_point_attach(node, &sec->pt[0], node->syms[0]);
	if (ret)
		ks_sec_detach(node);
	return ret;
}
ALLOW_ERROR_INJECTION(ks_sec_attach, ERRNO);

static u64 ks_sec_missed(struct ks_node *node)
{
	struct ks_sec *sec = node->priv;

	if (!sec)
		return 0;
	return sec->pt[0].kp.nmissed + sec->pt[1].kp.nmissed;
}

const struct ks_backend ks_section_backend = {
	.via = KS_VIA_SECTION,
	.attach = ks_sec_attach,
	.detach = ks_sec_detach,
	.missed = ks_sec_missed,
};
