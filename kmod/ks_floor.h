/* SPDX-License-Identifier: GPL-2.0 */
/* kstats floor (ks_floor.c): what a backend reports for an empty function. */
#ifndef _KSTATS_FLOOR_H
#define _KSTATS_FLOOR_H

#include "ks_types.h"

u64 ks_floor(const struct ks_node *model);
void ks_nest_cost(struct ks_node *node);

#endif /* _KSTATS_FLOOR_H */
