/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats nodes (ks_node.c): the registry (ks_nodes under ks_lock) and a
 * node's lifetime.
 */
#ifndef _KSTATS_NODE_H
#define _KSTATS_NODE_H

#include <linux/mutex.h>
#include "ks_types.h"

extern struct mutex ks_lock;		/* ks_nodes and every node's state */
extern struct list_head ks_nodes;	/* published nodes, by ks_node.list */
struct ks_node *ks_find(const char *name);
int ks_node_room(const char *name);
struct ks_node *ks_node_alloc(const struct ks_cmd *cmd,
			      const struct ks_backend *backend);
int ks_set_syms(struct ks_node *node, const char *first, const char *second);
void ks_syms_shrink(struct ks_node *node);
void ks_node_list(struct ks_node *node);
void ks_node_act(struct ks_node *node, enum ks_verb verb);
void ks_node_remove(struct ks_node *node);
void ks_node_destroy(struct ks_node *node);
unsigned int ks_nodes_remove(const char *glob, bool owned);
bool ks_node_matches(const char *glob, const char *name);
void ks_node_delete(struct ks_node *node);
void ks_reap_wait(void);
int ks_node_cache_init(void);
void ks_node_cache_exit(void);

#endif /* _KSTATS_NODE_H */
