/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_serve: the exporter of kstats serve.  Every request reads each node
 * once (ks_load_live()), never writes to the module, and answers
 *   GET /metrics   the nodes: protobuf (ks_pb.c, native histograms) when
 *                  the Accept header asks for it, else the text of
 *                  ks_export_prometheus() (classic histograms)
 *   GET /          a line pointing to /metrics
 *   anything else  404, or 405 for a method other than GET and HEAD
 * HTTP is libmicrohttpd's, one thread for every connection.
 */
#ifndef KS_SERVE_H
#define KS_SERVE_H

#include <stddef.h>
#include "ks_pb.h"

/* What to serve. */
struct ks_serve_opts {
	char *const *globs;	/* the nodes these match (ks_name_match()) */
	int nglobs;		/* 0: every node */
	unsigned int flags;	/* KS_EXPORT_PER_CPU */
};

/* One answer. */
struct ks_serve_resp {
	int status;		/* 200, 404, 405, 503, 500 */
	const char *type;	/* its Content-Type */
	struct ks_buf body;	/* free(body.data) */
};

/**
 * ks_serve_wants_pb() - does @accept prefer the protobuf exposition?
 * @accept: the request's Accept header, or NULL
 *
 * The media range of the highest q (the first of equal ones) among those
 * served: application/vnd.google.protobuf with
 * proto=io.prometheus.client.MetricFamily (encoding delimited, or none)
 * for protobuf; text/plain, text/ * and * / * for text.  Others
 * (OpenMetrics) and q=0 are passed over; none left is text.
 *
 * Return: 1 for protobuf, 0 for text.
 */
int ks_serve_wants_pb(const char *accept);

/**
 * ks_serve_respond() - the answer to one request
 * @o:      what to serve
 * @method: the request's method
 * @path:   its path (no query string)
 * @accept: its Accept header, or NULL
 * @r:      filled
 *
 * Return: 0, or -1 when out of memory (then @r holds nothing to free).
 */
int ks_serve_respond(const struct ks_serve_opts *o, const char *method,
		     const char *path, const char *accept, struct ks_serve_resp *r);

/**
 * ks_serve_run() - serve on @listen until SIGINT or SIGTERM
 * @o:      what to serve
 * @listen: ADDR:PORT, [ADDR6]:PORT; port 0 picks a free one
 * @err:    on failure, one line saying why
 * @errlen: size of @err
 *
 * Prints "kstats: serve: http://ADDR:PORT/metrics" on stderr once
 * listening.
 *
 * Return: 0 after a signal, -1 when it cannot listen.
 */
int ks_serve_run(const struct ks_serve_opts *o, const char *listen, char *err,
		 size_t errlen);

#endif /* KS_SERVE_H */
