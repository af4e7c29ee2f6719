// SPDX-License-Identifier: GPL-2.0
/*
 * kstats _control and _last: the commands written to _control (the grammar
 * is in ks_cmd.c), each run by the layer below that does it: "trace" by
 * the pipeline (ks_trace.c) or for a glob (ks_glob.c), the other verbs on
 * the registry (ks_node.c); reading _control lists the nodes; _last shows
 * what the last glob command did, which ks_glob_trace() says into its text.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/mutex.h>
#include <linux/error-injection.h>
#include "ks_btf.h"
#include "ks_slots.h"
#include "ks_backend.h"
#include "ks_node.h"
#include "ks_control.h"
#include "ks_trace.h"
#include "ks_glob.h"

static_assert(KS_CMD_LONGEST <= KS_CMD_MAX);	/* kstats/cmd.h, contract.h */

/* _last's text: what the last glob command did (under ks_lock). */
static struct ks_text ks_last_text;

/* Run one parsed command (as written: @line); caller holds ks_lock. */
static int ks_run(const struct ks_cmd *cmd, const char *line)
{
	bool glob = !cmd->all && ks_is_glob(cmd->name);
	struct ks_node *node, *tmp;
	unsigned int n = 0;

	if (cmd->verb == KS_VERB_TRACE)
		return glob ? ks_glob_trace(cmd, line, &ks_last_text) : ks_trace(cmd);
	if (cmd->verb == KS_VERB_REMOVE && (cmd->all || glob))
		n = ks_nodes_remove(glob ? cmd->name : NULL, false);
	else if (cmd->all || glob)
		list_for_each_entry_safe(node, tmp, &ks_nodes, list) {
			if (glob && !ks_node_matches(cmd->name, node->cmd.name))
				continue;
			ks_node_act(node, cmd->verb);
			n++;
		}
	if (glob && !n) {
		pr_err("%s: no node matches\n", cmd->name);
		return -ENOENT;
	}
	if (cmd->all || glob)
		return 0;
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

/* Reading _last: what the last glob command did (ks_glob_trace()). */
static int ks_last_show_(struct seq_file *m, void *v)
{
	if (mutex_lock_killable(&ks_lock))
		return -EINTR;
	ks_text_show(&ks_last_text, m);
	mutex_unlock(&ks_lock);
	return 0;
}

static int ks_last_open(struct inode *inode, struct file *file)
{
	return single_open(file, ks_last_show_, NULL);
}

/* _last, read only (ks_files.c) */
const struct proc_ops ks_last_file = {
	.proc_open = ks_last_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
};

/* Reading _control lists the nodes, one per line. */
static int ks_control_show(struct seq_file *m, void *v)
{
	struct ks_node *node;
	int cpu;

	if (mutex_lock_killable(&ks_lock))
		return -EINTR;
	seq_puts(m, KS_LIST_HEAD "\n");
	list_for_each_entry(node, &ks_nodes, list) {
		u64 samples = 0;

		for_each_possible_cpu(cpu) {
			struct kstats_slot *sl = ks_cpu_slots(node, cpu);

			if (sl)
				samples += kstats_total(sl, node->nslots);
		}
		seq_printf(m, KS_LIST_ROW "\n", node->cmd.name,
			   ks_backend_name(node->backend->via),
			   node->active ? KS_STATE_ACTIVE : KS_STATE_STOPPED,
			   samples, node->backend->missed(node) +
			   atomic_long_read(&node->unslotted));
	}
	mutex_unlock(&ks_lock);
	return 0;
}

static int ks_control_file_open(struct inode *inode, struct file *file)
{
	return single_open(file, ks_control_show, NULL);
}

/* Commands: see the grammar in ks_cmd.c. */
static ssize_t ks_control_file_write(struct file *file, const char __user *ubuf,
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
	/* killable: a removal ahead may wait long for grace periods */
	ret = mutex_lock_killable(&ks_lock);
	if (ret)
		goto out;
	ret = ks_run(cmd, line);
	mutex_unlock(&ks_lock);
out:
	kfree(line);
	kfree(cmd);
	kfree(buf);
	return ret ? ret : count;
}

/* _control, in /proc/kstats (ks_files.c) */
DEFINE_KS_FILE(ks_control_file);

/**
 * ks_control_exit() - at module exit: free _last's text
 */
void ks_control_exit(void)
{
	ks_text_free(&ks_last_text);
}
