// SPDX-License-Identifier: GPL-2.0
/*
 * kstats debugfs files: the commands written to _control (the grammar is
 * in ks_cmd.c) and to a node's file, and publishing a node's file.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/glob.h>
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/mutex.h>
#include <linux/error-injection.h>
#include "ks_core.h"
#include "ks_glob.h"

static_assert(KS_CMD_LONGEST <= KS_CMD_MAX);	/* ks_cmd.h, contract.h */

struct dentry *ks_dir;

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
	const struct ks_backend *b = ks_pick_backend(via);

	return IS_ERR(b) ? "?" : b->name;
}

/**
 * ks_node_prepare() - a node for "trace", its symbols and backend settled
 * @cmd: the parsed command (a single function or section)
 * @syms: its symbols, KS_NAME_MAX bytes each, found already (ownership
 *	passes), or NULL to look them up by cmd->name
 * @nsyms: entries in @syms
 * @err: the error, when NULL is returned
 *
 * Caller holds ks_lock.  Refuses names that are traced already or on the
 * deny list (ks_glob.c).
 * Return: the detached node, or NULL.
 */
struct ks_node *ks_node_prepare(const struct ks_cmd *cmd,
				void *syms, unsigned int nsyms,
				int *err)
{
	const char *why = cmd->via == KS_VIA_SECTION ? NULL :
			  ks_denied(cmd->name);
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
	node = ks_node_alloc(cmd);
	if (IS_ERR(node)) {
		kfree(syms);
		*err = PTR_ERR(node);
		return NULL;
	}
	if (syms) {
		node->syms = syms;
		node->nsyms = nsyms;
		ret = 0;
	} else if (cmd->via == KS_VIA_SECTION) {
		ret = ks_set_syms(node, cmd->start, cmd->end);
	} else {
		ret = ks_resolve_syms(node);
	}
	if (!ret)
		ret = ks_choose_backend(node);
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
 * On failure (a function another tool holds, say) none is hooked, and
 * ks_node_finish() then tries each alone.
 */
void ks_nodes_attach_many(struct ks_node **nodes, unsigned int n)
{
	int ret = nodes[0]->backend->attach_many(nodes, n);

	if (ret)
		pr_info("attaching %u functions at once failed (error %d): one by one\n",
			n, ret);
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
	const struct ks_cmd *cmd = &node->cmd;
	int ret = 0;

	if (!node->priv)
		ret = node->backend->attach(node);
	if (ret && ks_backend_fallback(node, ret))
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

/* Build, attach and publish a node for "trace"; caller holds ks_lock. */
static int ks_trace(const struct ks_cmd *cmd)
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
	node = ks_node_alloc(cmd);
	if (IS_ERR(node)) {
		ret = PTR_ERR(node);
		goto out;
	}
	node->backend = backend;
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

/* Run one parsed command (as written: @line); caller holds ks_lock. */
static int ks_run(const struct ks_cmd *cmd, const char *line)
{
	bool glob = !cmd->all && ks_is_glob(cmd->name);
	struct ks_node *node, *tmp;
	unsigned int n = 0;

	if (cmd->verb == KS_VERB_TRACE)
		return glob ? ks_glob_trace(cmd, line) : ks_trace(cmd);
	if (cmd->verb == KS_VERB_REMOVE && (cmd->all || glob))
		n = ks_nodes_remove(glob ? cmd->name : NULL, false);
	else if (cmd->all || glob)
		list_for_each_entry_safe(node, tmp, &ks_nodes, list) {
			if (glob && !glob_match(cmd->name, node->cmd.name))
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

/* Reading _last: what the last glob command did (ks_glob.c). */
static int ks_last_show_(struct seq_file *m, void *v)
{
	mutex_lock(&ks_lock);
	ks_last_show(m);
	mutex_unlock(&ks_lock);
	return 0;
}

static int ks_last_open(struct inode *inode, struct file *file)
{
	return single_open(file, ks_last_show_, NULL);
}

const struct file_operations ks_last_fops = {
	.owner = THIS_MODULE,
	.open = ks_last_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

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
	ret = ks_run(cmd, line);
	mutex_unlock(&ks_lock);
out:
	kfree(line);
	kfree(cmd);
	kfree(buf);
	return ret ? ret : count;
}

const struct file_operations ks_control_fops = {
	.owner = THIS_MODULE,
	.open = ks_control_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = ks_control_write,
};
