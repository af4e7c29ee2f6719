// SPDX-License-Identifier: GPL-2.0
/*
 * kstats_api_sample: a module that annotates its own code with the kstats
 * annotation API (include/linux/kstats.h), for exact tests.  Files under
 * /sys/kernel/debug/kstats_api_sample/, each acting when written to:
 *
 *   new        "NAME BITS"  kstats_new(NAME, BITS) (one node at a time)
 *   delete     anything     clear the node pointer, kstats_delete() it
 *   section    "N NS"       N sections, each spinning NS ns (kas_spin())
 *   record     "N V"        N times KSTATS_RECORD(node, V)
 *   record_irq "N V"        the same on every online CPU, in hard interrupt
 *                           context (an IPI; local interrupts off on this one)
 *   hammer     "1" | "0"    start | stop a thread and a 10 ms hrtimer (hard
 *                           interrupt) that record and time sections into
 *                           the node, the thread sleeping 100-200 us every
 *                           16 loops; stopping logs the thread's loops
 *                           ("hammer: N loops")
 *   empty      "N"          N calls of a function whose body is an empty
 *                           section pair (make bench: what the pair costs)
 *   bare       "N"          N calls of the same function without the pair
 *
 * Recorders read the node through kas_ks; delete clears it first, as the
 * header's lifetime rule asks, so new and delete may run while hammering.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/sched/clock.h>
#include <linux/math64.h>
#include <linux/delay.h>
#include <linux/smp.h>
#include <linux/kstats.h>
#include "ks_arch.h"	/* the counter a section reads: ks_cycles() */

static struct kstats *kas_ks;		/* what every annotation reads */
static DEFINE_MUTEX(kas_lock);		/* new, delete, hammer */
static struct dentry *kas_dir;
static struct task_struct *kas_thread;
static struct hrtimer kas_timer;
static bool kas_timing;
#define KAS_TIMER_MS	10

/*
 * Spins until @ns ns have passed on both clocks a section may read:
 * local_clock() and the CPU's counter at its rate (they can drift apart
 * where sched_clock is not the counter's).
 */
static noinline void kas_spin(unsigned int ns)
{
	u64 hz = ks_cycles_hz();
	u64 cycles = hz ? div_u64((u64)ns * hz + NSEC_PER_SEC - 1, NSEC_PER_SEC) : 0;
	u64 t0 = local_clock(), c0 = ks_cycles();

	while (local_clock() - t0 < ns)
		cpu_relax();
	while (ks_cycles() - c0 < cycles)
		cpu_relax();
}

/* The annotated section: @ns of spinning, timed into kas_ks. */
static noinline void kas_section(unsigned int ns)
{
	KSTATS_SECTION_START(kas_ks);
	kas_spin(ns);
	KSTATS_SECTION_END(kas_ks);
}

/* An empty section pair, and the same function without it (the bench). */
static noinline void kas_empty(void)
{
	KSTATS_SECTION_START(kas_ks);
	barrier();
	KSTATS_SECTION_END(kas_ks);
}

static noinline void kas_bare(void)
{
	barrier();
}

struct kas_rec {
	unsigned int n;
	u64 v;
};

static void kas_record_n(void *arg)
{
	const struct kas_rec *r = arg;
	unsigned int i;

	for (i = 0; i < r->n; i++)
		KSTATS_RECORD(kas_ks, r->v);
}

static int kas_hammer_fn(void *arg)
{
	unsigned long loops = 0;

	while (!kthread_should_stop()) {
		kas_section(1000);
		KSTATS_RECORD(kas_ks, loops);
		if (!(++loops & 15))
			usleep_range(100, 200);
	}
	pr_info("hammer: %lu loops\n", loops);
	return 0;
}

/*
 * No spinning here: in hard interrupt context local_clock() may stop at the
 * end of the current tick where sched_clock is unstable (TCG), for ever.
 */
static enum hrtimer_restart kas_timer_fn(struct hrtimer *t)
{
	kas_section(0);
	KSTATS_RECORD(kas_ks, 1);
	hrtimer_forward_now(t, ms_to_ktime(KAS_TIMER_MS));
	return HRTIMER_RESTART;
}

/* Stop hammering; caller holds kas_lock. */
static void kas_hammer_stop(void)
{
	if (kas_timing) {
		hrtimer_cancel(&kas_timer);
		kas_timing = false;
	}
	if (kas_thread) {
		kthread_stop(kas_thread);
		kas_thread = NULL;
	}
}

/* Delete the node; caller holds kas_lock. */
static void kas_delete(void)
{
	struct kstats *old = kas_ks;

	WRITE_ONCE(kas_ks, NULL);	/* no new call reaches it */
	kstats_delete(old);		/* waits for those in progress */
}

enum { KAS_NEW, KAS_DELETE, KAS_SECTION, KAS_RECORD, KAS_RECORD_IRQ,
	KAS_HAMMER, KAS_EMPTY, KAS_BARE };

static ssize_t kas_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	unsigned long what = (unsigned long)file_inode(file)->i_private;
	char buf[80], name[64];
	struct kas_rec rec;
	unsigned int n = 0, arg = 0, i;
	int ret = 0;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	switch (what) {
	case KAS_NEW:
		if (sscanf(buf, "%63s %u", name, &arg) != 2 || arg > 255)
			return -EINVAL;
		mutex_lock(&kas_lock);
		if (kas_ks)
			ret = -EEXIST;
		else
			WRITE_ONCE(kas_ks, kstats_new(name, arg));
		if (!ret && !kas_ks)
			ret = -EINVAL;
		mutex_unlock(&kas_lock);
		break;
	case KAS_DELETE:
		mutex_lock(&kas_lock);
		kas_delete();
		mutex_unlock(&kas_lock);
		break;
	case KAS_SECTION:
		if (sscanf(buf, "%u %u", &n, &arg) != 2 || n > 10000000 ||
		    arg > 10000000)
			return -EINVAL;
		for (i = 0; i < n; i++) {
			kas_section(arg);
			if (!(i & 0xff))
				cond_resched();
		}
		break;
	case KAS_RECORD:
	case KAS_RECORD_IRQ:
		if (sscanf(buf, "%u %llu", &rec.n, &rec.v) != 2 ||
		    rec.n > 10000000)
			return -EINVAL;
		if (what == KAS_RECORD)
			kas_record_n(&rec);
		else
			on_each_cpu(kas_record_n, &rec, 1);
		break;
	case KAS_EMPTY:
	case KAS_BARE:
		if (kstrtouint(strim(buf), 10, &n) || n > 100000000)
			return -EINVAL;
		preempt_disable();	/* the loop alone: no resched test */
		for (i = 0; i < n; i++) {
			if (what == KAS_EMPTY)
				kas_empty();
			else
				kas_bare();
		}
		preempt_enable();
		break;
	case KAS_HAMMER:
		if (kstrtouint(strim(buf), 10, &arg) || arg > 1)
			return -EINVAL;
		mutex_lock(&kas_lock);
		if (arg && !kas_thread) {
			kas_thread = kthread_run(kas_hammer_fn, NULL,
						 "kas_hammer");
			if (IS_ERR(kas_thread)) {
				ret = PTR_ERR(kas_thread);
				kas_thread = NULL;
			} else {
				hrtimer_start(&kas_timer,
					      ms_to_ktime(KAS_TIMER_MS),
					      HRTIMER_MODE_REL);
				kas_timing = true;
			}
		} else if (!arg) {
			kas_hammer_stop();
		}
		mutex_unlock(&kas_lock);
		break;
	}
	return ret ? ret : count;
}

static const struct file_operations kas_fops = {
	.owner = THIS_MODULE,
	.write = kas_write,
};

static int __init kas_init(void)
{
	static const char * const names[] = {
		[KAS_NEW] = "new", [KAS_DELETE] = "delete",
		[KAS_SECTION] = "section", [KAS_RECORD] = "record",
		[KAS_RECORD_IRQ] = "record_irq", [KAS_HAMMER] = "hammer",
		[KAS_EMPTY] = "empty", [KAS_BARE] = "bare",
	};
	unsigned long i;

#ifdef KAS_HRTIMER_SETUP	/* 6.13 and later: Kbuild */
	hrtimer_setup(&kas_timer, kas_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL);
#else
	hrtimer_init(&kas_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	kas_timer.function = kas_timer_fn;
#endif
	kas_dir = debugfs_create_dir("kstats_api_sample", NULL);
	if (IS_ERR(kas_dir))
		return PTR_ERR(kas_dir);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		debugfs_create_file(names[i], 0200, kas_dir, (void *)i,
				    &kas_fops);
	return 0;
}

static void __exit kas_exit(void)
{
	debugfs_remove(kas_dir);
	mutex_lock(&kas_lock);
	kas_hammer_stop();
	kas_delete();
	mutex_unlock(&kas_lock);
}

module_init(kas_init);
module_exit(kas_exit);
MODULE_DESCRIPTION("kstats annotation API sample: sections of known length and count");
MODULE_LICENSE("GPL");
