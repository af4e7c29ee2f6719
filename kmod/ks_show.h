/* SPDX-License-Identifier: GPL-2.0 */
/* kstats show (ks_show.c): a node's file, and reading a command. */
#ifndef _KSTATS_SHOW_H
#define _KSTATS_SHOW_H

#include "ks_files.h"

struct file;
struct inode;

extern const struct ks_file_ops ks_node_file;
char *ks_get_cmd(const char __user *ubuf, size_t count, loff_t *ppos,
		 const char *who);
int ks_control_file_open(struct inode *inode, struct file *file);

#endif /* _KSTATS_SHOW_H */
