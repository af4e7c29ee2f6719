// SPDX-License-Identifier: GPL-2.0
/*
 * kstats save, compare and export: snapshots, and what is made of them.
 *
 * About 600 lines: the three subcommands share the loading of snapshots
 * and nodes (names, globs, runs per side, labels); the formats are
 * ks_snap.c's, ks_cmp.c's and ks_export.c's.
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

/* Write @n nodes to @out ("-" for stdout) as one document, atomically. */
int ks_save_nodes(struct ks_view *const *nodes, int n, const char *out)
{
	char tmp[4096];
	FILE *f;

	if (!strcmp(out, "-"))
		return ks_snap_write_many(stdout, nodes, n) || fflush(stdout) ? -1 : 0;
	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	f = fopen(tmp, "w");
	if (!f) {
		ks_err("%s: %s", tmp, strerror(errno));
		return -1;
	}
	if (ks_snap_write_many(f, nodes, n) | fclose(f) || rename(tmp, out)) {
		ks_err("%s: %s", out, strerror(errno));
		unlink(tmp);
		return -1;
	}
	if (n == 1)
		fprintf(stderr, "kstats: saved %s (%llu samples) to %s\n", nodes[0]->name,
			(unsigned long long)nodes[0]->samples, out);
	else
		fprintf(stderr, "kstats: saved %d nodes to %s\n", n, out);
	return 0;
}

/* Write a snapshot of @node to @out ("-" for stdout), atomically. */
int ks_save_node(const struct ks_view *node, const char *out)
{
	struct ks_view *one = (struct ks_view *)node;

	return ks_save_nodes(&one, 1, out);
}

/* FILE.json of run @r: FILE-R.json (FILE without .json: FILE-R.json too). */
void ks_run_out(char *buf, size_t len, const char *out, int r)
{
	size_t n = strlen(out);

	if (n > 5 && !strcmp(out + n - 5, ".json"))
		n -= 5;
	snprintf(buf, len, "%.*s-%d.json", (int)n, out, r);
}

/* Mark @m as QEMU -icount when @icount (live nodes of a ks.icount=1 guest are). */
void ks_meta_timing(struct ks_meta *m, int icount)
{
	if (icount)
		snprintf(m->timing, sizeof(m->timing), "%s", KS_TIMING_ICOUNT);
}

/* Default snapshot file name: NAME-LABEL.json or NAME-DATE.json. */
static void ks_default_out(char *buf, size_t len, const struct ks_view *node,
			   const char *name)
{
	char date[KS_WORD_MAX], *p;

	if (node->meta.label[0]) {
		snprintf(buf, len, "%s-%s.json", name, node->meta.label);
	} else {
		snprintf(date, sizeof(date), "%s", node->meta.date);
		for (p = date; *p; p++)
			if (*p == ':' || *p == '-')
				memmove(p, p + 1, strlen(p));
		snprintf(buf, len, "%s-%s.json", name, date);
	}
	for (p = buf; *p; p++)
		if (*p == '/' || *p == ' ')
			*p = '_';
}

/*
 * The live node names @args ask for: NAME, a glob matched against the
 * nodes _control lists, or all.  Return: how many (into @out, at most
 * @max, strdup()ed), -1 on error (printed); *@many when a glob or all.
 */
static int ks_save_names(char **args, int nargs, char **out, int max, int *many)
{
	char err[KS_ERR_MAX], **names = NULL;
	int i, j, n = 0, nn = 0;

	*many = nargs > 1;
	for (i = 0; i < nargs; i++) {
		int glob = !strcmp(args[i], "all") || ks_is_glob(args[i]);

		if (!glob) {
			if (n < max)
				out[n++] = strdup(args[i]);
			continue;
		}
		*many = 1;
		if (!names) {
			names = ks_ctl_names(&nn, err, sizeof(err));
			if (!names) {
				ks_err("%s", err);
				goto fail;
			}
		}
		for (j = 0; j < nn; j++) {
			int k, dup = 0;

			if (strcmp(args[i], "all") && fnmatch(args[i], names[j], 0))
				continue;
			for (k = 0; k < n; k++)
				dup |= !strcmp(out[k], names[j]);
			if (!dup && n < max)
				out[n++] = strdup(names[j]);
		}
	}
	ks_ctl_names_free(names);
	if (!n) {
		ks_err("save: no node matches");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!out[i])
			goto fail;
	return n;
fail:
	ks_ctl_names_free(names);
	while (n--)
		free(out[n]);
	return -1;
}

/* Load the live nodes @names into @set (meta: @label, @icount). */
static int ks_save_load(struct ks_set *set, char **names, int n, const char *label,
			int icount)
{
	int i, ret = 0;

	for (i = 0; i < n; i++)
		if (ks_set_add(set, names[i], 1, 0))
			ret = -1;
	for (i = 0; i < set->n; i++) {
		if (label)
			snprintf(set->nodes[i]->meta.label, sizeof(set->nodes[i]->meta.label),
				 "%s", label);
		ks_meta_timing(&set->nodes[i]->meta, icount);
	}
	return ret;
}

/* save --runs N: what each of N intervals of @secs added, one file each. */
static int ks_save_runs(char **names, int n, const char *label, int icount,
			const char *out, int runs, double secs)
{
	struct ks_set prev = { 0 }, cur = { 0 };
	struct ks_view **d;
	char path[4096];
	int r, i, ret = 0;

	d = calloc(n, sizeof(*d));
	if (!d || ks_save_load(&prev, names, n, label, icount)) {
		free(d);
		ks_set_free(&prev);
		return -1;
	}
	for (r = 1; r <= runs && !ret; r++) {
		struct timespec ts = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		if (ks_save_load(&cur, names, n, label, icount)) {
			ret = -1;
			break;
		}
		for (i = 0; i < n && !ret; i++) {
			d[i] = calloc(1, sizeof(**d));
			if (!d[i] || ks_view_delta(d[i], cur.nodes[i], prev.nodes[i]) < 0) {
				ks_err("%s: cannot take the difference of two reads",
				       cur.nodes[i]->name);
				free(d[i]);
				d[i] = NULL;
				ret = -1;
			}
		}
		ks_run_out(path, sizeof(path), out, r);
		if (!ret && ks_save_nodes(d, n, path))
			ret = -1;
		for (i = 0; i < n; i++) {
			if (d[i])
				ks_view_free(d[i]);
			free(d[i]);
			d[i] = NULL;
		}
		ks_set_free(&prev);
		prev = cur;
		memset(&cur, 0, sizeof(cur));
	}
	ks_set_free(&prev);
	free(d);
	return ret;
}

/*
 * kstats save NAME|GLOB|all... [-o FILE] [--label L] [--icount]
 *		[--runs N [-i S]] [--undisturbed] | save -f FILE [--undisturbed]
 */
/*
 * save --undisturbed: each node's disturbed calls left out of its merged
 * slots and figures, its CPUs' rows dropped (they keep every call); 1 with
 * a line naming a node that kept none apart.
 */
static int ks_save_undisturbed(struct ks_view *const *nodes, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (ks_view_undisturbed(nodes[i]) < 0) {
			ks_err("save --undisturbed: %s keeps no disturbed calls apart (kstats trace %s --slowest K)",
			       nodes[i]->name, nodes[i]->name);
			return 1;
		}
	return 0;
}

int cmd_save(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "file", required_argument, NULL, 'f' },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "icount", no_argument, NULL, OPT_ICOUNT },
		{ "runs", required_argument, NULL, OPT_RUNS },
		{ "interval", required_argument, NULL, 'i' },
		{ "undisturbed", no_argument, NULL, OPT_UNDISTURBED },
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	const char *out = NULL, *label = NULL, *file = NULL;
	char def[4096], *names[KS_SAVE_MAX], *end;
	struct ks_set set = { 0 };
	int opt, ret, icount = 0, runs = 0, n, many, i, undisturbed = 0;
	double secs = 1;

	while ((opt = getopt_long(argc, argv, ":o:f:i:h", lo, NULL)) != -1) {
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
		case OPT_ICOUNT:
			icount = 1;
			break;
		case OPT_UNDISTURBED:
			undisturbed = 1;
			break;
		case OPT_RUNS:
			runs = (int)strtol(optarg, &end, 10);
			if (*end || runs < 1 || runs > 1000)
				ks_bad_usage("save", "--runs takes 1 to 1000");
			break;
		case 'i':
			secs = strtod(optarg, &end);
			if (*end || !(secs > 0) || secs > 86400)
				ks_bad_usage("save", "-i takes seconds, more than 0");
			break;
		case 'h':
		case OPT_HELP:
			ks_help(stdout, "save");
			return 0;
		default:
			ks_bad_opt("save", opt, argv);
		}
	}
	if (out)
		ks_check_out("save", out, ".json", 1, "save");
	if (file) {
		struct ks_view node;

		if (optind != argc || runs)
			ks_bad_usage("save", "-f FILE takes no NAME and no --runs");
		memset(&node, 0, sizeof(node));
		if (ks_load_file(file, 0, &node))
			return 1;
		if (undisturbed) {
			struct ks_view *one = &node;

			if (ks_save_undisturbed(&one, 1)) {
				ks_view_free(&node);
				return 1;
			}
		}
		if (label)
			snprintf(node.meta.label, sizeof(node.meta.label), "%s", label);
		if (icount)
			ks_meta_timing(&node.meta, 1);
		if (!out) {
			ks_default_out(def, sizeof(def), &node, node.name);
			out = def;
		}
		ret = ks_save_node(&node, out);
		ks_view_free(&node);
		return ret ? 1 : 0;
	}
	if (optind == argc)
		ks_bad_usage("save", "NAME, GLOB or all expected (or -f FILE)");
	n = ks_save_names(argv + optind, argc - optind, names, KS_SAVE_MAX, &many);
	if (n < 0)
		return 1;
	if (runs && undisturbed)
		ks_bad_usage("save", "--undisturbed goes with one snapshot, not --runs");
	if (runs) {
		if (!out) {
			snprintf(def, sizeof(def), "%s", many ? "kstats" : names[0]);
			out = def;
		}
		ret = ks_save_runs(names, n, label, icount, out, runs, secs);
	} else {
		ret = ks_save_load(&set, names, n, label, icount);
		if (!ret && undisturbed)
			ret = ks_save_undisturbed(set.nodes, set.n);
		if (!ret && !out) {
			ks_default_out(def, sizeof(def), set.nodes[0], many ? "kstats" : names[0]);
			out = def;
		}
		if (!ret)
			ret = ks_save_nodes(set.nodes, set.n, out);
		ks_set_free(&set);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
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

/* Is @labels[@i] one of @labels[0..@n) but itself? */
static int ks_label_twice(const char **labels, int n, int i)
{
	int j;

	for (j = 0; j < n; j++)
		if (j != i && !strcmp(labels[i], labels[j]))
			return 1;
	return 0;
}

/*
 * Rows @from on whose labels came from their snapshots and say the same
 * (two captures of one configuration): named by their file instead, its
 * base name, or the path where base names are the same too.
 */
static void ks_labels_apart(char names[][KS_META_MAX], const char **labels,
			    const struct ks_set *set, int from)
{
	int i, twice[64] = { 0 };
	const char *base;
	size_t n;

	for (i = from; i < set->n; i++)
		twice[i] = ks_label_twice(labels, set->n, i);
	for (i = from; i < set->n; i++) {
		if (!twice[i])
			continue;
		base = strrchr(set->srcs[i], '/');
		base = base ? base + 1 : set->srcs[i];
		n = strlen(base);
		if (n > 5 && !strcmp(base + n - 5, ".json"))
			n -= 5;
		snprintf(names[i], KS_META_MAX, "%.*s", (int)n, base);
	}
	for (i = from; i < set->n; i++)
		twice[i] = twice[i] && ks_label_twice(labels, set->n, i);
	for (i = from; i < set->n; i++)
		if (twice[i])
			snprintf(names[i], KS_META_MAX, "%s", set->srcs[i]);
}

/* Label of a side: --label, else its first snapshot's label or file name. */
static void ks_side_label(char *buf, size_t len, const struct ks_set *set, int from,
			  const char *label)
{
	if (label)
		snprintf(buf, len, "%s", label);
	else
		ks_label_of(buf, len, set->nodes[from], set->srcs[from]);
}

/* Does one of the files hold more than one node? */
static int ks_set_many(const struct ks_set *set)
{
	int i;

	for (i = 1; i < set->n; i++)
		if (set->srcs[i] == set->srcs[i - 1])
			return 1;
	return 0;
}

/*
 * compare A... -- B...: the nodes of @set from @split on are the new
 * side; @labels: up to two side labels.
 */
static int ks_compare_sides(struct ks_set *set, int split, const char **labels,
			    int nl, int fmt, int force)
{
	char la[KS_META_MAX], lb[KS_META_MAX];
	struct ks_cmp_side a, b;

	ks_side_label(la, sizeof(la), set, 0, nl > 0 ? labels[0] : NULL);
	ks_side_label(lb, sizeof(lb), set, split, nl > 1 ? labels[1] : NULL);
	a = (struct ks_cmp_side){ .label = la, .nodes = set->nodes, .srcs = set->srcs, .n = split };
	b = (struct ks_cmp_side){ .label = lb, .nodes = set->nodes + split,
				  .srcs = set->srcs + split, .n = set->n - split };
	return ks_cmp_print(stdout, &a, &b, fmt, force) ? 1 : 0;
}

/*
 * kstats compare A B [C...] [--label L]... [--markdown] [--force]
 * kstats compare A... -- B... [--label BASE --label NEW] [--markdown|--json] [--force]
 */
/*
 * compare --undisturbed: each node's disturbed calls left out where its
 * histogram kept them apart (slowest K), said in one line per node before
 * the table (on stderr beside --json).  1 when no node kept them apart.
 */
static int ks_leave_disturbed(struct ks_set *set, int json)
{
	char msg[KS_ERR_MAX];
	int i, kept = 0;

	for (i = 0; i < set->n; i++) {
		long long n = ks_view_undisturbed(set->nodes[i]);

		if (n < 0)
			snprintf(msg, sizeof(msg), "undisturbed: %s in %s: none kept apart, compared whole",
				 set->nodes[i]->name, set->srcs[i]);
		else
			snprintf(msg, sizeof(msg), "undisturbed: %s in %s: %lld disturbed call%s left out",
				 set->nodes[i]->name, set->srcs[i], n, n == 1 ? "" : "s");
		kept += n >= 0;
		if (json)
			ks_err("%s", msg);
		else
			puts(msg);
	}
	if (!kept)
		ks_err("compare --undisturbed: no node keeps its disturbed calls apart (kstats trace NAME --slowest K)");
	return !kept;
}

int cmd_compare(int argc, char **argv)
{
	const char *labels[64], *files[1024];
	char names[64][KS_META_MAX];
	struct ks_set set = { 0 };
	int nl = 0, fmt = KS_CMP_TEXT, i, nf = 0, split = -1, ret = 0, node_split = -1;
	int force = 0, wide = 0, undisturbed = 0, brief = 0, style;
	const char *fmt_opt = NULL;
	char err[KS_ERR_MAX];

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--prometheus"))
			return cmd_compare_prom(argc, argv);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			if (split >= 0)
				ks_bad_usage("compare", "one -- between the two sides");
			split = nf;
		} else if (!strcmp(a, "--markdown") || !strcmp(a, "--json") ||
			   !strcmp(a, "--wide")) {
			if (fmt_opt && strcmp(fmt_opt, a)) {
				snprintf(err, sizeof(err), "%s and %s: one output format",
					 fmt_opt, a);
				ks_bad_usage("compare", err);
			}
			fmt_opt = a;
			fmt = !strcmp(a, "--json") ? KS_CMP_JSON : KS_CMP_MARKDOWN;
			wide = !strcmp(a, "--wide");
			if (wide)
				fmt = KS_CMP_TEXT;
		} else if (!strcmp(a, "--force")) {
			force = 1;
		} else if (!strcmp(a, "--undisturbed")) {
			undisturbed = 1;
		} else if (!strcmp(a, "--brief")) {
			brief = 1;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			ks_help(stdout, "compare");
			return 0;
		} else if (!strcmp(a, "--label") || !strncmp(a, "--label=", 8)) {
			if (nl == 64)
				ks_bad_usage("compare", "at most 64 labels");
			if (a[7] == '=')
				labels[nl++] = a + 8;
			else if (++i < argc)
				labels[nl++] = argv[i];
			else
				ks_bad_usage("compare", "--label takes a name");
		} else if (a[0] == '-' && a[1]) {
			ks_err("compare: unknown option '%s' (kstats compare --help lists them)", a);
			ks_bad_usage("compare", NULL);
		} else {
			if (nf == 1024)
				ks_bad_usage("compare", "at most 1024 snapshots");
			files[nf++] = a;
		}
	}
	if (!nf)
		ks_bad_usage("compare", "snapshot files expected");
	if (split == 0 || split == nf)
		ks_bad_usage("compare", "snapshots expected on both sides of --");
	if (split < 0 && nf > 64)
		ks_bad_usage("compare", "at most 64 snapshots (A... -- B... takes more)");
	if (split >= 0 && nl > 2)
		ks_bad_usage("compare", "A... -- B... takes two --label at most (base, new)");
	if (split < 0 && nl > nf)
		ks_bad_usage("compare", "more --label than snapshots");
	if (fmt == KS_CMP_JSON && split < 0 && nf != 2)
		ks_bad_usage("compare", "--json compares two sides: A B, or A... -- B...");
	for (i = 0; i < nf; i++) {
		if (i == split || (split < 0 && i == 1))
			node_split = set.n;
		if (ks_set_add(&set, files[i], 0, 0))
			ret = 1;
	}
	if (ret)
		goto out;
	if (undisturbed && ks_leave_disturbed(&set, fmt == KS_CMP_JSON)) {
		ret = 1;
		goto out;
	}
	if (split >= 0 || fmt == KS_CMP_JSON || (nf == 2 && ks_set_many(&set))) {
		if (wide) {
			ks_err("compare: --wide goes with A B [C...] of one function (this table has every row)");
			ret = 2;
			goto out;
		}
		ret = ks_compare_sides(&set, node_split, labels, nl, fmt, force);
		goto out;
	}
	if (set.n != nf) {
		ks_err("compare: a file holds several nodes: compare two such files (A B), or A... -- B...");
		ret = 1;
		goto out;
	}
	for (i = 1; i < set.n; i++)	/* one kind of time, or --force said first */
		if (ks_timing_note(&set.nodes[i]->meta) != ks_timing_note(&set.nodes[0]->meta)) {
			ret = !ks_cmp_same_timing(stdout, set.nodes[0], set.srcs[0], set.nodes[i],
						  set.srcs[i], force);
			break;
		}
	if (ret)
		goto out;
	for (i = 1; i < set.n; i++) {
		const struct ks_view *a = set.nodes[0], *b = set.nodes[i];

		if (!ks_cmp_same_fn(a, set.srcs[0], b, set.srcs[i], force)) {
			ret = 1;
		} else if (a->bits != b->bits) {
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
	ks_labels_apart(names, labels, &set, nl);
	style = wide ? KS_PRINT_WIDE : fmt == KS_CMP_MARKDOWN ? KS_PRINT_MARKDOWN : KS_PRINT_PLAIN;
	if (ks_cmp_table(stdout, set.nodes, labels, set.n, style | (brief ? KS_PRINT_BRIEF : 0)))
		ret = 1;
out:
	ks_set_free(&set);
	return ret;
}

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
			} else if (strcmp(optarg, "schema2")) {
				snprintf(err, sizeof(err),
					 "bad value for --buckets: '%s' (schema2 or log2)",
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
