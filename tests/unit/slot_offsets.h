/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the slot macros' userspace tests put the per-CPU constants they
 * read (kmod/ks_slot_x86.h, kmod/ks_slot_arm64.h): any layout will do, with
 * bits and buckets side by side as arm64's ldp reads them.  The module's
 * offsets are its C types', generated into ks_offsets.h (kmod/Kbuild).
 */
#ifndef KS_TEST_SLOT_OFFSETS_H
#define KS_TEST_SLOT_OFFSETS_H

#define KS_OFFSETS_GIVEN	1
#define KS_PCPU_ONE		48
#define KS_PCPU_TWO		56
#define KS_PCPU_BITS		60
#define KS_PCPU_BUCKETS		64

#endif
