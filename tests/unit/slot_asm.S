/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The direct trampoline's slot computation (kmod/ks_slot_x86.h), as a
 * userspace function for test_slot_asm.c:
 *   unsigned int ks_test_slot(unsigned long long v, const void *pcpu)
 * pcpu: bytes whose constants sit at KS_PCPU_ONE, KS_PCPU_TWO,
 * KS_PCPU_BITS and KS_PCPU_BUCKETS, at the offsets of slot_offsets.h.
 */
#ifndef __ASSEMBLY__
#define __ASSEMBLY__ 1
#endif
#include "slot_offsets.h"
#include "ks_direct.h"
#include "ks_slot_x86.h"

	.text
	.globl	ks_test_slot
	.type	ks_test_slot, @function
ks_test_slot:
	movq	%rdi, %rax
	movq	%rsi, %rdi
	KS_SLOT 2f
1:	movl	%esi, %eax
	shrl	$1, %eax
	ret
2:	KS_SLOT_OVER 1b
	.size	ks_test_slot, . - ks_test_slot
	.section .note.GNU-stack, "", @progbits
