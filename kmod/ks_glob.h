/* SPDX-License-Identifier: GPL-2.0 */
/* kstats globs and deny list (ks_glob.c), and what they need of the node layer. */
#ifndef _KSTATS_GLOB_H
#define _KSTATS_GLOB_H

#include <linux/seq_file.h>
#include "ks_node.h"

const char *ks_denied(const char *name);
bool ks_is_glob(const char *name);
int ks_glob_trace(const struct ks_cmd *cmd, const char *line);
void ks_last_show(struct seq_file *m);
void ks_last_free(void);

/* ks_control.c */
struct ks_node *ks_node_prepare(const struct ks_cmd *cmd,
				void *syms, unsigned int nsyms,
				int *err);
void ks_nodes_attach_many(struct ks_node **nodes, unsigned int n);
int ks_node_finish(struct ks_node *node);
const char *ks_via_name(enum ks_via via);

#endif /* _KSTATS_GLOB_H */
