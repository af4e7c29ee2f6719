/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats direct-call trampolines (x86-64), for the "direct" backend.
 *
 * ftrace turns the fentry call of every traced function into "call
 * ks_direct_tramp": one address for all of them, so that one ftrace_ops
 * hooks many functions at once.  ks_direct_tramp finds the call's node by
 * the return address the call pushed (ks_direct_hash, ks_direct.h), into
 * r11, and goes on to ks_direct_common.  Like a BPF fexit trampoline, that
 * then runs the function body itself, so the start time stays in its own
 * stack frame: no instance pool, and nested, recursive and sleeping calls
 * each keep their own start.  The lookup uses rax, r10 and r11, which no
 * function takes an argument in (variadic ones never get here).
 *
 * Frame:  [rbp+16] the caller   [rbp+8] the body (fentry return address)
 *         [rbp] saved rbp       [rbp-8] ks_cpu_calls at the entry
 *         [rbp-16] what the end compares ("slowest")
 *         [rbp-24] node         [rbp-32] start time
 *
 * ks_direct_enter(node, &[rbp-16]) returns the start time, or 0 when this
 * call is not timed (filtered, sampled out by the C side): the argument
 * registers are restored and we return into the body as a plain fentry
 * call does.
 * Otherwise ks_direct_body enters the body with a return address inside
 * ks_direct_common, through a return as retpolines do (never an indirect
 * call or jump, so IBT kernels accept it), and ks_direct_exit(node, start,
 * caller, &[rbp-16]) records the time before we return to the caller with the body's
 * rax:rdx.  rax is not an argument (no variadic functions get here).
 *
 * A task that ends inside a body (do_exit()) never comes back: the exit
 * scan (ks_direct.c) finds its calls on its stack by their return address
 * into this file, ks_direct_tramp + ks_direct_back_*_off, with the node
 * KS_FRAME_NODE bytes above it.  Each body's return clears that address
 * from the stack, so that only calls still in a body are ever found.
 *
 * The body runs one frame deeper than it would: arguments it expects on
 * the stack would be misplaced, so such functions never get here:
 * ks_btf.c reads their prototype, ks_choose_backend() in ks_trace.c
 * refuses them.  objtool follows all of this (the unwind hints say where
 * a return address is on top), so ORC unwinds through it.
 */
#include <linux/linkage.h>
#include <linux/version.h>
#include <asm/unwind_hints.h>
#include <asm/ibt.h>
#include <asm/nospec-branch.h>
#include <asm/alternative.h>
#include <asm/cpufeatures.h>
#include <linux/objtool.h>
#include "ks_direct.h"
#include "ks_slot_x86.h"
#include <asm/percpu.h>

/*
 * Return-stack depth accounting before each call, as the kernel's own
 * direct-call samples and BPF trampoline do: on CPUs where the kernel
 * tracks call depth (X86_FEATURE_CALL_DEPTH), a call it did not count would
 * make it refill the return stack buffer too late.  Patched out elsewhere;
 * kernels before 6.2 have no such tracking.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
.macro CALL_DEPTH_ACCOUNT
.endm
#endif

/* preempt_disable() and preempt_enable()'s decrement (ks_direct.h) */
.macro KS_PREEMPT_INC
#if KS_PREEMPT_BYTES == 8
	incq	%gs:KS_PREEMPT_COUNT
#else
	incl	%gs:KS_PREEMPT_COUNT
#endif
.endm

.macro KS_PREEMPT_DEC
#if KS_PREEMPT_BYTES == 8
	decq	%gs:KS_PREEMPT_COUNT
#else
	decl	%gs:KS_PREEMPT_COUNT
#endif
.endm

/*
 * The time in rax becomes this CPU's extreme at \off unless the one there
 * holds (\holds jumps when it does): compare-exchange until one of the
 * two is true, an interrupt's record in between making it retry.  The
 * time is left in rsi.
 */
.macro KS_EXTREME off, holds
	movq	%rax, %rsi
	movq	%gs:\off(%rdi), %rax
1:	cmpq	%rax, %rsi
	\holds	2f
	cmpxchgq %rsi, %gs:\off(%rdi)
	jne	1b
2:
.endm

	.text
SYM_FUNC_START_LOCAL(ks_direct_common)
	pushq	%rbp
	movq	%rsp, %rbp
	subq	$32, %rsp
	movq	%r11, -24(%rbp)
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%r8
	pushq	%r9
	movq	%r11, %rdi
	leaq	-16(%rbp), %rsi
	CALL_DEPTH_ACCOUNT
	call	ks_direct_enter
	movq	%rax, -32(%rbp)
	popq	%r9
	popq	%r8
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
	testq	%rax, %rax
	jz	.Lks_plain
	CALL_DEPTH_ACCOUNT
	call	ks_direct_body		/* returns here when the body does */
.Lks_back_common:
	movq	$0, -8(%rsp)		/* no stale frame for the exit scan */
	pushq	%rax
	pushq	%rdx
	movq	-24(%rbp), %rdi
	movq	-32(%rbp), %rsi
	movq	16(%rbp), %rdx		/* the caller */
	leaq	-16(%rbp), %rcx
	CALL_DEPTH_ACCOUNT
	call	ks_direct_exit
	popq	%rdx
	popq	%rax
	leave
	addq	$8, %rsp		/* drop the body: the caller is on top */
	UNWIND_HINT_FUNC
	RET
.Lks_plain:
	leave
	RET
SYM_FUNC_END(ks_direct_common)

/*
 * Enter the body with our caller's return address on top: "return" into
 * it, as retpolines do.  rbp is ks_direct_common's frame.
 */
SYM_FUNC_START_LOCAL(ks_direct_body)
	pushq	8(%rbp)
	UNWIND_HINT_FUNC
	RET
SYM_FUNC_END(ks_direct_body)

/*
 * The one direct address: the gate of the call site's home (ks_direct.h)
 * first, so that a stopped node, a sampled-out call or a home that times
 * nothing (ks_direct_idle) returns into the body five instructions in;
 * then the key: alone in its home, the plain case with the node's per-CPU
 * part in rax, or the C path with the node in r11; else the search of
 * the table, and the gate of the entry it finds.  Not found (a call site
 * just unhooked): return into the body at once.
 *
 * Only ftrace's direct call (a "call" patched into the function's entry,
 * or ftrace_regs_caller's return to it) ever gets here, never an indirect
 * branch: no ENDBR.
 */
SYM_CODE_START(ks_direct_tramp)
	UNWIND_HINT_FUNC
	ANNOTATE_NOENDBR
	imull	$KS_HASH_MUL, (%rsp), %r11d
	shrl	$KS_HASH_SHIFT, %r11d
	movq	ks_direct_thome(, %r11, 8), %rax
	decq	%gs:KS_PCPU_GATE(%rax)	/* one instruction: preemption-safe */
	jns	.Lks_none
	movq	(%rsp), %r10
	cmpq	%r10, ks_direct_thkey(, %r11, 8)
	jne	.Lks_probe
.Lks_found:
	cmpb	$KS_FAST_PLAIN, %gs:KS_PCPU_FAST(%rax)
	je	ks_direct_fast
	ja	ks_direct_fast_x
	movq	ks_direct_tnode(, %r11, 8), %r11
	jmp	ks_direct_common
.Lks_probe:
	/* not alone in its home (the probe's gate passed): search */
	cmpq	%r10, ks_direct_tip(, %r11, 8)
	jne	.Lks_next
	movq	ks_direct_tpcpu(, %r11, 8), %rax
	decq	%gs:KS_PCPU_GATE(%rax)
	js	.Lks_found
	RET
.Lks_next:
	cmpq	$0, ks_direct_tip(, %r11, 8)
	je	.Lks_none
	incl	%r11d
	jmp	.Lks_probe
.Lks_none:
	RET
SYM_CODE_END(ks_direct_tramp)

/*
 * ks_direct_fast's frame, which keeps no rbp: the offsets from rsp once
 * the body returned.  ks_direct_fast_x keeps what its end compares for
 * "slowest" (ks_ctx()) between the node and the per-CPU part.
 */
#define KS_FAST_START	0
#define KS_FAST_NODE	8
#define KS_FAST_CALLS	16
#define KS_FAST_PCPU	24
#define KS_FAST_BODY	32
#define KS_FASTX_CTX	16
#define KS_FASTX_CALLS	24
#define KS_FASTX_PCPU	32
#define KS_FASTX_BODY	40
.if KS_FAST_NODE + 8 != KS_FRAME_NODE
.error "KS_FRAME_NODE (ks_direct.h) is not ks_direct_fast's frame"
.endif

/*
 * Enter the body from ks_direct_fast's frame (\body: its offset).  Called
 * directly only: no ENDBR (here and in ks_direct_fast, reached by a jump).
 */
.macro KS_BODY_FAST body
	UNWIND_HINT_FUNC
	ANNOTATE_NOENDBR
	pushq	\body + 8(%rsp)
	UNWIND_HINT_FUNC
	RET
.endm

SYM_CODE_START_LOCAL(ks_direct_body_fast)
	KS_BODY_FAST KS_FAST_BODY
SYM_CODE_END(ks_direct_body_fast)

SYM_CODE_START_LOCAL(ks_direct_body_fast_x)
	KS_BODY_FAST KS_FASTX_BODY
SYM_CODE_END(ks_direct_body_fast_x)

/*
 * The plain case, no call into C: no filter, no sampling, no GAP- node,
 * the TSC as the clock, recorded in cycles (the node's text shows ns).
 * It reads only this CPU's part of the node (rax), which holds the slot
 * computation's constants.  The start is read last before the body, the
 * end first after it; only rdx (an argument) is kept across the first
 * read, and the end read is the kernel's rdtsc_ordered(): rdtscp where
 * the CPU has it (rcx is free once the body returned).
 * The record holds preemption off for a few instructions: this CPU's
 * slots, count and sum (single instructions), min and max by
 * compare-exchange until it holds (an interrupt between the read and the
 * exchange makes it fail and retry), as ks_record() in ks_record.h.
 *
 * Frame, no rbp:  [rsp+40] the body  [rsp+32] the per-CPU part
 *                 [rsp+24] ks_cpu_calls at the entry
 *                 [rsp+16] the node  [rsp+8] the start
 *                 [rsp] the body's return address here, while it runs:
 * the node KS_FRAME_NODE above it, as in ks_direct_common's frame.
 *
 * The time taken off for the traced calls that ended inside this one on
 * its CPU is ks_unnest()'s (ks_record.h): ks_cpu_calls read at the entry
 * and, added to, at the end; the difference times the per-CPU part's
 * ncost off the time (0 at least), unless the call ended on another CPU.
 *
 * With \x (ks_direct_fast_x), the same with the node's call sites and
 * slowest calls, as ks_record_call() does them: the call site's histogram
 * from the per-CPU part's cache of them (ks_direct.h), C for a site not
 * in it (ks_direct_caller()); for "slowest", ks_ctx() read at the entry
 * and the end, and C for a call slower than the floor or disturbed
 * (ks_direct_slow()).  \s names its labels apart.
 */
.macro KS_FAST x, s, calls, pcpu, body
	UNWIND_HINT_FUNC
	ANNOTATE_NOENDBR
	pushq	%rax
	pushq	PER_CPU_VAR(ks_cpu_calls)	/* ks_unnest() */
.if \x
	pushq	PER_CPU_VAR(ks_cpu_gen)	/* ks_ctx(), for "slowest" */
.endif
	pushq	%gs:KS_PCPU_NODE(%rax)
	incl	%gs:KS_PCPU_INFLIGHT(%rax)
	movq	%rdx, %r10
	CALL_DEPTH_ACCOUNT		/* for the call below */
	lfence
	rdtsc
	pushq	%rax			/* the start's low half, */
	movl	%edx, 4(%rsp)		/* and its high half */
	movq	%r10, %rdx
	call	ks_direct_body_fast\s	/* returns here when the body does */
.Lks_back_fast\s:
	movq	%rax, %r8		/* the body's return value */
	movq	%rdx, %r9
	ALTERNATIVE "lfence; rdtsc", "rdtscp", X86_FEATURE_RDTSCP
	movq	$0, -8(%rsp)		/* no stale frame for the exit scan */
	shlq	$32, %rdx
	orq	%rdx, %rax
	movq	\pcpu(%rsp), %rdi
	subq	KS_FAST_START(%rsp), %rax
	js	.Lks_neg\s
.Lks_cycles\s:
	/* this call ended, for those it ran in; the ones that ended in it */
	movl	$1, %edx
	xaddq	%rdx, PER_CPU_VAR(ks_cpu_calls)
	subq	\calls(%rsp), %rdx
	jnz	.Lks_nested\s
.Lks_unnested\s:
	/* the slot, in cycles (ks_show.c): rsi = 2 * slot */
	KS_SLOT .Lks_over\s, %gs:
.Lks_slot\s:
	/*
	 * This CPU's slots, found and added to with preemption off (as
	 * preempt_disable(): ks_direct.h), so that they stay this CPU's;
	 * each addition is one instruction, safe against interrupts.  None
	 * yet: ks_direct_record() takes a spare, or counts it as missed.
	 */
	KS_PREEMPT_INC
	movq	%gs:KS_PCPU_SLOTS(%rdi), %rcx
	testq	%rcx, %rcx
	jz	.Lks_noslots\s
	incq	(%rcx, %rsi, 8)		/* 16 bytes a slot */
	addq	%rax, 8(%rcx, %rsi, 8)
.if \x
	/* the call site's histogram, rcx + its offset */
	movq	%gs:KS_PCPU_CTAB(%rdi), %r10
	testq	%r10, %r10
	jz	.Lks_cdone\s
	movq	\body + 8(%rsp), %r11	/* the caller */
	imull	$KS_HASH_MUL, %r11d, %edx
	shrl	$KS_CTAB_SHIFT, %edx
	shll	$KS_CENT_SHIFT, %edx
.Lks_cprobe\s:
	cmpq	%r11, KS_CENT_IP(%r10, %rdx)
	jne	.Lks_cnext\s
	movq	KS_CENT_OFF(%r10, %rdx), %r11
	addq	%rcx, %r11
	incq	(%r11, %rsi, 8)
	addq	%rax, 8(%r11, %rsi, 8)
	movq	KS_CENT_MAX(%r10, %rdx), %r11
	cmpq	(%r11), %rax
	ja	.Lks_cmax\s
.Lks_cdone\s:
.endif
	/* min and max: a compare-exchange only when they change */
	cmpq	%gs:KS_PCPU_MIN(%rdi), %rax
	jb	.Lks_min\s
.Lks_max0\s:
	cmpq	%gs:KS_PCPU_MAX(%rdi), %rax
	ja	.Lks_max\s
.Lks_tail\s:
.if \x
	/*
	 * slowest: one compare with the floor (U64_MAX without), one of
	 * ks_ctx() (with callers alone, C takes a disturbed call for nothing)
	 */
	cmpq	%gs:KS_PCPU_FLOOR(%rdi), %rax
	ja	.Lks_slow\s
	movq	PER_CPU_VAR(ks_cpu_gen), %rdx
	cmpq	KS_FASTX_CTX(%rsp), %rdx
	jne	.Lks_slow\s
.endif
.Lks_done\s:
	decl	%gs:KS_PCPU_INFLIGHT(%rdi)	/* may be another CPU's +1 */
	KS_PREEMPT_DEC
	jz	.Lks_resched\s
.Lks_out\s:
	movq	%r8, %rax
	movq	%r9, %rdx
	addq	$\body + 8, %rsp	/* the caller is on top */
	UNWIND_HINT_FUNC
	RET
.Lks_min\s:
	KS_EXTREME KS_PCPU_MIN, jae
	movq	%rsi, %rax
	jmp	.Lks_max0\s
.Lks_max\s:
	KS_EXTREME KS_PCPU_MAX, jbe
.if \x
	movq	%rsi, %rax
.endif
	jmp	.Lks_tail\s
.Lks_noslots\s:
	pushq	%rax
	pushq	%r8
	pushq	%r9
	movq	KS_FAST_NODE + 24(%rsp), %rdi
	movq	%rax, %rsi
	movq	\body + 8 + 24(%rsp), %rdx	/* the caller */
	CALL_DEPTH_ACCOUNT
	call	ks_direct_record
	popq	%r9
	popq	%r8
	popq	%rax
	movq	\pcpu(%rsp), %rdi
	jmp	.Lks_tail\s
.Lks_resched\s:
	/* preemption was asked for while it was off: as preempt_enable() */
	pushq	%r8
	pushq	%r9
	CALL_DEPTH_ACCOUNT
	call	ks_direct_resched
	popq	%r9
	popq	%r8
	jmp	.Lks_out\s
.Lks_nested\s:
	/* unless it moved to another CPU: ncost off for each, 0 at least */
	movq	%rdx, %rcx
	shrq	$32, %rcx
	jnz	.Lks_unnested\s
	addq	%rdx, %gs:KS_PCPU_NESTED(%rdi)
	movq	KS_FAST_NODE(%rsp), %rcx	/* the node's ncost */
	imulq	KS_NODE_NCOST(%rcx), %rdx
	shrq	$KS_NCOST_SHIFT, %rdx
	subq	%rdx, %rax
	jae	.Lks_unnested\s
	xorl	%eax, %eax
	jmp	.Lks_unnested\s
.Lks_neg\s:
	/* a CPU whose clock reads earlier: recorded as 0, and counted */
	incl	%gs:KS_PCPU_CLAMPED(%rdi)
	xorl	%eax, %eax
	jmp	.Lks_cycles\s
.Lks_over\s:
	KS_SLOT_OVER .Lks_slot\s, %gs:
.if \x
.Lks_cnext\s:
	cmpq	$0, KS_CENT_IP(%r10, %rdx)
	je	.Lks_cmiss\s
	addl	$1 << KS_CENT_SHIFT, %edx
	jmp	.Lks_cprobe\s
.Lks_cmax\s:
	/* the site's longest call: shared by every CPU */
	movq	%rax, %rsi
	movq	(%r11), %rax
1:	cmpq	%rax, %rsi
	jbe	2f
	lock cmpxchgq %rsi, (%r11)
	jne	1b
2:	movq	%rsi, %rax
	jmp	.Lks_cdone\s
.Lks_cmiss\s:
	/* ks_direct_caller(node, slots, time, caller, slot) */
	pushq	%rax
	pushq	%rdi
	pushq	%r8
	pushq	%r9
	movq	KS_FAST_NODE + 32(%rsp), %rdi
	movq	%rsi, %r8
	shrl	$1, %r8d
	movq	%rcx, %rsi
	movq	%rax, %rdx
	movq	%r11, %rcx
	CALL_DEPTH_ACCOUNT
	call	ks_direct_caller
	popq	%r9
	popq	%r8
	popq	%rdi
	popq	%rax
	jmp	.Lks_cdone\s
.Lks_slow\s:
	/* ks_direct_slow(node, time, caller, what the entry read) */
	pushq	%rdi
	pushq	%r8
	pushq	%r9
	movq	KS_FAST_NODE + 24(%rsp), %rdi
	movq	%rax, %rsi
	movq	\body + 8 + 24(%rsp), %rdx
	movq	KS_FASTX_CTX + 24(%rsp), %rcx
	CALL_DEPTH_ACCOUNT
	call	ks_direct_slow
	popq	%r9
	popq	%r8
	popq	%rdi
	jmp	.Lks_done\s
.endif
.endm

SYM_CODE_START_LOCAL(ks_direct_fast)
	KS_FAST 0, , KS_FAST_CALLS, KS_FAST_PCPU, KS_FAST_BODY
SYM_CODE_END(ks_direct_fast)

SYM_CODE_START_LOCAL(ks_direct_fast_x)
	KS_FAST 1, _x, KS_FASTX_CALLS, KS_FASTX_PCPU, KS_FASTX_BODY
SYM_CODE_END(ks_direct_fast_x)

/*
 * Where bodies return, as offsets from ks_direct_tramp: absolute symbols
 * (no relocation into the middle of a function), for the exit scan.
 */
	.globl	ks_direct_back_common_off
	.set	ks_direct_back_common_off, .Lks_back_common - ks_direct_tramp
	.globl	ks_direct_back_fast_off
	.set	ks_direct_back_fast_off, .Lks_back_fast - ks_direct_tramp
	.globl	ks_direct_back_fast_x_off
	.set	ks_direct_back_fast_x_off, .Lks_back_fast_x - ks_direct_tramp
