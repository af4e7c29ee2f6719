// SPDX-License-Identifier: GPL-2.0
/*
 * kstats_target: functions of known behaviour, for exact tests of kstats.
 *
 * Each file under /sys/kernel/debug/kstats_target/ calls its function when
 * written to, "N [ARG]" meaning N calls with argument ARG:
 *
 *   empty    ks_target_empty()            N calls, does nothing
 *   delay    ks_target_delay(ns)          N calls, each spinning ARG ns
 *   recurse  ks_target_recurse(depth)     N top calls, each ARG deep
 *                                         (N * ARG calls in all)
 *   clone    ks_target_clone(7)           N calls of a static function
 *                                         that gcc clones (.constprop.0)
 *   sleep    ks_target_sleep(ms)          1 call sleeping ARG ms (N ignored);
 *                                         the read-only file "sleeping" says
 *                                         how many are inside its body now
 *   args     ks_target_args6(i, ...)       N calls with six arguments; the
 *                                         write fails (EIO) unless every
 *                                         result is right: arguments and
 *                                         return value pass through hooks
 *   part     ks_target_part(&v, i)         N calls taking the slow path of a
 *                                         function gcc splits: the calls
 *                                         land in ks_target_part.part.0
 *   isra     ks_target_isra(&a, &b, &c, i) N calls of a function gcc's
 *                                         IPA-SRA turns into
 *                                         ks_target_isra.isra.0 taking
 *                                         seven arguments (one on the stack)
 *                                         instead of four; both check
 *                                         every result (EIO otherwise)
 *   unwind   ks_target_unwind()            N calls; each saves a stack trace
 *                                         and fails the write (EIO) unless
 *                                         the trace reaches kt_write
 *   gen      kt_gen_000() .. kt_gen_3ff()  1,024 functions for globs: N calls
 *                                         unit, kt_gen_I called N * (I + 1)
 *                                         times (I in hex), then
 *                                         kt_gen_slow_K() (K = 0..3) N times,
 *                                         each spinning slow_ns << K
 *                                         (module parameter slow_ns,
 *                                         default 20000 ns, writable)
 *   hold     "1": hold ks_target_empty with a direct call of this module's
 *            own (kt_direct.S), as a BPF fentry program would (the write
 *            fails with the kernel's error, EBUSY if another direct call
 *            holds it); "0": let it go
 *   patch    "1": put an ftrace_ops that may change the ip on
 *            ks_target_empty, as a livepatch does (EBUSY while a direct
 *            call that cannot share holds it); "0": take it off
 *   callers  ks_target_site(ns) from three call sites: kt_site_a() N
 *            times spinning 20 us, kt_site_b() 2N times spinning 80 us,
 *            kt_site_c() 3N times spinning 320 us; then, with ARG, once
 *            from kt_site_slow() spinning ARG us
 *   irq      ks_target_irq()               N calls, each raising an irq_work on
 *                                         its own CPU and waiting for its
 *                                         interrupt: each call takes exactly
 *                                         one (the self-IPI)
 *   thread   "1": start the kthread kt_thread, whose function
 *            ks_target_thread() sleeps until it is stopped (a thread's
 *            life in one call); "0": stop it
 *   nest     ks_target_nest(ARG)           N calls, each calling
 *                                         ks_target_leaf() ARG times
 *   section  N times: ks_target_mark_a(), spin ARG ns, kmalloc(64),
 *            ks_target_mark_b(), kfree(): sections between two functions
 *            or a function and the kmem:kmalloc / kmem:kfree tracepoints
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <uapi/linux/magic.h>
#include <linux/delay.h>
#include <linux/sched/clock.h>
#include <linux/math64.h>
#include <linux/uaccess.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/kallsyms.h>
#include <linux/stacktrace.h>
#include <linux/ftrace.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include "ks_arch.h"	/* the counter kstats reads: ks_cycles() */

static struct dentry *kt_dir;
/* the same files in /proc/kstats_target, which lockdown leaves open */
static struct proc_dir_entry *kt_proc;
static int kt_sink;

/* Does nothing, but is a real call. */
static noinline void ks_target_empty(void)
{
	asm volatile("" ::: "memory");
}

/*
 * Nested calls (tests/vm/nested): ks_target_nest(k) calls ks_target_leaf()
 * @k times and does nothing else.  The leaf's "nop" keeps gcc from
 * folding it into ks_target_empty.
 */
static noinline void ks_target_leaf(void)
{
	asm volatile("nop" ::: "memory");
}

static noinline void ks_target_nest(unsigned int k)
{
	unsigned int i;

	for (i = 0; i < k; i++)
		ks_target_leaf();
}

/*
 * Shares its name with fs/proc/base.c's static function, as static
 * functions of modules and of vmlinux often do: a glob that matches both
 * traces both, the module's as kstats_target:proc_pid_cmdline_read
 * (45-glob).
 */
static noinline int proc_pid_cmdline_read(unsigned int k)
{
	asm volatile("" ::: "memory");
	return k;
}

/*
 * Busy-waits until @ns nanoseconds have passed on both clocks kstats may
 * read: local_clock() and the CPU's counter at its rate.  The call takes at
 * least @ns by construction, whichever clock times it and whatever the
 * delay-loop calibration of the (emulated) CPU.  The two can drift apart: a
 * local_clock() that is not the counter's (an unstable sched_clock follows
 * the timekeeping clocksource at each tick) ran 0.16% ahead of the TSC in
 * one TCG guest.
 */
static __always_inline void kt_spin(unsigned int ns)
{
	u64 hz = ks_cycles_hz();
	u64 cycles = hz ? div_u64((u64)ns * hz + NSEC_PER_SEC - 1, NSEC_PER_SEC) : 0;
	u64 t0 = local_clock(), c0 = ks_cycles();

	while (local_clock() - t0 < ns)
		cpu_relax();
	while (ks_cycles() - c0 < cycles)
		cpu_relax();
}

static noinline void ks_target_delay(unsigned int ns)
{
	kt_spin(ns);
}

/*
 * The function of the callers test, and its call sites: each site makes
 * its calls with its own delay, so that each caller's histogram is known.
 */
#define KT_SITE_A_NS	20000
#define KT_SITE_B_NS	80000
#define KT_SITE_C_NS	320000

static noinline void ks_target_site(unsigned int ns)
{
	kt_spin(ns);
	WRITE_ONCE(kt_sink, kt_sink + 1);	/* not ks_target_delay's twin */
}

static noinline void kt_site_a(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		ks_target_site(KT_SITE_A_NS);
	barrier();	/* no tail call: the site stays this function */
}

static noinline void kt_site_b(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < 2 * n; i++)
		ks_target_site(KT_SITE_B_NS);
	barrier();
}

static noinline void kt_site_c(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < 3 * n; i++)
		ks_target_site(KT_SITE_C_NS);
	barrier();
}

static noinline void kt_site_slow(unsigned int us)
{
	ks_target_site(us * NSEC_PER_USEC);
	barrier();
}

/* The interrupt of ks_target_irq(): its irq_work, run in hard irq. */
static int kt_irq_done;

static void kt_irq_fn(struct irq_work *work)
{
	WRITE_ONCE(kt_irq_done, 1);
}

static struct irq_work kt_irq_work = IRQ_WORK_INIT_HARD(kt_irq_fn);

/* Takes one interrupt on its CPU (the irq_work's self-IPI), and returns. */
static noinline void ks_target_irq(void)
{
	WRITE_ONCE(kt_irq_done, 0);
	preempt_disable();	/* the irq_work runs on this CPU */
	irq_work_queue(&kt_irq_work);
	while (!READ_ONCE(kt_irq_done))
		cpu_relax();
	preempt_enable();
}

/* Calls itself until @depth calls are on the stack. */
static noinline void ks_target_recurse(unsigned int depth)
{
	if (depth > 1)
		ks_target_recurse(depth - 1);
	asm volatile("" ::: "memory");	/* no tail call */
}

/* Always called with the same constant: gcc makes ks_target_clone.constprop.0 */
static noinline int ks_target_clone(int k)
{
	WRITE_ONCE(kt_sink, READ_ONCE(kt_sink) + k);
	return READ_ONCE(kt_sink);
}

/*
 * Section marks: functions that start and end a timed section.  Their
 * bodies differ, or gcc's identical code folding makes them one function.
 */
static noinline void ks_target_mark_a(void)
{
	WRITE_ONCE(kt_sink, 1);
}

static noinline void ks_target_mark_b(void)
{
	WRITE_ONCE(kt_sink, 2);
}

/* One section: mark a, spin @ns, allocate, mark b, free. */
static noinline int ks_target_section(unsigned int ns)
{
	void *p;

	ks_target_mark_a();
	ks_target_delay(ns);
	p = kmalloc(64, GFP_KERNEL);
	ks_target_mark_b();
	kfree(p);
	return p ? 0 : -ENOMEM;
}

/* Uses all six argument registers and returns a value made of each. */
static noinline u64 ks_target_args6(u64 a, u64 b, u64 c, u64 d, u64 e, u64 f)
{
	return a + (b << 8) + (c << 16) + (d << 24) + (e << 32) + (f << 40);
}

/*
 * Does the stack trace taken here reach our caller's caller, kt_write()?
 * (Whatever hooks a tracer put in between, the unwinder must walk them.)
 */
static noinline int ks_target_unwind(void)
{
	unsigned long entries[24];
	char sym[KSYM_SYMBOL_LEN];
	unsigned int n, i;

	n = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	for (i = 0; i < n; i++) {
		sprint_symbol(sym, entries[i]);
		if (!strncmp(sym, "kt_write+", 9))
			return 0;
	}
	return -EIO;
}

/*
 * Partial inlining: callers inline the test and the early return, the rest
 * becomes ks_target_part.part.0, whose arguments are whatever is live at
 * the split (here @v and @k), not this prototype.  Not noinline, or gcc
 * would not split it; the build checks the clone exists (Makefile).
 */
static int ks_target_part(const u64 *v, unsigned int k)
{
	u64 acc = 0;
	unsigned int i;

	if (likely(!k))
		return 0;
	for (i = 0; i < 8; i++) {
		acc += READ_ONCE(v[i]) * (k + i);
		acc ^= acc >> 7;
		WRITE_ONCE(kt_sink, READ_ONCE(kt_sink) + (int)acc);
	}
	if (unlikely(acc == 0x1234567))
		pr_info("part: %llu %u %llu %llu\n", acc, k, v[0], v[7]);
	return (int)(acc & 0x7fffffff);
}

/* What ks_target_part(@v, @k) returns, computed without it. */
static noinline int kt_part_expect(const u64 *v, unsigned int k)
{
	u64 acc = 0;
	unsigned int i;

	for (i = 0; i < 8; i++) {
		acc += v[i] * (k + i);
		acc ^= acc >> 7;
	}
	return (int)(acc & 0x7fffffff);
}

struct kt_pair {
	u64 x, y;
};

/*
 * IPA-SRA passes the two fields of each pair instead of its address:
 * ks_target_isra.isra.0(a.x, a.y, b.x, b.y, c.x, c.y, k), seven integer
 * arguments where the prototype has four, so the seventh is on the stack
 * (the Makefile allows the growth and checks the clone exists).
 */
static noinline u64 ks_target_isra(const struct kt_pair *a,
				   const struct kt_pair *b,
				   const struct kt_pair *c, u64 k)
{
	return a->x + (a->y << 4) + (b->x << 8) + (b->y << 12) +
	       (c->x << 16) + (c->y << 20) + (k << 24);
}

/* Calls of ks_target_sleep() inside its body now: the file "sleeping". */
static atomic_t kt_sleeping = ATOMIC_INIT(0);

/*
 * Sleeps @ms milliseconds, counted in kt_sleeping meanwhile: a witness,
 * for a test, that the call is inside the (traced) body.
 */
static noinline void ks_target_sleep(unsigned int ms)
{
	atomic_inc(&kt_sleeping);
	msleep(ms);
	atomic_dec(&kt_sleeping);
}

static unsigned int kt_slow_ns = 20000;
module_param_named(slow_ns, kt_slow_ns, uint, 0644);
MODULE_PARM_DESC(slow_ns, "kt_gen_slow_K() spins slow_ns << K ns (default 20000)");

#include "kt_gen.h"

/* N units of the family's calls (see the top of the file). */
static void kt_gen_calls(unsigned int n)
{
	unsigned int i, k, j;

	for (k = 0; k < n; k++) {
		for (i = 0; i < ARRAY_SIZE(kt_gens); i++) {
			for (j = 0; j <= i; j++)
				kt_gens[i]();
			cond_resched();
		}
		for (i = 0; i < ARRAY_SIZE(kt_slows); i++)
			kt_slows[i]();
	}
}

/* A direct call of our own on ks_target_empty (kt_direct.S). */
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
void kt_direct_stub(void);
#else
#define kt_direct_stub NULL
#endif
static struct ftrace_ops kt_hold_ops;
static bool kt_held;
static DEFINE_MUTEX(kt_hold_lock);

static int kt_hold(bool on)
{
	unsigned long addr = (unsigned long)kt_direct_stub;
	int ret = 0;

	if (!IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS))
		return -EOPNOTSUPP;	/* no direct calls in this kernel */

	mutex_lock(&kt_hold_lock);
	if (on && !kt_held) {
		memset(&kt_hold_ops, 0, sizeof(kt_hold_ops));
		ret = ftrace_set_filter_ip(&kt_hold_ops,
					   (unsigned long)ks_target_empty, 0, 0);
#ifdef KT_FTRACE_DIRECT_MULTI
		if (!ret)
			ret = register_ftrace_direct_multi(&kt_hold_ops, addr);
#else
		if (!ret)
			ret = register_ftrace_direct(&kt_hold_ops, addr);
#endif
		if (ret)
			ftrace_free_filter(&kt_hold_ops);
		kt_held = !ret;
	} else if (!on && kt_held) {
#ifdef KT_FTRACE_DIRECT_MULTI
		unregister_ftrace_direct_multi(&kt_hold_ops, addr);
		ftrace_free_filter(&kt_hold_ops);
#else
		unregister_ftrace_direct(&kt_hold_ops, addr, true);
#endif
		kt_held = false;
	}
	mutex_unlock(&kt_hold_lock);
	return ret;
}

/*
 * An ftrace_ops that may change the traced function's ip, on
 * ks_target_empty, flagged as a livepatch's is (kernel/livepatch/patch.c):
 * ftrace lets one such ops per function, and no direct call beside it
 * unless the direct call's owner can share (ops_func).  Its handler leaves
 * the ip alone: the function runs as before.
 */
static void kt_patch_func(unsigned long ip, unsigned long parent_ip,
			  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

static struct ftrace_ops kt_patch_ops = {
	.func = kt_patch_func,
	.flags = FTRACE_OPS_FL_IPMODIFY
#ifndef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
		 | FTRACE_OPS_FL_SAVE_REGS
#endif
		 ,
};

static bool kt_patched;

static int kt_patch(bool on)
{
	int ret = 0;

	mutex_lock(&kt_hold_lock);
	if (on && !kt_patched) {
		ret = ftrace_set_filter_ip(&kt_patch_ops,
					   (unsigned long)ks_target_empty, 0, 0);
		if (!ret)
			ret = register_ftrace_function(&kt_patch_ops);
		if (ret)
			ftrace_set_filter_ip(&kt_patch_ops,
					     (unsigned long)ks_target_empty, 1, 0);
		kt_patched = !ret;
	} else if (!on && kt_patched) {
		unregister_ftrace_function(&kt_patch_ops);
		ftrace_set_filter_ip(&kt_patch_ops,
				     (unsigned long)ks_target_empty, 1, 0);
		kt_patched = false;
	}
	mutex_unlock(&kt_hold_lock);
	return ret;
}

/*
 * A thread's life in one call: what kthread() runs, asleep until told to
 * stop (a thread's main loop, as worker_thread() is).
 */
static noinline int ks_target_thread(void *arg)
{
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

static struct task_struct *kt_thread;

static int kt_thread_set(bool on)
{
	struct task_struct *t;
	int ret = 0;

	mutex_lock(&kt_hold_lock);
	if (on && !kt_thread) {
		t = kthread_run(ks_target_thread, NULL, "kt_thread");
		if (IS_ERR(t))
			ret = PTR_ERR(t);
		else
			kt_thread = t;
	} else if (!on && kt_thread) {
		kthread_stop(kt_thread);
		kt_thread = NULL;
	}
	mutex_unlock(&kt_hold_lock);
	return ret;
}

enum { KT_EMPTY, KT_DELAY, KT_RECURSE, KT_CLONE, KT_SLEEP, KT_SECTION,
	KT_UNWIND, KT_ARGS, KT_PART, KT_ISRA, KT_GEN, KT_HOLD, KT_PATCH,
	KT_DUP, KT_CALLERS, KT_IRQ, KT_THREAD, KT_NEST };

/*
 * Longer than 100 lines: one case per ground-truth function the tests call
 * (KT_*), each a few lines: splitting them would hide which write runs what.
 */
static ssize_t kt_write(struct file *file, const char __user *ubuf,
			size_t count, loff_t *ppos)
{
	struct inode *inode = file_inode(file);
	unsigned long what = (unsigned long)
		(inode->i_sb->s_magic == PROC_SUPER_MAGIC ? pde_data(inode) :
							    inode->i_private);
	unsigned int n, arg = 0, i;
	char buf[32];
	int ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	ret = sscanf(buf, "%u %u", &n, &arg);
	if (ret < 1 || n > 100000000 || arg > 1000000)
		return -EINVAL;
	if ((what == KT_DELAY || what == KT_RECURSE || what == KT_SLEEP ||
	     what == KT_SECTION) && ret < 2)
		return -EINVAL;
	if (what == KT_RECURSE && (arg < 1 || arg > 64))
		return -EINVAL;
	if (what == KT_HOLD) {
		ret = kt_hold(n);
		return ret ? ret : count;
	}
	if (what == KT_PATCH) {
		ret = kt_patch(n);
		return ret ? ret : count;
	}
	if (what == KT_THREAD) {
		ret = kt_thread_set(n);
		return ret ? ret : count;
	}
	if (what == KT_CALLERS) {
		if (n > 10000)
			return -EINVAL;
		kt_site_a(n);
		kt_site_b(n);
		kt_site_c(n);
		if (ret == 2)
			kt_site_slow(arg);
		return count;
	}
	if (what == KT_GEN) {
		if (n > 100)
			return -EINVAL;
		kt_gen_calls(n);
		return count;
	}

	for (i = 0; i < n; i++) {
		switch (what) {
		case KT_EMPTY:
			ks_target_empty();
			break;
		case KT_DELAY:
			ks_target_delay(arg);
			break;
		case KT_RECURSE:
			ks_target_recurse(arg);
			break;
		case KT_CLONE:
			ks_target_clone(7);
			break;
		case KT_NEST:
			ks_target_nest(arg);
			break;
		case KT_IRQ:
			ks_target_irq();
			break;
		case KT_DUP:
			kt_sink += proc_pid_cmdline_read(i);
			break;
		case KT_SLEEP:
			ks_target_sleep(arg);
			i = n;
			break;
		case KT_SECTION:
			if (ks_target_section(arg))
				return -ENOMEM;
			break;
		case KT_UNWIND:
			if (ks_target_unwind())
				return -EIO;
			break;
		case KT_ARGS: {
			u64 k = i & 0x7f;

			if (ks_target_args6(k, k + 1, k + 2, k + 3, k + 4, k + 5) !=
			    k + ((k + 1) << 8) + ((k + 2) << 16) + ((k + 3) << 24) +
			    ((k + 4) << 32) + ((k + 5) << 40))
				return -EIO;
			break;
		}
		case KT_PART: {
			u64 v[8] = { i, i + 1, i + 2, i + 3, 5, 6, 7, 8 };

			/*
			 * Two calls taking the slow path, so that the split-off
			 * part (called twice) is not inlined back
			 */
			if (ks_target_part(v, i + 1) != kt_part_expect(v, i + 1) ||
			    ks_target_part(v, i + 2) != kt_part_expect(v, i + 2))
				return -EIO;
			break;
		}
		case KT_ISRA: {
			struct kt_pair a = { i & 15, i & 1 },
				       b = { i & 3, i & 7 },
				       c = { i & 5, (i >> 4) & 15 };
			u64 k = i & 0xff;

			if (ks_target_isra(&a, &b, &c, k) !=
			    a.x + (a.y << 4) + (b.x << 8) + (b.y << 12) +
			    (c.x << 16) + (c.y << 20) + (k << 24))
				return -EIO;
			break;
		}
		}
		/*
		 * nest: each call starts with no reschedule pending, which
		 * without full preemption sends every timed call through
		 * the trampoline's preempt_enable() (ks_direct_resched())
		 * until the task next schedules: 13 instructions more each
		 */
		if (what != KT_SLEEP && (!(i & 0xffff) || what == KT_NEST))
			cond_resched();
	}
	return count;
}

static const struct file_operations kt_fops = {
	.owner = THIS_MODULE,
	.write = kt_write,
};

static const struct proc_ops kt_pops = {
	.proc_write = kt_write,
};

static int kt_sleeping_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d\n", atomic_read(&kt_sleeping));
	return 0;
}

static int __init kt_init(void)
{
	static const char * const names[] = {
		[KT_EMPTY] = "empty", [KT_DELAY] = "delay",
		[KT_RECURSE] = "recurse", [KT_CLONE] = "clone",
		[KT_SLEEP] = "sleep", [KT_SECTION] = "section",
		[KT_UNWIND] = "unwind", [KT_ARGS] = "args",
		[KT_PART] = "part", [KT_ISRA] = "isra", [KT_GEN] = "gen",
		[KT_HOLD] = "hold", [KT_PATCH] = "patch", [KT_DUP] = "dup",
		[KT_CALLERS] = "callers", [KT_IRQ] = "irq",
		[KT_THREAD] = "thread", [KT_NEST] = "nest",
	};
	unsigned long i;

	kt_dir = debugfs_create_dir("kstats_target", NULL);
	if (IS_ERR(kt_dir))
		return PTR_ERR(kt_dir);
	kt_proc = proc_mkdir_mode("kstats_target", 0500, NULL);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		debugfs_create_file(names[i], 0200, kt_dir, (void *)i, &kt_fops);
		proc_create_data(names[i], 0200, kt_proc, &kt_pops, (void *)i);
	}
	debugfs_create_atomic_t("sleeping", 0400, kt_dir, &kt_sleeping);
	proc_create_single("sleeping", 0400, kt_proc, kt_sleeping_show);
	return 0;
}

static void __exit kt_exit(void)
{
	debugfs_remove(kt_dir);
	proc_remove(kt_proc);
	kt_hold(false);
	kt_patch(false);
	kt_thread_set(false);
}

module_init(kt_init);
module_exit(kt_exit);
MODULE_DESCRIPTION("kstats test target: functions of known behaviour");
MODULE_LICENSE("GPL");
