// SPDX-License-Identifier: GPL-2.0
/*
 * kstats trace pipeline: what "trace" does for one function or section,
 * in order: refuse what never returns (the deny list), allocate the node
 * (ks_node.c) and find its symbols (ks_syms.c), choose its backend (the
 * default, or the direct backend where BTF allows it: ks_btf.c), add its
 * GAP- node, attach (one by one, or many with one operation for a glob:
 * ks_glob.c), calibrate (ks_floor.c) and publish its file.  Also the nodes
 * kernel code records into itself (ks_api.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/error-injection.h>
#include "ks_compat.h"
#include "ks_syms.h"
#include "ks_btf.h"
#include "ks_backend.h"
#include "ks_node.h"
#include "ks_clock.h"
#include "ks_show.h"
#include "ks_trace.h"
#include "ks_floor.h"

/*
 * Never traced: functions that do not return.  A call into one never
 * comes back through the trampoline, so the module could never go; the
 * kernel marks them __noreturn for the compiler only, with nothing a
 * tracer can read at run time, so this list is by name, as the BPF
 * trampoline's noreturn_deny is.  Nothing else is refused by name: what
 * kstats' own C path reaches runs under ftrace's recursion guard
 * (ks_direct.c) or the kprobe framework's, and costs a missed call;
 * noinstr code is never offered by ftrace; kprobes refuse their own
 * blacklist.
 */
static const char * const ks_deny_noreturn[] = {
	"do_exit", "do_group_exit", "make_task_dead", "kthread_exit",
	"__module_put_and_kthread_exit", "rewind_stack_and_make_dead",
	"rewind_stack_do_exit", "do_task_dead", "panic", "nmi_panic",
	"machine_real_restart", "usercopy_abort", "__stack_chk_fail",
	"__ubsan_handle_builtin_unreachable", "cpu_startup_entry",
	"kthread_complete_and_exit", "snp_abort", "stop_this_cpu",
	"__x64_sys_exit", "__x64_sys_exit_group", "__ia32_sys_exit",
	"__ia32_sys_exit_group", "__arm64_sys_exit", "__arm64_sys_exit_group",
	/* where a CPU that goes offline ends (objtool's noreturns) */
	"arch_cpu_idle_dead", "play_dead", "native_play_dead", "hlt_play_dead",
	"mwait_play_dead", "cpu_die", "cpu_die_early",
	/*
	 * arm64: cpu_die() asks the firmware to switch the CPU off, which
	 * does not return when it succeeds (the CPU starts afresh)
	 */
	"cpu_psci_cpu_die", "psci_0_1_cpu_off", "psci_0_2_cpu_off",
	"__psci_cpu_off", "local_cpu_stop", "panic_smp_self_stop",
	"ipi_cpu_crash_stop",
};

/**
 * ks_denied() - may @name never be traced, and why?
 * @name: a function name, "mod:" prefix or clone suffix allowed
 *
 * Return: the reason, or NULL if it may be traced.
 */
const char *ks_denied(const char *name)
{
	return ks_name_in(name, ks_deny_noreturn, ARRAY_SIZE(ks_deny_noreturn)) ?
	       "it never returns" : NULL;
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
	.via = KS_VIA_GAP,
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
	struct ks_cmd cmd = { .spec = node->cmd };
	struct ks_node *gap;

	/* the parser refuses names too long for their GAP- node */
	if (snprintf(cmd.name, sizeof(cmd.name), KS_GAP_PREFIX "%s",
		     node->cmd.name) >= sizeof(cmd.name))
		return -EINVAL;
	if (node->by_cpu)
		scnprintf(cmd.cpus, sizeof(cmd.cpus), "%*pbl",
			  cpumask_pr_args(node->cpus));
	cmd.gap = false;
	cmd.callers = 0;	/* the time between calls has no caller */
	cmd.slowest = 0;
	gap = ks_node_alloc(&cmd, &ks_gap_backend);
	if (IS_ERR(gap))
		return PTR_ERR(gap);
	if (ks_set_syms(gap, node->cmd.name, NULL)) {
		ks_node_destroy(gap);
		return -ENOMEM;
	}
	gap->active = true;
	node->gap = gap;
	return 0;
}
ALLOW_ERROR_INJECTION(ks_gap_alloc, ERRNO);

/* node->cmd.via and maxactive as node->backend needs them. */
static void ks_settle_via(struct ks_node *node)
{
	node->cmd.via = node->backend->via;
	if (node->backend->caps & KS_CAP_NO_POOL)
		node->cmd.maxactive = 0;	/* state on a stack, no pool */
}

/*
 * ks_choose_backend() - settle the backend of @node and node->cmd.via
 * @node: a detached node with its symbols, its backend the one "via"
 *	named or, by default, the cheapest that takes any function
 *
 * A backend asked for refuses symbols it cannot time, with the reason
 * (its @fits); by default the cheapest that fits every symbol is taken
 * (ks_backend_choose(): the direct backend where BTF shows every argument
 * in registers, else fprobe or kretprobe).
 *
 * Return: 0, or a negative errno (logged).
 */
static int ks_choose_backend(struct ks_node *node)
{
	const struct ks_backend *b = node->backend;
	int ret;

	node->chosen = node->cmd.via == KS_VIA_DEFAULT;
	node->maxactive = node->cmd.maxactive;
	if (node->chosen) {
		b = ks_backend_choose(node);
	} else if (b->fits) {
		ret = b->fits(node, true);
		if (ret)
			return ret;
	}
	if (!IS_ERR(b))
		node->backend = b;
	ks_settle_via(node);
	return 0;
}

/*
 * ks_backend_fallback() - time @node another way: its direct attach failed
 * @node: detached, its backend chosen (not asked for) as direct
 * @err: why the direct attach failed
 *
 * A function whose call site another tracer holds for its own direct call
 * (a BPF fentry/fexit program, a livepatch) cannot be shared, and a
 * kernel's room for direct call sites can be full (8,192 before 6.6): the
 * default backend then is the next cheapest, fprobe or kretprobe.
 *
 * Return: true if @node now has another backend to attach with.
 */
static bool ks_backend_fallback(struct ks_node *node, int err)
{
	const struct ks_backend *next;

	if ((err != -EBUSY && err != -ENOSPC) ||
	    !(node->backend->caps & KS_CAP_EXCLUSIVE) || !node->chosen)
		return false;
	next = ks_backend_next(node->backend);
	if (IS_ERR(next))
		return false;
	node->backend = next;
	node->cmd.maxactive = node->maxactive;
	ks_settle_via(node);
	/* a full table is said once in 10 s (ks_direct_table.c) */
	if (err == -EBUSY)
		pr_info("%s: another tracer holds %s for its direct call (a BPF program, a livepatch): timed via %s\n",
			node->cmd.name, node->syms[0],
			ks_backend_name(node->backend->via));
	return true;
}

/*
 * Give an attached @node (and its GAP- node) its files and list it;
 * caller holds ks_lock, and destroys @node on failure.
 */
static noinline int ks_node_publish(struct ks_node *node)
{
	int ret;

	ret = ks_file_add(&node->file, node->cmd.name, 0600, node,
			  &ks_node_file);
	if (!ret && node->gap)
		ret = ks_file_add(&node->gap->file, node->gap->cmd.name, 0600,
				  node->gap, &ks_node_file);
	if (ret)
		return ret;
	ks_node_list(node);
	return 0;
}
ALLOW_ERROR_INJECTION(ks_node_publish, ERRNO);

/**
 * ks_via_name() - the backend name of @via, as attach= and _last say it
 * @via: a resolved backend choice
 *
 * Return: its name.
 */
const char *ks_via_name(enum ks_via via)
{
	return ks_backend_name(via);
}

/**
 * ks_node_prepare() - a node for "trace", its symbols and backend settled
 * @cmd: the parsed command (a single function or section)
 * @syms: its symbols, KS_NAME_MAX bytes each, found already (ownership
 *	passes), or NULL to look them up by cmd->name
 * @nsyms: entries in @syms; with @syms NULL, 0 to look them up or 1: the
 *	name is the one symbol (a glob's function without clones)
 * @err: the error, when NULL is returned
 *
 * Caller holds ks_lock.  Refuses names that are traced already or on the
 * deny list.
 * Return: the detached node, or NULL.
 */
struct ks_node *ks_node_prepare(const struct ks_cmd *cmd,
				void *syms, unsigned int nsyms,
				int *err)
{
	const char *why = cmd->via == KS_VIA_SECTION ? NULL :
			  ks_denied(cmd->name);
	const struct ks_backend *backend;
	struct ks_node *node;
	int ret;

	if (why) {
		pr_err("%s: not traced: %s\n", cmd->name, why);
		kfree(syms);
		*err = -EINVAL;
		return NULL;
	}
	ret = ks_node_room(cmd->name);
	if (ret) {
		kfree(syms);
		*err = ret;
		return NULL;
	}
	backend = ks_pick_backend(cmd->via);
	if (IS_ERR(backend)) {
		pr_err("%s: backend not available in this kernel\n", cmd->name);
		kfree(syms);
		*err = PTR_ERR(backend);
		return NULL;
	}
	node = ks_node_alloc(cmd, backend);
	if (IS_ERR(node)) {
		kfree(syms);
		*err = PTR_ERR(node);
		return NULL;
	}
	if (syms) {
		node->syms = syms;
		node->nsyms = nsyms;
		ret = 0;
	} else if (nsyms) {
		node->syms = &node->cmd.name;
		node->nsyms = 1;
		ret = 0;
	} else if (cmd->via == KS_VIA_SECTION) {
		ret = ks_set_syms(node, cmd->start, cmd->end);
	} else {
		ret = ks_resolve_syms(node);
	}
	if (!ret) {
		ks_syms_shrink(node);
		ret = ks_choose_backend(node);
	}
	if (!ret && cmd->gap)
		ret = ks_gap_alloc(node);
	if (ret) {
		ks_node_destroy(node);
		*err = ret;
		return NULL;
	}
	node->active = true;
	return node;
}

/**
 * ks_nodes_attach_many() - hook nodes of one backend with one operation
 * @nodes: prepared nodes whose backend has attach_many
 * @n: how many
 *
 * On failure (a function another tool holds, a call site with no room
 * in the direct backend's table) none is hooked, and each half is tried
 * again the same way, down to one node, which ks_node_finish() tries
 * alone: k such functions cost about k * log2(n) operations, where one
 * by one would cost n (and, on the direct backend, an ftrace_ops and a
 * trampoline each).
 */
static void ks_nodes_halves(struct ks_node **nodes, unsigned int n)
{
	if (n < 2 || !nodes[0]->backend->attach_many(nodes, n))
		return;
	ks_nodes_halves(nodes, n / 2);
	ks_nodes_halves(nodes + n / 2, n - n / 2);
}

void ks_nodes_attach_many(struct ks_node **nodes, unsigned int n)
{
	int ret = nodes[0]->backend->attach_many(nodes, n);

	if (!ret || n < 2)
		return;
	/* said once, not for each half that fails again */
	pr_info("attaching %u functions at once failed (error %d): halves\n",
		n, ret);
	ks_nodes_halves(nodes, n / 2);
	ks_nodes_halves(nodes + n / 2, n - n / 2);
}

/**
 * ks_node_finish() - attach (if not yet), calibrate and publish a node
 * @node: from ks_node_prepare()
 *
 * Caller holds ks_lock.  On failure @node is destroyed.
 * Return: 0 or the error.
 */
int ks_node_finish(struct ks_node *node)
{
	const struct ks_spec *cmd = &node->cmd;
	int ret = 0;

	if (!node->priv)
		ret = node->backend->attach(node);
	if (ret && ks_backend_fallback(node, ret))
		ret = node->backend->attach(node);
	if (ret == -ENOENT) {
		ks_refuse_err(cmd->name, "no such function%s; it may have been inlined or renamed",
			      cmd->clones ? " (nor a .constprop/.isra/.part clone)" : "");
		goto err;
	} else if (ret == -ENOSPC) {
		/* no room (direct sites, mem_max): a glob meets it often */
		ks_refuse_err(cmd->name, "no room for it (error %d)", ret);
		goto err;
	} else if (ret) {
		if (cmd->via == KS_VIA_SECTION)
			ks_refuse_err(cmd->name, "attaching a section from %s to %s failed: error %d",
				      node->syms[0], node->syms[1], ret);
		else
			ks_refuse_err(cmd->name, "attaching %s to %s%s failed: error %d",
				      ks_backend_name(node->backend->via), node->syms[0],
				      node->nsyms > 1 ? " and its clones" : "", ret);
		goto err;
	}
	node->floor = ks_floor(node);
	ks_nest_cost(node);
	ret = ks_node_publish(node);
	if (ret)
		goto err;
	return 0;

err:
	ks_node_destroy(node);
	return ret;
}

/**
 * ks_trace() - build, attach and publish a node for "trace"
 * @cmd: a parsed "trace" of one function or section (not a glob)
 *
 * Caller holds ks_lock.
 * Return: 0 or the error (logged).
 */
int ks_trace(const struct ks_cmd *cmd)
{
	struct ks_node *node;
	int ret;

	node = ks_node_prepare(cmd, NULL, 0, &ret);
	return node ? ks_node_finish(node) : ret;
}

/**
 * ks_node_create() - make and publish a node its maker records into
 * @cmd: a parsed "trace NAME bits B": the name and histogram layout
 * @backend: the maker's hooks (kstats_new(): ks_api.c)
 *
 * The node's one symbol is its name.  Takes ks_lock.
 *
 * Return: the node, active, with its file and listed, or an ERR_PTR.
 */
struct ks_node *ks_node_create(const struct ks_cmd *cmd,
			       const struct ks_backend *backend)
{
	struct ks_node *node;
	int ret;

	mutex_lock(&ks_lock);
	ret = ks_node_room(cmd->name);
	if (ret)
		goto out;
	node = ks_node_alloc(cmd, backend);
	if (IS_ERR(node)) {
		ret = PTR_ERR(node);
		goto out;
	}
	ks_clock_ns(node);	/* the maker's values are in ns */
	node->active = true;
	ret = ks_set_syms(node, cmd->name, NULL);
	if (!ret)
		ret = node->backend->attach(node);
	if (!ret)
		ret = ks_node_publish(node);
	if (ret)
		ks_node_destroy(node);
out:
	mutex_unlock(&ks_lock);
	return ret ? ERR_PTR(ret) : node;
}
