// SPDX-License-Identifier: GPL-2.0
/*
 * ks_err: the one error line of every reader, and the words and numbers
 * they all read (ks_err.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ks_err.h"

int ks_fail(const struct ks_errbuf *e, int line, const char *fmt, ...)
{
	va_list ap;
	int off;

	if (line > 0)
		off = snprintf(e->buf, e->len, "%s:%d: ", e->src, line);
	else
		off = snprintf(e->buf, e->len, "%s: ", e->src);
	if (off < 0 || (size_t)off >= e->len)
		return -1;
	va_start(ap, fmt);
	vsnprintf(e->buf + off, e->len - off, fmt, ap);
	va_end(ap);
	return -1;
}

void ks_err(const char *fmt, ...)
{
	va_list ap;

	fputs("kstats: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int ks_parse_u64(const char *s, __u64 *out)
{
	__u64 v = 0;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (v > (~0ULL - (__u64)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (__u64)(*s - '0');
	}
	*out = v;
	return 0;
}

int ks_join_words(char *dst, size_t len, char **tok, int from, int ntok)
{
	size_t n = 0, w;
	int i;

	dst[0] = '\0';
	for (i = from; i < ntok; i++) {
		w = strlen(tok[i]);
		if (n + w + 2 > len)
			return -1;
		if (n)
			dst[n++] = ' ';
		memcpy(dst + n, tok[i], w + 1);
		n += w;
	}
	return from < ntok ? 0 : -1;
}
