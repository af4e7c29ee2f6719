// SPDX-License-Identifier: GPL-2.0
/*
 * kstats: measure how long chosen kernel functions take, in place.
 *
 *   echo "trace find_vma bits 3" > /sys/kernel/debug/kstats/_control
 *   cat /sys/kernel/debug/kstats/find_vma
 *   echo "remove find_vma" > /sys/kernel/debug/kstats/_control
 *
 * Each traced function gets a node: a per-CPU log-linear histogram
 * (include/kstats/hist.h) fed by entry/exit hooks (a backend), and a
 * debugfs file that prints a summary header and the original kstats rows.
 * The command grammar is documented in ks_cmd.c; the output in
 * docs/format.md.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/mutex.h>
#include <linux/smp.h>
#include <linux/cpu.h>
#include <linux/kprobes.h>
#include <linux/delay.h>
#include <linux/workqueue.h>
#include <linux/security.h>
#include <linux/error-injection.h>
#include <asm/tsc.h>
#include "ks_compat.h"
#include "ks_core.h"

#define KS_PCPU_MAX	PCPU_MIN_UNIT_SIZE	/* bytes of one CPU's slots */
static_assert(KS_CMD_LONGEST <= KS_CMD_MAX);	/* ks_cmd.h, contract.h */

static DEFINE_MUTEX(ks_lock);		/* ks_nodes and every node's state */
static LIST_HEAD(ks_nodes);
static unsigned int ks_nr_nodes;
static struct dentry *ks_dir;

/* Find node @name; caller holds ks_lock. */
static struct ks_node *ks_find(const char *name)
{
	struct ks_node *node;

	list_for_each_entry(node, &ks_nodes, list)
		if (!strcmp(node->cmd.name, name))
			return node;
	return NULL;
}

/* Zero one CPU's part of @node. */
static void ks_zero_pcpu(struct ks_node *node, struct ks_pcpu *p)
{
	memset(p->slots, 0, node->nslots * sizeof(p->slots[0]));
	p->min = U64_MAX;
	p->max = 0;
	p->skip = 0;
	p->clamped = 0;
}

/* Zero this CPU's part of @arg's node; runs with interrupts off. */
static void ks_reset_cpu(void *arg)
{
	struct ks_node *node = arg;

	ks_zero_pcpu(node, this_cpu_ptr(node->pcpu));
}

/*
 * Zero the histogram.  Each CPU clears its own slots from an IPI, with
 * interrupts off, so no update on that CPU is half done while it clears.
 */
static void ks_reset(struct ks_node *node)
{
	int cpu;

	cpus_read_lock();
	on_each_cpu(ks_reset_cpu, node, 1);
	/* CPUs that are offline cannot take the IPI: they record nothing */
	for_each_possible_cpu(cpu)
		if (!cpu_online(cpu))
			ks_zero_pcpu(node, per_cpu_ptr(node->pcpu, cpu));
	cpus_read_unlock();
}

/* Free a detached node and its GAP- node, files already removed. */
static void ks_node_free(struct ks_node *node)
{
	if (!node)
		return;
	ks_node_free(node->gap);
	free_percpu(node->pcpu);
	free_cpumask_var(node->cpus);
	kfree(node->syms);
	kfree(node);
}

/*
 * Nodes detached while calls were still running a traced body (the direct
 * backend: a call that sleeps there keeps its node on its trampoline
 * frame, and records into it when it returns).  Nobody else sees them;
 * ks_reap() frees each once its last call has left.
 */
static LIST_HEAD(ks_dying);
static DEFINE_MUTEX(ks_dying_lock);
static void ks_reap(struct work_struct *work);
static DECLARE_DELAYED_WORK(ks_reaper, ks_reap);
#define KS_REAP_MS	100

/* Free the dying nodes no call uses any more; are there others left? */
static bool ks_reap_once(void)
{
	struct ks_node *node, *tmp;
	LIST_HEAD(done);
	bool left;

	mutex_lock(&ks_dying_lock);
	list_for_each_entry_safe(node, tmp, &ks_dying, list)
		if (node->backend->busy(node) <= 0)
			list_move_tail(&node->list, &done);
	left = !list_empty(&ks_dying);
	mutex_unlock(&ks_dying_lock);
	if (list_empty(&done))
		return left;
	/* the calls that just left may still be in the trampoline's tail */
	synchronize_rcu_tasks();
	list_for_each_entry_safe(node, tmp, &done, list)
		ks_node_free(node);
	return left;
}

static void ks_reap(struct work_struct *work)
{
	if (ks_reap_once())
		schedule_delayed_work(&ks_reaper, msecs_to_jiffies(KS_REAP_MS));
}

/*
 * Remove a node's files and hooks, attached or not, registered or
 * half-built, and free it: now, or once the calls still inside the traced
 * body have left (never waiting for them here: they may sleep for ever).
 */
static void ks_node_destroy(struct ks_node *node)
{
	if (!node)
		return;
	debugfs_remove(node->dentry);	/* waits for readers in progress */
	node->dentry = NULL;
	if (node->gap) {
		debugfs_remove(node->gap->dentry);
		node->gap->dentry = NULL;
	}
	if (node->priv) {
		node->backend->detach(node);
		/* handlers run with preemption off: let running ones finish */
		synchronize_rcu();
	}
	if (node->pcpu && node->backend && node->backend->busy &&
	    node->backend->busy(node) > 0) {
		mutex_lock(&ks_dying_lock);
		list_add_tail(&node->list, &ks_dying);
		mutex_unlock(&ks_dying_lock);
		schedule_delayed_work(&ks_reaper, msecs_to_jiffies(KS_REAP_MS));
		return;
	}
	ks_node_free(node);
}

/* Detach, unlink and free @node; caller holds ks_lock. */
static void ks_node_remove(struct ks_node *node)
{
	list_del(&node->list);
	ks_nr_nodes--;
	ks_node_destroy(node);
}

/* ---- output ---- */

static const char *ks_clock_name(const struct ks_node *node)
{
	return node->cmd.clock == KS_CLOCK_TSC ? KS_CLOCK_NAME_TSC :
						 KS_CLOCK_NAME_LOCAL;
}

static const char *ks_unit(const struct ks_node *node)
{
	return node->cmd.clock == KS_CLOCK_TSC ? KS_UNIT_CYCLES : KS_UNIT_NS;
}

/* Print the rows of one CPU (or of the merge) for non-empty slots. */
static void ks_show_rows(struct seq_file *m, const struct kstats_slot *sl,
			 u32 n, const char *what, int cpu)
{
	u64 total = kstats_total(sl, n), seen = 0, frac;
	u32 s;

	for (s = 0; s < n; s++) {
		if (!sl[s].count)
			continue;
		seen += sl[s].count;
		frac = div64_u64(seen * 1000000ULL, total);
		seq_printf(m, KS_ROW_SLOT " %-3u  %-4s %-3d  count %8llu  avg %8llu  p %llu.%06llu  n %8llu\n",
			   s, what, cpu, sl[s].count, kstats_slot_mean(&sl[s]),
			   frac / 1000000, frac % 1000000, seen);
	}
}

/*
 * A reset's IPI may land between the updates of one record (ks_record()):
 * a slot may then hold a sum without its count, or a count without its
 * sum.  Clamp each slot's sum so that its mean lies in the slot: every
 * figure derived from it stays within the slot's precision.
 */
static void ks_repair_slots(struct kstats_slot *sl, u32 n, u32 bits,
			    u32 buckets)
{
	u64 lo, hi, mean;
	u32 s;

	for (s = 0; s < n; s++) {
		if (!sl[s].count) {
			sl[s].sum = 0;
			continue;
		}
		lo = kstats_slot_lo(s, bits);
		hi = kstats_slot_hi(s, bits, buckets);
		mean = div64_u64(sl[s].sum, sl[s].count);
		if (mean < lo)
			sl[s].sum = lo * sl[s].count;
		else if (mean > hi)
			sl[s].sum = hi * sl[s].count;
	}
}

/* Clamp @v (an extreme, racily read) into slot @s. */
static u64 ks_clamp_to_slot(u64 v, u32 s, u32 bits, u32 buckets)
{
	return clamp_t(u64, v, kstats_slot_lo(s, bits),
		       kstats_slot_hi(s, bits, buckets));
}

static int ks_node_show(struct seq_file *m, void *v)
{
	struct ks_node *node = m->private;
	u64 pct[KSTATS_NR_PCT], samples, sum = 0, min = U64_MAX, max = 0;
	u64 clamped = 0;
	u32 n = node->nslots, s, i;
	struct kstats_slot *all, *copy;
	int cpu;

	/*
	 * One copy of every CPU's slots, so the CPU rows and their merge (the
	 * CPUS rows and the header) agree even while the node records.  No
	 * ks_lock: removal waits for this read to end (debugfs), and the
	 * slots are read racily on purpose, like any per-CPU counter.
	 */
	copy = kvcalloc((size_t)nr_cpu_ids * n, sizeof(*copy), GFP_KERNEL);
	all = kvcalloc(n, sizeof(*all), GFP_KERNEL);
	if (!copy || !all) {
		kvfree(copy);
		kvfree(all);
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu) {
		struct ks_pcpu *p = per_cpu_ptr(node->pcpu, cpu);

		memcpy(copy + (size_t)cpu * n, p->slots, n * sizeof(*copy));
		ks_repair_slots(copy + (size_t)cpu * n, n, node->cmd.bits,
				node->cmd.buckets);
		kstats_merge(all, copy + (size_t)cpu * n, n);
		min = min(min, READ_ONCE(p->min));
		max = max(max, READ_ONCE(p->max));
		clamped += READ_ONCE(p->clamped);
	}
	samples = kstats_total(all, n);
	for (s = 0; s < n; s++)
		sum += all[s].sum;
	/* min and max lie in the first and last slots with samples */
	for (s = 0; samples && !all[s].count; s++)
		;
	if (samples)
		min = ks_clamp_to_slot(min, s, node->cmd.bits, node->cmd.buckets);
	for (s = n; samples && !all[s - 1].count; s--)
		;
	if (samples)
		max = ks_clamp_to_slot(max, s - 1, node->cmd.bits,
				       node->cmd.buckets);
	kstats_percentiles(all, n, node->cmd.bits, pct);

	/* the words of include/kstats/contract.h, see docs/format.md */
	seq_printf(m, "# " KS_LINE_HEAD " %s " KS_KEY_ATTACH "=%s:",
		   node->cmd.name, node->backend->name);
	for (i = 0; i < node->nsyms; i++)
		seq_printf(m, "%s%s", i ? "," : "", node->syms[i]);
	seq_printf(m, " " KS_KEY_CLOCK "=%s " KS_KEY_UNIT "=%s " KS_KEY_BITS "=%u "
		   KS_KEY_BUCKETS "=%u " KS_KEY_SAMPLE "=%u " KS_KEY_MAXACTIVE "=%u "
		   KS_KEY_STATE "=%s",
		   ks_clock_name(node), ks_unit(node), node->cmd.bits,
		   node->cmd.buckets, node->cmd.sample, node->cmd.maxactive,
		   node->active ? KS_STATE_ACTIVE : KS_STATE_STOPPED);
	if (node->cmd.pid >= 0)
		seq_printf(m, " " KS_KEY_PID "=%d", node->cmd.pid);
	if (node->cmd.tgid >= 0)
		seq_printf(m, " " KS_KEY_TGID "=%d", node->cmd.tgid);
	if (node->cmd.comm[0])
		seq_printf(m, " " KS_KEY_COMM "=%s", node->cmd.comm);
	if (node->cmd.cpus[0])
		seq_printf(m, " " KS_KEY_CPUS "=%s", node->cmd.cpus);
	seq_putc(m, '\n');
	seq_printf(m, "# " KS_LINE_SAMPLES
		   " %llu missed %llu min %llu avg %llu max %llu floor %llu\n",
		   samples, node->backend->missed(node),
		   samples ? min : 0, samples ? div64_u64(sum, samples) : 0,
		   samples ? max : 0, node->floor);
	if (node->cmd.sample > 1)
		seq_printf(m, "# " KS_LINE_SAMPLED " 1 in %u: estimated calls %llu\n",
			   node->cmd.sample, samples * node->cmd.sample);
	if (clamped)
		seq_printf(m, "# " KS_LINE_CLAMPED
			   " %llu: ended on a CPU whose clock read earlier than the start's, recorded as 0\n",
			   clamped);
	seq_puts(m, "# " KS_LINE_PCT);
	for (i = 0; i < KSTATS_NR_PCT; i++)
		seq_printf(m, " %s %llu", kstats_pct_name[i], pct[i]);
	seq_printf(m, " precision_ppm %u estimate slot-mean\n",
		   kstats_precision_ppm(node->cmd.bits));

	for_each_possible_cpu(cpu)
		ks_show_rows(m, copy + (size_t)cpu * n, n, KS_ROW_CPU, cpu);
	ks_show_rows(m, all, n, KS_ROW_CPUS, num_possible_cpus());
	kvfree(copy);
	kvfree(all);
	return 0;
}

#define KS_ROW_BYTES	96	/* one "slot ... n ..." row, with room */
#define KS_HEADER_BYTES	1024

/*
 * Size the output buffer for what the node holds now, so seq_file formats
 * it once instead of retrying with doubled buffers.
 */
static int ks_node_open(struct inode *inode, struct file *file)
{
	struct ks_node *node = inode->i_private;
	size_t rows = 0;
	u32 s;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct ks_pcpu *p = per_cpu_ptr(node->pcpu, cpu);

		for (s = 0; s < node->nslots; s++)
			rows += !!READ_ONCE(p->slots[s].count);
	}
	rows += min_t(size_t, rows, node->nslots);	/* the CPUS rows */
	return single_open_size(file, ks_node_show, node,
				KS_HEADER_BYTES + rows * KS_ROW_BYTES);
}

/*
 * Copy one command from userspace: one whole command per write, from
 * offset 0, at most KS_CMD_MAX bytes of text (ks_cmd_text()), returned
 * NUL-terminated with trailing blanks cut.  @who names the file in the
 * log.  NULL for a write of 0 bytes: nothing to do.
 */
static char *ks_get_cmd(const char __user *ubuf, size_t count, loff_t *ppos,
			const char *who)
{
	const char *why;
	char *buf;
	long bad;

	if (*ppos) {
		pr_err("%s: write at offset %lld: a command starts at offset 0\n",
		       who, *ppos);
		return ERR_PTR(-EINVAL);
	}
	if (!count)
		return NULL;
	if (count > KS_CMD_MAX) {
		pr_err("%s: command longer than %d bytes\n", who, KS_CMD_MAX);
		return ERR_PTR(-EINVAL);
	}
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return buf;
	bad = ks_cmd_text(buf, count, &why);
	if (bad >= 0) {
		pr_err("%s: %s 0x%02x at offset %ld of a %zu-byte command\n",
		       who, why, (unsigned char)buf[bad], bad, count);
		kfree(buf);
		return ERR_PTR(-EINVAL);
	}
	strim(buf);
	return buf;
}

/* start, stop or reset @node (and its GAP- node). */
static void ks_node_act(struct ks_node *node, enum ks_verb verb)
{
	if (node->gap)
		ks_node_act(node->gap, verb);
	switch (verb) {
	case KS_VERB_START:
		WRITE_ONCE(node->active, true);
		break;
	case KS_VERB_STOP:
		WRITE_ONCE(node->active, false);
		break;
	case KS_VERB_RESET:
		ks_reset(node);
		break;
	default:
		break;
	}
	if (node->backend->acted)
		node->backend->acted(node);
}

/* Writing "start", "stop" or "reset" to a node file acts on that node. */
static ssize_t ks_node_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct ks_node *node = file_inode(file)->i_private;
	enum ks_verb verb;
	char *buf, *word;

	buf = ks_get_cmd(ubuf, count, ppos, node->cmd.name);
	if (IS_ERR_OR_NULL(buf))
		return PTR_ERR_OR_ZERO(buf);
	word = skip_spaces(buf);
	if (!strcmp(word, "start")) {
		verb = KS_VERB_START;
	} else if (!strcmp(word, "stop")) {
		verb = KS_VERB_STOP;
	} else if (!strcmp(word, "reset")) {
		verb = KS_VERB_RESET;
	} else {
		pr_err("%s: unknown node command '%s' (start, stop, reset)\n",
		       node->cmd.name, word);
		kfree(buf);
		return -EINVAL;
	}
	kfree(buf);
	/*
	 * No ks_lock: removal holds it while it waits for this write to end.
	 * Acting needs no lock: flags are single writes, reset is per CPU.
	 */
	ks_node_act(node, verb);
	return count;
}

static const struct file_operations ks_node_fops = {
	.owner = THIS_MODULE,
	.open = ks_node_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = ks_node_write,
};

/* ---- control ---- */

/* The default backend: the cheapest the running kernel has. */
static const struct ks_backend *ks_pick_backend(enum ks_via via)
{
	switch (via) {
	case KS_VIA_KRETPROBE:
		return &ks_kretprobe_backend;
	case KS_VIA_SECTION:
		return &ks_section_backend;
	case KS_VIA_DIRECT:
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
 * ns per TSC cycle, fixed point, when the TSC is the kernel's stable clock
 * (then local_clock() is the TSC scaled the same way); 0 otherwise.
 */
static u32 ks_tsc_mult(void)
{
	if (!boot_cpu_has(X86_FEATURE_TSC) || check_tsc_unstable() || !tsc_khz)
		return 0;
	return div_u64((u64)NSEC_PER_MSEC << KS_TSC_SHIFT, tsc_khz);
}

/*
 * Allocate a detached node for @cmd with its histogram and filters.
 * Steps of "trace" that can fail without an allocation failing are
 * fault-injection points (fail_function: tests/debug/faults.sh), noinline so
 * that an injected failure reaches every caller.
 */
static noinline struct ks_node *ks_node_alloc(const struct ks_cmd *cmd)
{
	struct ks_node *node;
	size_t pcpu_size;
	int ret, cpu;

	node = kzalloc(sizeof(*node), GFP_KERNEL);
	if (!node)
		return ERR_PTR(-ENOMEM);
	node->cmd = *cmd;
	/*
	 * Calls in flight (nested, recursive, sleeping) each hold an instance;
	 * the kernels' defaults (2 per CPU for fprobe) drop recursion early.
	 */
	if (!node->cmd.maxactive)
		node->cmd.maxactive = min_t(u32, KS_MAXACTIVE_MAX,
					    max_t(u32, KS_MAXACTIVE_MIN_DEFAULT,
						  16 * num_possible_cpus()));
	node->nslots = kstats_nr_slots(cmd->bits, cmd->buckets);
	if (cmd->clock == KS_CLOCK_LOCAL)
		node->tsc_mult = ks_tsc_mult();
	node->use_tsc = cmd->clock == KS_CLOCK_TSC || node->tsc_mult;
	node->filtered = cmd->pid >= 0 || cmd->tgid >= 0 || cmd->comm[0] ||
			 cmd->cpus[0] || cmd->sample > 1;
	node->backend = ks_pick_backend(cmd->via);
	if (IS_ERR(node->backend)) {
		pr_err("%s: backend not available in this kernel\n", cmd->name);
		ret = PTR_ERR(node->backend);
		node->backend = NULL;
		goto err;
	}

	pcpu_size = struct_size_t(struct ks_pcpu, slots, node->nslots);
	if (pcpu_size > KS_PCPU_MAX) {
		pr_err("%s: bits %u buckets %u need %zu bytes per CPU, at most %lu\n",
		       cmd->name, cmd->bits, cmd->buckets, pcpu_size,
		       (unsigned long)KS_PCPU_MAX);
		ret = -EINVAL;
		goto err;
	}
	ret = -ENOMEM;
	node->pcpu = __alloc_percpu(pcpu_size, __alignof__(struct ks_pcpu));
	if (!node->pcpu)
		goto err;
	for_each_possible_cpu(cpu)
		ks_zero_pcpu(node, per_cpu_ptr(node->pcpu, cpu));
	if (!zalloc_cpumask_var(&node->cpus, GFP_KERNEL))
		goto err;
	if (cmd->cpus[0]) {
		ret = cpulist_parse(cmd->cpus, node->cpus);
		if (ret) {	/* -ERANGE beyond the CPUs: a bad value too */
			pr_err("%s: bad cpu list '%s'\n", cmd->name, cmd->cpus);
			ret = -EINVAL;
			goto err;
		}
	}
	return node;

err:
	ks_node_destroy(node);
	return ERR_PTR(ret);
}
ALLOW_ERROR_INJECTION(ks_node_alloc, ERRNO);

/* Give @node the symbols @first and, unless NULL, @second. */
static int ks_set_syms(struct ks_node *node, const char *first,
		       const char *second)
{
	node->nsyms = second ? 2 : 1;
	node->syms = kcalloc(node->nsyms, sizeof(*node->syms), GFP_KERNEL);
	if (!node->syms) {
		node->nsyms = 0;
		return -ENOMEM;
	}
	strscpy(node->syms[0], first, KS_NAME_MAX);
	if (second)
		strscpy(node->syms[1], second, KS_NAME_MAX);
	return 0;
}

/* What the tool reports for an empty function: calibration target. */
static noinline void ks_calib_target(void)
{
	asm volatile("" ::: "memory");
}

#define KS_CALIB_CALLS	1000

/* Floor per backend and clock, 0 until measured (under ks_lock). */
static u64 ks_floors[KS_VIA_SECTION][2];

/*
 * The floor of @backend with @clock: the p50 it reports for an empty
 * function of this module, measured once on first use.
 */
static u64 ks_floor(const struct ks_node *model)
{
	struct ks_cmd cmd = model->cmd;
	u64 pct[KSTATS_NR_PCT], *floor;
	struct kstats_slot *all;
	struct ks_node *node;
	int i, cpu;

	if (cmd.via >= KS_VIA_SECTION)
		return 0;	/* sections are not calibrated */
	floor = &ks_floors[cmd.via][cmd.clock];
	if (*floor)
		return *floor;
	strscpy(cmd.name, "ks_calib_target", sizeof(cmd.name));
	cmd.bits = 5;
	cmd.buckets = kstats_default_buckets(cmd.bits);
	cmd.sample = 1;
	cmd.pid = -1;
	cmd.tgid = -1;
	cmd.comm[0] = '\0';
	cmd.cpus[0] = '\0';
	cmd.gap = false;
	node = ks_node_alloc(&cmd);
	if (IS_ERR(node))
		return 0;
	all = kvcalloc(node->nslots, sizeof(*all), GFP_KERNEL);
	if (!all || ks_set_syms(node, cmd.name, NULL))
		goto out;
	node->active = true;
	if (node->backend->attach(node)) {
		pr_warn("cannot calibrate %s: floor unknown\n",
			node->backend->name);
		goto out;
	}
	for (i = 0; i < KS_CALIB_CALLS; i++)
		ks_calib_target();
	for_each_possible_cpu(cpu)
		kstats_merge(all, per_cpu_ptr(node->pcpu, cpu)->slots,
			     node->nslots);
	kstats_percentiles(all, node->nslots, cmd.bits, pct);
	*floor = pct[KSTATS_P50];
out:
	kvfree(all);
	ks_node_destroy(node);
	return *floor;
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

/* Make @node's GAP-NAME node: same layout and filters, its own slots. */
static noinline int ks_gap_alloc(struct ks_node *node)
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

/*
 * The direct backend runs a traced body one frame deeper: it takes only
 * functions whose BTF prototype shows every argument in registers, and
 * compiler clones known to keep that prototype (.constprop).  Asked for,
 * it refuses any other symbol, with the reason; by default it is used
 * when every symbol qualifies, and fprobe (or kretprobe) otherwise.
 * Settles node->cmd.via.
 */
static int ks_choose_backend(struct ks_node *node)
{
	bool asked = node->cmd.via == KS_VIA_DIRECT;
	int res[KS_SYMS_MAX], ret;
	unsigned int i;

	if (asked || node->cmd.via == KS_VIA_DEFAULT) {
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
	if (node->backend == &ks_direct_backend) {
		node->cmd.via = KS_VIA_DIRECT;
		node->cmd.maxactive = 0;	/* no pool: state on the stack */
	} else if (node->backend == &ks_kretprobe_backend) {
		node->cmd.via = KS_VIA_KRETPROBE;
	} else if (node->backend != &ks_section_backend) {
		node->cmd.via = KS_VIA_FPROBE;
		if (!KS_FPROBE_HAS_POOL)
			node->cmd.maxactive = 0;	/* shadow stack, no pool */
	}
	return 0;
}

/* May a new node be called @name?  Caller holds ks_lock. */
static int ks_node_room(const char *name)
{
	if (ks_find(name)) {
		pr_err("%s: already traced\n", name);
		return -EEXIST;
	}
	if (ks_nr_nodes >= KS_NODES_MAX) {
		pr_err("%s: too many nodes (at most %d)\n", name, KS_NODES_MAX);
		return -ENOSPC;
	}
	return 0;
}

/*
 * Give an attached @node (and its GAP- node) its debugfs file and list it;
 * caller holds ks_lock, and destroys @node on failure.
 */
static noinline int ks_node_publish(struct ks_node *node)
{
	int ret;

	node->dentry = debugfs_create_file(node->cmd.name, 0600, ks_dir, node,
					   &ks_node_fops);
	if (IS_ERR(node->dentry)) {
		ret = PTR_ERR(node->dentry);
		node->dentry = NULL;
		pr_err("%s: cannot create debugfs file: error %d\n",
		       node->cmd.name, ret);
		return ret;
	}
	if (node->gap) {
		node->gap->dentry = debugfs_create_file(node->gap->cmd.name,
							0600, ks_dir,
							node->gap,
							&ks_node_fops);
		if (IS_ERR(node->gap->dentry)) {
			ret = PTR_ERR(node->gap->dentry);
			node->gap->dentry = NULL;
			pr_err("%s: cannot create debugfs file: error %d\n",
			       node->gap->cmd.name, ret);
			return ret;
		}
	}
	list_add_tail(&node->list, &ks_nodes);
	ks_nr_nodes++;
	return 0;
}
ALLOW_ERROR_INJECTION(ks_node_publish, ERRNO);

/* Build, attach and publish a node for "trace"; caller holds ks_lock. */
static int ks_trace(const struct ks_cmd *cmd)
{
	struct ks_node *node;
	int ret;

	ret = ks_node_room(cmd->name);
	if (ret)
		return ret;
	node = ks_node_alloc(cmd);
	if (IS_ERR(node))
		return PTR_ERR(node);

	if (cmd->via == KS_VIA_SECTION)
		ret = ks_set_syms(node, cmd->start, cmd->end);
	else
		ret = ks_resolve_syms(node);
	if (ret)
		goto err;
	ret = ks_choose_backend(node);
	if (ret)
		goto err;
	if (cmd->gap) {
		ret = ks_gap_alloc(node);
		if (ret)
			goto err;
	}

	node->active = true;
	ret = node->backend->attach(node);
	if (ret == -ENOENT) {
		pr_err("%s: no such function%s; it may have been inlined or renamed\n",
		       cmd->name, cmd->clones ?
		       " (nor a .constprop/.isra/.part clone)" : "");
		goto err;
	} else if (ret) {
		if (cmd->via == KS_VIA_SECTION)
			pr_err("%s: attaching a section from %s to %s failed: error %d\n",
			       cmd->name, cmd->start, cmd->end, ret);
		else
			pr_err("%s: attaching %s to %s%s failed: error %d\n",
			       cmd->name, node->backend->name, node->syms[0],
			       node->nsyms > 1 ? " and its clones" : "", ret);
		goto err;
	}
	node->floor = ks_floor(node);
	ret = ks_node_publish(node);
	if (ret)
		goto err;
	return 0;

err:
	ks_node_destroy(node);
	return ret;
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
	node = ks_node_alloc(cmd);
	if (IS_ERR(node)) {
		ret = PTR_ERR(node);
		goto out;
	}
	node->backend = backend;
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

/**
 * ks_node_delete() - unpublish, stop and free a node
 * @node: made by ks_node_create()
 *
 * Takes ks_lock.
 */
void ks_node_delete(struct ks_node *node)
{
	mutex_lock(&ks_lock);
	ks_node_remove(node);
	mutex_unlock(&ks_lock);
}

/* Run one parsed command; caller holds ks_lock. */
static int ks_run(const struct ks_cmd *cmd)
{
	struct ks_node *node, *tmp;

	if (cmd->verb == KS_VERB_TRACE)
		return ks_trace(cmd);
	if (cmd->all) {
		list_for_each_entry_safe(node, tmp, &ks_nodes, list) {
			if (cmd->verb == KS_VERB_REMOVE) {
				/* their makers alone remove some nodes */
				if (!node->backend->owner_removes)
					ks_node_remove(node);
			} else {
				ks_node_act(node, cmd->verb);
			}
		}
		return 0;
	}
	node = ks_find(cmd->name);
	if (!node) {
		pr_err("%s: no such node\n", cmd->name);
		return -ENOENT;
	}
	if (cmd->verb == KS_VERB_REMOVE && node->backend->owner_removes) {
		pr_err("%s: %s\n", cmd->name, node->backend->owner_removes);
		return -EBUSY;
	}
	if (cmd->verb == KS_VERB_REMOVE)
		ks_node_remove(node);
	else
		ks_node_act(node, cmd->verb);
	return 0;
}

/* Commands: see the grammar in ks_cmd.c. */
static ssize_t ks_control_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct ks_cmd *cmd;
	const char *why = "";
	char *buf, *line;
	int ret;

	buf = ks_get_cmd(ubuf, count, ppos, "_control");
	if (IS_ERR_OR_NULL(buf))
		return PTR_ERR_OR_ZERO(buf);
	cmd = kmalloc(sizeof(*cmd), GFP_KERNEL);
	if (!cmd) {
		kfree(buf);
		return -ENOMEM;
	}
	line = kstrdup(buf, GFP_KERNEL);	/* parsing splits buf */
	if (!line) {
		ret = -ENOMEM;
		goto out;
	}
	ret = ks_cmd_parse(buf, cmd, &why);
	if (ret) {
		pr_err("bad command '%s': %s\n", line, why);
		goto out;
	}
	/* read vmlinux BTF, the first time, without holding up others */
	if (cmd->verb == KS_VERB_TRACE &&
	    (cmd->via == KS_VIA_DEFAULT || cmd->via == KS_VIA_DIRECT))
		ks_btf_prepare();
	mutex_lock(&ks_lock);
	ret = ks_run(cmd);
	mutex_unlock(&ks_lock);
out:
	kfree(line);
	kfree(cmd);
	kfree(buf);
	return ret ? ret : count;
}

/* Does @node hook a function of @mod? */
static bool ks_node_in_module(struct ks_node *node, struct module *mod)
{
	size_t len = strlen(mod->name);
	unsigned int i;

	for (i = 0; i < node->nsyms; i++) {
		const char *sym = node->syms[i];
		const char *colon = strchr(sym, ':');

		if (colon && (colon - sym != len || strncmp(sym, mod->name, len)))
			continue;	/* another module's, by its name */
		if (ks_module_has(mod, colon ? colon + 1 : sym))
			return true;
	}
	return false;
}

/*
 * A module that goes takes its functions with it, but an ftrace_ops keeps
 * their addresses in its filter: once another module is loaded there, a
 * direct call would be patched into its text (ftrace warns) and an fprobe
 * would time it.  Before the module is freed (this runs before ftrace
 * forgets its functions), detach every node that hooks one of them by
 * address; the node stays, stopped, with its samples, until removed.
 */
static int ks_module_going(struct notifier_block *nb, unsigned long state,
			   void *data)
{
	struct module *mod = data;
	struct ks_node *node;

	if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&ks_lock);
	list_for_each_entry(node, &ks_nodes, list) {
		if (!node->backend->by_address || !node->priv ||
		    !ks_node_in_module(node, mod))
			continue;
		pr_info("%s: module %s unloaded: detached and stopped, samples kept\n",
			node->cmd.name, mod->name);
		ks_node_act(node, KS_VERB_STOP);
		node->backend->detach(node);
		/* handlers run with preemption off: let running ones finish */
		synchronize_rcu();
	}
	mutex_unlock(&ks_lock);
	return NOTIFY_DONE;
}

static struct notifier_block ks_module_nb = {
	.notifier_call = ks_module_going,
};

/* Reading _control lists the nodes, one per line. */
static int ks_control_show(struct seq_file *m, void *v)
{
	struct ks_node *node;
	int cpu;

	seq_puts(m, "# name backend state samples missed\n");
	mutex_lock(&ks_lock);
	list_for_each_entry(node, &ks_nodes, list) {
		u64 samples = 0;

		for_each_possible_cpu(cpu)
			samples += kstats_total(per_cpu_ptr(node->pcpu, cpu)->slots,
						node->nslots);
		seq_printf(m, "%s %s %s %llu %llu\n", node->cmd.name,
			   node->backend->name,
			   node->active ? "active" : "stopped", samples,
			   node->backend->missed(node));
	}
	mutex_unlock(&ks_lock);
	return 0;
}

static int ks_control_open(struct inode *inode, struct file *file)
{
	return single_open(file, ks_control_show, NULL);
}

static const struct file_operations ks_control_fops = {
	.owner = THIS_MODULE,
	.open = ks_control_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = ks_control_write,
};

static int __init kstats_init(void)
{
	struct dentry *d;
	int ret;

	/*
	 * A locked-down kernel (Secure Boot, lockdown=) lets nobody open a
	 * writable debugfs file: _control could never be used.
	 */
	ret = security_locked_down(LOCKDOWN_DEBUGFS);
	if (ret) {
		pr_err("the kernel is locked down (/sys/kernel/security/lockdown): debugfs refuses kstats' files, not loading\n");
		return ret;
	}
	ks_dir = debugfs_create_dir("kstats", NULL);
	if (IS_ERR(ks_dir)) {
		pr_err("cannot create debugfs directory: error %ld\n",
		       PTR_ERR(ks_dir));
		return PTR_ERR(ks_dir);
	}
	ret = register_module_notifier(&ks_module_nb);
	if (ret) {
		debugfs_remove(ks_dir);
		return ret;
	}
	d = debugfs_create_file("_control", 0600, ks_dir, NULL,
				&ks_control_fops);
	if (IS_ERR(d)) {
		unregister_module_notifier(&ks_module_nb);
		debugfs_remove(ks_dir);
		return PTR_ERR(d);
	}
	return 0;
}

/* Say, in one line, which calls unloading waits for. */
static void ks_say_dying(void)
{
	struct ks_node *node, *first = NULL;
	long calls = 0;

	mutex_lock(&ks_dying_lock);
	list_for_each_entry(node, &ks_dying, list) {
		first = first ?: node;
		calls += node->backend->busy(node);
	}
	if (first)
		pr_info("unloading waits for %ld call%s still inside %s%s to return\n",
			calls, calls == 1 ? "" : "s", first->cmd.name,
			list_is_singular(&ks_dying) ? "" :
			" and other traced functions");
	mutex_unlock(&ks_dying_lock);
}

static void __exit kstats_exit(void)
{
	struct ks_node *node, *tmp;

	unregister_module_notifier(&ks_module_nb);
	mutex_lock(&ks_lock);
	list_for_each_entry_safe(node, tmp, &ks_nodes, list)
		ks_node_remove(node);
	mutex_unlock(&ks_lock);
	debugfs_remove(ks_dir);
	/* no call may still return into this module's text when it goes */
	cancel_delayed_work_sync(&ks_reaper);
	if (ks_reap_once()) {
		ks_say_dying();
		while (ks_reap_once())
			msleep(KS_REAP_MS);
	}
	ks_btf_release();
}

module_init(kstats_init);
module_exit(kstats_exit);
MODULE_DESCRIPTION("kstats: latency histograms of kernel functions");
MODULE_LICENSE("GPL");
