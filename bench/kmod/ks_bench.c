// SPDX-License-Identifier: GPL-2.0
/*
 * ks_bench: micro-benchmarks of kstats' hot path, built by bench/run.sh
 * against the same kmod/ sources as the kstats.ko under test, so that it
 * runs the module's own inline ks_record(), ks_now() and ks_want().
 *
 * Writing "N" to a file under /sys/kernel/debug/ks_bench/ makes N calls
 * of one noinline function, all within that write():
 *
 *   base     kb_base(v)      nothing: the loop and the call alone
 *   record   kb_record(v)    ks_record(node, v): the histogram update
 *   clock    kb_clock()      two ks_now() reads of the default clock, the
 *                            TSC (lfence; rdtsc) that the direct
 *                            trampoline reads too
 *   want     kb_want()       ks_want(node): the per-call decision
 *
 * The bench times each write from userspace (QEMU -icount: instructions)
 * and subtracts "base": what is left, over N, is the cost of that piece.
 * Reading "sizes" prints the sizes that make up a node's memory: the
 * per-CPU header and node structs, then per "bits" (default buckets) the
 * number of slots and the bytes a CPU that records holds (header and
 * slots; ks_slots.c).
 *
 * The node here has slots on every CPU from the start, so ks_record()
 * never claims a spare: its ks_slots_claim() is a stub.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "ks_record.h"

static struct dentry *kb_dir;
static struct ks_node kb_node;
static u64 kb_sink;

static noinline void kb_base(u64 v)
{
	WRITE_ONCE(kb_sink, v);
}

static noinline void kb_record(u64 v)
{
	ks_record(&kb_node, v);
}

static noinline void kb_clock(void)
{
	u64 t0 = ks_now(&kb_node);

	WRITE_ONCE(kb_sink, ks_now(&kb_node) - t0);
}

static noinline void kb_want(void)
{
	WRITE_ONCE(kb_sink, ks_want(&kb_node));
}

enum { KB_BASE, KB_RECORD, KB_CLOCK, KB_WANT };

static ssize_t kb_write(struct file *file, const char __user *ubuf,
			size_t count, loff_t *ppos)
{
	unsigned long what = (unsigned long)file_inode(file)->i_private;
	unsigned int n, i;
	char buf[24];

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (kstrtouint(strim(buf), 10, &n) || n > 100000000)
		return -EINVAL;

	preempt_disable();	/* as in a probe handler */
	for (i = 0; i < n; i++) {
		/* a latency near an empty function's, a few slots wide */
		u64 v = 200 + (i & 63);

		switch (what) {
		case KB_BASE:
			kb_base(v);
			break;
		case KB_RECORD:
			kb_record(v);
			break;
		case KB_CLOCK:
			kb_clock();
			break;
		case KB_WANT:
			kb_want();
			break;
		}
	}
	preempt_enable();
	return count;
}

static const struct file_operations kb_fops = {
	.owner = THIS_MODULE,
	.write = kb_write,
};

static int kb_sizes_show(struct seq_file *m, void *v)
{
	u32 bits, buckets, nslots;

	seq_printf(m, "ks_pcpu %zu ks_node %zu kstats_slot %zu possible_cpus %u\n",
		   sizeof(struct ks_pcpu), sizeof(struct ks_node),
		   sizeof(struct kstats_slot), num_possible_cpus());
	for (bits = 0; bits <= KSTATS_BITS_MAX; bits++) {
		buckets = kstats_default_buckets(bits);
		nslots = kstats_nr_slots(bits, buckets);
		seq_printf(m, "bits %u buckets %u nslots %u pcpu_bytes %zu\n",
			   bits, buckets, nslots,
			   sizeof(struct ks_pcpu) +
			   nslots * sizeof(struct kstats_slot));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kb_sizes);

/* Never called: every CPU has its slots (kb_init()). */
struct kstats_slot *ks_slots_claim(struct ks_node *node)
{
	return NULL;
}

static void kb_free(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		kfree(per_cpu_ptr(kb_node.pcpu, cpu)->slots);
	free_percpu(kb_node.pcpu);
}

static int __init kb_init(void)
{
	static const char * const names[] = {
		[KB_BASE] = "base", [KB_RECORD] = "record",
		[KB_CLOCK] = "clock", [KB_WANT] = "want",
	};
	unsigned long i;
	int cpu;

	kb_node.cmd.bits = KSTATS_BITS_DEFAULT;
	kb_node.cmd.buckets = kstats_default_buckets(kb_node.cmd.bits);
	kb_node.cmd.sample = 1;
	kb_node.cmd.pid = -1;
	kb_node.cmd.tgid = -1;
	kb_node.cmd.clock = KS_CLOCK_LOCAL;
	/* cycles of the TSC, the default wherever the TSC is stable */
	kb_node.use_counter = true;
	kb_node.nslots = kstats_nr_slots(kb_node.cmd.bits, kb_node.cmd.buckets);
	kb_node.active = true;
	kb_node.pcpu = alloc_percpu(struct ks_pcpu);
	if (!kb_node.pcpu)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct ks_pcpu *p = per_cpu_ptr(kb_node.pcpu, cpu);

		p->min = U64_MAX;
		p->slots = kcalloc(kb_node.nslots, sizeof(*p->slots),
				   GFP_KERNEL);
		if (!p->slots) {
			kb_free();
			return -ENOMEM;
		}
	}

	kb_dir = debugfs_create_dir("ks_bench", NULL);
	if (IS_ERR(kb_dir)) {
		kb_free();
		return PTR_ERR(kb_dir);
	}
	for (i = 0; i < ARRAY_SIZE(names); i++)
		debugfs_create_file(names[i], 0200, kb_dir, (void *)i, &kb_fops);
	debugfs_create_file("sizes", 0400, kb_dir, NULL, &kb_sizes_fops);
	return 0;
}

static void __exit kb_exit(void)
{
	debugfs_remove(kb_dir);
	kb_free();
}

module_init(kb_init);
module_exit(kb_exit);
MODULE_DESCRIPTION("kstats benchmark: cost of the hot path's pieces");
MODULE_LICENSE("GPL");
