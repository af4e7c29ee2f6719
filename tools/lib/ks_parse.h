/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_parse: the one reader of /sys/kernel/debug/kstats/NAME (docs/format.md),
 * into a struct ks_view (ks_view.h).
 */
#ifndef KS_PARSE_H
#define KS_PARSE_H

#include <stddef.h>
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

/* Where a reader (node text, JSON, snapshot schema) writes its error. */
struct ks_errbuf {
	const char *src;	/* file or node path, first in the message */
	char *buf;
	size_t len;
};

/**
 * ks_fail() - write "SRC:LINE: MSG" into @e ("SRC: MSG" when @line is 0)
 * @e:    where, and the source's name
 * @line: line of the source the error is about, or 0
 * @fmt:  printf format of MSG
 *
 * The one formatter of the readers' errors.
 *
 * Return: -1, so that a reader can "return ks_fail(...)".
 */
int ks_fail(const struct ks_errbuf *e, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * ks_err() - print "kstats: MSG" on stderr
 * @fmt: printf format of MSG
 */
void ks_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * ks_parse_u64() - strict decimal unsigned 64-bit number
 * @s:   text, digits only
 * @out: value
 *
 * Return: 0, or -1 on empty text, a non-digit or overflow.
 */
int ks_parse_u64(const char *s, __u64 *out);

/**
 * ks_join_words() - the words @tok[@from..@ntok-1] joined by one blank
 * @dst:  output
 * @len:  size of @dst
 * @tok:  words
 * @from: the first
 * @ntok: how many words @tok holds
 *
 * Return: 0, or -1 when there is no word from @from on or they do not fit.
 */
int ks_join_words(char *dst, size_t len, char **tok, int from, int ntok);

#endif /* KS_PARSE_H */
