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
int cmd_export(int argc, char **argv)
{
	/* the options only one format reads: refused with the others */
	static const struct {
		int opt, fmt;
		const char *name, *why;		/* why: said with --csv */
	} only[] = {
		{ OPT_TOTAL, OPT_CSV, "--total", "" },
		{ OPT_PER_CPU, OPT_PROM, "--per-cpu", " (CSV has a row per CPU unless --total)" },
		{ OPT_SLOTS, OPT_PROM, "--slots", " (CSV has a row per slot)" },
		{ OPT_BUCKETS, OPT_PROM, "--buckets", " (CSV has a row per slot)" },
		{ OPT_CALLERS, OPT_PROM, "--callers", "" },
		{ OPT_LABEL, OPT_JSON, "--label", "" },
		{ 'o', OPT_PROM, "-o", " (save -o writes snapshots)" },
	};
	unsigned int seen = 0;
	size_t k;

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
	struct ks_set set = { 0 };
	const char *label = NULL, *out = "-";
	char err[KS_ERR_MAX], **names;
	unsigned int flags = 0;
	int opt, fmt = 0, i, j, nn, ret = 0;

	while ((opt = getopt_long(argc, argv, ":f:o:h", lo, NULL)) != -1) {
		for (k = 0; k < sizeof(only) / sizeof(only[0]); k++)
			if (opt == only[k].opt)
				seen |= 1U << k;
		switch (opt) {
		case OPT_JSON:
		case OPT_CSV:
		case OPT_PROM:
			if (fmt && fmt != opt) {
				snprintf(err, sizeof(err), "%s and %s: one output format",
					 ks_export_fmt_name(fmt), ks_export_fmt_name(opt));
				ks_bad_usage("export", err);
			}
			fmt = opt;
			break;
		case 'f':
			if (ks_set_add(&set, optarg, 0, 0))
				ret = 1;
			break;
		case OPT_TOTAL:
			flags |= KS_EXPORT_TOTAL;
			break;
		case OPT_PER_CPU:
			flags |= KS_EXPORT_PER_CPU;
			break;
		case OPT_SLOTS:
			flags |= KS_EXPORT_SLOTS;
			break;
		case OPT_CALLERS:
			flags |= KS_EXPORT_CALLERS;
			break;
		case OPT_BUCKETS:
			if (!strcmp(optarg, "log2")) {
				flags |= KS_EXPORT_LOG2;
			} else if (!strcmp(optarg, "schema3")) {
				flags |= KS_EXPORT_SCHEMA3;
			} else if (strcmp(optarg, "schema2")) {
				snprintf(err, sizeof(err),
					 "bad value for --buckets: '%s' (schema2, schema3 or log2)",
					 optarg);
				ks_bad_usage("export", err);
			}
			break;
		case 'o':
			out = optarg;
			break;
		case OPT_LABEL:
			label = optarg;
			break;
		case 'h':
		case OPT_HELP:
			ks_help(stdout, "export");
			ks_set_free(&set);
			return 0;
		default:
			ks_bad_opt("export", opt, argv);
		}
	}
	if (!fmt)
		ks_bad_usage("export", "--json, --csv or --prometheus expected");
	for (k = 0; k < sizeof(only) / sizeof(only[0]); k++) {
		if (!(seen & (1U << k)) || only[k].fmt == fmt)
			continue;
		snprintf(err, sizeof(err), "%s goes with %s, not %s%s", only[k].name,
			 ks_export_fmt_name(only[k].fmt), ks_export_fmt_name(fmt),
			 fmt == OPT_CSV ? only[k].why : "");
		ks_bad_usage("export", err);
	}
	if (fmt == OPT_PROM)
		ks_check_out("export", out, ".prom", 0, "--prometheus");
	for (i = optind; i < argc; i++) {
		if (strcmp(argv[i], "all")) {
			if (ks_set_add(&set, argv[i], 1, 0))
				ret = 1;
			continue;
		}
		names = ks_ctl_names(&nn, err, sizeof(err));
		if (!names) {
			ks_err("%s", err);
			ret = 1;
		}
		for (j = 0; j < nn; j++)
			if (ks_set_add(&set, names[j], 1, 0))
				ret = 1;
		ks_ctl_names_free(names);
	}
	if (ret)
		goto out;
	if (!set.n && (optind == argc || fmt != OPT_PROM))
		ks_bad_usage("export", "NAME or -f FILE expected");
	switch (fmt) {
	case OPT_JSON:
		if (set.n != 1) {
			ks_err("export --json: one source per document");
			ret = 1;
			break;
		}
		if (label)
			snprintf(set.nodes[0]->meta.label, sizeof(set.nodes[0]->meta.label),
				 "%s", label);
		ret = ks_snap_write(stdout, set.nodes[0]) ? 1 : 0;
		break;
	case OPT_CSV:
		ret = ks_export_csv(stdout, set.nodes, set.n, flags) ? 1 : 0;
		break;
	case OPT_PROM:
		for (i = 0; i < set.n; i++)
			for (j = 0; j < i; j++)
				if (!strcmp(set.nodes[i]->name, set.nodes[j]->name)) {
					ks_err("export --prometheus: %s and %s are both '%s': series would clash",
					       set.srcs[j], set.srcs[i], set.nodes[i]->name);
					ret = 1;
				}
		if (!ret && ks_export_prometheus_file(out, set.nodes, set.n, flags,
						      err, sizeof(err))) {
			ks_err("export --prometheus: %s", err);
			ret = 1;
		}
		break;
	}
	if (fflush(stdout))
		ret = 1;
out:
	ks_set_free(&set);
	return ret;
}
