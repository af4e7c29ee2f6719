/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_http: one HTTP GET through Debian's libcurl, loaded at run time
 * (dlopen("libcurl.so.4")), so that the tool links against libc only and
 * its static build (built with KS_NO_CURL) has no HTTP at all.
 */
#ifndef KS_HTTP_H
#define KS_HTTP_H

#include <stddef.h>

/**
 * ks_http_get() - fetch @url
 * @url:    an http:// or https:// address
 * @body:   the answer's body, NUL-terminated (free() it), on success
 * @status: the HTTP status
 * @err:    on failure, one line: why
 * @errlen: size of @err
 *
 * Return: 0 when an answer came (of any status), -1 when none did
 * (libcurl missing, not in this build, host unreachable, timeout).
 */
int ks_http_get(const char *url, char **body, long *status, char *err, size_t errlen);

/**
 * ks_http_escape() - @s percent-encoded for a query string
 * @s: text
 *
 * Return: a new string (free() it), or NULL when out of memory.
 */
char *ks_http_escape(const char *s);

#endif /* KS_HTTP_H */
