/* SPDX-License-Identifier: GPL-2.0 */
/* kstats per-CPU parts of nodes, cut from blocks (ks_pcpu.c). */
#ifndef _KSTATS_PCPU_H
#define _KSTATS_PCPU_H

#include <linux/types.h>

struct ks_pblock;

void __percpu *ks_pcpu_alloc(size_t size, struct ks_pblock **from);
void ks_pcpu_free(void __percpu *p, struct ks_pblock *from);
void ks_pcpu_exit(void);

#endif /* _KSTATS_PCPU_H */
