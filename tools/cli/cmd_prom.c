// SPDX-License-Identifier: GPL-2.0
/*
 * kstats compare --prometheus URL [--window W] [--at T] [--function GLOB]
 *                SEL_A SEL_B [--label BASE --label NEW] [--markdown|--json]
 *
 * The two sides are label selectors over kstats' exported histograms
 * (ks_export.c) in a Prometheus server.  Per side, one query of the
 * buckets' increase() over the window, summed by function, instance and
 * le (and timing, which marks a QEMU -icount guest), or where the series
 * are native histograms (kstats serve) their increase(), whose buckets
 * ks_prom.c reads as le and count; the note says which: each machine
 * (instance) is one run of its side, its histogram re-binned by
 * ks_prom.c, and ks_cmp.c judges them as it judges snapshot files.  Every
 * failure is one line on stderr and status 1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kstats.h"
#include "ks_cmp.h"
#include "ks_http.h"
#include "ks_parse.h"
#include "ks_prom.h"

#define KS_Q_MAX	2048

struct ks_promq {
	const char *url;	/* the server, no trailing / */
	const char *window;
	char at[64];		/* the evaluation time, for the query string */
	char when[64];		/* the same for a message */
};

/* GET @api?@param=@value[&time=@at] from the server into @vec; -1 printed. */
static int ks_prom_get(const struct ks_promq *q, const char *api, const char *param,
		       const char *value, const char *at, struct ks_prom_vec *vec)
{
	char *esc = ks_http_escape(value), *url, *body = NULL;
	char err[KS_ERR_MAX], perr[KS_ERR_MAX];
	long status;
	size_t len;
	int ret = -1;

	if (!esc)
		return -1;
	len = strlen(q->url) + strlen(api) + strlen(param) + strlen(esc) + sizeof(q->at) + 16;
	url = malloc(len);
	if (!url) {
		free(esc);
		return -1;
	}
	snprintf(url, len, "%s%s?%s=%s%s%s", q->url, api, param, esc, at ? "&time=" : "",
		 at ? at : "");
	if (ks_http_get(url, &body, &status, err, sizeof(err))) {
		ks_err("compare: Prometheus at %s: %s", q->url, err);
		goto out;
	}
	if (ks_prom_parse(body, "answer", vec, perr, sizeof(perr))) {
		if (status != 200 && !strstr(body, "\"status\""))
			ks_err("compare: Prometheus at %s: HTTP %ld from %s", q->url, status, api);
		else
			ks_err("compare: Prometheus at %s: %s", q->url, perr + strlen("answer: "));
		goto out;
	}
	ret = 0;
out:
	free(body);
	free(url);
	free(esc);
	return ret;
}

/*
 * query=EXPR at the evaluation time (@now: at the server's present): an
 * instant vector, or -1 printed.
 */
static int ks_prom_query(const struct ks_promq *q, const char *expr, int now,
			 struct ks_prom_vec *vec)
{
	return ks_prom_get(q, "/api/v1/query", "query", expr, now ? NULL : q->at, vec);
}

/*
 * The samples of one side: the buckets' increase(), and _sum's and
 * _count's; refused (printed) when the selector matches nothing, the
 * window holds no samples, or a counter was reset inside it.  Native
 * histograms (kstats serve) where the selector's series are native:
 * their increase(), histogram_sum() and histogram_count() of it, their
 * buckets as le samples (ks_prom_parse()); else the classic series.
 * Return: 0, 1 for native, or -1.
 */
static int ks_prom_fetch(const struct ks_promq *q, const char *sel, struct ks_prom_vec v[3])
{
	static const char * const what[3] = { "bucket", "sum", "count" };
	static const char * const nwhat[3] = { "", "histogram_sum", "histogram_count" };
	char expr[KS_Q_MAX];
	struct ks_prom_vec r = { 0 };
	int i, native;

	snprintf(expr, sizeof(expr), "sum by (node, function, instance, timing) (increase(%s{%s}[%s]))",
		 KS_PROM_METRIC, sel, q->window);
	if (ks_prom_query(q, expr, 0, &v[0]))
		return -1;
	native = v[0].native;
	if (!native)
		ks_prom_vec_free(&v[0]);
	for (i = native; i < 3; i++) {
		if (native)
			snprintf(expr, sizeof(expr), "sum by (node, function, instance, timing) (%s(increase(%s{%s}[%s])))",
				 nwhat[i], KS_PROM_METRIC, sel, q->window);
		else
			snprintf(expr, sizeof(expr), "sum by (node, function, instance, timing%s) (increase(%s_%s{%s}[%s]))",
				 i ? "" : ", le", KS_PROM_METRIC, what[i], sel, q->window);
		if (ks_prom_query(q, expr, 0, &v[i]))
			return -1;
		if (i || v[0].n)
			continue;
		/* nothing: no such series, or none with samples in the window */
		snprintf(expr, sizeof(expr), "count(last_over_time(%s_count{%s}[100y]))",
			 KS_PROM_METRIC, sel);
		if (ks_prom_query(q, expr, 1, &r))
			return -1;
		if (!r.n)
			ks_err("compare: {%s} matches no series of %s_bucket at %s", sel,
			       KS_PROM_METRIC, q->url);
		else
			ks_err("compare: {%s}: no data in the %s window before %s (fewer than two samples a series; --at moves it)",
			       sel, q->window, q->when);
		ks_prom_vec_free(&r);
		return -1;
	}
	if (native)	/* resets() reads floats: the count's, each second */
		snprintf(expr, sizeof(expr), "sum by (node, function, instance) (resets(histogram_count(%s{%s})[%s:1s])) > 0",
			 KS_PROM_METRIC, sel, q->window);
	else
		snprintf(expr, sizeof(expr), "sum by (node, function, instance) (resets(%s_count{%s}[%s])) > 0",
			 KS_PROM_METRIC, sel, q->window);
	if (ks_prom_query(q, expr, 0, &r))
		return -1;
	if (r.n) {
		ks_err("compare: {%s}: %s on %s was reset inside the %s window before %s (kstats reset or re-trace): pick a window after it (--at, --window)",
		       sel, r.s[0].name, r.s[0].instance, q->window, q->when);
		ks_prom_vec_free(&r);
		return -1;
	}
	return native;
}

/* A selector as given, braces or none: its inside, or NULL when unusable. */
static const char *ks_prom_sel(char *s)
{
	size_t n = strlen(s);

	if (n >= 2 && s[0] == '{' && s[n - 1] == '}') {
		s[n - 1] = '\0';
		s++;
	}
	return *s && strlen(s) < KS_Q_MAX / 4 ? s : NULL;
}

/* A PromQL duration: digits and a unit, repeated (1h30m). */
static int ks_prom_duration(const char *d)
{
	const char *p = d;

	if (!*p)
		return 0;
	while (*p) {
		if (*p < '0' || *p > '9')
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
		if (!strncmp(p, "ms", 2))
			p += 2;
		else if (*p && strchr("smhdwy", *p))
			p++;
		else
			return 0;
	}
	return 1;
}

/* --at @at (NULL: now) into @q: the query's time and how notes say it; exits on a bad one. */
static void ks_prom_at(struct ks_promq *q, const char *at)
{
	if (at) {
		char *esc = ks_http_escape(at);

		if (!esc || strlen(esc) >= sizeof(q->at))
			ks_bad_usage("compare", "--at takes a time: unix seconds or RFC 3339");
		snprintf(q->at, sizeof(q->at), "%s", esc);
		snprintf(q->when, sizeof(q->when), "%s", at);
		free(esc);
	} else {
		snprintf(q->at, sizeof(q->at), "%lld", (long long)time(NULL));
	}
	if (strspn(q->at, "0123456789") == strlen(q->at)) {	/* unix seconds */
		time_t t = (time_t)strtoll(q->at, NULL, 10);

		strftime(q->when, sizeof(q->when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	}
}

int cmd_compare_prom(int argc, char **argv)
{
	const char *labels[2], *glob = NULL, *at = NULL, *sels[2];
	char *sel[2];
	struct ks_promq q = { .window = "10m" };
	struct ks_prom_vec va[3] = { { 0 } }, vb[3] = { { 0 } };
	struct ks_prom_layout lay = { 0 };
	struct ks_prom_side pa = { 0 }, pb = { 0 };
	struct ks_cmp_side a, b;
	char note[256], url[1024];
	int i, nl = 0, ns = 0, fmt = KS_CMP_TEXT, ret = 1, per2, na, nb;

	for (i = 1; i < argc; i++) {
		const char *o = argv[i];
		const char **dst = NULL;

		if (!strcmp(o, "--prometheus"))
			dst = &q.url;
		else if (!strcmp(o, "--window"))
			dst = &q.window;
		else if (!strcmp(o, "--function"))
			dst = &glob;
		else if (!strcmp(o, "--at"))
			dst = &at;
		else if (!strcmp(o, "--label"))
			dst = nl < 2 ? &labels[nl++] : NULL;
		else if (!strcmp(o, "--markdown"))
			fmt = KS_CMP_MARKDOWN;
		else if (!strcmp(o, "--json"))
			fmt = KS_CMP_JSON;
		else if (o[0] == '-' && o[1]) {
			ks_err("compare: '%s' does not go with --prometheus (kstats compare --help)", o);
			ks_bad_usage("compare", NULL);
		} else if (ns < 2)
			sel[ns++] = argv[i];
		else
			ks_bad_usage("compare", "--prometheus takes two selectors, A and B");
		if (!strcmp(o, "--label") && !dst)
			ks_bad_usage("compare", "--prometheus takes two --label at most (base, new)");
		if (dst) {
			if (++i == argc)
				ks_bad_usage("compare", "an option lacks its value");
			*dst = argv[i];
		}
	}
	if (ns != 2)
		ks_bad_usage("compare", "--prometheus takes two selectors, A and B: 'release=\"6.1.0-57-amd64\"'");
	if (!ks_prom_duration(q.window))
		ks_bad_usage("compare", "--window takes a Prometheus duration: 10m, 1h, 90s");
	for (i = 0; i < 2; i++) {
		sels[i] = ks_prom_sel(sel[i]);
		if (!sels[i])
			ks_bad_usage("compare", "an empty or over-long selector");
	}
	snprintf(url, sizeof(url), "%s", q.url);
	if (*url && url[strlen(url) - 1] == '/')
		url[strlen(url) - 1] = '\0';
	q.url = url;
	ks_prom_at(&q, at);
	na = ks_prom_fetch(&q, sels[0], va);
	nb = na < 0 ? -1 : ks_prom_fetch(&q, sels[1], vb);
	if (na < 0 || nb < 0)
		goto out;
	if (ks_prom_layout_init(&lay) ||
	    ks_prom_side(&lay, &va[0], &va[1], &va[2], glob, nl > 0 ? labels[0] : sels[0], &pa) ||
	    ks_prom_side(&lay, &vb[0], &vb[1], &vb[2], glob, nl > 1 ? labels[1] : sels[1], &pb)) {
		ks_err("compare: out of memory");
		goto out;
	}
	for (i = 0; i < 2; i++) {
		if (!(i ? pb.n : pa.n)) {
			ks_err("compare: {%s}: no function%s%s with calls in the %s window before %s",
			       sels[i], glob ? " matching " : "", glob ? glob : "", q.window, q.when);
			goto out;
		}
	}
	per2 = lay.worst > 0 ? (int)lround(M_LN2 / log1p(lay.worst)) : 0;
	snprintf(note, sizeof(note), "percentiles: bucket middles, within %.0f%% (Prometheus %s, %d per power of two)",
		 lay.worst * 100, na && nb ? "native histograms" : na || nb ?
		 (na ? "native histograms against buckets" : "buckets against native histograms") :
		 "buckets", per2);
	a = (struct ks_cmp_side){ .label = nl > 0 ? labels[0] : sels[0], .nodes = pa.nodes,
				  .srcs = pa.srcs, .n = pa.n, .bounds = lay.bounds,
				  .precision = lay.worst > 0 ? note : NULL,
				  .precision_pct = lay.worst * 100 };
	b = (struct ks_cmp_side){ .label = nl > 1 ? labels[1] : sels[1], .nodes = pb.nodes,
				  .srcs = pb.srcs, .n = pb.n };
	ret = ks_cmp_print(stdout, &a, &b, fmt, 0) ? 1 : 0;
out:
	ks_prom_side_free(&pa);
	ks_prom_side_free(&pb);
	ks_prom_layout_free(&lay);
	for (i = 0; i < 3; i++) {
		ks_prom_vec_free(&va[i]);
		ks_prom_vec_free(&vb[i]);
	}
	return ret;
}
