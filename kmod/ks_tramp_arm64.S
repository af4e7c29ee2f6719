/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats direct-call trampoline (arm64), for the "direct" backend: the
 * design of ks_tramp.S (x86-64) in arm64's calling convention.
 *
 * ftrace turns the entry of every traced function into "mov x9, x30;
 * bl ks_direct_tramp" (or, when the trampoline is out of bl range, a bl to
 * ftrace_caller, which branches here with the same registers: CALL_OPS).
 * So x30 holds the body (the instruction after the bl) and x9 the
 * caller's return address.  One address for all functions: the call
 * site, x30, finds the node in ks_direct_hash (ks_direct.h).  The lookup
 * uses x9-x12, which no function takes an argument in (AAPCS64: x9-x15
 * are temporaries; the call site clobbers x9 already).
 *
 * Frame (128 bytes, 16-aligned):
 *   [sp]      the caller's x29 and return address (x9): a frame record,
 *             so that the unwinder walks from the body through us to the
 *             caller
 *   [sp+16]   node        [sp+24]  body
 *   [sp+32]   x0-x8 while ks_direct_enter() runs; x0:x1 around
 *             ks_direct_exit()
 *   [sp+104]  start time
 *   [sp+112]  while the body of a timed call runs, ks_direct_tramp's
 *             address: what the exit scan (ks_direct.c) finds a call by
 *             on the stack of a task that ends inside a body (do_exit()),
 *             with the node KS_FRAME_NODE bytes from it; cleared when the
 *             body returns, so that only calls still in a body are found
 *   [sp+120]  what the end compares ("slowest": ks_call_ctx())
 *
 * ks_direct_enter(node, &[sp+120]) returns the start time, or 0 when this call is not
 * timed (filtered, sampled out): the argument registers are restored and
 * we return into the body as a plain call site does.  Otherwise the body
 * is entered through a "ret" with x30 inside the trampoline (pointer
 * authentication signs that address in the body's own frame, as any
 * return address), and ks_direct_exit(node, start, caller, [sp+120])
 * records the time
 * before we return to the caller with the body's x0:x1.  x8 (a returned
 * struct's address) is never used here: ks_btf.c refuses such functions.
 *
 * The body runs one frame deeper than it would: arguments it expects on
 * the stack (more than eight) would be misplaced, so such functions never
 * get here (ks_btf.c reads their prototype, ks_choose_backend() in
 * ks_trace.c refuses them).  Sampling is counted down in C
 * (ks_want()): a per-CPU decrement is not one instruction here.
 */
#include <linux/linkage.h>
#include <asm/assembler.h>
#include "ks_direct.h"

#define KS_FRAME	128
#define KS_F_NODE	16
#define KS_F_BODY	24
#define KS_F_REGS	32
#define KS_F_START	104
#define KS_F_MARK	112
#define KS_F_CTX	120
.if KS_F_NODE - KS_F_MARK != KS_FRAME_NODE
.error "KS_FRAME_NODE (ks_direct.h) is not this frame's"
.endif

	.text
SYM_CODE_START(ks_direct_tramp)
	bti	c
	/* x11 = &ks_direct_hash[home of x30] */
	movz	x12, #(KS_HASH_MUL & 0xffff)
	movk	x12, #(KS_HASH_MUL >> 16), lsl #16
	mul	x11, x30, x12
	ubfx	x11, x11, #KS_HASH_SHIFT, #KS_HASH_BITS
	adr_l	x10, ks_direct_hash
	add	x11, x10, x11, lsl #KS_HENT_SHIFT
.Lks_probe:
	ldr	x10, [x11, #KS_HENT_IP]
	cmp	x10, x30
	b.eq	.Lks_found
	cbz	x10, .Lks_ret
	add	x11, x11, #(1 << KS_HENT_SHIFT)
	b	.Lks_probe
.Lks_found:
	/* not timed at all (no node, stopped) in a few instructions */
	ldr	x11, [x11, #KS_HENT_NODE]
	cbz	x11, .Lks_ret
	ldrb	w10, [x11, #KS_NODE_ACTIVE]
	cbz	w10, .Lks_ret

	stp	x29, x9, [sp, #-KS_FRAME]!
	mov	x29, sp
	stp	x11, x30, [sp, #KS_F_NODE]
	stp	x0, x1, [sp, #KS_F_REGS]
	stp	x2, x3, [sp, #KS_F_REGS + 16]
	stp	x4, x5, [sp, #KS_F_REGS + 32]
	stp	x6, x7, [sp, #KS_F_REGS + 48]
	str	x8, [sp, #KS_F_REGS + 64]
	mov	x0, x11
	add	x1, sp, #KS_F_CTX
	bl	ks_direct_enter
	mov	x10, x0
	ldp	x0, x1, [sp, #KS_F_REGS]
	ldp	x2, x3, [sp, #KS_F_REGS + 16]
	ldp	x4, x5, [sp, #KS_F_REGS + 32]
	ldp	x6, x7, [sp, #KS_F_REGS + 48]
	ldr	x8, [sp, #KS_F_REGS + 64]
	cbz	x10, .Lks_plain
	str	x10, [sp, #KS_F_START]
	adr	x12, ks_direct_tramp
	str	x12, [sp, #KS_F_MARK]
	ldr	x10, [sp, #KS_F_BODY]
	adr	x30, .Lks_back
	ret	x10			/* the body returns to .Lks_back */
.Lks_back:
	str	xzr, [sp, #KS_F_MARK]
	stp	x0, x1, [sp, #KS_F_REGS]
	ldr	x0, [sp, #KS_F_NODE]
	ldr	x1, [sp, #KS_F_START]
	ldr	x2, [sp, #8]		/* the caller (x9) */
	ldr	x3, [sp, #KS_F_CTX]
	bl	ks_direct_exit
	ldp	x0, x1, [sp, #KS_F_REGS]
	ldp	x29, x30, [sp], #KS_FRAME	/* x30: the caller */
	ret
.Lks_plain:
	ldr	x10, [sp, #KS_F_BODY]
	ldp	x29, x30, [sp], #KS_FRAME
	ret	x10
.Lks_ret:
	/* into the body, as the call site would have gone on */
	mov	x10, x30
	mov	x30, x9
	ret	x10
SYM_CODE_END(ks_direct_tramp)
