/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats backends (ks_backend.c): the table of the ways a node is hooked,
 * each one's struct ks_backend (ks_types.h).
 */
#ifndef _KSTATS_BACKEND_H
#define _KSTATS_BACKEND_H

#include "ks_types.h"

/* The table's entries: each backend's file defines one, ks_backend.c alone names them. */
extern const struct ks_backend ks_kretprobe_backend;
extern const struct ks_backend ks_section_backend;
extern const struct ks_backend ks_direct_backend;
#ifdef CONFIG_FPROBE
extern const struct ks_backend ks_fprobe_backend;
#endif

const char *ks_backend_name(unsigned int via);
const struct ks_backend *ks_pick_backend(enum ks_via via);
const struct ks_backend *ks_backend_choose(struct ks_node *node);
const struct ks_backend *ks_backend_next(const struct ks_backend *b);
void ks_backends_settle(void);
int ks_backends_start(void);
void ks_backends_stop(void);
void ks_backends_wake(bool say);

#endif /* _KSTATS_BACKEND_H */
