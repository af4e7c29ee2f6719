/* SPDX-License-Identifier: GPL-2.0 */
/* kstats direct-call backend: what the trampolines and the C side share. */
#ifndef _KSTATS_DIRECT_H
#define _KSTATS_DIRECT_H

#define KS_DIRECT_SLOTS	64	/* symbols traced through trampolines at once */
#define KS_TRAMP_SIZE	16	/* bytes between two per-slot stubs */

#ifndef __ASSEMBLY__
#include <linux/types.h>

extern char ks_direct_tramps[];
u64 ks_direct_enter(unsigned long slot);
void ks_direct_exit(unsigned long slot, u64 start);
#endif

#endif /* _KSTATS_DIRECT_H */
