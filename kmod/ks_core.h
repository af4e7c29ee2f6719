/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats core: what the files that keep nodes share.  Backends need only
 * ks_node.h.
 *
 * From the top down; each file calls only those below it
 * (docs/architecture.md; tests/layers.sh checks it on the built objects):
 *   kstats_main.c module init and exit
 *   ks_api.c      nodes kernel code records into (include/linux/kstats.h)
 *   ks_control.c  _control and _last: commands written, each run below
 *   ks_glob.c     trace GLOB: many nodes through the pipeline; _last
 *   ks_trace.c    the trace pipeline: deny list, node, symbols, backend
 *                 choice, GAP- node, attach, floor, publish
 *   ks_floor.c    what a backend reports for an empty function
 *   ks_show.c     a node's file (text, verbs written) and the listing
 *   ks_modules.c  nodes whose module goes
 *   ks_node.c     the registry (ks_nodes under ks_lock), a node's lifetime,
 *                 the clock watch
 *   ks_backend.c  the table of backends (ks_direct.c,
 *                 ks_direct_sites.c and ks_direct_stack.c, ks_fprobe.c,
 *                 ks_kretprobe.c, ks_section.c, below it)
 *   ks_clock.c    a node's clock and the unit of its slots
 *   ks_syms.c     symbols and clones, ftrace's filter API
 *   ks_slots.c    each CPU's slots, allocated when it first records
 *   ks_btf.c, ks_cmd.c  prototypes; the command grammar
 *   ks_files.c    each file in debugfs and in /proc/kstats (ks_files.h)
 */
#ifndef _KSTATS_CORE_H
#define _KSTATS_CORE_H

#include <linux/mutex.h>
#include "ks_node.h"

struct file;
struct inode;
struct notifier_block;

/* ks_node.c */
extern struct mutex ks_lock;		/* ks_nodes and every node's state */
extern struct list_head ks_nodes;	/* published nodes, by ks_node.list */
struct ks_node *ks_find(const char *name);
int ks_node_room(const char *name);
struct ks_node *ks_node_alloc(const struct ks_cmd *cmd,
			      const struct ks_backend *backend);
void ks_node_clock_ns(struct ks_node *node);
int ks_set_syms(struct ks_node *node, const char *first, const char *second);
void ks_node_list(struct ks_node *node);
void ks_node_act(struct ks_node *node, enum ks_verb verb);
void ks_node_remove(struct ks_node *node);
void ks_node_destroy(struct ks_node *node);
unsigned int ks_nodes_remove(const char *glob, bool owned);
bool ks_node_matches(const char *glob, const char *name);
void ks_node_delete(struct ks_node *node);
void ks_reap_wait(void);
void ks_clock_check(void);
void ks_clock_watch_stop(void);

/* ks_modules.c */
extern struct notifier_block ks_module_nb;

/* ks_clock.c */
void ks_clock_setup(struct ks_node *node, const struct ks_cmd *cmd,
		    const char *rule);
void ks_clock_ns(struct ks_node *node, const char *rule);
bool ks_clock_watched(const struct ks_node *node);
void ks_clock_fall_back(struct ks_node *node);

/* ks_show.c */
extern const struct ks_file_ops ks_node_file;
char *ks_get_cmd(const char __user *ubuf, size_t count, loff_t *ppos,
		 const char *who);
int ks_control_file_open(struct inode *inode, struct file *file);

/* ks_control.c */
extern const struct ks_file_ops ks_control_file;
extern const struct ks_file_ops ks_last_file;

/* ks_trace.c */
const char *ks_denied(const char *name);
int ks_gap_alloc(struct ks_node *node);
const char *ks_via_name(enum ks_via via);
struct ks_node *ks_node_prepare(const struct ks_cmd *cmd,
				void *syms, unsigned int nsyms,
				int *err);
void ks_nodes_attach_many(struct ks_node **nodes, unsigned int n);
int ks_node_finish(struct ks_node *node);
int ks_trace(const struct ks_cmd *cmd);
struct ks_node *ks_node_create(const struct ks_cmd *cmd,
			       const struct ks_backend *backend);

/* ks_backend.c */
const struct ks_backend *ks_pick_backend(enum ks_via via);
void ks_backends_settle(void);
int ks_backends_start(void);
void ks_backends_stop(void);
void ks_backends_wake(void);

/* ks_floor.c */
u64 ks_floor(const struct ks_node *model);

#endif /* _KSTATS_CORE_H */
