// SPDX-License-Identifier: GPL-2.0
/*
 * kstats files: _control, _last and one file per node, in procfs
 * (/proc/kstats), root's only (0600 files, a 0500 directory), which a
 * locked-down kernel (Secure Boot's integrity mode, lockdown=) leaves open
 * as it does /proc/lock_stat, where it refuses every writable debugfs
 * file (LOCKDOWN_DEBUGFS).  /sys/kernel/debug/kstats, the path of
 * docs/format.md, is a debugfs link to /proc/kstats: one entry per file,
 * about 200 bytes, where a debugfs file takes an inode and a dentry of its
 * own, about 860 more (a whole-kernel trace has 48,000 files).  Removing a
 * file waits for its reads and writes in progress.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <kstats/cmd.h>
#include "ks_files.h"

#define KS_FILES_NAME	"kstats"

static struct dentry *ks_dfs_link;		/* /sys/kernel/debug/kstats */
static struct proc_dir_entry *ks_proc_dir;	/* /proc/kstats */

/**
 * ks_files_init() - make /proc/kstats, and its link in debugfs
 *
 * debugfs may be absent (debugfs=off): the files are in /proc/kstats.
 *
 * Return: 0, or -ENOMEM when /proc/kstats could not be made.
 */
int ks_files_init(void)
{
	ks_proc_dir = proc_mkdir_mode(KS_FILES_NAME, 0500, NULL);
	if (!ks_proc_dir) {
		pr_err("cannot create /proc/%s\n", KS_FILES_NAME);
		return -ENOMEM;
	}
	ks_dfs_link = debugfs_create_symlink(KS_FILES_NAME, NULL,
					     "/proc/" KS_FILES_NAME);
	if (IS_ERR(ks_dfs_link)) {
		pr_info("no debugfs link (error %ld): kstats' files are in /proc/%s\n",
			PTR_ERR(ks_dfs_link), KS_FILES_NAME);
		ks_dfs_link = NULL;
	}
	return 0;
}

/**
 * ks_files_exit() - remove the link, the directory and what is left in it
 */
void ks_files_exit(void)
{
	debugfs_remove(ks_dfs_link);
	ks_dfs_link = NULL;
	proc_remove(ks_proc_dir);
	ks_proc_dir = NULL;
}

/**
 * ks_file_add() - make file @name in /proc/kstats
 * @f: its entry, filled
 * @name: its name
 * @mode: its mode (root's only: 0600 or 0400)
 * @data: what its operations get (ks_file_data())
 * @ops: its operations
 *
 * Return: 0, or -ENOMEM with nothing made.
 */
int ks_file_add(struct ks_file *f, const char *name, umode_t mode, void *data,
		const struct proc_ops *ops)
{
	f->pde = proc_create_data(name, mode, ks_proc_dir, ops, data);
	if (!f->pde) {
		pr_err("%s: cannot create /proc/%s/%s\n", name, KS_FILES_NAME,
		       name);
		return -ENOMEM;
	}
	return 0;
}

/**
 * ks_file_remove() - remove what ks_file_add() made
 * @f: the entry; emptied
 *
 * Waits for the reads and writes in progress.
 */
void ks_file_remove(struct ks_file *f)
{
	proc_remove(f->pde);
	f->pde = NULL;
}

/**
 * ks_file_data() - the data ks_file_add() gave the file of @inode
 * @inode: the file's inode
 *
 * Return: the data.
 */
void *ks_file_data(const struct inode *inode)
{
	return pde_data(inode);
}

/**
 * ks_text_start() - empty @t for a new text, of at most @size bytes
 * @t: the text
 * @size: its room, allocated the first time
 *
 * Caller serializes every use of @t (ks_lock).  Where there is no room,
 * the text stays empty (ks_text_say() writes nothing).
 */
void ks_text_start(struct ks_text *t, size_t size)
{
	if (!t->buf) {
		t->buf = kvmalloc(size, GFP_KERNEL);
		t->size = t->buf ? size : 0;
	}
	t->len = 0;
}

/**
 * ks_text_say() - append to @t, cut at its room
 * @t: the text
 * @fmt: printf format
 */
void ks_text_say(struct ks_text *t, const char *fmt, ...)
{
	va_list ap;

	if (!t->buf)
		return;
	va_start(ap, fmt);
	t->len += vscnprintf(t->buf + t->len, t->size - t->len, fmt, ap);
	va_end(ap);
}

/**
 * ks_text_show() - @t into a seq_file
 * @t: the text
 * @m: the file read
 */
void ks_text_show(const struct ks_text *t, struct seq_file *m)
{
	if (t->buf)
		seq_write(m, t->buf, t->len);
}

/**
 * ks_text_free() - free @t's room
 * @t: the text
 */
void ks_text_free(struct ks_text *t)
{
	kvfree(t->buf);
	t->buf = NULL;
	t->len = 0;
	t->size = 0;
}

/**
 * ks_get_cmd() - copy one command written to a kstats file
 * @ubuf: what userspace wrote
 * @count: its bytes
 * @ppos: the offset written at
 * @who: the file, for the log
 *
 * One whole command per write, from offset 0, at most KS_CMD_MAX bytes of
 * text (ks_cmd_text()).
 *
 * Return: the command, NUL-terminated with trailing blanks cut (kfree()
 * it); NULL for a write of 0 bytes: nothing to do; or an ERR_PTR.
 */
char *ks_get_cmd(const char __user *ubuf, size_t count, loff_t *ppos,
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
