// SPDX-License-Identifier: GPL-2.0
/*
 * kstats watch: every interval, what it added to each node.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "ks_fmt.h"
#include "ks_load.h"
#include "ks_parse.h"
#include "ks_tick.h"
#include "kstats.h"

/* The percentiles a watch line shows (all but p95 and p98: a short line). */
static const int ks_watch_pct[] = {
	KSTATS_P10, KSTATS_P50, KSTATS_P90, KSTATS_P99, KSTATS_P999,
};
#define KS_WATCH_NR_PCT	((int)(sizeof(ks_watch_pct) / sizeof(ks_watch_pct[0])))

/* What watch was asked for. */
struct ks_watch {
	struct ks_tick tick;	/* interval, count, test hook */
	int hist;
	char **names;
	int nn;
};

/* Parse the arguments of watch into @w; exits on bad usage; 1 for --help. */
static int ks_watch_args(int argc, char **argv, struct ks_watch *w)
{
	static const struct option lo[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ "hist", no_argument, NULL, OPT_HIST },
#ifdef KS_TEST
		{ "test-tick", required_argument, NULL, OPT_TEST_TICK },
#endif
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	int opt;

	*w = (struct ks_watch){ .tick = { .interval = 1.0, .count = -1 } };
	while ((opt = getopt_long(argc, argv, ":i:n:h", lo, NULL)) != -1) {
		if (ks_tick_opt("watch", &w->tick, opt, optarg))
			continue;
		switch (opt) {
		case OPT_HIST:
			w->hist = 1;
			break;
		case 'h':
		case OPT_HELP:
			ks_help(stdout, "watch");
			return 1;
		default:
			ks_bad_opt("watch", opt, argv);
		}
	}
	w->names = argv + optind;
	w->nn = argc - optind;
	if (w->nn < 1)
		ks_bad_usage("watch", "NAME expected");
	return 0;
}

/* The column headers; returns the width of a value column. */
static int ks_watch_header(const struct ks_watch *w, const struct ks_view *nodes)
{
	int i, width = 0;

	printf("# every %g s: what each interval added; percentiles of the interval's histogram\n",
	       w->tick.interval);
	for (i = 0; i < w->nn; i++)
		if (ks_value_width(nodes[i].unit) > width)
			width = ks_value_width(nodes[i].unit);
	printf("%8s %-20s %10s %10s %8s", "TIME", "NAME", "SAMPLES", "RATE/s", "MISSED");
	for (i = 0; i < KS_WATCH_NR_PCT; i++)
		printf(" %*s", width, kstats_pct_name[ks_watch_pct[i]]);
	printf("\n");
	fflush(stdout);
	return width;
}

/*
 * Read node @i again and print what it added since *@prev, which becomes
 * the new read; 0 or -1 (printed).
 */
static int ks_watch_node(const struct ks_watch *w, int i, struct ks_view *prev,
			 int width)
{
	double at = w->tick.now - w->tick.t0, secs = w->tick.now - w->tick.last;
	struct ks_view d;
	char buf[32];
	int k, reset;

	reset = ks_tick_read(w->names[i], prev, &d, 0);
	if (reset < 0)
		return -1;
	printf("%8.1f %-20s %10llu %10.1f %8llu", at, d.name,
	       (unsigned long long)d.samples,
	       secs > 0 ? (double)d.samples / secs : 0.0,
	       (unsigned long long)d.missed);
	for (k = 0; k < KS_WATCH_NR_PCT; k++)
		printf(" %*s", width, d.samples ?
		       ks_fmt_value(buf, sizeof(buf), d.pct[ks_watch_pct[k]], d.unit) : "-");
	printf("%s\n", reset ? "  (reset)" : "");
	if (w->hist && d.samples)
		ks_print_hist(stdout, &d, d.total, 0);
	ks_view_free(&d);
	return 0;
}

/* kstats watch NAME... [-i S] [-n N] [--hist] */
int cmd_watch(int argc, char **argv)
{
	struct ks_view *prev;
	struct ks_watch w;
	int i, r, ret = 0, width;

	if (ks_watch_args(argc, argv, &w))
		return 0;
	prev = calloc((size_t)w.nn, sizeof(*prev));
	if (!prev)
		return 1;
	for (i = 0; i < w.nn; i++)
		if (ks_load_live(w.names[i], 0, &prev[i])) {
			ret = 1;
			goto out;
		}
	width = ks_watch_header(&w, prev);
	ks_tick_start(&w.tick);
	while ((r = ks_tick_next(&w.tick, NULL, NULL)) > 0) {
		for (i = 0; i < w.nn; i++)
			if (ks_watch_node(&w, i, &prev[i], width)) {
				ret = 1;
				goto out;
			}
		fflush(stdout);
	}
	if (r < 0)
		ret = 1;
out:
	for (i = 0; i < w.nn; i++)
		ks_view_free(&prev[i]);
	free(prev);
	return ret;
}
