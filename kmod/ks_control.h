/* SPDX-License-Identifier: GPL-2.0 */
/* kstats control (ks_control.c): _control and _last. */
#ifndef _KSTATS_CONTROL_H
#define _KSTATS_CONTROL_H

#include "ks_files.h"

extern const struct proc_ops ks_control_file;
extern const struct proc_ops ks_last_file;
void ks_control_exit(void);

#endif /* _KSTATS_CONTROL_H */
