/* SPDX-License-Identifier: GPL-2.0 */
/* kstats show (ks_show.c): a node's file, its text and the verbs written to it. */
#ifndef _KSTATS_SHOW_H
#define _KSTATS_SHOW_H

#include "ks_files.h"

extern const struct proc_ops ks_node_file;

#endif /* _KSTATS_SHOW_H */
