// SPDX-License-Identifier: GPL-2.0
/*
 * kstats kretprobe backend: the entry handler keeps the start time in the
 * instance data (ri->data), so nested and recursive calls are each timed
 * with their own start; the return handler records the difference.
 * Works on every kernel with CONFIG_KRETPROBES.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/error-injection.h>
#include <linux/slab.h>
#include "ks_node.h"

/* One kretprobe per attached symbol, all feeding the same node. */
struct ks_krp {
	struct kretprobe rp;
	struct ks_node *node;
};

struct ks_krp_set {
	unsigned int n;
	struct kretprobe **rps;
	struct ks_krp krp[];
};

static int ks_krp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ks_krp *k = container_of(get_kretprobe(ri), struct ks_krp, rp);

	if (!ks_want(k->node))
		return 1;	/* no return hook for this call */
	*(u64 *)ri->data = ks_now(k->node);
	ks_gap(k->node, *(u64 *)ri->data);
	return 0;
}

NOKPROBE_SYMBOL(ks_krp_entry);

static int ks_krp_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ks_krp *k = container_of(get_kretprobe(ri), struct ks_krp, rp);
	struct ks_node *node = k->node;

	ks_record(node, ks_delta(node, *(u64 *)ri->data, ks_now(node)));
	return 0;
}

NOKPROBE_SYMBOL(ks_krp_return);

static int ks_krp_attach(struct ks_node *node)
{
	struct ks_krp_set *set;
	unsigned int i;
	int ret;

	set = kzalloc(struct_size(set, krp, node->nsyms), GFP_KERNEL);
	if (!set)
		return -ENOMEM;
	set->rps = kcalloc(node->nsyms, sizeof(*set->rps), GFP_KERNEL);
	if (!set->rps) {
		kfree(set);
		return -ENOMEM;
	}
	set->n = node->nsyms;
	for (i = 0; i < set->n; i++) {
		struct kretprobe *rp = &set->krp[i].rp;

		set->krp[i].node = node;
		rp->kp.symbol_name = node->syms[i];
		rp->entry_handler = ks_krp_entry;
		rp->handler = ks_krp_return;
		rp->data_size = sizeof(u64);
		rp->maxactive = node->cmd.maxactive;
		set->rps[i] = rp;
	}
	ret = register_kretprobes(set->rps, set->n);
	if (ret) {
		/* register_kretprobes() unregistered what it had done */
		kfree(set->rps);
		kfree(set);
		return ret;
	}
	node->priv = set;
	return 0;
}
ALLOW_ERROR_INJECTION(ks_krp_attach, ERRNO);

static void ks_krp_detach(struct ks_node *node)
{
	struct ks_krp_set *set = node->priv;

	if (!set)
		return;
	unregister_kretprobes(set->rps, set->n);
	kfree(set->rps);
	kfree(set);
	node->priv = NULL;
}

static u64 ks_krp_missed(struct ks_node *node)
{
	struct ks_krp_set *set = node->priv;
	u64 missed = 0;
	unsigned int i;

	for (i = 0; set && i < set->n; i++)
		missed += set->krp[i].rp.nmissed + set->krp[i].rp.kp.nmissed;
	return missed;
}

const struct ks_backend ks_kretprobe_backend = {
	.name = "kretprobe",
	.attach = ks_krp_attach,
	.detach = ks_krp_detach,
	.missed = ks_krp_missed,
};
