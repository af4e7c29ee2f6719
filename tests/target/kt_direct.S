/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats_target's own direct-call trampoline, as another tracer (a BPF
 * fentry program, a livepatch) would attach one: it returns into the
 * traced body at once.
 */
#include <linux/linkage.h>

	.text
#ifdef CONFIG_X86_64
#include <asm/unwind_hints.h>
#include <asm/ibt.h>

SYM_CODE_START(kt_direct_stub)
	UNWIND_HINT_FUNC
	ENDBR
	RET
SYM_CODE_END(kt_direct_stub)
#else
/*
 * arm64: the call site is "mov x9, x30; bl stub": x30 is the body, x9 the
 * caller's return address (samples/ftrace/ftrace-direct.c).
 */
SYM_CODE_START(kt_direct_stub)
	hint	#34		/* bti c */
	mov	x10, x30
	mov	x30, x9
	ret	x10
SYM_CODE_END(kt_direct_stub)
#endif
