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
 * uses x9-x12, and the plain case (ks_direct_fast) x9-x17, which no
 * function takes an argument in (AAPCS64: x9-x15 are temporaries, x16
 * and x17 the intra-call scratch registers; the call site clobbers x9
 * already).
 *
 * Frame (144 bytes, 16-aligned):
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
 *   [sp+128]  ks_cpu_calls at the entry (ks_unnest() in ks_record.h)
 *
 * ks_direct_enter(node, &[sp+120]) returns the start time, or 0 when this call is not
 * timed (filtered, sampled out): the argument registers are restored and
 * we return into the body as a plain call site does.  Otherwise the body
 * is entered through a "ret" with x30 inside the trampoline (pointer
 * authentication signs that address in the body's own frame, as any
 * return address), and ks_direct_exit(node, start, caller, &[sp+120])
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
#include <asm/alternative.h>
#include <asm/assembler.h>
#include <asm/sysreg.h>
#include "ks_direct.h"
#include "ks_slot_arm64.h"

/*
 * LSE atomics where the kernel patches them in: CONFIG_ARM64_LSE_ATOMICS
 * until the kernel made them unconditional (7.x: neither that nor
 * CONFIG_AS_HAS_LSE_ATOMICS is left).
 */
#if defined(CONFIG_ARM64_LSE_ATOMICS) || !defined(CONFIG_AS_HAS_LSE_ATOMICS)
#define KS_LSE	1
	.arch_extension lse
#endif

#define KS_FRAME	144
#define KS_F_NODE	16
#define KS_F_BODY	24
#define KS_F_REGS	32
#define KS_F_START	104
#define KS_F_MARK	112
#define KS_F_CTX	120
#define KS_F_CALLS	128
.if KS_F_NODE - KS_F_MARK != KS_FRAME_NODE
.error "KS_FRAME_NODE (ks_direct.h) is not this frame's"
.endif

/* the node's first word: active, fast_sample, fast, filtered (ks_direct.h) */
#define KS_ACTIVE_BIT	(KS_NODE_ACTIVE * 8)
#define KS_FAST_BIT	(KS_NODE_FAST * 8)

/*
 * The counter, as the kernel's arch_timer_read_cntvct_el0(): the ISB
 * orders the read after what came before it (the self-synchronising
 * CNTVCTSS_EL0 where the CPU has FEAT_ECV).
 */
.macro KS_CNTVCT dst
alternative_if_not ARM64_HAS_ECV
	isb
	mrs	\dst, cntvct_el0
alternative_else
	nop
	mrs_s	\dst, SYS_CNTVCTSS_EL0
alternative_endif
.endm

/*
 * This CPU's part of the node in \dst (\node: the node), interrupts off
 * (their state in x17), as local_irq_save() does without pseudo-NMIs:
 * what follows is this CPU's alone until KS_IRQ_RESTORE.
 */
.macro KS_THIS_PCPU dst, node, tmp
	ldr	\dst, [\node, #KS_NODE_PCPU]
	mrs	x17, daif
	msr	daifset, #3
	get_this_cpu_offset \tmp
	add	\dst, \dst, \tmp
.endm

.macro KS_IRQ_RESTORE
	msr	daif, x17
.endm

/* One of this CPU's words (x12 its part) up or down by one, \r the scratch. */
.macro KS_PCPU_ADD r, off, op
	ldr	\r, [x12, #\off]
	\op	\r, \r, #1
	str	\r, [x12, #\off]
.endm

/*
 * The gate at [\pcpu] (this CPU's, or the one's it ran on a moment ago)
 * down by one, its old value in \old: one LSE atomic where the CPU has
 * them, else an exclusive load and store.  No ordering is needed: the
 * gate is a count, and a call that moved to another CPU in between takes
 * from that one's.
 */
.macro KS_GATE_DEC pcpu, old, tmp, status
#ifdef KS_LSE
alternative_if_not ARM64_HAS_LSE_ATOMICS
	b	8f
	nop
alternative_else
	mov	\tmp, #-1
	ldadd	\tmp, \old, [\pcpu]
alternative_endif
9:
	.subsection 1
#endif
8:	ldxr	\old, [\pcpu]
	sub	\tmp, \old, #1
	stxr	\status, \tmp, [\pcpu]
	cbnz	\status, 8b
#ifdef KS_LSE
	b	9b
	.subsection 0
#endif
.endm

/* x11 = the home of the call site in x30 (ks_direct.h) */
.macro KS_HOME
	eor	x11, x30, x30, lsr #KS_HOME_FOLD
	ubfx	x11, x11, #KS_HOME_LOW, #KS_HASH_BITS
.endm

/*
 * The gate of a node's per-CPU part (x13: its address, made this CPU's
 * here), for a call about to be timed or not.  Open (below 0: a node
 * that records, the probe's): on, and no store.  Shut (2^62 and above:
 * stopped, or a home of no node): to \shut.  Else a sampled-out call,
 * counted down, and to \shut unless it was the last call let by.  Goes
 * on when open.  x14-x16 scratch.
 */
.macro KS_GATE open, shut
	get_this_cpu_offset x14
	add	x13, x13, x14
	ldr	x14, [x13, #KS_PCPU_GATE]
	tbnz	x14, #63, \open
	tbnz	x14, #62, \shut
	KS_GATE_DEC x13, x14, x15, w16
	cbnz	x14, \shut
.endm

	.text
SYM_CODE_START(ks_direct_tramp)
#ifdef CONFIG_ARM64_BTI_KERNEL
	bti	c
#endif
	/* the gate of the home's per-CPU part first (ks_direct.h) */
	KS_HOME
	ldr	x12, .Lks_thome
	ldr	x13, [x12, x11, lsl #3]
	KS_GATE .Lks_open, .Lks_ret
.Lks_open:
	ldr	x12, .Lks_thkey
	ldr	x10, [x12, x11, lsl #3]
	cmp	x10, x30
	b.ne	.Lks_search
	/* alone in its home: its node (in each CPU's part) */
	ldr	x11, [x13, #KS_PCPU_NODE]
	cbz	x11, .Lks_search	/* the probe's, as the words change */
.Lks_found:
	/* x11 the node, x10 the body */
	ldr	w12, [x11, #KS_NODE_ACTIVE]
	tbz	w12, #KS_ACTIVE_BIT, .Lks_body
	tbnz	w12, #KS_FAST_BIT, ks_direct_fast

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
	add	x3, sp, #KS_F_CTX
	bl	ks_direct_exit
	ldp	x0, x1, [sp, #KS_F_REGS]
	ldp	x29, x30, [sp], #KS_FRAME	/* x30: the caller */
	ret
.Lks_plain:
	ldr	x10, [sp, #KS_F_BODY]
	ldp	x29, x30, [sp], #KS_FRAME
	ret	x10
.Lks_search:
	/* not alone in its home: search the table from there */
	KS_HOME
	ldr	x12, .Lks_hash
	add	x11, x12, x11, lsl #KS_HENT_SHIFT
.Lks_probe:
	ldr	x10, [x11, #KS_HENT_IP]
	cmp	x10, x30
	b.ne	.Lks_next
	/* found: its node's gate, as at the home's */
	ldr	x11, [x11, #KS_HENT_NODE]
	cbz	x11, .Lks_body
	ldr	x13, [x11, #KS_NODE_PCPU]
	KS_GATE .Lks_found, .Lks_body
	b	.Lks_found
.Lks_next:
	cbz	x10, .Lks_ret
	add	x11, x11, #(1 << KS_HENT_SHIFT)
	b	.Lks_probe
.Lks_body:
	/* into the body (x10), as the call site would have gone on */
	mov	x30, x9
	ret	x10
.Lks_ret:
	mov	x10, x30
	mov	x30, x9
	ret	x10
	.balign	8
.Lks_hash:
	.quad	ks_direct_hash
.Lks_thome:
	.quad	ks_direct_thome
.Lks_thkey:
	.quad	ks_direct_thkey
SYM_CODE_END(ks_direct_tramp)

/*
 * The plain case, no call into C: no filter, no sampling, no GAP- node,
 * the counter as the clock, recorded in its ticks (the node's text shows
 * ns), as ks_tramp.S's ks_direct_fast on x86-64.  x11 the node, x10 and
 * x30 the body.  Only x9-x17 are used, so the body's x0:x1 pass back
 * untouched.  What is this CPU's (inflight, the slots, min and max) is
 * changed with interrupts off for a few instructions (KS_THIS_PCPU),
 * where x86-64 has single per-CPU instructions: no atomic is needed, no
 * interrupt or preemption comes between a read and its write, and the
 * C side's this_cpu and local64 operations on the same words are this
 * CPU's too.  The frame is the C path's: the node at KS_F_NODE, the mark
 * at KS_F_MARK, the start at KS_F_START, ks_cpu_calls at the entry at
 * KS_F_CALLS: the traced calls that ended inside this one on its CPU
 * take their cost off its time, as ks_unnest() does (ks_record.h).
 */
SYM_CODE_START_LOCAL(ks_direct_fast)
	stp	x29, x9, [sp, #-KS_FRAME]!
	mov	x29, sp
	stp	x11, x30, [sp, #KS_F_NODE]
	adr	x13, ks_direct_tramp
	str	x13, [sp, #KS_F_MARK]
	KS_THIS_PCPU x12, x11, x13
	ldr	x14, .Lks_calls		/* x13: this CPU's offset */
	ldr	x14, [x14, x13]
	str	x14, [sp, #KS_F_CALLS]
	KS_PCPU_ADD w13, KS_PCPU_INFLIGHT, add
	KS_IRQ_RESTORE
	KS_CNTVCT x13
	/* the body's loads wait for the read, as arch_counter_enforce_ordering() */
	eor	x14, x13, x13
	add	x14, sp, x14
	ldr	xzr, [x14]
	str	x13, [sp, #KS_F_START]
	adr	x30, .Lks_back_fast
	ret	x10			/* the body returns to .Lks_back_fast */
.Lks_back_fast:
	KS_CNTVCT x10
	str	xzr, [sp, #KS_F_MARK]
	ldr	x11, [sp, #KS_F_START]
	subs	x10, x10, x11
	b.mi	.Lks_neg
	ldr	x11, [sp, #KS_F_NODE]
	KS_THIS_PCPU x12, x11, x13
.Lks_cycles:
	/* this call ended, for those it ran in; the ones that ended in it */
	ldr	x14, .Lks_calls
	add	x14, x14, x13		/* x13: this CPU's offset */
	ldr	x15, [x14]
	add	x16, x15, #1
	str	x16, [x14]
	ldr	x16, [sp, #KS_F_CALLS]
	subs	x15, x15, x16
	b.ne	.Lks_nested
.Lks_unnested:
	/* the slot of x10 into w13, as kstats_slot() (ks_slot_arm64.h) */
	KS_SLOT_ARM64 .Lks_over
.Lks_slot:
	ldr	x16, [x12, #KS_PCPU_SLOTS]
	cbz	x16, .Lks_noslots
	add	x16, x16, w13, uxtw #4		/* 16 bytes a slot */
	ldp	x14, x15, [x16]
	add	x14, x14, #1
	add	x15, x15, x10
	stp	x14, x15, [x16]
	ldp	x14, x15, [x12, #KS_PCPU_MIN]
	cmp	x10, x14
	b.lo	.Lks_min
.Lks_max0:
	cmp	x10, x15
	b.hi	.Lks_max
.Lks_done:
	KS_PCPU_ADD w14, KS_PCPU_INFLIGHT, sub	/* may be another CPU's +1 */
	KS_IRQ_RESTORE
	ldp	x29, x30, [sp], #KS_FRAME	/* x30: the caller */
	ret
.Lks_min:
	str	x10, [x12, #KS_PCPU_MIN]
	b	.Lks_max0
.Lks_max:
	str	x10, [x12, #KS_PCPU_MAX]
	b	.Lks_done
.Lks_over:
	KS_SLOT_OVER_ARM64 .Lks_slot
.Lks_noslots:
	/* none yet: ks_direct_record() takes a spare, or counts it as missed */
	KS_IRQ_RESTORE
	stp	x0, x1, [sp, #KS_F_REGS]
	ldr	x0, [sp, #KS_F_NODE]
	mov	x1, x10
	mov	x2, xzr			/* no callers here: the caller unused */
	bl	ks_direct_record
	ldp	x0, x1, [sp, #KS_F_REGS]
	ldr	x11, [sp, #KS_F_NODE]
	KS_THIS_PCPU x12, x11, x13
	b	.Lks_done
.Lks_nested:
	/* unless it moved to another CPU: ncost off for each, 0 at least */
	lsr	x16, x15, #32
	cbnz	x16, .Lks_unnested
	ldr	x16, [x12, #KS_PCPU_NESTED]
	add	x16, x16, x15
	str	x16, [x12, #KS_PCPU_NESTED]
	ldr	x16, [x11, #KS_NODE_NCOST]	/* x11: the node */
	mul	x15, x15, x16
	lsr	x15, x15, #KS_NCOST_SHIFT
	subs	x10, x10, x15
	csel	x10, x10, xzr, hs
	b	.Lks_unnested
.Lks_neg:
	/* a counter that reads earlier: recorded as 0, and counted */
	mov	x10, xzr
	ldr	x11, [sp, #KS_F_NODE]
	KS_THIS_PCPU x12, x11, x13
	KS_PCPU_ADD w14, KS_PCPU_CLAMPED, add
	b	.Lks_cycles
	.balign	8
.Lks_calls:
	.quad	ks_cpu_calls
SYM_CODE_END(ks_direct_fast)
