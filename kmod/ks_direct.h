/* SPDX-License-Identifier: GPL-2.0 */
/* kstats direct-call backend: what the trampolines and the C side share. */
#ifndef _KSTATS_DIRECT_H
#define _KSTATS_DIRECT_H

#define KS_DIRECT_SLOTS	64	/* symbols traced through trampolines at once */
#define KS_TRAMP_SIZE	16	/* bytes between two per-slot stubs */

/* What the trampoline reads of struct ks_node and struct ks_pcpu. */
#define KS_NODE_ACTIVE		0	/* bool active */
#define KS_NODE_FAST_SAMPLE	1	/* bool fast_sample */
#define KS_NODE_PCPU		8	/* struct ks_pcpu __percpu *pcpu */
#define KS_PCPU_SKIP		24	/* s32 skip */

#ifndef __ASSEMBLY__
#include <linux/types.h>

struct ks_node;

extern char ks_direct_tramps[];
extern struct ks_node *ks_direct_nodes[KS_DIRECT_SLOTS];
u64 ks_direct_enter(struct ks_node *node);
void ks_direct_exit(struct ks_node *node, u64 start);
#endif

#endif /* _KSTATS_DIRECT_H */
