/* SPDX-License-Identifier: GPL-2.0 */
/* kstats BTF (ks_btf.c): how a function takes its arguments. */
#ifndef _KSTATS_BTF_H
#define _KSTATS_BTF_H

#include "ks_types.h"

int ks_btf_args_in_regs(const struct ks_node *node, int *res);
int ks_btf_prepare(void);
void ks_btf_release(void);
void ks_btf_hold(void);
void ks_btf_drop(void);

#endif /* _KSTATS_BTF_H */
