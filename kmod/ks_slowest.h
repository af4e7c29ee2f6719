/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats slowest (ks_slowest.c): the K slowest calls of a node and the
 * disturbance word each CPU keeps for them.
 */
#ifndef _KSTATS_SLOWEST_H
#define _KSTATS_SLOWEST_H

#include "ks_types.h"

struct ks_slowest *ks_slowest_alloc(u32 k);
void ks_slowest_free(struct ks_slowest *sw);
void ks_slowest_exit(void);
void ks_nest_init(void);
void ks_slowest_reset(struct ks_node *node);
void ks_slowest_keep(struct ks_node *node, u64 v, unsigned long ip,
		     enum ks_by by);
u32 ks_slowest_copy(struct ks_slowest *sw, struct ks_slow_call *out);

#endif /* _KSTATS_SLOWEST_H */
