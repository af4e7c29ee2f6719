// SPDX-License-Identifier: GPL-2.0
/*
 * kstats backend choice: which hooks time a node (the default, or the
 * direct backend when BTF allows it), and the GAP- node that the same
 * hooks feed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/error-injection.h>
#include "ks_compat.h"
#include "ks_core.h"

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

/*
 * GAP- nodes have no hooks of their own: their parent's feed them, so
 * nothing ever attaches or detaches them (no priv), only reads missed.
 */
static u64 ks_gap_missed(struct ks_node *node)
{
	return 0;
}

static const struct ks_backend ks_gap_backend = {
	.name = "gap",
	.missed = ks_gap_missed,
};

/**
 * ks_gap_alloc() - make @node's GAP-NAME node
 * @node: a detached node
 *
 * The GAP- node has the same layout and filters, and its own slots.
 *
 * Return: 0 or a negative errno.
 */
noinline int ks_gap_alloc(struct ks_node *node)
{
	struct ks_cmd cmd = node->cmd;
	struct ks_node *gap;

	/* the parser refuses names too long for their GAP- node */
	if (snprintf(cmd.name, sizeof(cmd.name), KS_GAP_PREFIX "%s",
		     node->cmd.name) >= sizeof(cmd.name))
		return -EINVAL;
	cmd.gap = false;
	gap = ks_node_alloc(&cmd);
	if (IS_ERR(gap))
		return PTR_ERR(gap);
	gap->backend = &ks_gap_backend;
	if (ks_set_syms(gap, node->cmd.name, NULL)) {
		ks_node_destroy(gap);
		return -ENOMEM;
	}
	gap->active = true;
	node->gap = gap;
	return 0;
}
ALLOW_ERROR_INJECTION(ks_gap_alloc, ERRNO);

static void ks_settle_via(struct ks_node *node);

/**
 * ks_choose_backend() - settle the backend of @node and node->cmd.via
 * @node: a detached node with its symbols
 *
 * The direct backend runs a traced body one frame deeper: it takes only
 * functions whose BTF prototype shows every argument in registers, and
 * compiler clones known to keep that prototype (.constprop).  Asked for,
 * it refuses any other symbol, with the reason; by default it is used
 * when every symbol qualifies, and fprobe (or kretprobe) otherwise.
 *
 * Return: 0, or a negative errno (logged).
 */
int ks_choose_backend(struct ks_node *node)
{
	bool asked = node->cmd.via == KS_VIA_DIRECT;
	int res[KS_SYMS_MAX], ret;
	unsigned int i;

	node->chosen = node->cmd.via == KS_VIA_DEFAULT;
	node->maxactive = node->cmd.maxactive;

	if (KS_HAVE_DIRECT && (asked || node->cmd.via == KS_VIA_DEFAULT)) {
		ks_btf_args_in_regs(node, res);
		for (i = 0; i < node->nsyms; i++) {
			ret = res[i];
			if (!ret)
				continue;
			if (!asked)
				break;
			if (ret == -E2BIG)
				pr_err("%s: %s takes arguments on the stack: use via fprobe or kretprobe\n",
				       node->cmd.name, node->syms[i]);
			else if (ret == -EDOM)
				pr_err("%s: %s is a compiler clone whose arguments need not match the prototype: use via fprobe or kretprobe\n",
				       node->cmd.name, node->syms[i]);
			else if (ret == -ENOENT)
				pr_err("%s: no BTF prototype for %s: the direct backend needs one; use via fprobe or kretprobe\n",
				       node->cmd.name, node->syms[i]);
			else
				pr_err("%s: cannot read the BTF of %s: error %d\n",
				       node->cmd.name, node->syms[i], ret);
			return ret == -ENOENT || ret == -E2BIG || ret == -EDOM ?
			       -EINVAL : ret;
		}
		if (i == node->nsyms)
			node->backend = &ks_direct_backend;
	}
	ks_settle_via(node);
	return 0;
}

/* node->cmd.via and maxactive as node->backend needs them. */
static void ks_settle_via(struct ks_node *node)
{
	if (KS_HAVE_DIRECT && node->backend == &ks_direct_backend) {
		node->cmd.via = KS_VIA_DIRECT;
		node->cmd.maxactive = 0;	/* no pool: state on the stack */
	} else if (node->backend == &ks_kretprobe_backend) {
		node->cmd.via = KS_VIA_KRETPROBE;
	} else if (node->backend != &ks_section_backend) {
		node->cmd.via = KS_VIA_FPROBE;
		if (!KS_FPROBE_HAS_POOL)
			node->cmd.maxactive = 0;	/* shadow stack, no pool */
	}
}

/**
 * ks_backend_fallback() - time @node another way: its direct attach failed
 * @node: detached, its backend chosen (not asked for) as direct
 * @err: why the direct attach failed
 *
 * A function whose call site another tracer holds for its own direct call
 * (a BPF fentry/fexit program, a livepatch) cannot be shared: the default
 * backend then is the next cheapest, fprobe or kretprobe.
 *
 * Return: true if @node now has another backend to attach with.
 */
bool ks_backend_fallback(struct ks_node *node, int err)
{
	if (!KS_HAVE_DIRECT || err != -EBUSY ||
	    node->backend != &ks_direct_backend || !node->chosen)
		return false;
	node->backend = ks_pick_backend(KS_VIA_DEFAULT);
	node->cmd.maxactive = node->maxactive;
	ks_settle_via(node);
	pr_info("%s: another tracer holds %s for its direct call (a BPF program, a livepatch): timed via %s\n",
		node->cmd.name, node->syms[0], node->backend->name);
	return true;
}
