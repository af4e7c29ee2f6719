/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats files (ks_files.c): where _control, _last and each node's text
 * are: in procfs (/proc/kstats), which a locked-down kernel leaves open;
 * /sys/kernel/debug/kstats, the path of docs/format.md, is a debugfs
 * link to it.
 */
#ifndef _KSTATS_KS_FILES_H
#define _KSTATS_KS_FILES_H

#include <linux/fs.h>
#include <linux/proc_fs.h>

/*
 * DEFINE_KS_FILE(name): struct proc_ops @name for a seq_file opened by
 * name_open() (single_open()) and written by name_write().
 */
#define DEFINE_KS_FILE(name)						\
const struct proc_ops name = {						\
	.proc_open = name##_open,					\
	.proc_read = seq_read,						\
	.proc_lseek = seq_lseek,					\
	.proc_release = single_release,					\
	.proc_write = name##_write,					\
}

/* One kstats file: its procfs entry (NULL when not made). */
struct ks_file {
	struct proc_dir_entry *pde;
};

int ks_files_init(void);
void ks_files_exit(void);
int ks_file_add(struct ks_file *f, const char *name, umode_t mode, void *data,
		const struct proc_ops *ops);
void ks_file_remove(struct ks_file *f);
void *ks_file_data(const struct inode *inode);
char *ks_get_cmd(const char __user *ubuf, size_t count, loff_t *ppos,
		 const char *who);

/* A text a file shows, written by whoever the file's owner lends it to. */
struct ks_text {
	char *buf;
	size_t len;
	size_t size;
};

struct seq_file;
void ks_text_start(struct ks_text *t, size_t size);
__printf(2, 3) void ks_text_say(struct ks_text *t, const char *fmt, ...);
void ks_text_show(const struct ks_text *t, struct seq_file *m);
void ks_text_free(struct ks_text *t);

#endif /* _KSTATS_KS_FILES_H */
