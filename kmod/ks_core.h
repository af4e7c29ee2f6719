/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats core: what the files that keep nodes share (registry and
 * lifetime, text, debugfs files, backend choice, floor).  Backends need
 * only ks_node.h.
 */
#ifndef _KSTATS_CORE_H
#define _KSTATS_CORE_H

#include "ks_node.h"

struct ks_node *ks_node_create(const struct ks_cmd *cmd,
			       const struct ks_backend *backend);
void ks_node_delete(struct ks_node *node);

#endif /* _KSTATS_CORE_H */
