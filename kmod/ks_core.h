/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats core: what the files that keep nodes share.  Backends need only
 * ks_node.h.
 *
 *   ks_node.c     the registry (ks_nodes under ks_lock), a node's lifetime
 *   ks_show.c     the text of a node's file and of the _control listing
 *   ks_control.c  the debugfs files: commands written, nodes published
 *   ks_backend.c  which backend times a node; the GAP- node
 *   ks_slots.c    each CPU's slots, allocated when it first records
 *   ks_floor.c    what a backend reports for an empty function
 *   ks_syms.c     symbols and clones; nodes whose module goes
 *   ks_glob.c     trace GLOB and the other verbs on globs; the deny list
 *   ks_api.c      nodes kernel code records into (include/linux/kstats.h)
 *   kstats_main.c module init and exit
 */
#ifndef _KSTATS_CORE_H
#define _KSTATS_CORE_H

#include <linux/mutex.h>
#include "ks_node.h"

struct dentry;
struct file;
struct inode;
struct notifier_block;

/* ks_node.c */
extern struct mutex ks_lock;		/* ks_nodes and every node's state */
extern struct list_head ks_nodes;	/* published nodes, by ks_node.list */
struct ks_node *ks_find(const char *name);
int ks_node_room(const char *name);
struct ks_node *ks_node_alloc(const struct ks_cmd *cmd);
void ks_clock_ns(struct ks_node *node);
int ks_set_syms(struct ks_node *node, const char *first, const char *second);
void ks_node_list(struct ks_node *node);
void ks_node_act(struct ks_node *node, enum ks_verb verb);
void ks_node_remove(struct ks_node *node);
void ks_node_destroy(struct ks_node *node);
void ks_nodes_settle(void);
unsigned int ks_nodes_remove(const char *glob, bool owned);
void ks_node_delete(struct ks_node *node);
void ks_reap_wait(void);
void ks_clock_check(void);
void ks_clock_watch_stop(void);

/* ks_show.c */
int ks_node_open(struct inode *inode, struct file *file);
int ks_control_open(struct inode *inode, struct file *file);

/* ks_control.c */
extern struct dentry *ks_dir;
extern const struct file_operations ks_control_fops;
extern const struct file_operations ks_last_fops;
struct ks_node *ks_node_create(const struct ks_cmd *cmd,
			       const struct ks_backend *backend);

/* ks_backend.c */
const struct ks_backend *ks_pick_backend(enum ks_via via);
int ks_choose_backend(struct ks_node *node);
bool ks_backend_fallback(struct ks_node *node, int err);
int ks_gap_alloc(struct ks_node *node);

/* ks_floor.c */
u64 ks_floor(const struct ks_node *model);

/* ks_syms.c */
extern struct notifier_block ks_module_nb;

#endif /* _KSTATS_CORE_H */
