/* SPDX-License-Identifier: GPL-2.0 */
/* kstats globs (ks_glob.c) and _last. */
#ifndef _KSTATS_KS_GLOB_H
#define _KSTATS_KS_GLOB_H

#include <linux/seq_file.h>
#include <kstats/glob.h>	/* ks_is_glob() */
#include "ks_types.h"

int ks_glob_trace(const struct ks_cmd *cmd, const char *line);
void ks_last_show(struct seq_file *m);
void ks_last_free(void);

#endif /* _KSTATS_KS_GLOB_H */
