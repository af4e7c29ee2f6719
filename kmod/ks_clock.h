/* SPDX-License-Identifier: GPL-2.0 */
/* kstats clock (ks_clock.c): what a node reads for time, its unit, the watch. */
#ifndef _KSTATS_CLOCK_H
#define _KSTATS_CLOCK_H

#include <linux/mutex.h>
#include "ks_types.h"

void ks_clock_setup(struct ks_node *node, const struct ks_cmd *cmd);
void ks_clock_ns(struct ks_node *node);
void ks_clock_watch_init(struct mutex *lock, struct list_head *nodes);
void ks_clock_watch_stop(void);

#endif /* _KSTATS_CLOCK_H */
