/* SPDX-License-Identifier: GPL-2.0 */
/* kstats clock (ks_clock.c): what a node reads for time, and its unit. */
#ifndef _KSTATS_CLOCK_H
#define _KSTATS_CLOCK_H

#include "ks_types.h"

void ks_clock_setup(struct ks_node *node, const struct ks_cmd *cmd,
		    const char *rule);
void ks_clock_ns(struct ks_node *node, const char *rule);
bool ks_clock_watched(const struct ks_node *node);
void ks_clock_fall_back(struct ks_node *node);

#endif /* _KSTATS_CLOCK_H */
