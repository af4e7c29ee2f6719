// SPDX-License-Identifier: GPL-2.0
/*
 * kstats save, compare and export: snapshots, and what is made of them.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_ctl.h"
#include "ks_export.h"
#include "ks_fmt.h"
#include "ks_load.h"
#include "ks_parse.h"
#include "ks_snap.h"
#include "kstats.h"

/* Write a snapshot of @node to @out ("-" for stdout), atomically. */
int ks_save_node(const struct ks_view *node, const char *out)
{
	char tmp[4096];
	FILE *f;

	if (!strcmp(out, "-"))
		return ks_snap_write(stdout, node) || fflush(stdout) ? -1 : 0;
	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	f = fopen(tmp, "w");
	if (!f) {
		ks_err("%s: %s", tmp, strerror(errno));
		return -1;
	}
	if (ks_snap_write(f, node) | fclose(f) || rename(tmp, out)) {
		ks_err("%s: %s", out, strerror(errno));
		unlink(tmp);
		return -1;
	}
	fprintf(stderr, "kstats: saved %s (%llu samples) to %s\n", node->name,
		(unsigned long long)node->samples, out);
	return 0;
}

/* Default snapshot file name: NAME-LABEL.json or NAME-DATE.json. */
static void ks_default_out(char *buf, size_t len, const struct ks_view *node)
{
	char date[KS_WORD_MAX], *p;

	if (node->meta.label[0]) {
		snprintf(buf, len, "%s-%s.json", node->name, node->meta.label);
	} else {
		snprintf(date, sizeof(date), "%s", node->meta.date);
		for (p = date; *p; p++)
			if (*p == ':' || *p == '-')
				memmove(p, p + 1, strlen(p));
		snprintf(buf, len, "%s-%s.json", node->name, date);
	}
	for (p = buf; *p; p++)
		if (*p == '/' || *p == ' ')
			*p = '_';
}

/* kstats save NAME [-o FILE] [--label L] | save -f TEXT */
int cmd_save(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "file", required_argument, NULL, 'f' },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	const char *out = NULL, *label = NULL, *file = NULL;
	char def[4096];
	struct ks_view node;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "o:f:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 'f':
			file = optarg;
			break;
		case OPT_LABEL:
			label = optarg;
			break;
		case 'h':
		case OPT_HELP:
			ks_help(stdout, "save");
			return 0;
		default:
			ks_bad_usage("save", NULL);
		}
	}
	if (optind + !file != argc)
		ks_bad_usage("save", "one NAME, or -f FILE, expected");
	memset(&node, 0, sizeof(node));
	if (file ? ks_load_file(file, 0, &node) : ks_load_live(argv[optind], 0, &node))
		return 1;
	if (label)
		snprintf(node.meta.label, sizeof(node.meta.label), "%s", label);
	if (!out) {
		ks_default_out(def, sizeof(def), &node);
		out = def;
	}
	ret = ks_save_node(&node, out);
	ks_view_free(&node);
	return ret ? 1 : 0;
}

/* Row name of a snapshot: its label, else the file name without .json. */
static void ks_label_of(char *buf, size_t len, const struct ks_view *node,
			const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	if (node->meta.label[0]) {
		snprintf(buf, len, "%s", node->meta.label);
		return;
	}
	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".json"))
		n -= 5;
	snprintf(buf, len, "%.*s", (int)n, base);
}

/* kstats compare A B [C...] [--label L]... [--markdown] */
int cmd_compare(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "markdown", no_argument, NULL, OPT_MARKDOWN },
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	const char *labels[64];
	char names[64][KS_META_MAX];
	struct ks_set set = { 0 };
	int opt, nl = 0, md = 0, i, ret = 0;

	while ((opt = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (opt) {
		case OPT_LABEL:
			if (nl == 64)
				ks_bad_usage("compare", "at most 64 labels");
			labels[nl++] = optarg;
			break;
		case OPT_MARKDOWN:
			md = 1;
			break;
		case 'h':
		case OPT_HELP:
			ks_help(stdout, "compare");
			return 0;
		default:
			ks_bad_usage("compare", NULL);
		}
	}
	if (optind >= argc)
		ks_bad_usage("compare", "snapshot files expected");
	if (argc - optind > 64)
		ks_bad_usage("compare", "at most 64 snapshots");
	if (nl > argc - optind)
		ks_bad_usage("compare", "more --label than snapshots");
	for (i = optind; i < argc; i++)
		if (ks_set_add(&set, argv[i], 0, 0))
			ret = 1;
	if (ret)
		goto out;
	for (i = 1; i < set.n; i++) {
		const struct ks_view *a = set.nodes[0], *b = set.nodes[i];

		if (a->bits != b->bits) {
			ks_err("compare: %s has bits=%u but %s has bits=%u: their percentiles have different resolution; record both with the same --bits",
			       set.srcs[0], a->bits, set.srcs[i], b->bits);
			ret = 1;
		} else if (strcmp(a->unit, b->unit)) {
			ks_err("compare: %s is in %s but %s is in %s: record both with the same --clock",
			       set.srcs[0], a->unit, set.srcs[i], b->unit);
			ret = 1;
		}
	}
	if (ret)
		goto out;
	for (i = nl; i < set.n; i++) {
		ks_label_of(names[i], sizeof(names[i]), set.nodes[i], set.srcs[i]);
		labels[i] = names[i];
	}
	ks_print_compare(stdout, set.nodes, labels, set.n, md);
out:
	ks_set_free(&set);
	return ret;
}

/* kstats export --json|--csv|--prometheus [NAME...] [-f FILE]... */
int cmd_export(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "prometheus", no_argument, NULL, OPT_PROM },
		{ "file", required_argument, NULL, 'f' },
		{ "total", no_argument, NULL, OPT_TOTAL },
		{ "log2", no_argument, NULL, OPT_LOG2 },
		{ "per-cpu", no_argument, NULL, OPT_PER_CPU },
		{ "slots", no_argument, NULL, OPT_SLOTS },
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

	while ((opt = getopt_long(argc, argv, "f:o:h", lo, NULL)) != -1) {
		switch (opt) {
		case OPT_JSON:
		case OPT_CSV:
		case OPT_PROM:
			if (fmt && fmt != opt)
				ks_bad_usage("export", "one of --json, --csv, --prometheus");
			fmt = opt;
			break;
		case 'f':
			if (ks_set_add(&set, optarg, 0, 0))
				ret = 1;
			break;
		case OPT_TOTAL:
			flags |= KS_EXPORT_TOTAL;
			break;
		case OPT_LOG2:		/* the default since --slots */
			break;
		case OPT_PER_CPU:
			flags |= KS_EXPORT_PER_CPU;
			break;
		case OPT_SLOTS:
			flags |= KS_EXPORT_SLOTS;
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
			ks_bad_usage("export", NULL);
		}
	}
	if (!fmt)
		ks_bad_usage("export", "--json, --csv or --prometheus expected");
	if (strcmp(out, "-") && fmt != OPT_PROM)
		ks_bad_usage("export", "-o goes with --prometheus (save -o writes snapshots)");
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
