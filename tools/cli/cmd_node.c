// SPDX-License-Identifier: GPL-2.0
/*
 * kstats trace, remove, start, stop, reset and list: the nodes' life,
 * through _control.  A trace command is checked with the module's own
 * parser (common/ks_cmd.c) before it is written, so a bad one fails here
 * with the module's words.
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kstats/cmd.h>
#include "ks_ctl.h"
#include "ks_fmt.h"
#include "ks_load.h"
#include "ks_parse.h"
#include "kstats.h"

int ks_trace_longopts(struct option *lo)
{
	unsigned int i;

	for (i = 0; i < KS_CMD_NR_OPTS; i++)
		lo[i] = (struct option){ ks_cmd_opts[i].key, required_argument,
					 NULL, OPT_TRACE + (int)i };
	return KS_CMD_NR_OPTS;
}

/* Does the module's parser take @val for option @o? */
static int ks_opt_takes(const struct ks_cmd_opt *o, const char *val)
{
	struct ks_cmd cmd;

	memset(&cmd, 0, sizeof(cmd));
	return !o->set(&cmd, val);
}

/*
 * Why @o refuses @val, into @buf: the values it takes, found by asking the
 * module's own parser (so the limits stay those of include/kstats/): a
 * range of numbers, the words of its help it takes, or a length.
 */
static void ks_opt_why(const struct ks_cmd_opt *o, const char *val, char *buf,
		       size_t len)
{
	char num[24], word[KS_NAME_MAX + 2], words[KS_CMD_MAX] = "", seen[KS_CMD_MAX] = ",";
	const char *p, *texts[2] = { o->arg, o->help ? o->help : "" };
	unsigned long long lo, hi, mid, min;
	size_t n;
	int t;

	if (!ks_opt_takes(o, "x") && (ks_opt_takes(o, "0") || ks_opt_takes(o, "1"))) {
		min = lo = ks_opt_takes(o, "0") ? 0 : 1;
		hi = 0xffffffffULL;
		while (lo < hi) {	/* the largest value taken */
			mid = lo + (hi - lo + 1) / 2;
			snprintf(num, sizeof(num), "%llu", mid);
			if (ks_opt_takes(o, num))
				lo = mid;
			else
				hi = mid - 1;
		}
		snprintf(buf, len, "%s not in %llu..%llu", val, min, lo);
		return;
	}
	for (t = 0; t < 2 && !ks_opt_takes(o, "x"); t++) {
		for (p = texts[t]; *p; p += n ? n : 1) {
			n = strspn(p, "abcdefghijklmnopqrstuvwxyz");
			snprintf(word, sizeof(word), ",%.*s,", (int)n, p);
			if (!n || n >= KS_NAME_MAX || strstr(seen, word))
				continue;
			snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen), "%s", word + 1);
			word[n + 1] = '\0';
			if (ks_opt_takes(o, word + 1))
				snprintf(words + strlen(words), sizeof(words) - strlen(words),
					 "%s%s", words[0] ? ", " : "", word + 1);
		}
	}
	if (words[0]) {
		snprintf(buf, len, "%s not one of %s", val, words);
		return;
	}
	for (n = 1; n < KS_CMD_MAX; n++) {	/* the longest word taken */
		memset(words, 'a', n);
		words[n] = '\0';
		if (!ks_opt_takes(o, words))
			break;
	}
	if (strlen(val) >= n)
		snprintf(buf, len, "'%s' is longer than %zu characters", val, n - 1);
	else if (ks_opt_takes(o, "tp:x"))
		snprintf(buf, len, "'%s' is not a function or tp:NAME", val);
	else
		snprintf(buf, len, "'%s' is not valid", val);
}

int ks_trace_opt(struct ks_trace_opts *to, int opt, const char *arg)
{
	const struct ks_cmd_opt *o;
	char why[KS_ERR_MAX];
	const char *key;
	size_t len;

	if (opt < OPT_TRACE || opt >= OPT_TRACE + KS_CMD_NR_OPTS)
		return 0;
	o = &ks_cmd_opts[opt - OPT_TRACE];
	key = o->key;
	/* one word each, that the module's parser takes */
	if (!*arg || strpbrk(arg, " \t\n")) {
		ks_err("--%s: '%s' is not one word", key, arg);
		return -1;
	}
	if (!ks_opt_takes(o, arg)) {
		ks_opt_why(o, arg, why, sizeof(why));
		ks_err("--%s: %s", key, why);
		return -1;
	}
	len = strlen(to->words);
	if (len + strlen(key) + strlen(arg) + 3 >= sizeof(to->words)) {
		ks_err("too many trace options (a command is at most %d bytes)",
		       KS_CMD_MAX);
		return -1;
	}
	snprintf(to->words + len, sizeof(to->words) - len, " %s %s", key, arg);
	to->has_start |= !strcmp(key, "start");
	to->has_end |= !strcmp(key, "end");
	return 1;
}

/**
 * ks_cmd_check() - check @cmd as the module will, without the module
 * @cmd: one command line, without newline
 *
 * Prints the module's own complaint ("bad command '...': why") on failure.
 *
 * Return: 0 when the module's parser accepts @cmd, -1 otherwise.
 */
static int ks_cmd_check(const char *cmd)
{
	char line[KS_CMD_MAX + 1];
	struct ks_cmd parsed;
	const char *why = "";
	size_t len = strlen(cmd) + 1;	/* the newline a shell echo adds */
	long bad;

	if (len > KS_CMD_MAX) {
		ks_err("command longer than %d bytes: '%s'", KS_CMD_MAX, cmd);
		return -1;
	}
	bad = ks_cmd_text(cmd, len - 1, &why);
	if (bad >= 0) {
		ks_err("%s 0x%02x at offset %ld of '%s'", why,
		       (unsigned char)cmd[bad], bad, cmd);
		return -1;
	}
	snprintf(line, sizeof(line), "%s", cmd);
	if (ks_cmd_parse(line, &parsed, &why)) {
		ks_err("bad command '%s': %s", cmd, why);
		return -1;
	}
	return 0;
}

/* Refused functions _last lists in full; past that, a count. */
#define KS_LAST_SHOWN	10

/*
 * What the module's _last says of glob command @cmd, on @f (on stderr
 * after "kstats: ", as every message there): the refused
 * functions (the first KS_LAST_SHOWN) and the counts.  Nothing when
 * _last is about another command (a later one, from elsewhere).
 */
static void ks_print_last(FILE *f, const char *cmd)
{
	const char *pre = f == stderr ? "kstats: " : "";
	struct ks_last last;
	int i;

	if (ks_last_read(cmd, &last))
		return;
	for (i = 0; i < last.nrefused && i < KS_LAST_SHOWN; i++)
		fprintf(f, "%s%s\n", pre, last.refused[i]);
	if (last.nrefused > KS_LAST_SHOWN && !last.untold)
		fprintf(f, "%s... and %d more refused (%s/_last lists them all)\n",
			pre, last.nrefused - KS_LAST_SHOWN, ks_root());
	else if (last.nrefused + last.untold > KS_LAST_SHOWN)
		fprintf(f, "%s... and %d more refused (%s/_last lists %d more, the kernel log each)\n",
			pre, last.nrefused + last.untold - KS_LAST_SHOWN, ks_root(),
			last.nrefused > KS_LAST_SHOWN ? last.nrefused - KS_LAST_SHOWN : 0);
	if (last.done)
		fprintf(f, "%s%s\n", pre, last.done);
	ks_last_free(&last);
}

/* Send "trace NAME OPTS", checked first; prints the error. */
/*
 * After "trace @name": a line on stderr for each backend of the nodes
 * @name made whose switch is off (ftrace_enabled, kprobes' enabled): they
 * attached, and would count nothing.
 */
static void ks_warn_switched_off(const char *name)
{
	char err[KS_ERR_MAX], why[512], seen[256] = " ";
	char *text = ks_ctl_read_control(err, sizeof(err)), *line, *next;
	struct ks_list_row r;

	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (ks_list_row(line, &r) || fnmatch(name, r.name, 0))
			continue;
		snprintf(why, sizeof(why), " %s ", r.backend);
		if (strstr(seen, why) || strlen(seen) + strlen(why) >= sizeof(seen))
			continue;
		strcat(seen, why + 1);
		if (ks_ctl_switched_off(r.backend, why, sizeof(why)))
			ks_err("warning: %s", why);
	}
	free(text);
}

int ks_do_trace(const char *name, const struct ks_trace_opts *to)
{
	char cmd[2 * KS_CMD_MAX], err[KS_ERR_MAX];
	bool glob = ks_glob_valid(name);

	snprintf(cmd, sizeof(cmd), "trace %s%s", name, to->words);
	if (ks_cmd_check(cmd))
		return -1;
	if (ks_ctl_cmd("_control", cmd, err, sizeof(err))) {
		ks_err("%s", err);
		if (glob)
			ks_print_last(stderr, cmd);
		return -1;
	}
	if (glob)
		ks_print_last(stdout, cmd);
	ks_warn_switched_off(name);
	return 0;
}

/* kstats trace NAME [options] */
int cmd_trace(int argc, char **argv)
{
	struct option lo[KS_CMD_NR_OPTS + 2] = { { 0 } };
	struct ks_trace_opts to = { .words = "" };
	int opt, n;

	n = ks_trace_longopts(lo);
	lo[n] = (struct option){ "help", no_argument, NULL, OPT_HELP };

	while ((opt = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
		if (opt == 'h' || opt == OPT_HELP) {
			ks_help(stdout, "trace");
			return 0;
		}
		n = ks_trace_opt(&to, opt, optarg);
		if (!n)
			ks_bad_opt("trace", opt, argv);
		if (n < 0)
			ks_bad_usage("trace", NULL);
	}
	if (optind + 1 != argc)
		ks_bad_usage("trace", "one NAME expected");
	if (to.has_start != to.has_end)
		ks_bad_usage("trace", "--start and --end go together");
	return ks_do_trace(argv[optind], &to) ? 1 : 0;
}

/* kstats remove|start|stop|reset NAME|all */
int cmd_verb(int argc, char **argv)
{
	const char *verb = argv[0];
	char cmd[512], err[KS_ERR_MAX];
	int i, ret = 0;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		ks_help(stdout, verb);
		return 0;
	}
	if (argc < 2)
		ks_bad_usage(verb, "NAME or all expected");
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "all") && !ks_name_valid(argv[i]) &&
		    !ks_glob_valid(argv[i])) {
			ks_err("'%s' is not a node name or a glob of names", argv[i]);
			ret = 1;
			continue;
		}
		snprintf(cmd, sizeof(cmd), "%s %s", verb, argv[i]);
		if (ks_ctl_cmd("_control", cmd, err, sizeof(err))) {
			ks_err("%s", err);
			ret = 1;
		}
	}
	return ret;
}

/* One line of list: a row of _control and two percentiles. */
struct ks_list_line {
	struct ks_list_row row;
	char p50[32], p99[32];
};

/* kstats list [GLOB...] */
int cmd_list(int argc, char **argv)
{
	struct ks_list_line *rows = NULL, *r, *p;
	char *text, *line, *next;
	int i, n = 0, namew = 24;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		ks_help(stdout, "list");
		return 0;
	}
	text = ks_load_control();
	if (!text)
		return 1;
	for (line = text; line && *line; line = next) {
		struct ks_view node;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		p = realloc(rows, (n + 1) * sizeof(*rows));
		if (!p)
			break;
		rows = p;
		r = &rows[n];
		memset(r, 0, sizeof(*r));
		if (ks_list_row(line, &r->row) ||
		    !ks_name_match(argv + 1, argc - 1, r->row.name))
			continue;
		strcpy(r->p50, "-");
		strcpy(r->p99, "-");
		if (!ks_load_live(r->row.name, KS_LOAD_QUIET, &node)) {
			if (node.samples) {
				ks_fmt_value(r->p50, sizeof(r->p50), node.pct[KSTATS_P50], node.unit);
				ks_fmt_value(r->p99, sizeof(r->p99), node.pct[KSTATS_P99], node.unit);
			}
			ks_view_free(&node);
		}
		if ((int)strlen(r->row.name) > namew)
			namew = (int)strlen(r->row.name);
		n++;
	}
	free(text);
	printf("%-*s %-11s %-8s %12s %8s %10s %10s\n", namew, "NAME", "BACKEND",
		       "STATE", "SAMPLES", "MISSED", "p50", "p99");
	for (i = 0; i < n; i++)
		printf("%-*s %-11s %-8s %12llu %8llu %10s %10s\n", namew, rows[i].row.name,
		       rows[i].row.backend, rows[i].row.state,
		       (unsigned long long)rows[i].row.samples,
		       (unsigned long long)rows[i].row.missed, rows[i].p50, rows[i].p99);
	free(rows);
	if (!n)
		fprintf(stderr, argc > 1 ? "kstats: no node matches\n" :
			"kstats: no nodes (kstats trace FUNC adds one)\n");
	return 0;
}
