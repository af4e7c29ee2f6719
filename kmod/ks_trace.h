/* SPDX-License-Identifier: GPL-2.0 */
/* kstats trace pipeline (ks_trace.c): what "trace" does, in order. */
#ifndef _KSTATS_TRACE_H
#define _KSTATS_TRACE_H

#include "ks_types.h"

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

#endif /* _KSTATS_TRACE_H */
