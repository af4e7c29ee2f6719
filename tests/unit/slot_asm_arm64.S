/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arm64 trampoline's slot computation (kmod/ks_slot_arm64.h), as a
 * userspace function for test_slot_asm.c:
 *   unsigned int ks_test_slot(unsigned long long v, const void *pcpu)
 * pcpu: bytes whose constants sit at KS_PCPU_ONE, KS_PCPU_BITS and
 * KS_PCPU_BUCKETS, at the offsets of slot_offsets.h.  x10-x16
 * are scratch registers here too (AAPCS64).
 */
#ifndef __ASSEMBLY__
#define __ASSEMBLY__ 1
#endif
#include "slot_offsets.h"
#include "ks_direct.h"
#include "ks_slot_arm64.h"

	.text
	.globl	ks_test_slot
	.type	ks_test_slot, %function
ks_test_slot:
	mov	x10, x0
	mov	x12, x1
	KS_SLOT_ARM64 2f
1:	mov	w0, w13
	ret
2:	KS_SLOT_OVER_ARM64 1b
	.size	ks_test_slot, . - ks_test_slot
	.section .note.GNU-stack, "", %progbits
