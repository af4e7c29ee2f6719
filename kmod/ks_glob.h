/* SPDX-License-Identifier: GPL-2.0 */
/* kstats globs (ks_glob.c) and _last. */
#ifndef _KSTATS_GLOB_H
#define _KSTATS_GLOB_H

#include <linux/seq_file.h>
#include "ks_node.h"

bool ks_is_glob(const char *name);
int ks_glob_trace(const struct ks_cmd *cmd, const char *line);
void ks_last_show(struct seq_file *m);
void ks_last_free(void);

#endif /* _KSTATS_GLOB_H */
