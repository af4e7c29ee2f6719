// SPDX-License-Identifier: GPL-2.0
/*
 * kstats files: a node's file (its text, a # header then the original
 * kstats rows, and the verbs written to it) and the _control listing.
 * The only writer of the words of include/kstats/contract.h; the format
 * is in docs/format.md.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/ctype.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>
#include "ks_slots.h"
#include "ks_slowest.h"
#include "ks_backend.h"
#include "ks_node.h"
#include "ks_show.h"

static_assert(KS_CMD_LONGEST <= KS_CMD_MAX);	/* kstats/cmd.h, contract.h */

/* The clock the node reads now: the counter or local_clock(). */
static const char *ks_clock_name(const struct ks_node *node)
{
	return READ_ONCE(node->use_counter) ? KS_COUNTER_NAME : KS_CLOCK_NAME_LOCAL;
}

/* The unit of the text's figures: cycles only when asked for. */
static const char *ks_unit(const struct ks_node *node)
{
	return node->cmd.clock == KS_CLOCK_TSC ? KS_UNIT_CYCLES : KS_UNIT_NS;
}

/* @v, in the unit of the slots, in the text's unit. */
static u64 ks_shown(const struct ks_node *node, u64 v)
{
	if (!node->show_mult)
		return v;
	return mul_u64_u32_shr(v, node->show_mult, KS_MULT_SHIFT);
}

/*
 * Slots of cycles as slots of ns (the text's unit): each slot of cycles
 * goes whole to the slot of ns its middle falls in, the same for every
 * CPU and every read, so that CPU rows add up to the CPUS rows and a later
 * read minus an earlier one is what was recorded between them.  A row of
 * ns may gather two slots of cycles; its sum is clamped into it by
 * ks_repair_slots().  @map, @tmp: @n entries of room.
 */
static void ks_rebin_map(const struct ks_node *node, u32 *map, u32 n)
{
	u32 bits = node->cmd.bits, buckets = node->cmd.buckets, s;
	u64 lo, hi;

	for (s = 0; s < n; s++) {
		lo = kstats_slot_lo(s, bits);
		hi = kstats_slot_hi(s, bits, buckets);
		if (hi < U64_MAX / 2)
			lo += (hi - lo) / 2;
		map[s] = kstats_slot(ks_shown(node, lo), bits, buckets);
	}
}

static void ks_rebin(const struct ks_node *node, struct kstats_slot *sl,
		     struct kstats_slot *tmp, const u32 *map, u32 n)
{
	u32 s;

	memset(tmp, 0, n * sizeof(*tmp));
	for (s = 0; s < n; s++) {
		if (!sl[s].count)
			continue;
		tmp[map[s]].count += sl[s].count;
		tmp[map[s]].sum += ks_shown(node, sl[s].sum);
	}
	memcpy(sl, tmp, n * sizeof(*tmp));
}

/*
 * Print the rows of one histogram for non-empty slots: @lead, then
 * "slot S", @what and @who (CPU c, CPUS n, CALLER ID), then the figures.
 */
static void ks_show_hist(struct seq_file *m, const struct kstats_slot *sl,
			 u32 n, const char *lead, const char *what,
			 const char *who)
{
	u64 total = kstats_total(sl, n), seen = 0, frac;
	u32 s;

	for (s = 0; s < n; s++) {
		if (!sl[s].count)
			continue;
		seen += sl[s].count;
		frac = div64_u64(seen * 1000000ULL, total);
		seq_printf(m, "%s" KS_ROW_SLOT " %-3u  %-4s %-3s  " KS_ROW_COUNT " %8llu  "
			   KS_ROW_AVG " %8llu  " KS_ROW_P " %llu.%06llu  " KS_ROW_N " %8llu\n",
			   lead, s, what, who, sl[s].count, kstats_slot_mean(&sl[s]),
			   frac / 1000000, frac % 1000000, seen);
	}
}

/* The rows of one CPU (or of the merge). */
static void ks_show_rows(struct seq_file *m, const struct kstats_slot *sl,
			 u32 n, const char *what, int cpu)
{
	char who[12];

	snprintf(who, sizeof(who), "%d", cpu);
	ks_show_hist(m, sl, n, "", what, who);
}

/*
 * A reset's IPI may land between the updates of one record (ks_record()),
 * or a task move split them over two CPUs: a slot may then hold a sum
 * without its count, or a count without its sum.  Clamp each slot's sum
 * so that its mean lies in the slot: every figure derived from it stays
 * within the slot's precision.
 */
static void ks_repair_slots(struct kstats_slot *sl, u32 n, u32 bits,
			    u32 buckets)
{
	u64 mean, in;
	u32 s;

	for (s = 0; s < n; s++) {
		if (!sl[s].count) {
			sl[s].sum = 0;
			continue;
		}
		mean = div64_u64(sl[s].sum, sl[s].count);
		in = kstats_slot_clamp(mean, s, bits, buckets);
		if (in != mean)
			sl[s].sum = in * sl[s].count;
	}
}

/*
 * The call sites of a node with "callers N", and the disturbed calls of
 * one with "slowest K": each one's histogram, merged over the CPUs when
 * the node's are copied (@hists: N + 1 histograms, then the disturbed's),
 * in the text's unit; a "# caller" line each with its count, p50, p99 and
 * longest call, then, after the node's rows, their rows as "# slot" lines
 * (readers of format 1 skip them).  @map, @tmp: room for a histogram.
 */
static void ks_callers_unit(const struct ks_node *node,
			    struct kstats_slot *hists, u32 *map,
			    struct kstats_slot *tmp)
{
	u32 n = node->nslots, nh = node->nhist - 1, h;

	if (node->show_mult)
		ks_rebin_map(node, map, n);
	for (h = 0; h < nh; h++) {
		if (node->show_mult)
			ks_rebin(node, hists + (size_t)h * n, tmp, map, n);
		ks_repair_slots(hists + (size_t)h * n, n, node->cmd.bits,
				node->cmd.buckets);
	}
}

/* The end of a "# caller" or "# slow" line: the site @ip as %pS, or "-". */
static void ks_show_site(struct seq_file *m, unsigned long ip)
{
	if (ip)
		seq_printf(m, "%pS\n", (void *)ip);
	else
		seq_puts(m, "-\n");
}

/* Caller @h's ID in the text: its index, or KS_CALLER_OTHER for the rest. */
static void ks_caller_id(const struct ks_node *node, u32 h, char *id,
			 size_t size)
{
	if (h == node->callers->n)
		strscpy(id, KS_CALLER_OTHER, size);
	else
		snprintf(id, size, "%u", h);
}

static void ks_callers_lines(struct seq_file *m, const struct ks_node *node,
			     const struct kstats_slot *hists)
{
	const struct ks_callers *c = node->callers;
	u32 n = node->nslots, h, s;
	u64 pct[KSTATS_NR_PCT], count, max;
	unsigned long ip;
	char id[16];

	for (h = 0; h <= c->n; h++) {
		const struct kstats_slot *sl = hists + (size_t)h * n;

		ip = h < c->n ? READ_ONCE(c->ip[h]) : 0;
		if (h < c->n && !ip)
			continue;	/* not seen yet */
		count = kstats_total(sl, n);
		kstats_percentiles(sl, n, node->cmd.bits, pct);
		max = ks_shown(node, READ_ONCE(c->max[h]));
		for (s = n; count && !sl[s - 1].count; s--)
			;
		max = count ? kstats_slot_clamp(max, s - 1, node->cmd.bits,
						node->cmd.buckets) : 0;
		ks_caller_id(node, h, id, sizeof(id));
		seq_printf(m, "# " KS_LINE_CALLER " %s " KS_ROW_COUNT " %llu %s %llu %s %llu "
			   KS_SAMPLES_MAX " %llu " KS_CALLER_SITE " ",
			   id, count, kstats_pct_name[KSTATS_P50],
			   count ? pct[KSTATS_P50] : 0, kstats_pct_name[KSTATS_P99],
			   count ? pct[KSTATS_P99] : 0, max);
		ks_show_site(m, ip);
	}
}

static void ks_callers_rows(struct seq_file *m, const struct ks_node *node,
			    const struct kstats_slot *hists)
{
	const struct ks_callers *c = node->callers;
	u32 n = node->nslots, h;
	char id[16];

	for (h = 0; h <= c->n; h++) {
		if (h < c->n && !READ_ONCE(c->ip[h]))
			continue;
		ks_caller_id(node, h, id, sizeof(id));
		ks_show_hist(m, hists + (size_t)h * n, n, "# ", KS_ROW_CALLER, id);
	}
}

/*
 * The slowest calls of a node with "slowest K", slowest first: a
 * "# disturbed" line, then each call's "# slow" line and its stack's
 * "# stack" lines (docs/format.md); readers of format 1 skip them.
 */
static void ks_slowest_lines(struct seq_file *m, const struct ks_node *node)
{
	struct ks_slowest *sw = node->slowest;
	static const char * const by[] = {
		[KS_BY_RAN] = KS_BY_NONE, [KS_BY_SWITCHED] = KS_BY_SWITCH,
		[KS_BY_INTERRUPTED] = KS_BY_IRQ,
	};
	struct ks_slow_call *c;
	long sws = atomic_long_read(&sw->switched);
	long irqs = atomic_long_read(&sw->interrupted);
	char comm[TASK_COMM_LEN];
	u32 n, i, f, j;

	seq_printf(m, "# " KS_LINE_DISTURBED " %ld " KS_DISTURBED_SWITCH " %ld "
		   KS_DISTURBED_IRQ " %ld\n", sws + irqs, sws, irqs);
	c = kvmalloc_array(sw->k, sizeof(*c), GFP_KERNEL);
	if (!c)
		return;
	n = ks_slowest_copy(sw, c);
	for (i = 0; i < n; i++) {
		for (j = 0; j < sizeof(comm) - 1 && c[i].comm[j]; j++)
			comm[j] = isgraph(c[i].comm[j]) ? c[i].comm[j] : '?';
		comm[j] = 0;
		seq_printf(m, "# " KS_LINE_SLOW " %u " KS_SLOW_TIME " %llu " KS_SLOW_CPU
			   " %u " KS_SLOW_PID " %d " KS_SLOW_AT " %llu " KS_SLOW_BY
			   " %s " KS_SLOW_COMM " %s " KS_SLOW_CALLER " ",
			   i, ks_shown(node, c[i].time), c[i].cpu, c[i].pid,
			   c[i].at, by[c[i].by], comm[0] ? comm : "?");
		ks_show_site(m, c[i].caller);
		for (f = 0; f < c[i].nr; f++)
			seq_printf(m, "# " KS_LINE_STACK " %u %pS\n", i,
				   (void *)c[i].stack[f]);
	}
	kvfree(c);
}

/* One read of a node: a copy of every CPU's slots and what is made of them. */
struct ks_read {
	struct kstats_slot *copy;	/* every CPU's slots, nr_cpu_ids x n */
	struct kstats_slot *all;	/* their merge; then @tmp, n more */
	struct kstats_slot *tmp;
	struct kstats_slot *hists;	/* the call sites' and the rest's, merged */
	u32 *map;			/* ks_rebin_map() */
	u64 pct[KSTATS_NR_PCT];
	u64 samples, sum, min, max, clamped, unslotted, nested;
};

static void ks_read_free(struct ks_read *r)
{
	kvfree(r->copy);
	kvfree(r->all);
	kvfree(r->map);
	kvfree(r->hists);
}

/*
 * One copy of every CPU's slots, so the CPU rows and their merge (the
 * CPUS rows and the header) agree even while the node records.  No
 * ks_lock: removal waits for this read to end (ks_files.c), and the
 * slots are read racily on purpose, like any per-CPU counter.
 */
static int ks_read_node(struct ks_node *node, struct ks_read *r)
{
	u32 n = node->nslots, s;
	int cpu;

	memset(r, 0, sizeof(*r));
	r->min = U64_MAX;
	r->copy = kvcalloc((size_t)nr_cpu_ids * n, sizeof(*r->copy), GFP_KERNEL);
	r->all = kvcalloc(2 * n, sizeof(*r->all), GFP_KERNEL);
	r->map = kvcalloc(n, sizeof(*r->map), GFP_KERNEL);
	if (node->nhist > 1)
		r->hists = kvcalloc((size_t)(node->nhist - 1) * n, sizeof(*r->hists),
				    GFP_KERNEL);
	if (!r->copy || !r->all || !r->map || (node->nhist > 1 && !r->hists)) {
		ks_read_free(r);
		return -ENOMEM;
	}
	r->tmp = r->all + n;
	r->unslotted = atomic_long_read(&node->unslotted);
	for_each_possible_cpu(cpu) {
		struct ks_pcpu *p = per_cpu_ptr(node->pcpu, cpu);
		struct kstats_slot *sl = READ_ONCE(p->slots);

		if (sl)	/* else left zero: this CPU never recorded */
			memcpy(r->copy + (size_t)cpu * n, sl, n * sizeof(*r->copy));
		if (sl && r->hists)	/* its call sites' next to it */
			kstats_merge(r->hists, sl + n, (node->nhist - 1) * n);
		kstats_merge(r->all, r->copy + (size_t)cpu * n, n);
		r->min = min(r->min, READ_ONCE(p->min));
		r->max = max(r->max, READ_ONCE(p->max));
		r->clamped += READ_ONCE(p->clamped);
		r->nested += READ_ONCE(p->nested);
	}
	/*
	 * Merged before any repair: a record whose count and sum landed on
	 * two CPUs (a move between the two) is whole in the merge.
	 */
	ks_repair_slots(r->all, n, node->cmd.bits, node->cmd.buckets);
	for_each_possible_cpu(cpu)
		ks_repair_slots(r->copy + (size_t)cpu * n, n, node->cmd.bits,
				node->cmd.buckets);
	if (node->show_mult) {
		/* cycles to ns, every CPU alike, then merged again */
		ks_rebin_map(node, r->map, n);
		memset(r->all, 0, n * sizeof(*r->all));
		for_each_possible_cpu(cpu) {
			ks_rebin(node, r->copy + (size_t)cpu * n, r->tmp, r->map, n);
			ks_repair_slots(r->copy + (size_t)cpu * n, n,
					node->cmd.bits, node->cmd.buckets);
			kstats_merge(r->all, r->copy + (size_t)cpu * n, n);
		}
		r->min = ks_shown(node, r->min);
		r->max = ks_shown(node, r->max);
	}
	r->samples = kstats_total(r->all, n);
	for (s = 0; s < n; s++)
		r->sum += r->all[s].sum;
	/* min and max lie in the first and last slots with samples */
	for (s = 0; r->samples && !r->all[s].count; s++)
		;
	if (r->samples)
		r->min = kstats_slot_clamp(r->min, s, node->cmd.bits, node->cmd.buckets);
	for (s = n; r->samples && !r->all[s - 1].count; s--)
		;
	if (r->samples)
		r->max = kstats_slot_clamp(r->max, s - 1, node->cmd.bits,
					   node->cmd.buckets);
	kstats_percentiles(r->all, n, node->cmd.bits, r->pct);
	return 0;
}

/* The header line: "# kstats NAME key=value..." (contract.h's words). */
static void ks_show_head(struct seq_file *m, const struct ks_node *node)
{
	u32 i;

	seq_printf(m, "# " KS_LINE_HEAD " %s " KS_KEY_ATTACH "=%s:",
		   node->cmd.name, ks_backend_name(node->backend->via));
	for (i = 0; i < node->nsyms; i++)
		seq_printf(m, "%s%s", i ? "," : "", node->syms[i]);
	seq_printf(m, " " KS_KEY_CLOCK "=%s " KS_KEY_CLOCK_BY "=%s",
		   ks_clock_name(node), node->clock_by ?: KS_CLOCK_BY_LOCAL);
	if (node->hz)
		seq_printf(m, " " KS_KEY_HZ "=%llu", node->hz);
	seq_printf(m, " " KS_KEY_UNIT "=%s " KS_KEY_SLOTS "=%s " KS_KEY_BITS "=%u "
		   KS_KEY_BUCKETS "=%u " KS_KEY_SAMPLE "=%u " KS_KEY_MAXACTIVE "=%u "
		   KS_KEY_STATE "=%s",
		   ks_unit(node), node->hz ? KS_UNIT_CYCLES : KS_UNIT_NS,
		   node->cmd.bits,
		   node->cmd.buckets, node->cmd.sample, node->cmd.maxactive,
		   node->active ? KS_STATE_ACTIVE : KS_STATE_STOPPED);
	if (node->cmd.pid >= 0)
		seq_printf(m, " " KS_KEY_PID "=%d", node->cmd.pid);
	if (node->cmd.tgid >= 0)
		seq_printf(m, " " KS_KEY_TGID "=%d", node->cmd.tgid);
	if (node->cmd.comm[0])
		seq_printf(m, " " KS_KEY_COMM "=%s", node->cmd.comm);
	if (node->by_cpu)
		seq_printf(m, " " KS_KEY_CPUS "=%*pbl",
			   cpumask_pr_args(node->cpus));
	if (node->callers)
		seq_printf(m, " " KS_KEY_CALLERS "=%u", node->callers->n);
	if (node->slowest)
		seq_printf(m, " " KS_KEY_SLOWEST "=%u", node->slowest->k);
	seq_putc(m, '\n');
}

/* The "# samples ..." line and the lines under it, to the percentiles. */
static void ks_show_figures(struct seq_file *m, struct ks_node *node,
			    const struct ks_read *r)
{
	unsigned int cpus, spares, users;
	u64 bytes;
	u32 i;

	seq_printf(m, "# " KS_LINE_SAMPLES " %llu " KS_SAMPLES_MISSED " %llu "
		   KS_SAMPLES_MIN " %llu " KS_SAMPLES_AVG " %llu " KS_SAMPLES_MAX
		   " %llu " KS_SAMPLES_FLOOR " %llu\n",
		   r->samples, node->backend->missed(node) + r->unslotted,
		   r->samples ? r->min : 0, r->samples ? div64_u64(r->sum, r->samples) : 0,
		   r->samples ? r->max : 0, node->floor);
	if (node->cmd.sample > 1)
		seq_printf(m, "# " KS_LINE_SAMPLED " 1 in %u: estimated calls %llu\n",
			   node->cmd.sample, r->samples * node->cmd.sample);
	if (r->clamped)
		seq_printf(m, "# " KS_LINE_CLAMPED
			   " %llu: ended on a CPU whose clock read earlier than the start's, recorded as 0\n",
			   r->clamped);
	if (r->nested)
		seq_printf(m, "# " KS_LINE_NESTED " %llu " KS_NESTED_COST
			   " %llu each off the calls recorded, for the traced calls that ended inside them\n",
			   r->nested, ks_shown(node, (READ_ONCE(node->ncost) +
						       BIT(KS_NCOST_SHIFT - 1)) >> KS_NCOST_SHIFT));
	if (r->unslotted)
		seq_printf(m, "# " KS_LINE_UNSLOTTED
			   " %llu: timed on CPUs that had no slots yet (mem_max, or many CPUs at once), counted in missed\n",
			   r->unslotted);
	bytes = ks_slots_bytes(node, &cpus, &spares, &users);
	seq_printf(m, "# " KS_LINE_MEMORY " %llu bytes: slots on %u CPU%s, %u spare%s",
		   bytes, cpus, cpus == 1 ? "" : "s", spares, spares == 1 ? "" : "s");
	seq_printf(m, " shared by %u node%s\n", users, users == 1 ? "" : "s");
	if (node->fell_back)
		seq_printf(m, "# " KS_LINE_FALLBACK
			   " %s unstable: local_clock() since, its ns recorded as cycles at hz\n",
			   KS_COUNTER_NAME);
	seq_puts(m, "# " KS_LINE_PCT);
	for (i = 0; i < KSTATS_NR_PCT; i++)
		seq_printf(m, " %s %llu", kstats_pct_name[i], r->pct[i]);
	seq_printf(m, " " KS_PCT_PRECISION " %u " KS_PCT_ESTIMATE " "
		   KS_ESTIMATE_SLOT_MEAN "\n",
		   kstats_precision_ppm(node->cmd.bits));
}

/* A node's text: the words of include/kstats/contract.h, see docs/format.md. */
static int ks_node_show(struct seq_file *m, void *v)
{
	struct ks_node *node = m->private;
	u32 n = node->nslots;
	struct ks_read r;
	int cpu, ret;

	ret = ks_read_node(node, &r);
	if (ret)
		return ret;
	ks_show_head(m, node);
	ks_show_figures(m, node, &r);
	if (r.hists)
		ks_callers_unit(node, r.hists, r.map, r.tmp);
	if (node->callers)
		ks_callers_lines(m, node, r.hists);
	if (node->slowest)
		ks_slowest_lines(m, node);

	for_each_possible_cpu(cpu)
		ks_show_rows(m, r.copy + (size_t)cpu * n, n, KS_ROW_CPU, cpu);
	ks_show_rows(m, r.all, n, KS_ROW_CPUS, num_possible_cpus());
	if (node->callers)
		ks_callers_rows(m, node, r.hists);
	if (node->slowest)	/* the last of them: the disturbed calls' */
		ks_show_hist(m, r.hists + (size_t)(node->nhist - 2) * n, n, "# ",
			     KS_ROW_DISTURBED, "-");
	ks_read_free(&r);
	return 0;
}

#define KS_ROW_BYTES	96	/* one "slot ... n ..." row, with room */
#define KS_HEADER_BYTES	1024

/*
 * Open a node's file (ks_file_data()) for its text:
 * the buffer sized for what the node holds now, so seq_file formats it
 * once instead of retrying with doubled buffers.
 */
static int ks_node_file_open(struct inode *inode, struct file *file)
{
	struct ks_node *node = ks_file_data(inode);
	size_t rows = 0;
	u32 s;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct kstats_slot *sl = ks_cpu_slots(node, cpu);

		for (s = 0; sl && s < node->nslots * node->nhist; s++)
			rows += !!READ_ONCE(sl[s].count);
	}
	rows += min_t(size_t, rows, node->nslots);	/* the CPUS rows */
	rows += 2 * (node->nhist - 1);		/* the "# caller" lines */
	if (node->slowest)	/* "# slow" lines (two rows each), stacks */
		rows += 1 + node->slowest->k * (2 + KS_STACK_MAX);
	return single_open_size(file, ks_node_show, node,
				KS_HEADER_BYTES + rows * KS_ROW_BYTES);
}

/* Writing "start", "stop" or "reset" to a node file acts on that node. */
static ssize_t ks_node_file_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct ks_node *node = ((struct seq_file *)file->private_data)->private;
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

/* A node's file, in /proc/kstats (ks_files.c). */
DEFINE_KS_FILE(ks_node_file);
