// SPDX-License-Identifier: GPL-2.0
/*
 * ks_load: load nodes, live or from files, for the subcommands.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <kstats/cmd.h>
#include "ks_ctl.h"
#include "ks_load.h"
#include "ks_snap.h"
#include "ks_parse.h"

/* Meta for a node read now on this machine. */
static void ks_meta_now(struct ks_meta *m, const char *label, time_t when)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	struct utsname u;
	struct tm tm;

	if (sde && *sde)
		when = (time_t)strtoll(sde, NULL, 10);
	gmtime_r(&when, &tm);
	strftime(m->date, sizeof(m->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!uname(&u))
		snprintf(m->kernel, sizeof(m->kernel), "%s", u.release);
	if (gethostname(m->hostname, sizeof(m->hostname)))
		m->hostname[0] = '\0';
	m->hostname[sizeof(m->hostname) - 1] = '\0';
	snprintf(m->tool, sizeof(m->tool), "kstats " KS_VERSION);
	snprintf(m->label, sizeof(m->label), "%s", label ? label : "");
}

/*
 * The timing of nodes read live here: QEMU -icount when the kernel was
 * booted with ks.icount=1 (vm/session.sh --icount gives its guests that).
 */
static void ks_meta_here(struct ks_meta *m)
{
	static int icount = -1;
	char line[4096] = "";
	FILE *f;

	if (icount < 0) {
		f = fopen("/proc/cmdline", "r");
		if (f && !fgets(line, sizeof(line), f))
			line[0] = '\0';
		if (f)
			fclose(f);
		icount = strstr(line, "ks.icount=1") != NULL;
	}
	if (icount)
		snprintf(m->timing, sizeof(m->timing), "%s", KS_TIMING_ICOUNT);
}

/* Does @name read as a file's (a '/', or .json or .txt at its end)? */
static int ks_snapshot_name(const char *name)
{
	size_t n = strlen(name);

	return strchr(name, '/') || (n > 5 && !strcmp(name + n - 5, ".json")) ||
	       (n > 4 && !strcmp(name + n - 4, ".txt"));
}

int ks_load_live(const char *name, unsigned int flags, struct ks_view *node)
{
	char path[4096], err[sizeof(path) + KS_ERR_MAX];
	char *text;
	int ret = -1;

	if (ks_snapshot_name(name)) {	/* a file that is not there, without -f */
		snprintf(err, sizeof(err), "%s: no such file (a snapshot is read with -f FILE)",
			 name);
		goto out;
	}
	if (!ks_name_valid(name)) {
		snprintf(err, sizeof(err), "'%s' is not a node name", name);
		goto out;
	}
	if (ks_ctl_ready(err, sizeof(err)))
		goto out;
	snprintf(path, sizeof(path), "%s/%s", ks_root(), name);
	text = ks_text_read(path, NULL);
	if (!text) {
		if (errno == ENOENT)
			snprintf(err, sizeof(err),
				 "no node named '%s' (kstats list shows them; kstats trace %s adds it)",
				 name, name);
		else if (errno == EACCES || errno == EPERM)
			ks_ctl_denied(path, err, sizeof(err));
		else
			snprintf(err, sizeof(err), "%s: %s", path, strerror(errno));
		goto out;
	}
	ret = ks_parse_text(text, path, flags & KS_PARSE_STRICT, node, err, sizeof(err));
	free(text);
	if (!ret) {
		ks_meta_now(&node->meta, NULL, time(NULL));
		ks_meta_here(&node->meta);
	}
out:
	if (ret && !(flags & KS_LOAD_QUIET))
		ks_err("%s", err);
	return ret;
}

char *ks_load_control(void)
{
	char err[KS_ERR_MAX], *text = ks_ctl_read_control(err, sizeof(err));

	if (!text)
		ks_err("%s", err);
	return text;
}

/* Every node of @path: a snapshot of one or several, or node text. */
/*
 * check's strictness for a snapshot: each node's samples against its
 * slots, as the node text's parser checks them against the CPUS rows.
 */
static int ks_snap_consistent(const struct ks_view *nodes, int n, const char *path,
			      char *err, size_t len)
{
	__u64 total;
	int i;

	for (i = 0; i < n; i++) {
		total = kstats_total(nodes[i].total, nodes[i].nr_slots);
		if (nodes[i].samples != total) {
			snprintf(err, len, "%s: node %s: samples %llu but its slots count %llu",
				 path, nodes[i].name, (unsigned long long)nodes[i].samples,
				 (unsigned long long)total);
			return -1;
		}
	}
	return 0;
}

static int ks_load_file_many(const char *path, unsigned int flags,
			     struct ks_view **nodes, int *n)
{
	char err[KS_ERR_MAX];
	const char *p;
	struct stat st;
	char *text;
	int ret;

	*nodes = NULL;
	*n = 0;
	text = ks_text_read(path, NULL);
	if (!text) {
		ks_err("%s: %s", path, errno == EILSEQ ? "binary data, not a snapshot" :
		       strerror(errno));
		return -1;
	}
	for (p = text; *p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'; p++)
		;
	if (*p == '{') {
		ret = ks_snap_read_many(text, path, nodes, n, err, sizeof(err));
		if (!ret && (flags & KS_PARSE_STRICT) &&
		    ks_snap_consistent(*nodes, *n, path, err, sizeof(err))) {
			while (*n)
				ks_view_free(&(*nodes)[--*n]);
			free(*nodes);
			*nodes = NULL;
			ret = -1;
		}
	} else if (!*p) {
		snprintf(err, sizeof(err), "%s: empty file", path);
		ret = -1;
	} else if (*p != '#') {		/* node text starts "# kstats NAME" */
		snprintf(err, sizeof(err), "%s: not a kstats snapshot", path);
		ret = -1;
	} else {
		*nodes = calloc(1, sizeof(**nodes));
		ret = *nodes ? ks_parse_text(text, path, flags, *nodes, err, sizeof(err)) : -1;
		if (!*nodes)
			snprintf(err, sizeof(err), "%s: out of memory", path);
		if (!ret) {
			*n = 1;
			ks_meta_now(&(*nodes)[0].meta, NULL,
				    stat(path, &st) ? time(NULL) : st.st_mtime);
			(*nodes)[0].meta.kernel[0] = '\0';	/* captured elsewhere, maybe */
		} else {
			free(*nodes);
			*nodes = NULL;
		}
	}
	free(text);
	if (ret)
		ks_err("%s", err);
	return ret;
}

int ks_name_match(char *const *globs, int n, const char *name)
{
	const char *sym = strchr(name, ':');
	int i;

	for (i = 0; i < n; i++)
		if (!fnmatch(globs[i], name, 0) || (sym && !fnmatch(globs[i], sym + 1, 0)))
			return 1;
	return !n;
}

int ks_load_file(const char *path, unsigned int flags, struct ks_view *node)
{
	struct ks_view *nodes;
	int n, i;

	if (ks_load_file_many(path, flags, &nodes, &n))
		return -1;
	if (n == 1) {
		*node = nodes[0];
		free(nodes);
		return 0;
	}
	ks_err("%s: holds %d nodes, one expected here", path, n);
	for (i = 0; i < n; i++)
		ks_view_free(&nodes[i]);
	free(nodes);
	return -1;
}

/* Append @node (allocated, now owned by @set) from @src; -1 when out of memory. */
static int ks_set_push(struct ks_set *set, struct ks_view *node, const char *src)
{
	void *p;

	p = realloc(set->nodes, (set->n + 1) * sizeof(*set->nodes));
	if (p)
		set->nodes = p;
	p = p ? realloc(set->srcs, (set->n + 1) * sizeof(*set->srcs)) : NULL;
	if (!p) {
		ks_view_free(node);
		free(node);
		return -1;
	}
	set->srcs = p;
	set->nodes[set->n] = node;
	set->srcs[set->n++] = src;
	return 0;
}

/*
 * Is @src, given as a node name, a file instead (forgotten -f)?  A regular
 * file by that name, named as no node is: with a '/', or ending in .json
 * or .txt (snapshots, captured node text).
 */
static int ks_looks_like_file(const char *src)
{
	struct stat st;

	if (stat(src, &st) || !S_ISREG(st.st_mode))
		return 0;
	return ks_snapshot_name(src) || !ks_name_valid(src);
}

int ks_set_add(struct ks_set *set, const char *src, int live,
		      unsigned int flags)
{
	struct ks_view *node, *nodes;
	int n, i, ret = 0;

	if (live && ks_looks_like_file(src))
		live = 0;	/* a file given without -f */
	if (live) {
		node = calloc(1, sizeof(*node));
		if (!node)
			return -1;
		if (ks_load_live(src, flags, node)) {
			free(node);
			return -1;
		}
		return ks_set_push(set, node, src);
	}
	if (ks_load_file_many(src, flags, &nodes, &n))
		return -1;
	for (i = 0; i < n; i++) {
		node = malloc(sizeof(*node));
		if (!node || ret) {
			free(node);
			ks_view_free(&nodes[i]);
			ret = -1;
			continue;
		}
		*node = nodes[i];
		ret = ks_set_push(set, node, src);
	}
	free(nodes);
	return ret;
}

void ks_set_free(struct ks_set *set)
{
	int i;

	for (i = 0; i < set->n; i++) {
		ks_view_free(set->nodes[i]);
		free(set->nodes[i]);
	}
	free(set->nodes);
	free(set->srcs);
	memset(set, 0, sizeof(*set));
}
