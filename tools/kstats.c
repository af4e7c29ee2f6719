// SPDX-License-Identifier: GPL-2.0
/*
 * kstats - measure how long kernel functions take, with the kstats module.
 *
 *   kstats trace FUNC [options]       start timing FUNC
 *   kstats remove FUNC|all            stop timing and drop the node
 *   kstats start|stop|reset FUNC|all  control recording
 *   kstats list                       the nodes and their state
 *   kstats show FUNC                  summary, percentiles, bar histogram
 *   kstats watch FUNC [-i S]          what each interval adds
 *   kstats run [options] FUNC... -- COMMAND
 *   kstats save FUNC [-o FILE]        snapshot (JSON)
 *   kstats compare A B [C...]         the table for a patch review
 *   kstats export --json|--csv|--prometheus
 *   kstats check FUNC|-f FILE         verify a node's text or a snapshot
 *
 * The node text is parsed by ks_parse.c only; snapshots by ks_snap.c.
 * A trace command is checked with the module's own parser (kmod/ks_cmd.c)
 * before it is written, so a bad one fails here with the module's words.
 * $KSTATS_DEBUGFS overrides /sys/kernel/debug/kstats (used by the tests).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ks_cmd.h"
#include "ks_ctl.h"
#include "ks_export.h"
#include "ks_fmt.h"
#include "ks_parse.h"
#include "ks_snap.h"

#define KS_VERSION	"0.1"
#define KS_ERR_MAX	1024

/* Print "kstats: MSG" on stderr. */
static void ks_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void ks_err(const char *fmt, ...)
{
	va_list ap;

	fputs("kstats: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- help texts ---- */

static const char ks_usage_trace_opts[] =
	"  --bits B            fractional bits per power of two, 0..8 (default 3: 12.5%)\n"
	"  --buckets N         power-of-two ranges (default 40 - bits: up to 2^40)\n"
	"  --via BACKEND       direct, fprobe or kretprobe (default: the cheapest\n"
	"                      the kernel allows for this function)\n"
	"  --start A --end B   time from A to B on one CPU; a point is a function\n"
	"                      or a tracepoint tp:NAME / tp:SUBSYSTEM:NAME\n"
	"  --gap yes|no        also GAP-NAME: time between consecutive calls\n"
	"  --clock CLOCK       local (ns, default) or tsc (cycles)\n"
	"  --pid N, --tgid N, --comm S, --cpus LIST   record only matching calls\n"
	"  --sample N          record 1 call in N\n"
	"  --clones yes|no     also attach the compiler clones (NAME.constprop.0 ...)\n"
	"  --maxactive N       kretprobe instances (drops show as missed)\n";

static const struct ks_help {
	const char *cmd, *text;
} ks_helps[] = {
	{ "trace", "usage: kstats trace NAME [options]\n"
	  "Start timing the kernel function NAME (or, with --start/--end, the time\n"
	  "between two functions, in a node called NAME).  Options:\n" },
	{ "remove", "usage: kstats remove NAME|all\n"
	  "Detach and delete the node NAME (or every node).\n" },
	{ "start", "usage: kstats start NAME|all\nResume recording.\n" },
	{ "stop", "usage: kstats stop NAME|all\nPause recording; the histogram is kept.\n" },
	{ "reset", "usage: kstats reset NAME|all\nEmpty the histogram.\n" },
	{ "list", "usage: kstats list\n"
	  "One line per node: name, backend, state, samples, missed, p50, p99.\n" },
	{ "show", "usage: kstats show [NAME...] [-f FILE]... [--cpu[=N]] [--log2]\n"
	  "Summary (samples, missed, min/avg/max, p10..p99.9 in readable units) and a\n"
	  "bar histogram of a live node NAME or of FILE (a snapshot or node text).\n"
	  "  -f, --file FILE   read FILE instead of a live node\n"
	  "  --cpu[=N]         also a table per CPU and each CPU's histogram (or CPU N)\n"
	  "  --log2            one histogram line per power of two\n"
	  "  --no-hist         the summary only\n" },
	{ "watch", "usage: kstats watch NAME... [-i SECONDS] [-n COUNT] [--hist]\n"
	  "Every interval, one line per node with what that interval added: samples,\n"
	  "rate, missed and the percentiles of the interval's own histogram.\n"
	  "  -i, --interval S  seconds between reads (default 1, fractions allowed)\n"
	  "  -n, --count N     stop after N intervals (default: until interrupted)\n"
	  "  --hist            also the bar histogram of each interval\n" },
	{ "run", "usage: kstats run [trace options] [-o FILE] [--label L] NAME... -- COMMAND [ARGS]\n"
	  "Trace each NAME, run COMMAND, show the result, remove the nodes.  Exits\n"
	  "with COMMAND's status.  -o saves a snapshot (one NAME only).  Options:\n" },
	{ "save", "usage: kstats save NAME [-o FILE] [--label L]\n"
	  "       kstats save -f NODE_TEXT_FILE [-o FILE] [--label L]\n"
	  "Write a snapshot (JSON, schema kstats-snapshot/2, see kstats(1)).\n"
	  "  -o, --output FILE  default NAME-LABEL.json or NAME-DATE.json; - is stdout\n"
	  "  --label L          the name compare shows for this snapshot\n" },
	{ "compare", "usage: kstats compare A B [C...] [--label L]... [--markdown]\n"
	  "One row per snapshot: count and p10..p99.9, each later row followed by its\n"
	  "change in % against the first.  Snapshots must have the same bits and unit.\n"
	  "  --label L    row name, once per file in order (default: the snapshot's\n"
	  "               label, else the file name)\n"
	  "  --markdown   a Markdown table\n" },
	{ "export", "usage: kstats export --json|--csv|--prometheus [NAME...|all] [-f FILE]... [-o OUT]\n"
	  "  --json         the snapshot document (one source)\n"
	  "  --csv          function,unit,cpu,slot,lo,hi,count,avg,n,p per non-empty slot\n"
	  "  --prometheus   text exposition for node_exporter's textfile collector:\n"
	  "                 one histogram per node, le = 2^k-1 ns (k = 1..40)\n"
	  "  all            every node _control lists\n"
	  "  -f, --file F   a snapshot or node text instead of a live node\n"
	  "  -o, --output F Prometheus: write F.tmp.PID, then rename it to F\n"
	  "  --per-cpu      Prometheus: one histogram per CPU (label cpu), no merge\n"
	  "  --slots        Prometheus: one bucket per slot (many series)\n"
	  "  --total        CSV: only the merged histogram, no per-CPU rows\n"
	  "  --label L      JSON: the snapshot label\n" },
	{ "check", "usage: kstats check [NAME...] [-f FILE]...\n"
	  "Parse node text strictly (every invariant of docs/format.md) or read a\n"
	  "snapshot, and say whether it is consistent.\n" },
};

/* Print the help of @cmd on @f. */
static void ks_help(FILE *f, const char *cmd)
{
	size_t i;

	for (i = 0; i < sizeof(ks_helps) / sizeof(ks_helps[0]); i++) {
		if (strcmp(ks_helps[i].cmd, cmd))
			continue;
		fputs(ks_helps[i].text, f);
		if (!strcmp(cmd, "trace") || !strcmp(cmd, "run"))
			fputs(ks_usage_trace_opts, f);
		return;
	}
}

/* The general usage. */
static void ks_usage(FILE *f)
{
	fputs("usage: kstats COMMAND [ARGS]   (kstats COMMAND --help for details)\n"
	      "  trace NAME [options]          start timing a kernel function\n"
	      "  remove NAME|all               stop timing, delete the node\n"
	      "  start|stop|reset NAME|all     control a node\n"
	      "  list                          the nodes\n"
	      "  show NAME | -f FILE           summary and bar histogram\n"
	      "  watch NAME... [-i S]          per-interval samples, rate, percentiles\n"
	      "  run [options] NAME... -- CMD  trace while CMD runs, show, remove\n"
	      "  save NAME [-o FILE]           snapshot to a JSON file\n"
	      "  compare A B [C...]            compare snapshots (--markdown)\n"
	      "  export --json|--csv|--prometheus [NAME|all] [-f FILE] [-o OUT]\n"
	      "  check NAME | -f FILE          verify node text or a snapshot\n"
	      "Environment: KSTATS_DEBUGFS (default " KSTATS_DEBUGFS_DEFAULT ")\n", f);
}

/* Bad usage of @cmd: message, then exit 2. */
static void ks_bad_usage(const char *cmd, const char *what)
{
	if (what)
		ks_err("%s: %s", cmd, what);
	fprintf(stderr, "kstats: see 'kstats %s --help'\n", cmd);
	exit(2);
}

/* ---- loading nodes ---- */

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

/* Read the live node @name. */
static int ks_load_live(const char *name, struct ks_view *node)
{
	char path[4096], err[KS_ERR_MAX];
	char *text;
	int ret;

	if (!ks_name_valid(name)) {
		ks_err("'%s' is not a node name", name);
		return -1;
	}
	if (ks_ctl_ready(err, sizeof(err))) {
		ks_err("%s", err);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", ks_root(), name);
	text = ks_text_read(path, NULL);
	if (!text) {
		if (errno == ENOENT)
			ks_err("no node named '%s' (kstats list shows them; kstats trace %s adds it)",
			       name, name);
		else if (errno == EACCES || errno == EPERM)
			ks_err("%s: permission denied: kstats needs root", path);
		else
			ks_err("%s: %s", path, strerror(errno));
		return -1;
	}
	ret = ks_parse_text(text, path, 0, node, err, sizeof(err));
	free(text);
	if (ret) {
		ks_err("%s", err);
		return -1;
	}
	ks_meta_now(&node->meta, NULL, time(NULL));
	return 0;
}

/* Read @path: a snapshot when it starts with '{', else node text. */
static int ks_load_file(const char *path, unsigned int flags, struct ks_view *node)
{
	char err[KS_ERR_MAX];
	const char *p;
	struct stat st;
	char *text;
	int ret;

	text = ks_text_read(path, NULL);
	if (!text) {
		ks_err("%s: %s", path, errno == EILSEQ ? "binary data, not a snapshot" :
		       strerror(errno));
		return -1;
	}
	for (p = text; *p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'; p++)
		;
	if (*p == '{') {
		ret = ks_snap_read(text, path, node, err, sizeof(err));
	} else if (!*p) {
		snprintf(err, sizeof(err), "%s: empty file", path);
		ret = -1;
	} else {
		ret = ks_parse_text(text, path, flags, node, err, sizeof(err));
		if (!ret) {
			ks_meta_now(&node->meta, NULL,
				    stat(path, &st) ? time(NULL) : st.st_mtime);
			node->meta.kernel[0] = '\0';	/* captured elsewhere, maybe */
		}
	}
	free(text);
	if (ret)
		ks_err("%s", err);
	return ret;
}

/* A list of nodes from live names and files. */
struct ks_set {
	struct ks_view **nodes;
	const char **srcs;
	int n;
};

/* Add a loaded node; returns -1 on failure. */
static int ks_set_add(struct ks_set *set, const char *src, int live,
		      unsigned int flags)
{
	struct ks_view *node = calloc(1, sizeof(*node));
	void *p;

	if (!node)
		return -1;
	if (live ? ks_load_live(src, node) : ks_load_file(src, flags, node)) {
		free(node);
		return -1;
	}
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

/* Free a set. */
static void ks_set_free(struct ks_set *set)
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

/* ---- trace options ---- */

enum {
	OPT_BITS = 1000, OPT_BUCKETS, OPT_VIA, OPT_START, OPT_END, OPT_CLOCK,
	OPT_PID, OPT_TGID, OPT_COMM, OPT_CPUS, OPT_SAMPLE, OPT_CLONES,
	OPT_MAXACTIVE, OPT_GAP, OPT_LABEL, OPT_MARKDOWN, OPT_JSON, OPT_CSV, OPT_PROM,
	OPT_CPU, OPT_LOG2, OPT_TOTAL, OPT_HIST, OPT_NOHIST, OPT_TEST_TICK,
	OPT_PER_CPU, OPT_SLOTS, OPT_HELP,
};

#define KS_TRACE_LONGOPTS \
	{ "bits", required_argument, NULL, OPT_BITS }, \
	{ "buckets", required_argument, NULL, OPT_BUCKETS }, \
	{ "via", required_argument, NULL, OPT_VIA }, \
	{ "start", required_argument, NULL, OPT_START }, \
	{ "end", required_argument, NULL, OPT_END }, \
	{ "clock", required_argument, NULL, OPT_CLOCK }, \
	{ "pid", required_argument, NULL, OPT_PID }, \
	{ "tgid", required_argument, NULL, OPT_TGID }, \
	{ "comm", required_argument, NULL, OPT_COMM }, \
	{ "cpus", required_argument, NULL, OPT_CPUS }, \
	{ "sample", required_argument, NULL, OPT_SAMPLE }, \
	{ "clones", required_argument, NULL, OPT_CLONES }, \
	{ "maxactive", required_argument, NULL, OPT_MAXACTIVE }, \
	{ "gap", required_argument, NULL, OPT_GAP }

/* The options of a trace command, as words for _control. */
struct ks_trace_opts {
	char words[KS_CMD_MAX];
	int has_start, has_end;
};

/* Append " WORD ARG" for trace option @opt; 1 if @opt was one, 0 if not, -1 on error. */
static int ks_trace_opt(struct ks_trace_opts *to, int opt, const char *arg)
{
	static const struct {
		int opt;
		const char *word;
	} tab[] = {
		{ OPT_BITS, "bits" }, { OPT_BUCKETS, "buckets" }, { OPT_VIA, "via" },
		{ OPT_START, "start" }, { OPT_END, "end" }, { OPT_CLOCK, "clock" },
		{ OPT_PID, "pid" }, { OPT_TGID, "tgid" }, { OPT_COMM, "comm" },
		{ OPT_CPUS, "cpus" }, { OPT_SAMPLE, "sample" },
		{ OPT_CLONES, "clones" }, { OPT_MAXACTIVE, "maxactive" },
		{ OPT_GAP, "gap" },
	};
	size_t i, len;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (tab[i].opt != opt)
			continue;
		/* one word each: the module's parser judges the value */
		if (!*arg || strpbrk(arg, " \t\n")) {
			ks_err("bad value '%s' for --%s (one word expected)", arg,
			       tab[i].word);
			return -1;
		}
		len = strlen(to->words);
		if (len + strlen(tab[i].word) + strlen(arg) + 3 >= sizeof(to->words)) {
			ks_err("too many trace options (a command is at most %d bytes)",
			       KS_CMD_MAX);
			return -1;
		}
		snprintf(to->words + len, sizeof(to->words) - len, " %s %s",
			 tab[i].word, arg);
		to->has_start |= opt == OPT_START;
		to->has_end |= opt == OPT_END;
		return 1;
	}
	return 0;
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

/* ---- subcommands ---- */

/* Send "trace NAME OPTS", checked first; prints the error. */
static int ks_do_trace(const char *name, const struct ks_trace_opts *to)
{
	char cmd[2 * KS_CMD_MAX], err[KS_ERR_MAX];

	snprintf(cmd, sizeof(cmd), "trace %s%s", name, to->words);
	if (ks_cmd_check(cmd))
		return -1;
	if (ks_ctl_cmd("_control", cmd, err, sizeof(err))) {
		ks_err("%s", err);
		return -1;
	}
	return 0;
}

/* kstats trace NAME [options] */
static int cmd_trace(int argc, char **argv)
{
	static const struct option lo[] = {
		KS_TRACE_LONGOPTS,
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	struct ks_trace_opts to = { .words = "" };
	int opt;

	while ((opt = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		if (opt == 'h' || opt == OPT_HELP) {
			ks_help(stdout, "trace");
			return 0;
		}
		if (ks_trace_opt(&to, opt, optarg) != 1)
			ks_bad_usage("trace", NULL);
	}
	if (optind + 1 != argc)
		ks_bad_usage("trace", "one NAME expected");
	if (to.has_start != to.has_end)
		ks_bad_usage("trace", "--start and --end go together");
	return ks_do_trace(argv[optind], &to) ? 1 : 0;
}

/* kstats remove|start|stop|reset NAME|all */
static int cmd_verb(int argc, char **argv)
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
		if (strcmp(argv[i], "all") && !ks_name_valid(argv[i])) {
			ks_err("'%s' is not a node name", argv[i]);
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

/* kstats list */
static int cmd_list(int argc, char **argv)
{
	char path[4096], err[KS_ERR_MAX], *text, *line, *next;
	int rows = 0;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		ks_help(stdout, "list");
		return 0;
	}
	if (argc > 1)
		ks_bad_usage("list", "no arguments expected");
	if (ks_ctl_ready(err, sizeof(err))) {
		ks_err("%s", err);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/_control", ks_root());
	text = ks_text_read(path, NULL);
	if (!text) {
		ks_err("%s: %s%s", path, strerror(errno),
		       errno == EACCES || errno == EPERM ? ": kstats needs root" : "");
		return 1;
	}
	printf("%-24s %-11s %-8s %12s %8s %10s %10s\n", "NAME", "BACKEND", "STATE",
	       "SAMPLES", "MISSED", "p50", "p99");
	for (line = text; line && *line; line = next) {
		char name[KS_META_MAX], backend[64], state[64], s1[32], s2[32];
		char p50[32] = "-", p99[32] = "-";
		struct ks_view node;
		__u64 samples, missed;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (*line == '#' ||
		    sscanf(line, "%127s %63s %63s %31s %31s", name, backend, state, s1, s2) != 5 ||
		    ks_parse_u64(s1, &samples) || ks_parse_u64(s2, &missed))
			continue;
		if (ks_name_valid(name)) {
			char *nt;

			snprintf(path, sizeof(path), "%s/%s", ks_root(), name);
			nt = ks_text_read(path, NULL);
			if (nt && !ks_parse_text(nt, path, 0, &node, err, sizeof(err))) {
				if (node.samples) {
					ks_fmt_value(p50, sizeof(p50), node.pct[KSTATS_P50],
						     node.unit);
					ks_fmt_value(p99, sizeof(p99), node.pct[KSTATS_P99],
						     node.unit);
				}
				ks_view_free(&node);
			}
			free(nt);
		}
		printf("%-24s %-11s %-8s %12llu %8llu %10s %10s\n", name, backend, state,
		       (unsigned long long)samples, (unsigned long long)missed, p50, p99);
		rows++;
	}
	free(text);
	if (!rows)
		fprintf(stderr, "kstats: no nodes (kstats trace FUNC adds one)\n");
	return 0;
}

/* Print one node as show does. */
static void ks_show_node(const struct ks_view *node, int per_cpu, long only_cpu,
			 int log2, int hist)
{
	__u32 c;

	ks_print_summary(stdout, node);
	if (per_cpu) {
		putchar('\n');
		ks_print_cpu_table(stdout, node);
	}
	if (!hist)
		return;
	if (!per_cpu || only_cpu < 0) {
		printf("\n");
		if (per_cpu)
			printf("all CPUs:\n");
		ks_print_hist(stdout, node, node->total, log2);
	}
	for (c = 0; per_cpu && c < node->nr_cpus; c++) {
		if (only_cpu >= 0 && node->cpus[c].cpu != (__u32)only_cpu)
			continue;
		printf("\nCPU %u:\n", node->cpus[c].cpu);
		ks_print_hist(stdout, node, node->cpus[c].slots, log2);
	}
}

/* kstats show [NAME...] [-f FILE]... */
static int cmd_show(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "cpu", optional_argument, NULL, OPT_CPU },
		{ "log2", no_argument, NULL, OPT_LOG2 },
		{ "no-hist", no_argument, NULL, OPT_NOHIST },
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	struct ks_set set = { 0 };
	int opt, per_cpu = 0, log2 = 0, hist = 1, i, ret = 0;
	long only_cpu = -1;
	__u64 v;

	while ((opt = getopt_long(argc, argv, "f:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (ks_set_add(&set, optarg, 0, 0))
				ret = 1;
			break;
		case OPT_CPU:
			per_cpu = 1;
			if (optarg) {
				if (ks_parse_u64(optarg, &v) || v > 1U << 20)
					ks_bad_usage("show", "--cpu=N wants a CPU number");
				only_cpu = (long)v;
			}
			break;
		case OPT_LOG2:
			log2 = 1;
			break;
		case OPT_NOHIST:
			hist = 0;
			break;
		case 'h':
		case OPT_HELP:
			ks_help(stdout, "show");
			return 0;
		default:
			ks_bad_usage("show", NULL);
		}
	}
	for (i = optind; i < argc; i++)
		if (ks_set_add(&set, argv[i], 1, 0))
			ret = 1;
	if (!set.n && !ret)
		ks_bad_usage("show", "NAME or -f FILE expected");
	for (i = 0; i < set.n; i++) {
		if (i)
			putchar('\n');
		ks_show_node(set.nodes[i], per_cpu, only_cpu, log2, hist);
	}
	ks_set_free(&set);
	return ret;
}

/* Write a snapshot of @node to @out ("-" for stdout), atomically. */
static int ks_save_node(const struct ks_view *node, const char *out)
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
static int cmd_save(int argc, char **argv)
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
	if (file ? ks_load_file(file, 0, &node) : ks_load_live(argv[optind], &node))
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
static int cmd_compare(int argc, char **argv)
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

/* kstats export --json|--csv|--prometheus [NAME...|all] [-f FILE]... [-o OUT] */
static int cmd_export(int argc, char **argv)
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

/* kstats check [NAME...] [-f FILE]... */
static int cmd_check(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	struct ks_set set = { 0 };
	int opt, i, ret = 0;

	while ((opt = getopt_long(argc, argv, "f:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (ks_set_add(&set, optarg, 0, KS_PARSE_STRICT))
				ret = 1;
			break;
		case 'h':
		case OPT_HELP:
			ks_help(stdout, "check");
			return 0;
		default:
			ks_bad_usage("check", NULL);
		}
	}
	for (i = optind; i < argc; i++) {
		char path[4096], err[KS_ERR_MAX], *text;
		struct ks_view node;

		if (!ks_name_valid(argv[i]) || ks_ctl_ready(err, sizeof(err))) {
			ks_err("%s", ks_name_valid(argv[i]) ? err : "bad node name");
			ret = 1;
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", ks_root(), argv[i]);
		text = ks_text_read(path, NULL);
		if (!text) {
			ks_err("%s: %s", path, strerror(errno));
			ret = 1;
			continue;
		}
		if (ks_parse_text(text, path, KS_PARSE_STRICT, &node, err, sizeof(err))) {
			ks_err("%s", err);
			ret = 1;
		} else {
			printf("ok %s: %llu samples, %u CPUs with samples\n", path,
			       (unsigned long long)node.samples, node.nr_cpus);
			ks_view_free(&node);
		}
		free(text);
	}
	for (i = 0; i < set.n; i++)
		printf("ok %s: %llu samples, %u CPUs with samples\n", set.srcs[i],
		       (unsigned long long)set.nodes[i]->samples, set.nodes[i]->nr_cpus);
	if (!set.n && optind >= argc && !ret)
		ks_bad_usage("check", "NAME or -f FILE expected");
	ks_set_free(&set);
	return ret;
}

/* ---- watch ---- */

static volatile sig_atomic_t ks_stop;

/* SIGINT/SIGTERM: finish the current interval and leave. */
static void ks_on_signal(int sig)
{
	(void)sig;
	ks_stop = 1;
}

/* Monotonic time in seconds. */
static double ks_mono_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sleep until monotonic time @t (or a signal). */
static void ks_sleep_until(double t)
{
	double d;

	while (!ks_stop && (d = t - ks_mono_seconds()) > 0) {
		struct timespec ts = {
			.tv_sec = (time_t)d,
			.tv_nsec = (long)((d - (double)(time_t)d) * 1e9),
		};

		nanosleep(&ts, NULL);
	}
}

/* Run the test hook @cmd with KSTATS_TICK=@tick; nonzero on failure. */
static int ks_test_tick(const char *cmd, int tick)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", tick);
	setenv("KSTATS_TICK", buf, 1);
	fflush(stdout);
	return system(cmd);
}

/* The percentiles a watch line shows (all but p95 and p98: a short line). */
static const int ks_watch_pct[] = {
	KSTATS_P10, KSTATS_P50, KSTATS_P90, KSTATS_P99, KSTATS_P999,
};
#define KS_WATCH_NR_PCT	((int)(sizeof(ks_watch_pct) / sizeof(ks_watch_pct[0])))

/* kstats watch NAME... [-i S] [-n N] [--hist] */
static int cmd_watch(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ "hist", no_argument, NULL, OPT_HIST },
		{ "test-tick", required_argument, NULL, OPT_TEST_TICK },
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	const char *tick_cmd = NULL;
	double interval = 1.0, t0, last, now;
	long count = -1, it;
	struct ks_view *prev;
	int opt, nn, i, hist = 0, ret = 0, w = 0;
	char *end;

	while ((opt = getopt_long(argc, argv, "i:n:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'i':
			interval = strtod(optarg, &end);
			if (*end || end == optarg || !(interval >= 0.01 && interval <= 86400))
				ks_bad_usage("watch", "-i wants seconds between 0.01 and 86400");
			break;
		case 'n':
			count = strtol(optarg, &end, 10);
			if (*end || end == optarg || count < 1)
				ks_bad_usage("watch", "-n wants a positive count");
			break;
		case OPT_HIST:
			hist = 1;
			break;
		case OPT_TEST_TICK:
			tick_cmd = optarg;
			break;
		case 'h':
		case OPT_HELP:
			ks_help(stdout, "watch");
			return 0;
		default:
			ks_bad_usage("watch", NULL);
		}
	}
	nn = argc - optind;
	if (nn < 1)
		ks_bad_usage("watch", "NAME expected");
	prev = calloc((size_t)nn, sizeof(*prev));
	if (!prev)
		return 1;
	for (i = 0; i < nn; i++)
		if (ks_load_live(argv[optind + i], &prev[i])) {
			ret = 1;
			goto out;
		}
	signal(SIGINT, ks_on_signal);
	signal(SIGTERM, ks_on_signal);
	printf("# every %g s: what each interval added; percentiles of the interval's histogram\n",
	       interval);
	for (i = 0; i < nn; i++)
		if (ks_value_width(prev[i].unit) > w)
			w = ks_value_width(prev[i].unit);
	printf("%8s %-20s %10s %10s %8s", "TIME", "NAME", "SAMPLES", "RATE/s", "MISSED");
	for (i = 0; i < KS_WATCH_NR_PCT; i++)
		printf(" %*s", w, kstats_pct_name[ks_watch_pct[i]]);
	printf("\n");
	fflush(stdout);
	t0 = last = ks_mono_seconds();
	for (it = 1; count < 0 || it <= count; it++) {
		double secs;

		if (tick_cmd) {
			if (ks_test_tick(tick_cmd, (int)it)) {
				ks_err("watch: test hook failed");
				ret = 1;
				break;
			}
			now = t0 + (double)it * interval;
		} else {
			ks_sleep_until(t0 + (double)it * interval);
			if (ks_stop)
				break;
			now = ks_mono_seconds();
		}
		secs = now - last;
		for (i = 0; i < nn; i++) {
			struct ks_view cur, d;
			char buf[32];
			int k, reset;

			if (ks_load_live(argv[optind + i], &cur)) {
				ret = 1;
				goto out;
			}
			reset = ks_view_delta(&d, &cur, &prev[i]);
			if (reset < 0) {
				ks_err("%s: the slot layout changed (node re-created?)", cur.name);
				ks_view_free(&cur);
				ret = 1;
				goto out;
			}
			printf("%8.1f %-20s %10llu %10.1f %8llu", now - t0, cur.name,
			       (unsigned long long)d.samples,
			       secs > 0 ? (double)d.samples / secs : 0.0,
			       (unsigned long long)d.missed);
			for (k = 0; k < KS_WATCH_NR_PCT; k++)
				printf(" %*s", w, d.samples ?
				       ks_fmt_value(buf, sizeof(buf), d.pct[ks_watch_pct[k]],
						    d.unit) : "-");
			printf("%s\n", reset ? "  (reset)" : "");
			if (hist && d.samples)
				ks_print_hist(stdout, &d, d.total, 0);
			ks_view_free(&d);
			ks_view_free(&prev[i]);
			prev[i] = cur;
		}
		last = now;
		fflush(stdout);
	}
out:
	for (i = 0; i < nn; i++)
		ks_view_free(&prev[i]);
	free(prev);
	return ret;
}

/* ---- run ---- */

/* kstats run [trace options] [-o FILE] [--label L] NAME... -- COMMAND */
static int cmd_run(int argc, char **argv)
{
	static const struct option lo[] = {
		KS_TRACE_LONGOPTS,
		{ "output", required_argument, NULL, 'o' },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "cpu", no_argument, NULL, OPT_CPU },
		{ "log2", no_argument, NULL, OPT_LOG2 },
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	struct ks_trace_opts to = { .words = "" };
	const char *out = NULL, *label = NULL;
	char cmd[512], err[KS_ERR_MAX];
	int opt, dd, nf, i, traced = 0, status = 0, ret = 0, per_cpu = 0, log2 = 0;
	struct sigaction ign = { .sa_handler = SIG_IGN }, oint, oquit;
	pid_t pid;

	for (dd = 1; dd < argc && strcmp(argv[dd], "--"); dd++)
		if (!strcmp(argv[dd], "--help") || !strcmp(argv[dd], "-h")) {
			ks_help(stdout, "run");
			return 0;
		}
	if (dd >= argc - 1)
		ks_bad_usage("run", "'-- COMMAND' expected");
	while ((opt = getopt_long(dd, argv, "o:", lo, NULL)) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case OPT_LABEL:
			label = optarg;
			break;
		case OPT_CPU:
			per_cpu = 1;
			break;
		case OPT_LOG2:
			log2 = 1;
			break;
		default:
			if (ks_trace_opt(&to, opt, optarg) != 1)
				ks_bad_usage("run", NULL);
		}
	}
	nf = dd - optind;
	if (nf < 1)
		ks_bad_usage("run", "NAME expected before --");
	if (out && nf != 1)
		ks_bad_usage("run", "-o saves one node: give one NAME");
	if (to.has_start != to.has_end)
		ks_bad_usage("run", "--start and --end go together");

	for (i = 0; i < nf; i++, traced++)
		if (ks_do_trace(argv[optind + i], &to)) {
			ret = 1;
			goto cleanup;
		}
	fflush(stdout);
	sigaction(SIGINT, &ign, &oint);
	sigaction(SIGQUIT, &ign, &oquit);
	pid = fork();
	if (pid < 0) {
		ks_err("fork: %s", strerror(errno));
		ret = 1;
		goto cleanup;
	}
	if (!pid) {
		sigaction(SIGINT, &oint, NULL);
		sigaction(SIGQUIT, &oquit, NULL);
		execvp(argv[dd + 1], argv + dd + 1);
		ks_err("%s: %s", argv[dd + 1], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGQUIT, &oquit, NULL);
	if (WIFEXITED(status))
		ret = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		ret = 128 + WTERMSIG(status);
	if (ret)
		ks_err("run: %s exited with status %d", argv[dd + 1], ret);

	for (i = 0; i < nf; i++) {
		const char *name = argv[optind + i];
		struct ks_view node;

		if (!strncmp(name, "pcpu:", 5))
			name += 5;
		snprintf(cmd, sizeof(cmd), "stop %s", name);
		if (ks_ctl_cmd("_control", cmd, err, sizeof(err)))
			ks_err("%s", err);
		if (ks_load_live(name, &node)) {
			ret = ret ? ret : 1;
			continue;
		}
		if (i)
			putchar('\n');
		ks_show_node(&node, per_cpu, -1, log2, 1);
		if (out) {
			if (label)
				snprintf(node.meta.label, sizeof(node.meta.label), "%s", label);
			if (ks_save_node(&node, out))
				ret = ret ? ret : 1;
		}
		ks_view_free(&node);
	}
cleanup:
	for (i = 0; i < traced; i++) {
		const char *name = argv[optind + i];

		if (!strncmp(name, "pcpu:", 5))
			name += 5;
		snprintf(cmd, sizeof(cmd), "remove %s", name);
		if (ks_ctl_cmd("_control", cmd, err, sizeof(err))) {
			ks_err("%s", err);
			ret = ret ? ret : 1;
		}
	}
	return ret;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "trace", cmd_trace }, { "remove", cmd_verb }, { "start", cmd_verb },
		{ "stop", cmd_verb }, { "reset", cmd_verb }, { "list", cmd_list },
		{ "show", cmd_show }, { "watch", cmd_watch }, { "run", cmd_run },
		{ "save", cmd_save }, { "compare", cmd_compare },
		{ "export", cmd_export }, { "check", cmd_check },
	};
	size_t i;

	if (argc < 2) {
		ks_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		ks_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "help")) {
		if (argc > 2)
			ks_help(stdout, argv[2]);
		else
			ks_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("kstats " KS_VERSION "\n");
		return 0;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	ks_err("unknown command '%s'", argv[1]);
	ks_usage(stderr);
	return 2;
}
