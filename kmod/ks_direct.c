// SPDX-License-Identifier: GPL-2.0
/*
 * kstats direct backend: ftrace direct calls into ks_direct_tramp
 * (ks_tramp.S), which finds each call's node by its call site.
 *
 * One attach hooks any number of functions with one ftrace_ops (a batch):
 * a glob of a thousand functions costs one ftrace update, not a thousand.
 * Each call site has an entry in ks_direct_hash (ks_direct.h) naming its
 * node and its batch.  Detaching a node empties its entries' node (calls
 * then return into the body at once); the batch is unregistered when its
 * last timed call site goes.
 *
 * Cost per timed call: the direct call, the lookup, two short handlers and
 * two clock reads; untimed calls (filtered, sampled out) return into the
 * body right after ks_direct_enter().  The handlers run under ftrace's
 * recursion guard, so a traced function they reach runs untimed (counted
 * in missed) instead of recursing.
 *
 * Removal: after a detach, ks_direct_settle() (or ftrace's unregister)
 * waits for tasks preempted in the trampoline before the body, once for
 * any number of detached nodes.  Calls still running the body (the traced
 * function may sleep, for as long as it likes) are counted per CPU in
 * ks_pcpu.inflight: detach does not wait for them, and the node is freed
 * once that count reaches zero (ks_node.c, ks_reap).  A task that ends
 * inside a body leaves that count by the exit scan, and tasks asleep
 * inside one are woken on unload (ks_direct_stack.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/ftrace.h>
#include <linux/error-injection.h>
#include <linux/kprobes.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/trace_recursion.h>
#include "ks_record.h"
#include "ks_syms.h"
#include "ks_btf.h"
#include "ks_backend.h"
#include "ks_direct.h"
#include "ks_compat.h"

/* One ftrace_ops hooking many call sites: freed when none is timed. */
struct ks_dbatch {
	struct ftrace_ops ops;
	unsigned int users;		/* entries whose node is set */
};

/* A node's call sites: its entries in ks_direct_hash (node->priv). */
struct ks_dnode {
	unsigned int n;
	struct ks_hent *ent[];
};

static_assert(sizeof_field(struct ks_pcpu, fast) == 1);
static_assert(sizeof(struct ks_centry) == 1 << KS_CENT_SHIFT);
static_assert(KS_CTAB_SIZE == 1 << KS_CTAB_BITS);
static_assert(KS_CTAB_SIZE >= 2 * (KS_CALLERS_MAX + 1));
static_assert(sizeof(struct kstats_slot) == 16);
#ifdef CONFIG_X86_64
/* ks_tramp.S's preempt_disable(), at the kernel's preemption count */
#ifdef KS_PCPU_HOT
static_assert(sizeof_field(struct pcpu_hot, preempt_count) == KS_PREEMPT_BYTES);
#else
static_assert(sizeof(__preempt_count) >= KS_PREEMPT_BYTES);
#endif
#endif
/*
 * What one timed call reads of its node lies in its first cache line:
 * kzalloc() serves a node from kmalloc-256 or a larger cache, whose
 * power-of-two objects are aligned to their size.
 */
static_assert(sizeof(struct ks_node) > 192);
static_assert(offsetofend(struct ks_node, cmd.comm[0]) <= L1_CACHE_BYTES);

/*
 * What the fast cases read, in each CPU's part of @node: the slot math's
 * constants (kstats_slot() of hist.h), the node, and with callers or
 * slowest their table and floor (a fresh node's: kept calls raise them).
 */
static void ks_direct_pcpu_init(struct ks_node *node)
{
	u32 bits = node->cmd.bits;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct ks_pcpu_x *x = per_cpu_ptr(ks_pcpu_x(node), cpu);

		x->p.one = 1ULL << bits;
		x->p.two = 2U << bits;
		x->p.bits = bits;
		x->p.buckets = node->cmd.buckets;
		x->p.node = node;
		if (!ks_pcpu_wide(&node->cmd))
			continue;	/* a struct ks_pcpu only */
		x->ctab = node->callers ? node->callers->tab : NULL;
		x->floor = node->slowest ? READ_ONCE(node->slowest->floor) : U64_MAX;
	}
	ks_node_set_fast(node, node->fast || node->fast_extra);
}

/* @node's gate: open while it records, else shut. */
static long ks_gate(const struct ks_node *node)
{
	return READ_ONCE(node->active) ? 0 : LONG_MAX;
}

/* Set @node's gate on this CPU. */
static void ks_gate_cpu(void *arg)
{
	struct ks_node *node = arg;

	this_cpu_write(node->pcpu->gate, ks_gate(node));
}

/*
 * Follow a start, stop or reset: each CPU sets its own gate from an IPI
 * ("decq %gs:" is one instruction on its CPU: nothing is lost), offline
 * CPUs directly.
 */
static void ks_direct_acted(struct ks_node *node)
{
	int cpu;

	if (!node->priv)
		return;		/* not attached: a GAP- node's t0 */
	cpus_read_lock();
	on_each_cpu(ks_gate_cpu, node, 1);
	for_each_possible_cpu(cpu)
		if (!cpu_online(cpu))
			per_cpu_ptr(node->pcpu, cpu)->gate = ks_gate(node);
	cpus_read_unlock();
}

/*
 * The C side of the trampoline runs under ftrace's own recursion guard
 * (per task and context, as every ftrace callback): a function that this
 * code reaches, traced itself (irq_work_queue() from a claim, say), finds
 * the guard taken and runs untimed, counted in missed, instead of
 * recursing.  Nothing of kstats' hot path is refused by name for that.
 */
static __always_inline int ks_guard(void)
{
	return ftrace_test_recursion_trylock(_THIS_IP_, _RET_IP_);
}

static __always_inline void ks_unguard(int bit)
{
	ftrace_test_recursion_unlock(bit);
}

/* A call the guard turned away, shown in missed (ks_direct_missed()). */
static __always_inline void ks_turned_away(struct ks_node *node)
{
	atomic_long_inc(&node->recursed);
}

/**
 * ks_direct_enter() - a traced call starts (called by the trampoline)
 * @node: the slot's node (NULL while the slot is being set up)
 * @ends: where the trampoline keeps what its end compares: ks_call_ctx()
 *	and ks_call_calls()
 *
 * Return: the start time, or 0 if this call is not to be timed.
 */
notrace u64 ks_direct_enter(struct ks_node *node, u64 *ends)
{
	u64 now = 0;
	int bit;

	if (unlikely(!node))
		return 0;
	bit = ks_guard();	/* and preemption off: ks_want()'s count */
	if (unlikely(bit < 0)) {
		if (READ_ONCE(node->active))
			ks_turned_away(node);
		return 0;
	}
	if (ks_want(node)) {
		this_cpu_inc(node->pcpu->inflight);
		ends[0] = ks_call_ctx(node);
		ends[1] = ks_call_calls();
		now = ks_now(node);
		ks_gap(node, now);
	}
	ks_unguard(bit);
	return now;
}

NOKPROBE_SYMBOL(ks_direct_enter);

/**
 * ks_direct_exit() - a timed call returned (called by the trampoline)
 * @node: what ks_direct_enter() got for this call
 * @start: what ks_direct_enter() returned for this call
 * @caller: where the call returns to (its call site, for "callers")
 * @ends: what ks_direct_enter() kept for this call's end to compare
 */
notrace void ks_direct_exit(struct ks_node *node, u64 start,
			    unsigned long caller, const u64 *ends)
{
	u64 end = ks_now(node);
	int bit = ks_guard();

	if (likely(bit >= 0)) {
		ks_record_call(node, ks_delta(node, start, end), caller,
			       ends[0], ends[1]);
		ks_unguard(bit);
	} else {
		ks_turned_away(node);
	}
	this_cpu_dec(node->pcpu->inflight);	/* may be another CPU's +1 */
}

NOKPROBE_SYMBOL(ks_direct_exit);

/**
 * ks_direct_record() - record for ks_tramp.S on a CPU without slots
 * @node: the call's node
 * @v: its time
 * @ip: where it returns to (its call site, for "callers")
 *
 * Called with preemption off: ks_record() takes a spare, or counts the
 * call as missed.
 */
notrace void ks_direct_record(struct ks_node *node, u64 v, unsigned long ip)
{
	int bit = ks_guard();

	if (unlikely(bit < 0)) {
		ks_turned_away(node);
		return;
	}
	ks_record_from(node, v, ip);
	ks_unguard(bit);
}

NOKPROBE_SYMBOL(ks_direct_record);

/**
 * ks_direct_resched() - the end of ks_tramp.S's preempt_enable()
 *
 * Its decrement found preemption due: preempt as preempt_enable() does,
 * through the kernel's own code for this kernel's preemption model.
 */
notrace void ks_direct_resched(void)
{
	preempt_disable_notrace();
	preempt_enable_notrace();
}

NOKPROBE_SYMBOL(ks_direct_resched);

/* Calls of @node still running a traced body, summed over CPUs. */
static long ks_inflight(struct ks_node *node)
{
	long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += READ_ONCE(per_cpu_ptr(node->pcpu, cpu)->inflight);
	return n;
}

static long ks_direct_busy(struct ks_node *node)
{
	return ks_inflight(node);
}

/*
 * Unhook every call site of @batch and free it.  Unregistering a dynamic
 * ftrace_ops makes ks_direct_settle()'s waits before it returns (5.x to
 * 7.x ftrace_shutdown(), with CONFIG_PREEMPTION): none left to make.
 */
static void ks_dbatch_free(struct ks_dbatch *b, bool registered)
{
	unsigned int i;

	if (!registered)
		ftrace_free_filter(&b->ops);
	else if (!ks_ftrace_direct_off(&b->ops, (unsigned long)ks_direct_tramp) &&
		 IS_ENABLED(CONFIG_PREEMPTION))
		ks_direct_unsettled = false;
	for (i = 0; i < ARRAY_SIZE(ks_direct_hash); i++)
		if (ks_direct_hash[i].batch == b)
			ks_direct_hash[i].batch = NULL;
	kfree(b);
}

/*
 * Stop timing every call site of @node: its calls return into the body at
 * once from now on; a batch none of whose call sites is timed any more is
 * unregistered.  ks_direct_settle() makes it final.
 */
static void ks_direct_detach(struct ks_node *node)
{
	struct ks_dnode *dn = node->priv;
	unsigned int i;

	for (i = 0; i < dn->n; i++) {
		struct ks_hent *e = dn->ent[i];
		struct ks_dbatch *b = e->batch;

		ks_hent_set(e, &ks_direct_idle);
		if (b && !--b->users)
			ks_dbatch_free(b, true);
	}
	kfree(dn);
	node->priv = NULL;
}

/*
 * Tasks preempted inside the trampoline, before the body, have left it
 * (RCU Tasks); and so has every CPU that was in it with preemption off or
 * where RCU does not watch (idle, into and out of an NMI): the rude
 * flavour waits for each CPU to schedule, as ftrace itself does.
 */
static void ks_direct_settle(void)
{
	if (!ks_direct_unsettled)
		return;		/* ftrace's own waits came after (ks_dbatch_free()) */
	synchronize_rcu_tasks();
#ifdef CONFIG_TASKS_RUDE_RCU
	synchronize_rcu_tasks_rude();
#endif
	ks_direct_unsettled = false;
}

/*
 * Give up @node's claim on its entries: @b, the batch being built, is not
 * registered; a batch of earlier attaches loses a user.
 */
static void ks_direct_unclaim(struct ks_node *node, struct ks_dbatch *b)
{
	struct ks_dnode *dn = node->priv;
	unsigned int i;

	for (i = 0; i < dn->n; i++) {
		struct ks_hent *e = dn->ent[i];

		if (e->batch == b) {
			e->batch = NULL;
			b->users--;
		} else if (e->batch && !--e->batch->users) {
			ks_dbatch_free(e->batch, true);
		}
	}
	kfree(dn);
	node->priv = NULL;
}

/*
 * Give each node its call sites' entries.  A call site whose entry still
 * has a batch (a function removed while others of its batch stay) is
 * timed through that batch again; the others go into @b and @ips.
 * Returns how many went into @ips, or an error (every claim given up).
 */
static int ks_direct_claim(struct ks_node **nodes, unsigned int n,
			   struct ks_dbatch *b, unsigned long *ips)
{
	unsigned int i, j, nips = 0;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		struct ks_node *node = nodes[i];
		struct ks_dnode *dn;

		dn = kzalloc(struct_size(dn, ent, node->nips), GFP_KERNEL);
		if (!dn) {
			ret = -ENOMEM;
			break;
		}
		node->priv = dn;
		for (j = 0; j < node->nips && !ret; j++) {
			unsigned long key = ks_hkey(node->ips[j]);
			struct ks_hent *e = ks_hslot(key);

			if (!e) {
				ks_direct_home_full();
				ret = -ENOSPC;
			} else if (e->ip == key && e->node != &ks_direct_idle) {
				pr_err("%s: %ps is already timed by %s\n",
				       node->cmd.name, (void *)node->ips[j],
				       e->node->cmd.name);
				ret = -EBUSY;
			} else {
				if (e->ip != key) {
					/* idle before its key: never found live */
					ks_hent_key(e, key);
					e->batch = NULL;
				}
				if (!e->batch) {
					e->batch = b;
					ips[nips++] = node->ips[j];
				}
				e->batch->users++;
				dn->ent[dn->n++] = e;
			}
		}
	}
	if (ret)
		for (i = 0; i < n; i++)
			if (nodes[i]->priv)
				ks_direct_unclaim(nodes[i], b);
	return ret ? ret : nips;
}

/**
 * ks_direct_attach_many() - hook @n nodes with one ftrace operation
 * @nodes: detached nodes, their symbols resolved
 * @n: how many
 *
 * All or nothing: on failure no node is hooked (node->priv NULL).
 * Return: 0, or the error of the first failure.
 */
int ks_direct_attach_many(struct ks_node **nodes, unsigned int n)
{
	unsigned int i, j, total = 0;
	unsigned long *ips = NULL;
	struct ks_dbatch *b;
	bool plain, extra;
	int ret, nips;

	for (i = 0; i < n; i++) {
		const struct ks_spec *c = &nodes[i]->cmd;

		ret = ks_ftrace_ips(nodes[i]);
		if (ret)
			return ret;
		total += nodes[i]->nips;
		/* sampling alone: the trampoline counts calls down by itself */
		nodes[i]->fast_sample = KS_TRAMP_SAMPLES &&
					c->sample > 1 && c->pid < 0 &&
					c->tgid < 0 && !c->comm[0] &&
					!nodes[i]->by_cpu;
		/* the plain case: the trampoline times and records by itself */
		plain = !nodes[i]->filtered && !nodes[i]->gap &&
			nodes[i]->use_counter && ks_counter_plain();
		extra = nodes[i]->callers || nodes[i]->slowest;
		nodes[i]->fast = plain && !extra;
		nodes[i]->fast_extra = IS_ENABLED(CONFIG_X86_64) && plain &&
				       extra;
		ks_direct_pcpu_init(nodes[i]);
	}
	if (!ks_direct_room(total))
		return -ENOSPC;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (b)
		ips = kvcalloc(total, sizeof(*ips), GFP_KERNEL);
	if (!ips) {
		ret = -ENOMEM;
		goto out;
	}
	nips = ks_direct_claim(nodes, n, b, ips);
	ret = nips < 0 ? nips : 0;
	if (nips > 0) {
		ret = ftrace_set_filter_ips(&b->ops, ips, nips, 0, 1);
		if (!ret)
			ret = ks_ftrace_direct_on(&b->ops,
						  (unsigned long)ks_direct_tramp);
		if (ret) {
			for (i = 0; i < n; i++)
				ks_direct_unclaim(nodes[i], b);
			ftrace_free_filter(&b->ops);
			goto out;
		}
		b = NULL;	/* its entries hold it now */
	}
	/* hooked: the calls find their nodes from now on */
	for (i = 0; i < n && !ret; i++) {
		struct ks_dnode *dn = nodes[i]->priv;
		int cpu;

		/* no call reads the gates before the entries name the node */
		for_each_possible_cpu(cpu)
			per_cpu_ptr(nodes[i]->pcpu, cpu)->gate =
				ks_gate(nodes[i]);
		for (j = 0; j < dn->n; j++)
			ks_hent_set(dn->ent[j], nodes[i]);
	}
out:
	kvfree(ips);
	kfree(b);
	return ret;
}
ALLOW_ERROR_INJECTION(ks_direct_attach_many, ERRNO);

static int ks_direct_attach(struct ks_node *node)
{
	return ks_direct_attach_many(&node, 1);
}

/*
 * Not through the direct backend, which keeps each call on its stack
 * until it returns, and whose module cannot go before: functions that
 * return, but not always, or not before the module goes.  (A task that
 * ends inside a body is found by the exit scan, ks_direct.c: a syscall
 * that exits, a kthread's function that ends.)
 * - do_idle() of a CPU that goes offline never returns (the CPU ends in
 *   arch_cpu_idle_dead(), and its idle task starts afresh when it comes
 *   back): the call would hold the module for ever.
 * - What rmmod's own syscall runs through to the module's exit: the
 *   syscall tables' dispatchers and delete_module.  Unloading would wait
 *   for rmmod's own call to return.
 * - Where a thread spends its life (ret_from_fork() and kthread(), the
 *   functions they run, those of kernel threads running now:
 *   ks_direct_thread_fn()): a call lasts as long as the thread.
 * The default backend takes fprobe or kretprobe for them, whose instances
 * the kernel keeps.
 */
static const char * const ks_deny_direct[] = {
	"do_idle",
	"x64_sys_call", "x32_sys_call", "ia32_sys_call",
	"invoke_syscall", "el0_svc_common", "do_el0_svc", "do_el0_svc_compat",
	"__x64_sys_delete_module", "__ia32_sys_delete_module",
	"__arm64_sys_delete_module", "__do_sys_delete_module",
	"ret_from_fork", "kthreadd", "kthread", "worker_thread", "rescuer_thread",
	"smpboot_thread_fn", "kthread_worker_fn", "io_wq_worker",
	"io_sq_thread", "vhost_task_fn",
};

/*
 * ks_direct_fits() - may the direct backend time every symbol of @node?
 * @node: a detached node with its symbols
 * @asked: "via direct" named it: say why a symbol cannot be
 *
 * It runs a traced body one frame deeper: only functions whose BTF shows
 * every argument in registers, clones known to keep their prototype
 * (.constprop), none of ks_deny_direct[].  Return: 0, or -EINVAL (or the
 * BTF's error) for the first that cannot be.
 */
static int ks_direct_fits(struct ks_node *node, bool asked)
{
	int res[KS_SYMS_MAX], ret;
	unsigned int i;

	ks_btf_args_in_regs(node, res);
	for (i = 0; i < node->nsyms; i++) {
		ret = res[i];
		if (!ret && (ks_name_in(node->syms[i], ks_deny_direct,
					ARRAY_SIZE(ks_deny_direct)) ||
			     ks_direct_thread_fn(node->syms[i])))
			ret = -ECHILD;
		if (!ret)
			continue;
		if (!asked)
			return ret;
		if (ret == -ECHILD)
			ks_refuse_err(node->cmd.name, "%s may not return before the module goes (an offline CPU's idle loop, rmmod's own syscall, a thread's life): the direct backend would keep the module; use via fprobe or kretprobe",
				      node->syms[i]);
		else if (ret == -E2BIG)
			ks_refuse_err(node->cmd.name, "%s takes arguments on the stack: use via fprobe or kretprobe",
				      node->syms[i]);
		else if (ret == -EDOM)
			ks_refuse_err(node->cmd.name, "%s is a compiler clone whose arguments need not match the prototype: use via fprobe or kretprobe",
				      node->syms[i]);
		else if (ret == -ENOENT)
			ks_refuse_err(node->cmd.name, "no BTF prototype for %s: the direct backend needs one; use via fprobe or kretprobe",
				      node->syms[i]);
		else
			ks_refuse_err(node->cmd.name, "cannot read the BTF of %s: error %d",
				      node->syms[i], ret);
		return ret == -ENOENT || ret == -E2BIG || ret == -EDOM ||
		       ret == -ECHILD ? -EINVAL : ret;
	}
	return 0;
}

/*
 * No pool to run out of (each call keeps its state on its own stack):
 * only the calls the recursion guard turned away.
 */
static u64 ks_direct_missed(struct ks_node *node)
{
	return atomic_long_read(&node->recursed);
}

/* Module load: the table's homes idle, and the exit scan's tracepoint. */
static int ks_direct_start(void)
{
	ks_direct_table_init();
	return ks_direct_watch_exits();
}

const struct ks_backend ks_direct_backend = {
	.via = KS_VIA_DIRECT,
	.caps = KS_CAP_BY_ADDRESS | KS_CAP_NO_POOL | KS_CAP_EXCLUSIVE,
	.fits = ks_direct_fits,
	.attach = ks_direct_attach,
	.attach_many = ks_direct_attach_many,
	.detach = ks_direct_detach,
	.settle = ks_direct_settle,
	.missed = ks_direct_missed,
	.busy = ks_direct_busy,
	.acted = ks_direct_acted,
	.start = ks_direct_start,
	.stop = ks_direct_unwatch_exits,
	.wake = ks_direct_wake,
};
