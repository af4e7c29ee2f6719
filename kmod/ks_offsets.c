// SPDX-License-Identifier: GPL-2.0
/*
 * What ks_tramp.S reads of the kernel's own structures, for "slowest":
 * their offsets in this kernel's build, made into ks_offsets.h as the
 * kernel makes its asm-offsets.h (Kbuild).  Never linked.
 */
#define COMPILE_OFFSETS
#include <linux/kbuild.h>
#include <linux/sched.h>
#include <linux/kernel_stat.h>
#include <asm/hardirq.h>
#include <asm/current.h>
#include "ks_arch.h"

void ks_offsets(void);

void ks_offsets(void)
{
	/* ks_ctx() of ks_node.h: the task's context switches */
	OFFSET(KS_TASK_NVCSW, task_struct, nvcsw);
	OFFSET(KS_TASK_NIVCSW, task_struct, nivcsw);
	/* and this CPU's interrupts (ks_irqs() of ks_arch.h) */
	OFFSET(KS_KSTAT_IRQS_SUM, kernel_stat, irqs_sum);
	DEFINE(KS_IRQSTAT_NMI, offsetof(irq_cpustat_t, KS_IRQ_NMI));
	DEFINE(KS_IRQSTAT_TIMER, offsetof(irq_cpustat_t, KS_IRQ_TIMER));
	DEFINE(KS_IRQSTAT_CALL, offsetof(irq_cpustat_t, KS_IRQ_CALL));
	DEFINE(KS_IRQSTAT_RESCHED, offsetof(irq_cpustat_t, KS_IRQ_RESCHED));
	DEFINE(KS_IRQSTAT_WORK, offsetof(irq_cpustat_t, KS_IRQ_WORK));
#ifdef KS_PCPU_HOT
	OFFSET(KS_HOT_CURRENT, pcpu_hot, current_task);
#endif
}
