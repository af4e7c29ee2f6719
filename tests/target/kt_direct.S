/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats_target's own direct-call trampoline, as another tracer (a BPF
 * fentry program, a livepatch) would attach one: it returns into the
 * traced body at once.
 */
#include <linux/linkage.h>
#include <asm/unwind_hints.h>
#include <asm/ibt.h>

	.text
SYM_CODE_START(kt_direct_stub)
	UNWIND_HINT_FUNC
	ENDBR
	RET
SYM_CODE_END(kt_direct_stub)
