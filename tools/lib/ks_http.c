// SPDX-License-Identifier: GPL-2.0
/*
 * ks_http: HTTP GET through libcurl, loaded with dlopen() on first use.
 *
 * The few entry points and constants are those of libcurl's stable ABI
 * (soname libcurl.so.4, <curl/curl.h>): the tool builds without curl's
 * headers, for every architecture, and runs without libcurl until an
 * HTTP source is asked for.  Built with KS_NO_CURL (the static binary of
 * the VM guests, where dlopen() cannot load a shared libcurl), every call
 * says so and fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_http.h"

#define KS_HTTP_MAX	(64 << 20)	/* an answer larger than 64 MiB is refused */

char *ks_http_escape(const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	char *out = malloc(strlen(s) * 3 + 1), *o = out;

	if (!out)
		return NULL;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~') {
			*o++ = (char)c;
		} else {
			*o++ = '%';
			*o++ = hex[c >> 4];
			*o++ = hex[c & 15];
		}
	}
	*o = '\0';
	return out;
}

#ifdef KS_NO_CURL

int ks_http_get(const char *url, char **body, long *status, char *err, size_t errlen)
{
	(void)url;
	*body = NULL;
	*status = 0;
	snprintf(err, errlen, "HTTP is not in this build (the static kstats has no libcurl): use the dynamic tools/kstats");
	return -1;
}

#else

#include <dlfcn.h>

/* From <curl/curl.h>, libcurl.so.4's ABI. */
#define KS_CURLOPT_WRITEDATA		10001
#define KS_CURLOPT_URL			10002
#define KS_CURLOPT_ERRORBUFFER		10010
#define KS_CURLOPT_WRITEFUNCTION	20011
#define KS_CURLOPT_TIMEOUT		13
#define KS_CURLOPT_CONNECTTIMEOUT	78
#define KS_CURLOPT_NOSIGNAL		99
#define KS_CURLINFO_RESPONSE_CODE	0x200002
#define KS_CURL_ERROR_SIZE		256
#define KS_CURL_GLOBAL_DEFAULT		3

static struct {
	void *dl;
	int (*global_init)(long flags);
	void *(*init)(void);
	int (*setopt)(void *curl, int opt, ...);
	int (*perform)(void *curl);
	int (*getinfo)(void *curl, int info, ...);
	void (*cleanup)(void *curl);
	const char *(*strerror)(int code);
} ks_curl;

/* Load libcurl once; 0, or -1 with @err set. */
static int ks_curl_load(char *err, size_t errlen)
{
	if (ks_curl.dl)
		return 0;
	ks_curl.dl = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
	if (!ks_curl.dl) {
		snprintf(err, errlen, "cannot load libcurl (apt install libcurl4): %s", dlerror());
		return -1;
	}
	*(void **)&ks_curl.global_init = dlsym(ks_curl.dl, "curl_global_init");
	*(void **)&ks_curl.init = dlsym(ks_curl.dl, "curl_easy_init");
	*(void **)&ks_curl.setopt = dlsym(ks_curl.dl, "curl_easy_setopt");
	*(void **)&ks_curl.perform = dlsym(ks_curl.dl, "curl_easy_perform");
	*(void **)&ks_curl.getinfo = dlsym(ks_curl.dl, "curl_easy_getinfo");
	*(void **)&ks_curl.cleanup = dlsym(ks_curl.dl, "curl_easy_cleanup");
	*(void **)&ks_curl.strerror = dlsym(ks_curl.dl, "curl_easy_strerror");
	if (!ks_curl.global_init || !ks_curl.init || !ks_curl.setopt || !ks_curl.perform ||
	    !ks_curl.getinfo || !ks_curl.cleanup || !ks_curl.strerror) {
		snprintf(err, errlen, "libcurl.so.4 lacks curl_easy_*: not libcurl");
		dlclose(ks_curl.dl);
		ks_curl.dl = NULL;
		return -1;
	}
	ks_curl.global_init(KS_CURL_GLOBAL_DEFAULT);
	return 0;
}

struct ks_buf {
	char *p;
	size_t n, cap;
	int big;
};

static size_t ks_http_write(char *data, size_t size, size_t nmemb, void *arg)
{
	struct ks_buf *b = arg;
	size_t len = size * nmemb;

	if (b->n + len + 1 > KS_HTTP_MAX) {
		b->big = 1;
		return 0;
	}
	if (b->n + len + 1 > b->cap) {
		size_t cap = (b->n + len + 1) * 2;
		char *p = realloc(b->p, cap);

		if (!p)
			return 0;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, data, len);
	b->n += len;
	b->p[b->n] = '\0';
	return len;
}

int ks_http_get(const char *url, char **body, long *status, char *err, size_t errlen)
{
	char cerr[KS_CURL_ERROR_SIZE] = "";
	struct ks_buf b = { 0 };
	void *c;
	int rc;

	*body = NULL;
	*status = 0;
	if (ks_curl_load(err, errlen))
		return -1;
	c = ks_curl.init();
	if (!c) {
		snprintf(err, errlen, "curl_easy_init failed");
		return -1;
	}
	ks_curl.setopt(c, KS_CURLOPT_URL, url);
	ks_curl.setopt(c, KS_CURLOPT_WRITEFUNCTION, ks_http_write);
	ks_curl.setopt(c, KS_CURLOPT_WRITEDATA, (void *)&b);
	ks_curl.setopt(c, KS_CURLOPT_ERRORBUFFER, cerr);
	ks_curl.setopt(c, KS_CURLOPT_CONNECTTIMEOUT, 10L);
	ks_curl.setopt(c, KS_CURLOPT_TIMEOUT, 60L);
	ks_curl.setopt(c, KS_CURLOPT_NOSIGNAL, 1L);
	rc = ks_curl.perform(c);
	if (rc) {
		if (b.big)
			snprintf(err, errlen, "an answer larger than %d MiB", KS_HTTP_MAX >> 20);
		else
			snprintf(err, errlen, "%s", cerr[0] ? cerr : ks_curl.strerror(rc));
		ks_curl.cleanup(c);
		free(b.p);
		return -1;
	}
	ks_curl.getinfo(c, KS_CURLINFO_RESPONSE_CODE, status);
	ks_curl.cleanup(c);
	*body = b.p ? b.p : strdup("");
	return *body ? 0 : -1;
}

#endif /* KS_NO_CURL */
