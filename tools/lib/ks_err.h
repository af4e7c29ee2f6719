/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_err: the one error line of every reader (node text, JSON, snapshot
 * schema, the command line), and the words and numbers they all read.
 */
#ifndef KS_ERR_H
#define KS_ERR_H

#include <stddef.h>
#include <linux/types.h>

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

#endif /* KS_ERR_H */
