/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats slots (ks_slots.c): each CPU's histograms of a node, allocated
 * when the CPU first records.
 */
#ifndef _KSTATS_SLOTS_H
#define _KSTATS_SLOTS_H

#include "ks_types.h"

struct kstats_slot *ks_slots_claim(struct ks_node *node);
int ks_slots_init(struct ks_node *node);
void ks_slots_free(struct ks_node *node);
u64 ks_slots_bytes(const struct ks_node *node, unsigned int *cpus,
		   unsigned int *spares, unsigned int *users);
int ks_slots_setup(void);
void ks_slots_exit(void);

/* One CPU's slots, or NULL where that CPU has none (it never recorded). */
static inline struct kstats_slot *ks_cpu_slots(const struct ks_node *node,
					       int cpu)
{
	return READ_ONCE(per_cpu_ptr(node->pcpu, cpu)->slots);
}

#endif /* _KSTATS_SLOTS_H */
