// SPDX-License-Identifier: GPL-2.0
/*
 * ks_serve: the exporter of kstats serve (ks_serve.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_ctl.h"
#include "ks_export.h"
#include "ks_load.h"
#include "ks_serve.h"

#define KS_TEXT_TYPE	"text/plain; version=0.0.4; charset=utf-8"
#define KS_PB_TYPE	"application/vnd.google.protobuf"
#define KS_PB_PROTO	"io.prometheus.client.MetricFamily"

/* @s without blanks around it, as [*start, *end). */
static void ks_trim(const char **start, const char **end)
{
	while (*start < *end && (**start == ' ' || **start == '\t'))
		(*start)++;
	while (*end > *start && ((*end)[-1] == ' ' || (*end)[-1] == '\t'))
		(*end)--;
}

/* Does [s, e) equal @word, case aside? */
static int ks_word_is(const char *s, const char *e, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(e - s) == n && !strncasecmp(s, word, n);
}

/*
 * One media range [s, e) of an Accept header: its q (-1: not one served)
 * and whether it is the protobuf exposition.
 */
static double ks_accept_range(const char *s, const char *e, int *pb)
{
	const char *p = memchr(s, ';', e - s), *te = p ? p : e, *ts = s;
	int proto_ok = 0, enc_ok = 1;
	double q = 1;

	ks_trim(&ts, &te);
	*pb = ks_word_is(ts, te, KS_PB_TYPE);
	while (p && p < e) {
		const char *ps = p + 1, *pe, *eq, *vs, *ve;
		char val[16];

		p = memchr(ps, ';', e - ps);
		pe = p ? p : e;
		eq = memchr(ps, '=', pe - ps);
		if (!eq)
			continue;
		vs = eq + 1;
		ve = pe;
		ks_trim(&ps, &eq);
		ks_trim(&vs, &ve);
		if (ve - vs >= 2 && *vs == '"' && ve[-1] == '"') {
			vs++;
			ve--;
		}
		if (ks_word_is(ps, eq, "q")) {
			char *end;
			size_t n = (size_t)(ve - vs) < sizeof(val) - 1 ? (size_t)(ve - vs) :
				   sizeof(val) - 1;

			memcpy(val, vs, n);
			val[n] = '\0';
			q = strtod(val, &end);
			if (end == val || *end || !(q >= 0 && q <= 1))
				q = 0;
		} else if (ks_word_is(ps, eq, "proto")) {
			proto_ok = (size_t)(ve - vs) == strlen(KS_PB_PROTO) &&
				   !strncmp(vs, KS_PB_PROTO, ve - vs);
		} else if (ks_word_is(ps, eq, "encoding")) {
			enc_ok = ks_word_is(vs, ve, "delimited");
		}
	}
	if (*pb)
		return proto_ok && enc_ok ? q : -1;
	if (ks_word_is(ts, te, "text/plain") || ks_word_is(ts, te, "text/*") ||
	    ks_word_is(ts, te, "*/*"))
		return q;
	return -1;
}

int ks_serve_wants_pb(const char *accept)
{
	double best = 0;
	int pb = 0, is_pb;

	while (accept && *accept) {
		const char *e = strchr(accept, ',');
		double q;

		if (!e)
			e = accept + strlen(accept);
		q = ks_accept_range(accept, e, &is_pb);
		if (q > best) {
			best = q;
			pb = is_pb;
		}
		accept = *e ? e + 1 : e;
	}
	return pb;
}

/* A short answer: @status and the text @msg. */
static int ks_serve_text(struct ks_serve_resp *r, int status, const char *msg)
{
	r->status = status;
	r->type = "text/plain; charset=utf-8";
	return ks_buf_add(&r->body, msg, strlen(msg));
}

/* The nodes @o names, each read once; a node gone since the listing is left out. */
static int ks_serve_load(const struct ks_serve_opts *o, struct ks_set *set,
			 char *err, size_t errlen)
{
	char **names;
	int i, n;

	names = ks_ctl_names(&n, err, errlen);
	if (!names)
		return -1;
	for (i = 0; i < n; i++) {
		if (!ks_name_match(o->globs, o->nglobs, names[i]))
			continue;
		ks_set_add(set, names[i], 1, KS_LOAD_QUIET);
	}
	ks_ctl_names_free(names);
	return 0;
}

int ks_serve_respond(const struct ks_serve_opts *o, const char *method,
		     const char *path, const char *accept, struct ks_serve_resp *r)
{
	struct ks_set set = { 0 };
	char err[KS_ERR_MAX + 16];
	int ret = 0, i;

	memset(r, 0, sizeof(*r));
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		ret = ks_serve_text(r, 405, "kstats serve: GET or HEAD only\n");
	else if (!strcmp(path, "/"))
		ret = ks_serve_text(r, 200, "kstats serve: the histograms are at /metrics\n");
	else if (strcmp(path, "/metrics"))
		ret = ks_serve_text(r, 404, "kstats serve: not found (try /metrics)\n");
	else if (ks_serve_load(o, &set, err, sizeof(err) - 16)) {
		ret = ks_buf_add(&r->body, "kstats: ", 8) ||
		      ks_buf_add(&r->body, err, strlen(err)) ||
		      ks_buf_add(&r->body, "\n", 1) ? -1 : 0;
		r->status = 503;
		r->type = "text/plain; charset=utf-8";
	} else {
		for (i = 0; i < set.n; i++)
			if (!ks_export_metric(set.nodes[i]->unit, NULL))
				break;
		r->status = 200;
		if (i < set.n) {
			snprintf(err, sizeof(err), "kstats: %s: unit '%s' has no Prometheus metric\n",
				 set.nodes[i]->name, set.nodes[i]->unit);
			ret = ks_serve_text(r, 500, err);
		} else if (ks_serve_wants_pb(accept)) {
			r->type = KS_PB_CONTENT_TYPE;
			ret = ks_pb_write(&r->body, set.nodes, set.n, o->flags);
		} else {
			char *text = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&text, &len);

			r->type = KS_TEXT_TYPE;
			ret = !f || ks_export_prometheus(f, set.nodes, set.n, o->flags) ? -1 : 0;
			if (f && fclose(f))
				ret = -1;
			if (!ret)
				ret = ks_buf_add(&r->body, text, len);
			free(text);
		}
	}
	ks_set_free(&set);
	if (ret) {
		free(r->body.data);
		memset(r, 0, sizeof(*r));
		return -1;
	}
	return 0;
}

/* libmicrohttpd's handler: one call per request once its header is in. */
static enum MHD_Result ks_serve_handler(void *cls, struct MHD_Connection *c,
					const char *url, const char *method,
					const char *version, const char *upload,
					size_t *upload_size, void **state)
{
	static int first;
	struct ks_serve_resp r;
	struct MHD_Response *resp;
	enum MHD_Result ret;

	(void)version;
	(void)upload;
	if (!*state) {			/* the header: answer on the next call */
		*state = &first;
		return MHD_YES;
	}
	if (*upload_size) {		/* a body: read and ignored */
		*upload_size = 0;
		return MHD_YES;
	}
	if (ks_serve_respond(cls, method, url,
			     MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept"), &r)) {
		resp = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
		if (!resp)
			return MHD_NO;
		ret = MHD_queue_response(c, 500, resp);
		MHD_destroy_response(resp);
		return ret;
	}
	resp = MHD_create_response_from_buffer(r.body.len, r.body.data ? r.body.data : (void *)"",
					       r.body.data ? MHD_RESPMEM_MUST_FREE :
					       MHD_RESPMEM_PERSISTENT);
	if (!resp) {
		free(r.body.data);
		return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r.type);
	if (r.status == 405)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(c, r.status, resp);
	MHD_destroy_response(resp);
	return ret;
}

/* The path as sent: %XX left alone, so "/metrics%00x" is not /metrics. */
static size_t ks_serve_unescape(void *cls, struct MHD_Connection *c, char *uri)
{
	(void)cls;
	(void)c;
	return strlen(uri);
}

/* ADDR:PORT or [ADDR6]:PORT into @ss; -1 with why in @err. */
static int ks_serve_addr(const char *listen, struct sockaddr_storage *ss,
			 char *err, size_t errlen)
{
	struct addrinfo hints = { 0 }, *ai;
	char host[256], *port;
	const char *colon = strrchr(listen, ':');
	size_t n;
	int rc;

	if (!colon || colon == listen || !colon[1] ||
	    (size_t)(colon - listen) >= sizeof(host)) {
		snprintf(err, errlen, "--listen %s: ADDR:PORT expected (127.0.0.1:9477, [::1]:9477)",
			 listen);
		return -1;
	}
	n = colon - listen;
	memcpy(host, listen, n);
	host[n] = '\0';
	if (host[0] == '[' && n >= 2 && host[n - 1] == ']') {
		memmove(host, host + 1, n - 2);
		host[n - 2] = '\0';
	}
	port = (char *)colon + 1;
	if (strspn(port, "0123456789") != strlen(port) || strlen(port) > 5 ||
	    atoi(port) > 65535) {
		snprintf(err, errlen, "--listen %s: the port is 0..65535", listen);
		return -1;
	}
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	rc = getaddrinfo(host, port, &hints, &ai);
	if (rc) {
		snprintf(err, errlen, "--listen %s: %s", listen, gai_strerror(rc));
		return -1;
	}
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	return 0;
}

int ks_serve_run(const struct ks_serve_opts *o, const char *listen, char *err,
		 size_t errlen)
{
	struct sockaddr_storage ss = { 0 };
	const union MHD_DaemonInfo *info;
	char host[INET6_ADDRSTRLEN];
	struct MHD_Daemon *d;
	sigset_t set;
	int sig;

	if (ks_serve_addr(listen, &ss, err, errlen))
		return -1;
	/* the signals go to sigwait() below, not to libmicrohttpd's thread */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
			     (ss.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
			     0, NULL, NULL, ks_serve_handler, (void *)o,
			     MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
			     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)256,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
			     MHD_OPTION_UNESCAPE_CALLBACK, ks_serve_unescape, NULL,
			     MHD_OPTION_END);
	if (!d) {
		snprintf(err, errlen, "cannot listen on %s: %s", listen,
			 errno ? strerror(errno) : "libmicrohttpd refused");
		return -1;
	}
	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	if (ss.ss_family == AF_INET6)
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, host, sizeof(host));
	else
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, host, sizeof(host));
	fprintf(stderr, "kstats: serve: http://%s%s%s:%u/metrics\n",
		ss.ss_family == AF_INET6 ? "[" : "", host,
		ss.ss_family == AF_INET6 ? "]" : "", info ? info->port : 0);
	do {
		if (sigwait(&set, &sig))
			break;
	} while (sig != SIGINT && sig != SIGTERM);
	MHD_stop_daemon(d);
	return 0;
}
