// SPDX-License-Identifier: GPL-2.0
/*
 * kstats fprobe backend (kernels with CONFIG_FPROBE): one fprobe covers
 * every symbol of a node, or of many nodes at once (a glob's, in one
 * registration: one ftrace update where one each took a whole update per
 * function, minutes for the two thousand functions a whole-kernel trace
 * sends here); the handlers find the node by the function's address.  The
 * start time lives in the per-call entry data.  Cheaper than a kretprobe:
 * the entry hook is an ftrace callback, not a breakpoint or an optimized
 * kprobe.  Where fprobe keeps its per-call state on the function-graph
 * shadow stack (6.14 on), it has no instance pool: maxactive does not
 * apply, and nmissed counts what fprobe dropped (a full shadow stack,
 * recursion).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fprobe.h>
#include <linux/error-injection.h>
#include <linux/kprobes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "ks_compat.h"
#include "ks_record.h"
#include "ks_syms.h"
#include "ks_backend.h"

/* One ftrace address of a node's functions, and the node (NULL once detached). */
struct ks_fp_ent {
	unsigned long ip;
	struct ks_node *node;
};

/*
 * An fprobe and the nodes it times: @n entries sorted by address, @live
 * nodes still attached.  A detached node's entry is emptied at once (the
 * handlers then skip its function; ks_backends_settle() waits for those
 * running); the fprobe goes with its last node.
 */
struct ks_fp {
	struct fprobe fp;
	unsigned int n, live;
	struct ks_fp_ent ent[];
};

/*
 * Where a handler's address may lie before ftrace's for the same function:
 * a kernel that gives the function's start, ftrace's being after its
 * ENDBR or BTI landing pad.
 */
#define KS_FP_SLACK	16

/*
 * The node of the function at @ip, or NULL (detached).  An fprobe of one
 * address (a node alone, without clones) has nothing to search.
 */
static __always_inline struct ks_node *ks_fp_node(struct fprobe *fp, unsigned long ip)
{
	struct ks_fp *f = container_of(fp, struct ks_fp, fp);
	const struct ks_fp_ent *e = f->ent;
	unsigned int lo = 0, hi = f->n;

	if (hi > 1) {
		while (lo < hi) {	/* the first entry at or above @ip */
			unsigned int mid = lo + (hi - lo) / 2;

			if (f->ent[mid].ip < ip)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == f->n)
			return NULL;
		e += lo;
	}
	if (e->ip - ip > KS_FP_SLACK)
		return NULL;
	return READ_ONCE(e->node);
}

static int ks_fp_entry(struct fprobe *fp, unsigned long entry_ip,
		       unsigned long ret_ip, struct ks_fprobe_regs *regs,
		       void *entry_data)
{
	struct ks_node *node = ks_fp_node(fp, entry_ip);

	if (!node || !ks_want(node))
		return 1;	/* no exit hook for this call */
	((u64 *)entry_data)[1] = ks_call_ctx(node);
	((u64 *)entry_data)[2] = ks_call_calls();
	*(u64 *)entry_data = ks_now(node);
	ks_gap(node, *(u64 *)entry_data);
	return 0;
}

NOKPROBE_SYMBOL(ks_fp_entry);

static void ks_fp_exit(struct fprobe *fp, unsigned long entry_ip,
		       unsigned long ret_ip, struct ks_fprobe_regs *regs,
		       void *entry_data)
{
	struct ks_node *node = ks_fp_node(fp, entry_ip);

	if (!node)	/* detached while this call ran */
		return;
	ks_record_call(node, ks_delta(node, *(u64 *)entry_data, ks_now(node)),
		       ret_ip, ((u64 *)entry_data)[1], ((u64 *)entry_data)[2]);
}

NOKPROBE_SYMBOL(ks_fp_exit);

static int ks_fp_ent_cmp(const void *a, const void *b)
{
	const struct ks_fp_ent *x = a, *y = b;

	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/* @n nodes on one fprobe, one registration. */
static int ks_fp_attach_many(struct ks_node **nodes, unsigned int n)
{
	unsigned int i, j, k = 0, nips = 0, pool = 0;
	unsigned long *ips;
	struct ks_fp *f;
	int ret;

	for (i = 0; i < n; i++) {
		ret = ks_ftrace_ips(nodes[i]);
		if (ret)
			return ret;
		nips += nodes[i]->nips;
		pool += nodes[i]->cmd.maxactive * nodes[i]->nsyms;
	}
	f = kvzalloc(struct_size(f, ent, nips), GFP_KERNEL);
	ips = kvcalloc(nips, sizeof(*ips), GFP_KERNEL);
	if (!f || !ips) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < nodes[i]->nips; j++)
			f->ent[k++] = (struct ks_fp_ent){ nodes[i]->ips[j], nodes[i] };
	sort(f->ent, nips, sizeof(*f->ent), ks_fp_ent_cmp, NULL);
	for (k = 0; k < nips; k++)
		ips[k] = f->ent[k].ip;
	f->n = nips;
	f->live = n;
	f->fp.entry_handler = ks_fp_entry;
	f->fp.exit_handler = ks_fp_exit;
	/* start, ks_call_ctx(), ks_call_calls() */
	f->fp.entry_data_size = 3 * sizeof(u64);
	ks_fprobe_set_pool(&f->fp, pool);
	ret = register_fprobe_ips(&f->fp, ips, nips);
	if (ret)
		goto out;
	for (i = 0; i < n; i++)
		nodes[i]->priv = f;
	f = NULL;
out:
	kvfree(ips);
	kvfree(f);
	return ret;
}
ALLOW_ERROR_INJECTION(ks_fp_attach_many, ERRNO);

static int ks_fp_attach(struct ks_node *node)
{
	return ks_fp_attach_many(&node, 1);
}

static void ks_fp_detach(struct ks_node *node)
{
	struct ks_fp *f = node->priv;
	unsigned int i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++)
		if (f->ent[i].node == node)
			WRITE_ONCE(f->ent[i].node, NULL);
	node->priv = NULL;
	if (--f->live)
		return;
	unregister_fprobe(&f->fp);
	kvfree(f);
}

/* What fprobe dropped: for a node that shares its fprobe, the fprobe's. */
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
	.attach_many = ks_fp_attach_many,
	.detach = ks_fp_detach,
	.missed = ks_fp_missed,
};
