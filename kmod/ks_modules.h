/* SPDX-License-Identifier: GPL-2.0 */
/* kstats modules (ks_modules.c): nodes whose module goes. */
#ifndef _KSTATS_MODULES_H
#define _KSTATS_MODULES_H

struct notifier_block;

extern struct notifier_block ks_module_nb;

#endif /* _KSTATS_MODULES_H */
