// SPDX-License-Identifier: GPL-2.0
/*
 * kstats export: nodes or snapshots as JSON, CSV or Prometheus' text
 * (ks_export.c).
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <kstats/glob.h>
#include "ks_cmp.h"
#include "ks_ctl.h"
#include "ks_export.h"
#include "ks_fmt.h"
#include "ks_load.h"
#include "ks_parse.h"
#include "ks_snap.h"
#include "kstats.h"

/* The export format option @opt as written. */
static const char *ks_export_fmt_name(int opt)
{
	return opt == OPT_JSON ? "--json" : opt == OPT_CSV ? "--csv" : "--prometheus";
}

/* kstats export --json|--csv|--prometheus [NAME...] [-f FILE]... */
/* What export was asked for. */
struct ks_export_req {
	int fmt;		/* OPT_JSON, OPT_CSV or OPT_PROM */
	unsigned int flags;	/* KS_EXPORT_* */
	const char *label, *out;
};

/* The options only one format reads: refused with the others. */
static const struct {
	int opt, fmt;
	const char *name, *why;		/* why: said with --csv */
} ks_export_only[] = {
	{ OPT_TOTAL, OPT_CSV, "--total", "" },
	{ OPT_PER_CPU, OPT_PROM, "--per-cpu", " (CSV has a row per CPU unless --total)" },
	{ OPT_SLOTS, OPT_PROM, "--slots", " (CSV has a row per slot)" },
	{ OPT_BUCKETS, OPT_PROM, "--buckets", " (CSV has a row per slot)" },
	{ OPT_CALLERS, OPT_PROM, "--callers", "" },
	{ OPT_LABEL, OPT_JSON, "--label", "" },
	{ 'o', OPT_PROM, "-o", " (save -o writes snapshots)" },
};

/* --buckets @arg into @r's flags; exits on a bad one. */
static void ks_export_buckets(struct ks_export_req *r, const char *arg)
{
	char err[KS_ERR_MAX];

	if (!strcmp(arg, "log2")) {
		r->flags |= KS_EXPORT_LOG2;
	} else if (!strcmp(arg, "schema3")) {
		r->flags |= KS_EXPORT_SCHEMA3;
	} else if (strcmp(arg, "schema2")) {
		snprintf(err, sizeof(err),
			 "bad value for --buckets: '%s' (schema2, schema3 or log2)", arg);
		ks_bad_usage("export", err);
	}
}

/*
 * The options of export into @r, its -f files into @set; exits on bad
 * usage.  Return: 1 for --help (printed), -1 when a file did not load, 0.
 */
static int ks_export_args(int argc, char **argv, struct ks_export_req *r,
			  struct ks_set *set)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "prometheus", no_argument, NULL, OPT_PROM },
		{ "file", required_argument, NULL, 'f' },
		{ "total", no_argument, NULL, OPT_TOTAL },
		{ "per-cpu", no_argument, NULL, OPT_PER_CPU },
		{ "slots", no_argument, NULL, OPT_SLOTS },
		{ "buckets", required_argument, NULL, OPT_BUCKETS },
		{ "callers", no_argument, NULL, OPT_CALLERS },
		{ "output", required_argument, NULL, 'o' },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	static const struct { int opt; unsigned int flag; } flag_opts[] = {
		{ OPT_TOTAL, KS_EXPORT_TOTAL }, { OPT_PER_CPU, KS_EXPORT_PER_CPU },
		{ OPT_SLOTS, KS_EXPORT_SLOTS }, { OPT_CALLERS, KS_EXPORT_CALLERS },
	};
	unsigned int seen = 0;
	char err[KS_ERR_MAX];
	int opt, ret = 0;
	size_t k;

	while ((opt = getopt_long(argc, argv, ":f:o:h", lo, NULL)) != -1) {
		for (k = 0; k < sizeof(ks_export_only) / sizeof(ks_export_only[0]); k++)
			if (opt == ks_export_only[k].opt)
				seen |= 1U << k;
		for (k = 0; k < sizeof(flag_opts) / sizeof(flag_opts[0]); k++)
			if (opt == flag_opts[k].opt)
				r->flags |= flag_opts[k].flag;
		switch (opt) {
		case OPT_JSON:
		case OPT_CSV:
		case OPT_PROM:
			if (r->fmt && r->fmt != opt) {
				snprintf(err, sizeof(err), "%s and %s: one output format",
					 ks_export_fmt_name(r->fmt), ks_export_fmt_name(opt));
				ks_bad_usage("export", err);
			}
			r->fmt = opt;
			break;
		case 'f':
			if (ks_set_add(set, optarg, 0, 0))
				ret = -1;
			break;
		case OPT_TOTAL:
		case OPT_PER_CPU:
		case OPT_SLOTS:
		case OPT_CALLERS:
			break;
		case OPT_BUCKETS:
			ks_export_buckets(r, optarg);
			break;
		case 'o':
			r->out = optarg;
			break;
		case OPT_LABEL:
			r->label = optarg;
			break;
		case 'h':
		case OPT_HELP:
			ks_help(stdout, "export");
			return 1;
		default:
			ks_bad_opt("export", opt, argv);
		}
	}
	if (!r->fmt)
		ks_bad_usage("export", "--json, --csv or --prometheus expected");
	for (k = 0; k < sizeof(ks_export_only) / sizeof(ks_export_only[0]); k++) {
		if (!(seen & (1U << k)) || ks_export_only[k].fmt == r->fmt)
			continue;
		snprintf(err, sizeof(err), "%s goes with %s, not %s%s", ks_export_only[k].name,
			 ks_export_fmt_name(ks_export_only[k].fmt), ks_export_fmt_name(r->fmt),
			 r->fmt == OPT_CSV ? ks_export_only[k].why : "");
		ks_bad_usage("export", err);
	}
	if (r->fmt == OPT_PROM)
		ks_check_out("export", r->out, ".prom", 0, "--prometheus");
	return ret;
}

/* The nodes named on the command line ("all": every node) into @set; 0 or -1. */
static int ks_export_names(char **args, int nargs, struct ks_set *set)
{
	char err[KS_ERR_MAX], **names;
	int i, j, nn, ret = 0;

	for (i = 0; i < nargs; i++) {
		if (strcmp(args[i], "all")) {
			if (ks_set_add(set, args[i], 1, 0))
				ret = -1;
			continue;
		}
		names = ks_ctl_names(&nn, err, sizeof(err));
		if (!names) {
			ks_err("%s", err);
			ret = -1;
		}
		for (j = 0; j < nn; j++)
			if (ks_set_add(set, names[j], 1, 0))
				ret = -1;
		ks_ctl_names_free(names);
	}
	return ret;
}

/* @set in the format @r asks for; 0 or 1 (printed). */
static int ks_export_write(const struct ks_export_req *r, struct ks_set *set)
{
	char err[KS_ERR_MAX];
	int i, j, ret = 0;

	switch (r->fmt) {
	case OPT_JSON:
		if (set->n != 1) {
			ks_err("export --json: one source per document");
			return 1;
		}
		if (r->label)
			snprintf(set->nodes[0]->meta.label, sizeof(set->nodes[0]->meta.label),
				 "%s", r->label);
		return ks_snap_write(stdout, set->nodes[0]) ? 1 : 0;
	case OPT_CSV:
		return ks_export_csv(stdout, set->nodes, set->n, r->flags) ? 1 : 0;
	}
	for (i = 0; i < set->n; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(set->nodes[i]->name, set->nodes[j]->name)) {
				ks_err("export --prometheus: %s and %s are both '%s': series would clash",
				       set->srcs[j], set->srcs[i], set->nodes[i]->name);
				ret = 1;
			}
	if (!ret && ks_export_prometheus_file(r->out, set->nodes, set->n, r->flags,
					      err, sizeof(err))) {
		ks_err("export --prometheus: %s", err);
		ret = 1;
	}
	return ret;
}

int cmd_export(int argc, char **argv)
{
	struct ks_export_req r = { .out = "-" };
	struct ks_set set = { 0 };
	int ret;

	ret = ks_export_args(argc, argv, &r, &set);
	if (ret > 0) {
		ks_set_free(&set);
		return 0;
	}
	if (ks_export_names(argv + optind, argc - optind, &set))
		ret = -1;
	if (ret)
		goto out;
	if (!set.n && (optind == argc || r.fmt != OPT_PROM))
		ks_bad_usage("export", "NAME or -f FILE expected");
	ret = ks_export_write(&r, &set);
	if (fflush(stdout))
		ret = 1;
out:
	ks_set_free(&set);
	return ret ? 1 : 0;
}
