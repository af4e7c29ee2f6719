// SPDX-License-Identifier: GPL-2.0
/*
 * kstats save: snapshots of nodes (one file, runs, undisturbed), in
 * ks_snap_write.c's format; cmd_compare.c and cmd_export.c make what is
 * made of them.
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

struct ks_name_at {
	const char *name;
	int at;
};

static int ks_name_at_cmp(const void *a, const void *b)
{
	const struct ks_name_at *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->at - y->at;
}

/*
 * Drop the repeats among @out's @n names (two globs, or a glob and a name,
 * may match the same node), each first one kept in its place: by sorting,
 * as a whole kernel's 40,000 names would take a billion comparisons pair
 * by pair.  Return: how many are left, -1 out of memory.
 */
static int ks_names_unique(char **out, int n)
{
	struct ks_name_at *v = malloc((size_t)(n ? n : 1) * sizeof(*v));
	int i, m = 0, first = 0;

	if (!v)
		return -1;
	for (i = 0; i < n; i++)
		v[i] = (struct ks_name_at){ out[i], i };
	qsort(v, n, sizeof(*v), ks_name_at_cmp);
	/* each against the first of its name, which stays */
	for (i = 1; i < n; i++) {
		if (strcmp(v[i].name, v[first].name)) {
			first = i;
			continue;
		}
		free(out[v[i].at]);
		out[v[i].at] = NULL;
	}
	free(v);
	for (i = 0; i < n; i++)
		if (out[i])
			out[m++] = out[i];
	return m;
}

/*
 * The live node names @args ask for: NAME, a glob matched against the
 * nodes _control lists, or all; with @idle (save --called), a glob or all
 * matches only the nodes that recorded a call, and *@idle counts the rest
 * of the listing.  Return: how many (into @out, at most @max,
 * strdup()ed), -1 on error (printed); *@many when a glob or all.
 */
static int ks_save_names(char **args, int nargs, char **out, int max, int *many,
			 int *idle)
{
	char err[KS_ERR_MAX], **names = NULL;
	int i, j, n = 0, nn = 0, bad = 0;

	*many = nargs > 1;
	for (i = 0; i < nargs; i++) {
		int glob = !strcmp(args[i], "all") || ks_is_glob(args[i]);

		if (!glob) {
			if (n < max && !(out[n++] = strdup(args[i])))
				bad = 1;
			continue;
		}
		*many = 1;
		if (!names) {
			names = idle ? ks_ctl_names_called(&nn, idle, err, sizeof(err)) :
				       ks_ctl_names(&nn, err, sizeof(err));
			if (!names) {
				ks_err("%s", err);
				goto fail;
			}
		}
		for (j = 0; j < nn && n < max; j++) {
			if (strcmp(args[i], "all") && fnmatch(args[i], names[j], 0))
				continue;
			if (!(out[n++] = strdup(names[j])))
				bad = 1;
		}
	}
	ks_ctl_names_free(names);
	names = NULL;
	j = n;
	if (bad || (n = ks_names_unique(out, n)) < 0) {
		n = j;
		goto fail;
	}
	if (!n) {
		ks_err("save: no node matches");
		return -1;
	}
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

/* save -f FILE: one node from a file, labelled, marked, left undisturbed as asked. */
static int ks_save_file(const char *file, const char *label, int icount, int undisturbed,
			const char *out)
{
	struct ks_view node, *one = &node;
	char def[4096];
	int ret;

	memset(&node, 0, sizeof(node));
	if (ks_load_file(file, 0, &node))
		return 1;
	if (undisturbed && ks_save_undisturbed(&one, 1)) {
		ks_view_free(&node);
		return 1;
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

/*
 * One snapshot of the live nodes @names (@many: a glob or all) to @out,
 * or the default file name.  Return: 0 or -1 (printed).
 */
static int ks_save_once(char **names, int n, int many, const char *label,
			int icount, int undisturbed, const char *out)
{
	struct ks_set set = { 0 };
	char def[4096];
	int ret = ks_save_load(&set, names, n, label, icount);

	if (!ret && undisturbed)
		ret = ks_save_undisturbed(set.nodes, set.n);
	if (!ret && !out) {
		ks_default_out(def, sizeof(def), set.nodes[0], many ? "kstats" : names[0]);
		out = def;
	}
	if (!ret)
		ret = ks_save_nodes(set.nodes, set.n, out);
	ks_set_free(&set);
	return ret;
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
		{ "called", no_argument, NULL, OPT_CALLED },
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	const char *out = NULL, *label = NULL, *file = NULL;
	char def[4096], **names, *end;
	int opt, ret, icount = 0, runs = 0, n, many, i, undisturbed = 0;
	int called = 0, idle = 0;
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
		case OPT_CALLED:
			called = 1;
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
		if (optind != argc || runs)
			ks_bad_usage("save", "-f FILE takes no NAME and no --runs");
		return ks_save_file(file, label, icount, undisturbed, out);
	}
	if (optind == argc)
		ks_bad_usage("save", "NAME, GLOB or all expected (or -f FILE)");
	names = calloc(KS_SAVE_MAX, sizeof(*names));
	if (!names) {
		ks_err("save: out of memory");
		return 1;
	}
	n = ks_save_names(argv + optind, argc - optind, names, KS_SAVE_MAX, &many,
			  called ? &idle : NULL);
	if (n < 0) {
		free(names);
		return 1;
	}
	if (runs && undisturbed)
		ks_bad_usage("save", "--undisturbed goes with one snapshot, not --runs");
	if (runs) {
		if (!out) {
			snprintf(def, sizeof(def), "%s", many ? "kstats" : names[0]);
			out = def;
		}
		ret = ks_save_runs(names, n, label, icount, out, runs, secs);
	} else {
		ret = ks_save_once(names, n, many, label, icount, undisturbed, out);
		if (!ret && called)
			fprintf(stderr, "kstats: --called: %d of the nodes listed recorded no call, left out\n",
				idle);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret ? 1 : 0;
}
