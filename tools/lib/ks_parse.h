/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_parse: the one reader of /sys/kernel/debug/kstats/NAME (docs/format.md),
 * into a struct ks_view (ks_view.h).
 */
#ifndef KS_PARSE_H
#define KS_PARSE_H

#include <stddef.h>
#include "ks_err.h"
#include "ks_view.h"

/* Check every documented invariant of the text, fail on the first broken. */
#define KS_PARSE_STRICT		0x1

/**
 * ks_parse_text() - parse the text of a node file
 * @text:  NUL-terminated node text
 * @src:   name used in error messages (file or node path)
 * @flags: 0 or KS_PARSE_STRICT
 * @node:  filled on success (free with ks_view_free())
 * @err:   on failure, "SRC:LINE: what is wrong"
 * @errlen: size of @err
 *
 * Without KS_PARSE_STRICT only what makes the data ambiguous fails (bad
 * syntax, bad numbers, slots out of range, duplicate rows); with it, the
 * consistency of counts, cumulative columns, header figures and ordering
 * is checked too.
 *
 * Return: 0 on success, -1 on failure.
 */
int ks_parse_text(const char *text, const char *src, unsigned int flags,
		  struct ks_view *node, char *err, size_t errlen);

#endif /* KS_PARSE_H */
