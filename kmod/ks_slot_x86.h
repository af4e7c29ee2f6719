/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats_slot() of include/kstats/hist.h in x86-64 assembly, for the
 * direct trampoline's plain case (ks_tramp.S), and assembled again in
 * userspace by tests/unit/test_slot_asm.c, which holds it against
 * kstats_slot() on every slot edge of every bits (make test): hist.h
 * stays the one definition, this its checked copy.
 *
 * In: rax the value, rdi the node's per-CPU part (its constants at
 * KS_PCPU_ONE, KS_PCPU_TWO, KS_PCPU_BITS and KS_PCPU_BUCKETS, ks_direct.h),
 * read through the segment \seg (%gs: in the module, none in the test).
 * Out: rsi twice the slot.  Clobbers rcx, rdx.  KS_SLOT jumps to \over
 * for a value past the last bucket; KS_SLOT_OVER, placed there, sets the
 * overflow slot and jumps to \back.
 */
#ifndef _KSTATS_SLOT_X86_H
#define _KSTATS_SLOT_X86_H

/*
 * Values under 2^bits are their own slot; above, the leading one picks
 * the power of two (sh = its bit - bits) and the @bits bits after it the
 * sub-slot: slot = (sh << bits) + (v >> sh).  Or-ing in 1 << bits makes a
 * value under 2^bits take sh = 0.  Twice the slot, sh * (2 << bits) +
 * 2 * (v >> sh), indexes 16-byte slots with a scale of 8.
 */
.macro KS_SLOT over, seg
	movq	%rax, %rdx
	orq	\seg\()KS_PCPU_ONE(%rdi), %rdx
	bsrq	%rdx, %rcx
	subl	\seg\()KS_PCPU_BITS(%rdi), %ecx		/* sh */
	cmpl	\seg\()KS_PCPU_BUCKETS(%rdi), %ecx
	jae	\over
	movq	%rax, %rsi
	shrq	%cl, %rsi				/* v >> sh */
	imull	\seg\()KS_PCPU_TWO(%rdi), %ecx		/* 2 * (sh << bits) */
	leaq	(%rcx, %rsi, 2), %rsi
.endm

/* Twice kstats_overflow_slot(): (buckets + 1) * (2 << bits). */
.macro KS_SLOT_OVER back, seg
	movl	\seg\()KS_PCPU_BUCKETS(%rdi), %esi
	incl	%esi
	imull	\seg\()KS_PCPU_TWO(%rdi), %esi
	jmp	\back
.endm

#endif /* _KSTATS_SLOT_X86_H */
