// SPDX-License-Identifier: GPL-2.0
/*
 * kstats direct backend: its calls on tasks' stacks.  A call timed through
 * ks_tramp.S stays on its task's stack until the body returns, and the
 * module cannot go before: a task that ends inside a body (the exit scan)
 * and a task asleep inside one (the wakeup on unload) are found by the
 * call's mark on their stack, with its node beside it (ks_direct.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/kthread.h>
#include <linux/kprobes.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#ifdef CONFIG_ARM64
#include <asm/stack_pointer.h>
#endif
#include "ks_types.h"
#include "ks_syms.h"
#include "ks_direct.h"

/*
 * The exit scan.  A task that ends inside a traced body (do_exit() from a
 * syscall, a fatal signal, a kthread's function) never returns through the
 * trampoline: its timed calls would stay in inflight for ever, and their
 * nodes, and the module, could never go.  As it ends (sched_process_exit),
 * its own stack shows each such call by its mark, with the node beside it
 * (ks_direct.h): those calls leave inflight.  Each body's return clears
 * its mark, but copies of the mark's value may lie elsewhere on the stack
 * (the saved registers of an interrupt that came just as a body returned,
 * a stack trace an unwinder saved): what lies beside such a copy is taken
 * for a node only if it is one, read without trusting it
 * (copy_from_kernel_nofault()) and holding its own scrambled address
 * (ks_node_magic()).
 */
#ifdef CONFIG_X86_64
static __always_inline bool ks_is_mark(unsigned long w)
{
	unsigned long t = (unsigned long)ks_direct_tramp;

	return w == t + (long)ks_direct_back_fast_off ||
	       w == t + (long)ks_direct_back_fast_x_off ||
	       w == t + (long)ks_direct_back_common_off;
}
#else
static __always_inline bool ks_is_mark(unsigned long w)
{
	return w == (unsigned long)ks_direct_tramp;
}
#endif

/* Is @node, read from a stack, a live node? */
static notrace bool ks_is_node(struct ks_node *node)
{
	unsigned long magic;

	if (!node || !IS_ALIGNED((unsigned long)node, sizeof(long)) ||
	    copy_from_kernel_nofault(&magic, &node->magic, sizeof(magic)))
		return false;
	return magic == ks_node_magic(node);
}

static notrace void ks_direct_task_exit(void *data, struct task_struct *p
#ifdef KS_TP_EXIT_GROUP_DEAD
					, bool group_dead
#endif
					)
{
	unsigned long lo = (unsigned long)task_stack_page(current);
	unsigned long hi = lo + THREAD_SIZE, sp = current_stack_pointer;
	unsigned long a, from, to;

	if (p != current || sp < lo || sp >= hi)
		return;
	/* a call's mark and node both lie on the stack, above sp */
	from = ALIGN(sp, sizeof(long)) + max(0, -KS_FRAME_NODE);
	to = hi - sizeof(long) - max(0, KS_FRAME_NODE);
	for (a = from; a <= to; a += sizeof(long)) {
		struct ks_node *node;

		if (!ks_is_mark(READ_ONCE_NOCHECK(*(unsigned long *)a)))
			continue;
		node = (struct ks_node *)
			READ_ONCE_NOCHECK(*(unsigned long *)(a + KS_FRAME_NODE));
		if (ks_is_node(node))
			this_cpu_dec(node->pcpu->inflight);
	}
}

NOKPROBE_SYMBOL(ks_direct_task_exit);

#define KS_SCAN_CHUNK	512	/* bytes of another task's stack read at once */
#define KS_FRAME_SPAN	(KS_FRAME_NODE < 0 ? -KS_FRAME_NODE : KS_FRAME_NODE)

/*
 * Does @t's stack show a call inside a body?  Its node, or NULL.  Another
 * task's stack may go at any time (this module cannot hold it:
 * put_task_stack() is not exported): read only through
 * copy_from_kernel_nofault(), and the whole of it, stale parts too.  A
 * wrong answer costs a spurious wakeup.
 */
static struct ks_node *ks_task_in_body(struct task_struct *t)
{
	unsigned long buf[KS_SCAN_CHUNK / sizeof(long)];
	unsigned long stack = (unsigned long)READ_ONCE(t->stack), off;
	unsigned int i, n = ARRAY_SIZE(buf);

	if (!stack)
		return NULL;
	/* chunks overlap by a frame's span: a mark and its node share one */
	for (off = 0; ; off = min(off + KS_SCAN_CHUNK - KS_FRAME_SPAN,
				  THREAD_SIZE - KS_SCAN_CHUNK)) {
		if (copy_from_kernel_nofault(buf, (void *)(stack + off),
					     sizeof(buf)))
			return NULL;
		for (i = 0; i < n; i++) {
			long j = i + KS_FRAME_NODE / (long)sizeof(long);

			if (ks_is_mark(buf[i]) && j >= 0 && j < n &&
			    ks_is_node((struct ks_node *)buf[j]))
				return (struct ks_node *)buf[j];
		}
		if (off + KS_SCAN_CHUNK >= THREAD_SIZE)
			return NULL;
	}
}

#define KS_SAY_MAX	5	/* tasks named in the log at a time */

/* Name in the log @t, asleep inside @node's body (read without trust). */
static void ks_say_sleeper(struct task_struct *t, struct ks_node *node)
{
	char name[KS_NAME_MAX];

	if (copy_from_kernel_nofault(name, node->cmd.name, sizeof(name)))
		strscpy(name, "?", sizeof(name));
	name[sizeof(name) - 1] = '\0';
	pr_info("unloading waits for %s (pid %d), asleep inside %s%s\n",
		t->comm, task_pid_nr(t), name, t->flags & PF_KTHREAD ?
		" (a kernel thread: it returns when the thread next does or ends)" :
		"");
}

/**
 * ks_direct_wake() - wake every task asleep inside a body
 *
 * A call returns only once its task wakes, which for an idle worker in
 * schedule() may be never: unloading wakes them (the kernel's sleeps
 * allow spurious wakeups; livepatch moves its sleepers on the same way).
 * Once awake, a task that sleeps again does so outside the trampoline:
 * its node is unhooked.  A call that lasts as long as its thread (a
 * thread's main loop) still holds the module.
 */
void ks_direct_wake(bool say)
{
	struct task_struct *g, *t;
	unsigned int said = 0;
	struct ks_node *node;

	rcu_read_lock();
	for_each_process_thread(g, t) {
		if (t == current || task_is_running(t))
			continue;
		node = ks_task_in_body(t);
		if (!node)
			continue;
		if (say && said++ < KS_SAY_MAX)
			ks_say_sleeper(t, node);
		wake_up_process(t);
	}
	rcu_read_unlock();
}

/*
 * The functions the kernel's threads run (kthread_func()): such a call
 * lasts as long as its thread, so that the direct backend would keep the
 * module for ever from the first thread started after the attach.  The
 * threads are looked at again once a jiffy at most (a glob asks for each
 * of its functions), a name looked up only for a function not seen before.
 */
#define KS_THREAD_FNS	128
static unsigned long ks_thread_fn_at[KS_THREAD_FNS];
static char ks_thread_fn[KS_THREAD_FNS][KS_NAME_MAX];
static const char *ks_thread_fns[KS_THREAD_FNS];
static unsigned int ks_nr_thread_fns;
static unsigned long ks_thread_fns_seen;
static DEFINE_MUTEX(ks_thread_fns_lock);

/* Add @fn to the functions threads run; caller holds ks_thread_fns_lock. */
static void ks_thread_fn_add(unsigned long fn)
{
	unsigned int i, n = ks_nr_thread_fns;

	for (i = 0; i < n; i++)
		if (ks_thread_fn_at[i] == fn)
			return;
	if (n == KS_THREAD_FNS)
		return;
	ks_thread_fn_at[n] = fn;
	/* as ks_name_in() compares: no module ("name [mod]"), no clone */
	snprintf(ks_thread_fn[n], KS_NAME_MAX, "%ps", (void *)fn);
	ks_thread_fn[n][strcspn(ks_thread_fn[n], " .")] = '\0';
	ks_thread_fns[n] = ks_thread_fn[n];
	ks_nr_thread_fns = n + 1;
}

/**
 * ks_direct_thread_fn() - is @name what a kernel thread runs?
 * @name: a symbol, its module's name first or not, a clone or not
 *
 * A function once seen run by a thread stays refused after the thread
 * ends: the kernel starts such threads again (workers, hotplug's).
 */
bool ks_direct_thread_fn(const char *name)
{
	struct task_struct *g, *t;
	unsigned long fn;
	bool ret;

	mutex_lock(&ks_thread_fns_lock);
	if (time_after(jiffies, ks_thread_fns_seen) || !ks_nr_thread_fns) {
		rcu_read_lock();
		for_each_process_thread(g, t) {
			fn = (t->flags & PF_KTHREAD) ?
			     (unsigned long)kthread_func(t) : 0;
			if (fn)
				ks_thread_fn_add(fn);
		}
		rcu_read_unlock();
		ks_thread_fns_seen = jiffies;
	}
	ret = ks_name_in(name, ks_thread_fns, ks_nr_thread_fns);
	mutex_unlock(&ks_thread_fns_lock);
	return ret;
}

static struct tracepoint *ks_exit_tp;

/**
 * ks_direct_watch_exits() - run the exit scan as each task ends
 *
 * Return: 0 or a negative errno (logged).
 */
int ks_direct_watch_exits(void)
{
	struct tracepoint *tp = ks_find_tracepoint("sched_process_exit");
	int ret;

	if (!tp) {
		pr_err("no sched_process_exit tracepoint: the direct backend could not tell a task that ends inside a traced function\n");
		return -ENOENT;
	}
	ret = tracepoint_probe_register(tp, (void *)ks_direct_task_exit, NULL);
	if (ret) {
		pr_err("cannot hook sched_process_exit: error %d\n", ret);
		return ret;
	}
	ks_exit_tp = tp;
	return 0;
}

/**
 * ks_direct_unwatch_exits() - stop the exit scan (no direct node left)
 */
void ks_direct_unwatch_exits(void)
{
	if (!ks_exit_tp)
		return;
	tracepoint_probe_unregister(ks_exit_tp, (void *)ks_direct_task_exit,
				    NULL);
	tracepoint_synchronize_unregister();
	ks_exit_tp = NULL;
}
