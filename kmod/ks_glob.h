/* SPDX-License-Identifier: GPL-2.0 */
/* kstats globs (ks_glob.c): trace GLOB, what it did said in _last's text. */
#ifndef _KSTATS_KS_GLOB_H
#define _KSTATS_KS_GLOB_H

#include <kstats/glob.h>	/* ks_is_glob() */
#include "ks_types.h"
#include "ks_files.h"

#define KS_LAST_SIZE	(64 * 1024)	/* _last's text, at most */
#define KS_LAST_KEEP	1024		/* room left for its last lines */

int ks_glob_trace(const struct ks_cmd *cmd, const char *line, struct ks_text *last);

#endif /* _KSTATS_KS_GLOB_H */
