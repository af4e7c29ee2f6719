/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats backends (ks_backend.c): the table of the ways a node is hooked,
 * each one's struct ks_backend (ks_types.h).
 */
#ifndef _KSTATS_BACKEND_H
#define _KSTATS_BACKEND_H

#include "ks_types.h"

extern const struct ks_backend ks_kretprobe_backend;
extern const struct ks_backend ks_section_backend;
extern const struct ks_backend ks_direct_backend;
int ks_direct_watch_exits(void);
void ks_direct_unwatch_exits(void);
void ks_direct_wake(void);
#ifdef CONFIG_FPROBE
extern const struct ks_backend ks_fprobe_backend;
#endif

const struct ks_backend *ks_pick_backend(enum ks_via via);
void ks_backends_settle(void);
int ks_backends_start(void);
void ks_backends_stop(void);
void ks_backends_wake(void);

#endif /* _KSTATS_BACKEND_H */
