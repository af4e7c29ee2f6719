/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats_slot() of include/kstats/hist.h in arm64 assembly, for the
 * direct trampoline's plain case (ks_tramp_arm64.S), and assembled again
 * in userspace by tests/unit/test_slot_asm.c (as test_slot_asm_arm64,
 * under qemu-aarch64 where this is not an arm64 machine), which holds it
 * against kstats_slot() on every slot edge of every bits: hist.h stays
 * the one definition, this its checked copy, as ks_slot_x86.h is x86-64's.
 *
 * In: x10 the value, x12 this CPU's part of the node (its constants at
 * KS_PCPU_ONE, KS_PCPU_BITS and KS_PCPU_BUCKETS, ks_direct.h).
 * Out: w13 the slot.  Clobbers x14; leaves bits in w15 and buckets in w16.
 * KS_SLOT_ARM64 branches to \over for a value past the last bucket;
 * KS_SLOT_OVER_ARM64, placed there, sets the overflow slot and branches to
 * \back.
 */
#ifndef _KSTATS_SLOT_ARM64_H
#define _KSTATS_SLOT_ARM64_H

/* one ldp reads both */
.if KS_PCPU_BUCKETS != KS_PCPU_BITS + 4
.error "bits and buckets (ks_direct.h) are not side by side"
.endif

/*
 * Values under 2^bits are their own slot; above, the leading one picks
 * the power of two (sh = its bit - bits) and the @bits bits after it the
 * sub-slot: slot = (sh << bits) + (v >> sh).  Or-ing in 1 << bits makes a
 * value under 2^bits take sh = 0.
 */
.macro KS_SLOT_ARM64 over
	ldr	x14, [x12, #KS_PCPU_ONE]
	orr	x14, x10, x14
	clz	x14, x14
	eor	w14, w14, #63			/* the leading one */
	ldp	w15, w16, [x12, #KS_PCPU_BITS]	/* bits, buckets */
	sub	w13, w14, w15			/* sh */
	cmp	w13, w16
	b.hs	\over
	lsr	x14, x10, x13			/* v >> sh */
	lsl	w13, w13, w15			/* sh << bits */
	add	w13, w13, w14
.endm

/* kstats_overflow_slot(): (buckets + 1) << bits, from w16 and w15. */
.macro KS_SLOT_OVER_ARM64 back
	add	w13, w16, #1
	lsl	w13, w13, w15
	b	\back
.endm

#endif /* _KSTATS_SLOT_ARM64_H */
