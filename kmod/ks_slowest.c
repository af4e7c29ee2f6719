// SPDX-License-Identifier: GPL-2.0
/*
 * kstats "slowest K": the K slowest calls of a node since its last reset,
 * each with its time, CPU, task, end time, caller, the stack it ended on
 * and whether it was disturbed on the way (ks_ctx() in ks_record.h).
 *
 * Only a call slower than the K-th slowest kept gets here (its floor, one
 * compare in ks_record_call()); the first K of a node all do.  It runs
 * where the call ended, in any context: interrupts off and a per-CPU
 * guard, so that neither an interrupt's nor an NMI's call on this CPU
 * enters twice (what the unwinder calls may be traced too: a nested call
 * is not kept, never a recursion); an NMI only tries the lock.
 *
 * Whether a call was disturbed: each CPU's disturbance word (ks_cpu_gen),
 * read at the call's entry and end (ks_ctx()).  While a node keeps its
 * slowest calls, the kernel's tracepoints of every interrupt (a device's,
 * and on x86 the APIC's own vectors and NMIs) and of the context switch
 * advance it on their CPU: a word read and a compare per call end, the
 * cost moved to the interrupts and switches, a few instructions each.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stacktrace.h>
#include <linux/sort.h>
#include <linux/hardirq.h>
#include <linux/kprobes.h>
#include <linux/tracepoint.h>
#include "ks_record.h"
#include "ks_slowest.h"
#include "ks_syms.h"

/* Frames saved: the stack's own first ones (kstats', a probe's) are dropped */
#define KS_STACK_SAVE	(KS_STACK_MAX + 16)

struct ks_slow_scratch {
	int nest;
	unsigned long stack[KS_STACK_SAVE];
};

static DEFINE_PER_CPU(struct ks_slow_scratch, ks_slow_scratch);

DEFINE_PER_CPU(u64, ks_cpu_gen);

/*
 * The other word a call's entry and end compare: the recorded calls of
 * functions on each CPU (ks_unnest() in ks_record.h), which starts at the
 * CPU's number << KS_CALLS_CPU_SHIFT.
 */
DEFINE_PER_CPU(u64, ks_cpu_calls);

void ks_nest_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		per_cpu(ks_cpu_calls, cpu) = (u64)cpu << KS_CALLS_CPU_SHIFT;
}

static notrace void ks_gen_irq(void)
{
	this_cpu_add(ks_cpu_gen, KS_GEN_IRQ);
}

static notrace void ks_gen_on_irq(void *data, int irq,
				  struct irqaction *action)
{
	ks_gen_irq();
}

static notrace void ks_gen_on_switch(void *data, bool preempt,
				     struct task_struct *prev,
				     struct task_struct *next,
				     unsigned int prev_state)
{
	this_cpu_add(ks_cpu_gen, KS_GEN_SWITCH);
}

#ifdef CONFIG_X86
static notrace void ks_gen_on_vector(void *data, int vector)
{
	ks_gen_irq();
}

static notrace void ks_gen_on_nmi(void *data, void *handler, s64 delta_ns,
				  int handled)
{
	ks_gen_irq();
}

NOKPROBE_SYMBOL(ks_gen_on_vector);
NOKPROBE_SYMBOL(ks_gen_on_nmi);
#endif

NOKPROBE_SYMBOL(ks_gen_irq);
NOKPROBE_SYMBOL(ks_gen_on_irq);
NOKPROBE_SYMBOL(ks_gen_on_switch);

/*
 * The tracepoints that advance the word, each with its probe of the
 * tracepoint's own prototype; @need: refuse "slowest" without it (the
 * rest are the rare APIC vectors some configurations lack).  A device's
 * interrupt runs its handlers between irq_handler_entry and _exit: on
 * arm64 every interrupt does, the timer's and the IPIs too.
 */
static const struct ks_gen_point {
	const char *name;
	void *probe;
	bool need;
} ks_gen_points[] = {
	{ "sched_switch", ks_gen_on_switch, true },
	{ "irq_handler_entry", ks_gen_on_irq, true },
#ifdef CONFIG_X86
	{ "local_timer_entry", ks_gen_on_vector, true },
	{ "reschedule_entry", ks_gen_on_vector, true },
	{ "call_function_entry", ks_gen_on_vector, true },
	{ "call_function_single_entry", ks_gen_on_vector, true },
	{ "irq_work_entry", ks_gen_on_vector, true },
	{ "nmi_handler", ks_gen_on_nmi, true },
	{ "x86_platform_ipi_entry", ks_gen_on_vector, false },
	{ "spurious_apic_entry", ks_gen_on_vector, false },
	{ "error_apic_entry", ks_gen_on_vector, false },
	{ "thermal_apic_entry", ks_gen_on_vector, false },
	{ "threshold_apic_entry", ks_gen_on_vector, false },
	{ "deferred_error_apic_entry", ks_gen_on_vector, false },
#endif
};

static DEFINE_MUTEX(ks_gen_lock);
static unsigned int ks_gen_users;
static struct tracepoint *ks_gen_tp[ARRAY_SIZE(ks_gen_points)];

/* Unhook the first @n points. */
static void ks_gen_unwatch(unsigned int n)
{
	while (n--) {
		if (ks_gen_tp[n])
			tracepoint_probe_unregister(ks_gen_tp[n],
						    ks_gen_points[n].probe,
						    NULL);
		ks_gen_tp[n] = NULL;
	}
}

static int ks_gen_watch(void)
{
	static bool numbered;
	unsigned int i;
	int cpu, ret;

	if (nr_cpu_ids > KS_GEN_CPUS) {
		pr_err("slowest: more than %llu CPUs: disturbed calls cannot be told apart\n",
		       KS_GEN_CPUS);
		return -EOPNOTSUPP;
	}
	if (!numbered) {	/* once: a word read before stays comparable */
		for_each_possible_cpu(cpu)
			per_cpu(ks_cpu_gen, cpu) = cpu;
		numbered = true;
	}
	for (i = 0; i < ARRAY_SIZE(ks_gen_points); i++) {
		const struct ks_gen_point *pt = &ks_gen_points[i];
		struct tracepoint *tp = ks_find_tracepoint(pt->name);

		if (!tp && !pt->need)
			continue;
		if (!tp) {
			pr_err("slowest: no %s tracepoint: disturbed calls cannot be told apart\n",
			       pt->name);
			ret = -ENOENT;
			goto undo;
		}
		ret = tracepoint_probe_register(tp, pt->probe, NULL);
		if (ret) {
			pr_err("slowest: cannot hook %s: error %d\n", pt->name,
			       ret);
			goto undo;
		}
		ks_gen_tp[i] = tp;
	}
	return 0;
undo:
	ks_gen_unwatch(i);
	return ret;
}

/**
 * ks_slowest_alloc() - room for the @k slowest calls of a node
 * @k: 1..KS_SLOWEST_MAX
 *
 * The first such table hooks the tracepoints that tell disturbed calls.
 *
 * Return: the table, empty, or an ERR_PTR() (-ENOMEM, or the tracepoints'
 * error, logged).
 */
struct ks_slowest *ks_slowest_alloc(u32 k)
{
	struct ks_slowest *sw;
	int ret = 0;

	sw = kvzalloc(struct_size(sw, call, k), GFP_KERNEL);
	if (!sw)
		return ERR_PTR(-ENOMEM);
	raw_spin_lock_init(&sw->lock);
	sw->k = k;
	mutex_lock(&ks_gen_lock);
	if (!ks_gen_users)
		ret = ks_gen_watch();
	if (!ret)
		ks_gen_users++;
	mutex_unlock(&ks_gen_lock);
	if (ret) {
		kvfree(sw);
		return ERR_PTR(ret);
	}
	return sw;
}

/**
 * ks_slowest_free() - free a node's table, nothing recording into it
 * @sw: the table, or NULL
 *
 * The last one unhooks the tracepoints (their probes may run until
 * ks_slowest_exit()).
 */
void ks_slowest_free(struct ks_slowest *sw)
{
	if (!sw)
		return;
	kvfree(sw);
	mutex_lock(&ks_gen_lock);
	if (!--ks_gen_users)
		ks_gen_unwatch(ARRAY_SIZE(ks_gen_points));
	mutex_unlock(&ks_gen_lock);
}

/**
 * ks_slowest_exit() - unload: no probe of the module runs past this
 */
void ks_slowest_exit(void)
{
	tracepoint_synchronize_unregister();
}

/*
 * The floor that only a slower call passes, and each CPU's copy of it in
 * the node's per-CPU part, which the x86-64 trampoline compares (one
 * instruction).  Under the table's lock.
 */
static notrace void ks_slow_set_floor(struct ks_node *node, u64 floor)
{
	int cpu;

	WRITE_ONCE(node->slowest->floor, floor);
	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu_ptr(ks_pcpu_x(node), cpu)->floor, floor);
}

/**
 * ks_slowest_reset() - forget every kept call and the disturbed counts
 * @node: a node with slowest
 */
void ks_slowest_reset(struct ks_node *node)
{
	struct ks_slowest *sw = node->slowest;
	unsigned long flags;

	raw_spin_lock_irqsave(&sw->lock, flags);
	sw->n = 0;
	sw->low = 0;
	ks_slow_set_floor(node, 0);
	atomic_long_set(&sw->switched, 0);
	atomic_long_set(&sw->interrupted, 0);
	raw_spin_unlock_irqrestore(&sw->lock, flags);
}

/*
 * The stack from @ip, the call's caller, outwards: the frames before it
 * are the hooks' own (kstats', the kprobe or rethook trampoline's).
 * Where the unwinder does not show @ip (the return hook took its place:
 * fprobe on arm64 7.x), @ip comes first, then what follows kstats' own
 * frames, the hook's included.
 */
static notrace void ks_slow_stack(struct ks_slow_call *c, unsigned long ip,
				  unsigned long *st)
{
	unsigned int nr = stack_trace_save(st, KS_STACK_SAVE, 0), i = 0, n = 0;

	while (i < nr && st[i] != ip)
		i++;
	if (i == nr) {
		for (i = 0; i < nr && within_module(st[i], THIS_MODULE); i++)
			;
		if (ip)
			c->stack[n++] = ip;
	}
	for (; i < nr && n < KS_STACK_MAX; i++)
		c->stack[n++] = st[i];
	c->nr = n;
}

/* Once K are kept: the fastest of them, whose time is the floor. */
static notrace void ks_slow_floor(struct ks_node *node)
{
	struct ks_slowest *sw = node->slowest;
	u32 i, low = 0;

	for (i = 1; i < sw->n; i++)
		if (sw->call[i].time < sw->call[low].time)
			low = i;
	sw->low = low;
	ks_slow_set_floor(node, sw->call[low].time);
}

/**
 * ks_slowest_keep() - keep a call slower than the node's floor
 * @node: its node, with slowest
 * @v: its time, in slot units
 * @ip: its caller, or 0
 * @by: how it went (ks_disturbed())
 */
notrace noinline void ks_slowest_keep(struct ks_node *node, u64 v,
				      unsigned long ip, enum ks_by by)
{
	struct ks_slowest *sw = node->slowest;
	struct ks_slow_scratch *s;
	struct ks_slow_call *c;
	unsigned long flags;

	local_irq_save(flags);
	s = this_cpu_ptr(&ks_slow_scratch);
	if (++s->nest != 1)	/* a call of what this one runs */
		goto out;
	if (in_nmi()) {
		if (!raw_spin_trylock(&sw->lock))
			goto out;
	} else {
		raw_spin_lock(&sw->lock);
	}
	if (sw->n < sw->k)
		c = &sw->call[sw->n++];
	else if (v > sw->call[sw->low].time)
		c = &sw->call[sw->low];
	else
		goto unlock;	/* another CPU's raised the floor meanwhile */
	c->time = v;
	c->at = local_clock();
	c->caller = ip;
	c->pid = current->pid;
	c->cpu = raw_smp_processor_id();
	c->by = by;
	memcpy(c->comm, current->comm, sizeof(c->comm));
	ks_slow_stack(c, ip, s->stack);
	if (sw->n == sw->k)
		ks_slow_floor(node);
unlock:
	raw_spin_unlock(&sw->lock);
out:
	s->nest--;
	local_irq_restore(flags);
}

NOKPROBE_SYMBOL(ks_slowest_keep);

static int ks_slow_cmp(const void *a, const void *b)
{
	const struct ks_slow_call *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? 1 : -1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/**
 * ks_slowest_copy() - the kept calls, slowest first
 * @sw: the table
 * @out: room for @sw->k calls
 *
 * Return: how many were copied.
 */
u32 ks_slowest_copy(struct ks_slowest *sw, struct ks_slow_call *out)
{
	unsigned long flags;
	u32 n;

	raw_spin_lock_irqsave(&sw->lock, flags);
	n = sw->n;
	memcpy(out, sw->call, n * sizeof(*out));
	raw_spin_unlock_irqrestore(&sw->lock, flags);
	sort(out, n, sizeof(*out), ks_slow_cmp, NULL);
	return n;
}
