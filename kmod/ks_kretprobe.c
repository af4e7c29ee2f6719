// SPDX-License-Identifier: GPL-2.0
/*
 * kstats kretprobe backend: the entry handler keeps the start time in the
 * instance data (ri->data), so nested and recursive calls are each timed
 * with their own start; the return handler records the difference.
 * Works on every kernel with CONFIG_KRETPROBES.
 *
 * A detached node's kretprobes are unregistered by ks_krp_settle(), with
 * every other node's detached since, at once: unregister_kretprobes()
 * waits for one grace period however many it takes (a glob's 1,856 one
 * by one took 61 s under TCG).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/error-injection.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "ks_record.h"
#include "ks_backend.h"

/* One kretprobe per attached symbol, all feeding the same node. */
struct ks_krp {
	struct kretprobe rp;
	struct ks_node *node;
};

struct ks_krp_set {
	struct list_head gone;		/* on ks_krp_gone once detached */
	unsigned int n;
	struct kretprobe **rps;
	struct ks_krp krp[];
};

/* detached, not yet unregistered: their handlers may still run */
static LIST_HEAD(ks_krp_gone);
static DEFINE_MUTEX(ks_krp_gone_lock);

static int ks_krp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ks_krp *k = container_of(get_kretprobe(ri), struct ks_krp, rp);

	if (!ks_want(k->node))
		return 1;	/* no return hook for this call */
	((u64 *)ri->data)[1] = ks_call_ctx(k->node);
	((u64 *)ri->data)[2] = ks_call_calls();
	*(u64 *)ri->data = ks_now(k->node);
	ks_gap(k->node, *(u64 *)ri->data);
	return 0;
}

NOKPROBE_SYMBOL(ks_krp_entry);

static int ks_krp_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ks_krp *k = container_of(get_kretprobe(ri), struct ks_krp, rp);
	struct ks_node *node = k->node;

	ks_record_call(node, ks_delta(node, *(u64 *)ri->data, ks_now(node)),
		       get_kretprobe_retaddr(ri), ((u64 *)ri->data)[1],
		       ((u64 *)ri->data)[2]);
	return 0;
}

NOKPROBE_SYMBOL(ks_krp_return);

/*
 * What the kretprobe return path calls but the kernel's kprobe blacklist
 * leaves out (kernel/kprobes.c marks neither NOKPROBE_SYMBOL): on arm64 a
 * kretprobe on one of them fires inside the return handler, whose return
 * fires it again, until the stack overflows (found by the full sweeps of
 * arm64 6.1 and 7.3).  No kernel rule covers them, hence their names.
 */
static const char * const ks_krp_deny[] = {
	"kprobe_busy_begin", "kprobe_busy_end",
};

/* Is @sym (a clone suffix allowed) one the return path calls? */
static bool ks_krp_denied(const char *sym)
{
	size_t len = strcspn(sym, ".");
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ks_krp_deny); i++)
		if (strlen(ks_krp_deny[i]) == len &&
		    !strncmp(sym, ks_krp_deny[i], len))
			return true;
	return false;
}

static int ks_krp_attach(struct ks_node *node)
{
	struct ks_krp_set *set;
	unsigned int i;
	int ret;

	for (i = 0; i < node->nsyms; i++) {
		if (ks_krp_denied(node->syms[i])) {
			pr_err("%s: the kretprobe return path calls %s, which the kernel lets kprobes hit: a kretprobe there recurses until the stack overflows; not traced via kretprobe\n",
			       node->cmd.name, node->syms[i]);
			return -EINVAL;
		}
	}
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
		/* start, ks_call_ctx(), ks_call_calls() */
		rp->data_size = 3 * sizeof(u64);
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

/* the node is freed only after ks_backends_settle(): ks_krp_settle() */
static void ks_krp_detach(struct ks_node *node)
{
	struct ks_krp_set *set = node->priv;

	if (!set)
		return;
	mutex_lock(&ks_krp_gone_lock);
	list_add_tail(&set->gone, &ks_krp_gone);
	mutex_unlock(&ks_krp_gone_lock);
	node->priv = NULL;
}

static void ks_krp_settle(void)
{
	struct ks_krp_set *set, *tmp;
	struct kretprobe **rps;
	unsigned int n = 0, i = 0;
	LIST_HEAD(gone);

	mutex_lock(&ks_krp_gone_lock);
	list_splice_init(&ks_krp_gone, &gone);
	mutex_unlock(&ks_krp_gone_lock);
	if (list_empty(&gone))
		return;
	list_for_each_entry(set, &gone, gone)
		n += set->n;
	rps = kvmalloc_array(n, sizeof(*rps), GFP_KERNEL);
	if (rps) {
		list_for_each_entry(set, &gone, gone) {
			memcpy(rps + i, set->rps, set->n * sizeof(*rps));
			i += set->n;
		}
		unregister_kretprobes(rps, n);
		kvfree(rps);
	}
	list_for_each_entry_safe(set, tmp, &gone, gone) {
		if (!rps)	/* one grace period a node, then */
			unregister_kretprobes(set->rps, set->n);
		list_del(&set->gone);
		kfree(set->rps);
		kfree(set);
	}
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
	.via = KS_VIA_KRETPROBE,
	.attach = ks_krp_attach,
	.detach = ks_krp_detach,
	.settle = ks_krp_settle,
	.missed = ks_krp_missed,
};
