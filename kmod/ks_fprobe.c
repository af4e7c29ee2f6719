// SPDX-License-Identifier: GPL-2.0
/*
 * kstats fprobe backend (kernels with CONFIG_FPROBE): one fprobe covers
 * every symbol of a node; the start time lives in the per-call entry data.
 * Cheaper than a kretprobe: the entry hook is an ftrace callback, not a
 * breakpoint or an optimized kprobe.  Where fprobe keeps its per-call
 * state on the function-graph shadow stack (6.14 on), it has no instance
 * pool: maxactive does not apply, and nmissed counts what fprobe dropped
 * (a full shadow stack, recursion).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fprobe.h>
#include <linux/error-injection.h>
#include <linux/kprobes.h>
#include <linux/slab.h>
#include "ks_compat.h"
#include "ks_record.h"
#include "ks_backend.h"

struct ks_fp {
	struct fprobe fp;
	struct ks_node *node;
	const char **syms;
};

static int ks_fp_entry(struct fprobe *fp, unsigned long entry_ip,
		       unsigned long ret_ip, struct ks_fprobe_regs *regs,
		       void *entry_data)
{
	struct ks_fp *f = container_of(fp, struct ks_fp, fp);

	if (!ks_want(f->node))
		return 1;	/* no exit hook for this call */
	((u64 *)entry_data)[1] = ks_call_ctx(f->node);
	((u64 *)entry_data)[2] = ks_call_calls();
	*(u64 *)entry_data = ks_now(f->node);
	ks_gap(f->node, *(u64 *)entry_data);
	return 0;
}

NOKPROBE_SYMBOL(ks_fp_entry);

static void ks_fp_exit(struct fprobe *fp, unsigned long entry_ip,
		       unsigned long ret_ip, struct ks_fprobe_regs *regs,
		       void *entry_data)
{
	struct ks_fp *f = container_of(fp, struct ks_fp, fp);
	struct ks_node *node = f->node;

	ks_record_call(node, ks_delta(node, *(u64 *)entry_data, ks_now(node)),
		       ret_ip, ((u64 *)entry_data)[1], ((u64 *)entry_data)[2]);
}

NOKPROBE_SYMBOL(ks_fp_exit);

static int ks_fp_attach(struct ks_node *node)
{
	struct ks_fp *f;
	unsigned int i;
	int ret;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->syms = kcalloc(node->nsyms, sizeof(*f->syms), GFP_KERNEL);
	if (!f->syms) {
		kfree(f);
		return -ENOMEM;
	}
	/* ftrace_lookup_symbols() knows bare names only: drop any "mod:" */
	for (i = 0; i < node->nsyms; i++) {
		const char *colon = strchr(node->syms[i], ':');

		f->syms[i] = colon ? colon + 1 : node->syms[i];
	}
	f->node = node;
	f->fp.entry_handler = ks_fp_entry;
	f->fp.exit_handler = ks_fp_exit;
	/* start, ks_call_ctx(), ks_call_calls() */
	f->fp.entry_data_size = 3 * sizeof(u64);
	ks_fprobe_set_pool(&f->fp, node->cmd.maxactive * node->nsyms);
	ret = register_fprobe_syms(&f->fp, f->syms, node->nsyms);
	if (ret) {
		kfree(f->syms);
		kfree(f);
		return ret;
	}
	node->priv = f;
	return 0;
}
ALLOW_ERROR_INJECTION(ks_fp_attach, ERRNO);

static void ks_fp_detach(struct ks_node *node)
{
	struct ks_fp *f = node->priv;

	if (!f)
		return;
	unregister_fprobe(&f->fp);
	kfree(f->syms);
	kfree(f);
	node->priv = NULL;
}

static u64 ks_fp_missed(struct ks_node *node)
{
	struct ks_fp *f = node->priv;

	return f ? READ_ONCE(f->fp.nmissed) : 0;
}

const struct ks_backend ks_fprobe_backend = {
	.via = KS_VIA_FPROBE,
	/* a shadow stack where fprobe has no pool of instances */
	.caps = KS_CAP_BY_ADDRESS | (KS_FPROBE_HAS_POOL ? 0 : KS_CAP_NO_POOL),
	.attach = ks_fp_attach,
	.detach = ks_fp_detach,
	.missed = ks_fp_missed,
};
