// SPDX-License-Identifier: GPL-2.0
/*
 * kstats offsets: where the trampolines (ks_tramp.S, ks_tramp_arm64.S and
 * the slot macros of ks_slot_x86.h and ks_slot_arm64.h) find the fields
 * they read, generated from the C types into ks_offsets.h at build
 * (Kbuild), as the kernel's asm-offsets.c: the types are the one
 * definition.  Compiled to assembly only, never linked.
 */
#define COMPILE_OFFSETS
#include <linux/kbuild.h>
#include "ks_types.h"

int main(void)
{
	OFFSET(KS_NODE_ACTIVE, ks_node, active);
	OFFSET(KS_NODE_FAST_SAMPLE, ks_node, fast_sample);
	OFFSET(KS_NODE_FAST, ks_node, fast);
	OFFSET(KS_NODE_PCPU, ks_node, pcpu);
	OFFSET(KS_NODE_NCOST, ks_node, ncost);
	BLANK();
	OFFSET(KS_PCPU_GATE, ks_pcpu, gate);
	OFFSET(KS_PCPU_MIN, ks_pcpu, min);
	OFFSET(KS_PCPU_MAX, ks_pcpu, max);
	OFFSET(KS_PCPU_CLAMPED, ks_pcpu, clamped);
	OFFSET(KS_PCPU_INFLIGHT, ks_pcpu, inflight);
	OFFSET(KS_PCPU_SLOTS, ks_pcpu, slots);
	OFFSET(KS_PCPU_ONE, ks_pcpu, one);
	OFFSET(KS_PCPU_TWO, ks_pcpu, two);
	OFFSET(KS_PCPU_BITS, ks_pcpu, bits);
	OFFSET(KS_PCPU_BUCKETS, ks_pcpu, buckets);
	OFFSET(KS_PCPU_FAST, ks_pcpu, fast);
	OFFSET(KS_PCPU_NODE, ks_pcpu, node);
	OFFSET(KS_PCPU_CTAB, ks_pcpu_x, ctab);
	OFFSET(KS_PCPU_FLOOR, ks_pcpu_x, floor);
	OFFSET(KS_PCPU_NESTED, ks_pcpu, nested);
	BLANK();
	OFFSET(KS_HENT_IP, ks_hent, ip);
	OFFSET(KS_HENT_NODE, ks_hent, node);
	OFFSET(KS_CENT_IP, ks_centry, ip);
	OFFSET(KS_CENT_OFF, ks_centry, off);
	OFFSET(KS_CENT_MAX, ks_centry, max);
#if defined(CONFIG_X86_64) && defined(KS_PCPU_HOT)
	BLANK();
	OFFSET(KS_PCPU_HOT_PREEMPT, pcpu_hot, preempt_count);
#endif
	return 0;
}
