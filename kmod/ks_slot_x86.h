/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats_slot() of include/kstats/hist.h in x86-64 assembly, for the
 * direct trampoline's plain case (ks_tramp.S), and assembled again in
 * userspace by tests/unit/test_slot_asm.c, which holds it against
 * kstats_slot() on every slot edge of every bits (make test): hist.h
 * stays the one definition, this its checked copy.
 *
 * In: rax the value, r11 the node (its bits and buckets at KS_NODE_BITS
 * and KS_NODE_BUCKETS, ks_direct.h).  Out: esi the slot.  Clobbers rcx,
 * rdx, rdi.  KS_SLOT jumps to \over for a value past the last bucket;
 * KS_SLOT_OVER, placed there, sets the overflow slot and jumps to \back.
 */
#ifndef _KSTATS_SLOT_X86_H
#define _KSTATS_SLOT_X86_H

/*
 * Values under 2^bits are their own slot; above, the leading one picks
 * the power of two (sh = its bit - bits) and the @bits bits after it the
 * sub-slot: slot = (sh << bits) + (v >> sh).  bts makes a value under
 * 2^bits take sh = 0.
 */
.macro KS_SLOT over
	movl	KS_NODE_BITS(%r11), %ecx
	movq	%rax, %rdx
	btsq	%rcx, %rdx
	bsrq	%rdx, %rdx
	subl	%ecx, %edx		/* sh */
	cmpl	KS_NODE_BUCKETS(%r11), %edx
	jae	\over
	movl	%edx, %esi
	shll	%cl, %esi		/* sh << bits */
	movl	%edx, %ecx
	movq	%rax, %rdi
	shrq	%cl, %rdi		/* v >> sh */
	addl	%edi, %esi
.endm

/* kstats_overflow_slot(): (buckets + 1) << bits; ecx still holds bits. */
.macro KS_SLOT_OVER back
	movl	KS_NODE_BUCKETS(%r11), %esi
	incl	%esi
	shll	%cl, %esi
	jmp	\back
.endm

#endif /* _KSTATS_SLOT_X86_H */
