// SPDX-License-Identifier: GPL-2.0
/*
 * ks_help: what every subcommand of tools/kstats shares below it: the help
 * texts (kstats COMMAND --help, kstats --help), what a wrong use says
 * (ks_bad_usage(), ks_bad_opt()), and the options several take (-o's
 * extension, watch's and top's -i and -n).  kstats.c's main dispatches.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_ctl.h"
#include "ks_tick.h"
#include "kstats.h"

static const struct ks_help {
	const char *cmd, *text;
} ks_helps[] = {
	{ "trace", "usage: kstats trace NAME|GLOB [options]\n"
	  "Start timing the kernel function NAME (or, with --start/--end, the time\n"
	  "between two functions, in a node called NAME).  A GLOB ('vma_*',\n"
	  "'MODULE:fn_?') makes one node per matching function; what the module did\n"
	  "(matched, attached, refused and why) is printed.  Options:\n" },
	{ "remove", "usage: kstats remove NAME|GLOB|all\n"
	  "Detach and delete the node NAME (the nodes GLOB matches, every node).\n" },
	{ "start", "usage: kstats start NAME|GLOB|all\nResume recording.\n" },
	{ "stop", "usage: kstats stop NAME|GLOB|all\nPause recording; the histogram is kept.\n" },
	{ "reset", "usage: kstats reset NAME|GLOB|all\nEmpty the histogram.\n" },
	{ "list", "usage: kstats list [GLOB...]\n"
	  "One line per node (or per node a GLOB matches): name, backend, state,\n"
	  "samples, missed, p50, p99.\n" },
	{ "show", "usage: kstats show [NAME...] [-f FILE]... [--cpu[=N]] [--log2]\n"
	  "                   [--no-hist] [--raw] [--brief]\n"
	  "Summary (samples, missed, min/avg/max, p10..p99.9 in readable units)\n"
	  "and a bar histogram of a live node NAME or of FILE (a snapshot or\n"
	  "node text), in 72 columns (80 with --cpu); the first line names the\n"
	  "unit (under QEMU -icount: ns = instructions), notes under the\n"
	  "figures in 3 lines.\n"
	  "  -f, --file FILE   read FILE instead of a live node\n"
	  "  --cpu[=N]         also a table per CPU and each CPU's histogram\n"
	  "                    (or CPU N)\n"
	  "  --log2            one histogram line per power of two\n"
	  "  --no-hist         the summary only\n"
	  "  --raw             every attached symbol in the header, wide columns,\n"
	  "                    a note a line, long lines unwrapped\n"
	  "  --brief           no notes under the figures (warnings stay)\n" },
	{ "callers", "usage: kstats callers [NAME...] [-f FILE]... [--markdown]\n"
	  "                      [--brief]\n"
	  "The call sites of a node traced with --callers N (live, or FILE: a\n"
	  "snapshot or node text), most total time (calls x mean) first: calls,\n"
	  "their share, the share of the time, p50, p99 and max; in 72 columns,\n"
	  "each site as FUNCTION+0xOFF [MODULE] (shortened to fit: the module\n"
	  "goes, then the end of FUNCTION, marked '~'); (other) holds the calls\n"
	  "from sites beyond N.\n"
	  "  -f, --file FILE   read FILE instead of a live node\n"
	  "  --markdown        a Markdown table, each site whole\n"
	  "  --brief           no note under the table\n" },
	{ "slowest", "usage: kstats slowest [NAME...] [-f FILE]... [--markdown]\n"
	  "                      [--brief]\n"
	  "The slowest calls of a node traced with --slowest K (live, or FILE:\n"
	  "a snapshot or node text), slowest first: time, CPU, pid, comm, when it\n"
	  "ended (s since boot, as the kernel log), and by: '-' ran through on its\n"
	  "CPU, 'interrupted' its CPU took an interrupt, 'switched' its task left\n"
	  "the CPU (slept, preempted); then its stack, caller first.  The head\n"
	  "line counts every call disturbed either way since the last reset.\n"
	  "  -f, --file FILE   read FILE instead of a live node\n"
	  "  --markdown        a Markdown table, the stacks after it\n"
	  "  --brief           the same (it prints no notes)\n" },
	{ "watch", "usage: kstats watch NAME... [-i SECONDS] [-n COUNT] [--hist]\n"
	  "Every interval, one line per node with what that interval added:\n"
	  "samples, rate, missed and the percentiles of the interval's own\n"
	  "histogram.\n"
	  "  -i, --interval S  seconds between reads (default 1, fractions allowed)\n"
	  "  -n, --count N     stop after N intervals (default: until interrupted)\n"
	  "  --hist            also the bar histogram of each interval\n" },
	{ "top", "usage: kstats top [GLOB...] [-i SECONDS] [-n COUNT] [-s COLUMN] [-r]\n"
	  "                  [--raw] [--callers]\n"
	  "Every node (or those a GLOB matches, on the whole name or after\n"
	  "MODULE:), ranked by what each interval added: calls, calls/s, missed,\n"
	  "p50, p99, max, total time and its share of all rows' time.  On a\n"
	  "terminal: a live view, redrawn every interval; keys t total, c calls,\n"
	  "5 p50, 9 p99, m max, n name sort by that column, r reverses, q quits.\n"
	  "With -n or into a pipe: one header line and one row per node per\n"
	  "interval: calls, p50, p99, max, total and share with their units,\n"
	  "72 columns for names of 24 characters (missed when any; calls/s\n"
	  "with --raw).\n"
	  "  -i, --interval S  seconds between reads (default 1, fractions allowed)\n"
	  "  -n, --count N     print N intervals, no live view (-n 1: one table)\n"
	  "  -s, --sort COL    total (default), calls, p50, p99, max or name\n"
	  "  -r, --reverse     the other way round (smallest first; names Z to A)\n"
	  "  --raw             every column (calls/s, missed, UNIT), values as\n"
	  "                    integers in the node's unit, for scripts; never the\n"
	  "                    live view\n"
	  "  --callers         under a node traced with callers N, a row per call\n"
	  "                    site (\"<- FUNCTION+0xOFF\", most total time first)\n"
	  "                    of what the interval added\n" },
	{ "run", "usage: kstats run [trace options] [-o FILE] [--label L] [--runs N]\n"
	  "                  NAME... -- COMMAND [ARGS]\n"
	  "Trace each NAME, run COMMAND, show the result, remove the nodes.\n"
	  "Exits with COMMAND's status.  -o saves one snapshot of every NAME;\n"
	  "--runs N runs COMMAND N times from empty histograms and saves\n"
	  "FILE-1.json..FILE-N.json (for compare A... -- B...); --icount marks\n"
	  "them as QEMU -icount.  Options:\n" },
	{ "save", "usage: kstats save NAME|GLOB|all... [-o FILE] [--label L]\n"
	  "                   [--runs N [-i S]] [--undisturbed] [--called]\n"
	  "       kstats save -f FILE [-o FILE] [--label L] [--undisturbed]\n"
	  "Write a snapshot (JSON, schema kstats-snapshot/2; several nodes,\n"
	  "a glob or all: one file of schema kstats-snapshot/3, see kstats(1)).\n"
	  "  -o, --output FILE  default NAME-LABEL.json or NAME-DATE.json\n"
	  "                     (kstats-... for several nodes); - is stdout\n"
	  "  --label L          the name compare shows for this snapshot\n"
	  "  --runs N           N files FILE-1.json.., each what one interval added\n"
	  "  -i, --interval S   with --runs: seconds per interval (default 1)\n"
	  "  --icount           mark the snapshot as QEMU -icount (instructions);\n"
	  "                     automatic in a guest booted with ks.icount=1\n"
	  "  --undisturbed      leave out the calls interrupted or switched on\n"
	  "                     the way, where the node kept them apart (traced\n"
	  "                     with --slowest K); the per-CPU rows, which keep\n"
	  "                     them, are left out too\n"
	  "  --called           a glob or all takes only the nodes that recorded\n"
	  "                     a call (a whole kernel's file: the few thousand\n"
	  "                     called, not the 40,000 traced)\n" },
	{ "compare", "usage: kstats compare A B [C...] [--label L]... [--markdown|--wide]\n"
	  "                      [--force] [--undisturbed] [--brief]\n"
	  "       kstats compare A... -- B... [--label BASE --label NEW]\n"
	  "                      [--markdown|--json] [--rank R]\n"
	  "                      [--top N|--all]\n"
	  "       kstats compare --prometheus URL [--window W] [--at T]\n"
	  "                      [--function GLOB] SEL_A SEL_B\n"
	  "                      [--label BASE --label NEW] [--markdown|--json]\n"
	  "A B C: one row per snapshot: count and p10, p50, p90, p99, p99.9;\n"
	  "under each later row, per figure, its change against the first\n"
	  "(\"<12.5%\" when within the histogram's resolution) and the verdict\n"
	  "of one run a side (better?, worse?: the 95% intervals apart; ?: not\n"
	  "measurable); 72 columns (labels too long for that: rows A, B... and\n"
	  "a legend), notes in 3 lines.  Same bits, unit and timing (QEMU\n"
	  "-icount or a clock).\n"
	  "A... -- B...: the runs of a base and a new side (one file per run):\n"
	  "per figure base +-sd, change, new +-sd, the 95% bounds of the change\n"
	  "and a verdict (better, worse, not measurable; lower is better;\n"
	  "better?, worse?: fewer than 3 runs a side, run-to-run noise unknown;\n"
	  "docs/statistics.md).\n"
	  "Files of many nodes (save GLOB|all), and A B of two such files:\n"
	  "functions ranked by change, the first 20 of those called; those\n"
	  "called on neither side are not listed, and a note says how many.\n"
	  "  --rank R     total: by the change of total time per run (count x\n"
	  "               mean), where the time went; change (default): by the\n"
	  "               verdict, then the change of the mean (3 runs a side)\n"
	  "               or p50; mean, p10 ... p99.9: judged and ranked by that\n"
	  "               figure (p99: where the tail moved)\n"
	  "  --top N      the first N functions (default 20)\n"
	  "  --all        every function called\n"
	  "  --label L    row name, once per file in order (default: the snapshot's\n"
	  "               label, else the file name); with --: the two sides' names\n"
	  "  --markdown   a Markdown table (every column, labels as given)\n"
	  "  --wide       A B C: also p95, p98, missed; 80 columns\n"
	  "  --json       A... -- B... (or A B) as JSON, schema kstats-compare/1\n"
	  "  --force      compare different functions, or -icount against a clock\n"
	  "               (refused without; the first line then says so)\n"
	  "  --undisturbed  leave out the calls interrupted or switched on the way,\n"
	  "               where the node kept them apart (traced with slowest K)\n"
	  "  --brief      no notes under the tables\n"
	  "--prometheus URL: the sides are label selectors\n"
	  "('release=\"6.1.0-57-amd64\"') over kstats_latency_seconds in that\n"
	  "Prometheus server; each machine (instance) is one run of its side\n"
	  "(docs/prometheus.md).\n"
	  "  --window W   the increase over W before the end (default 10m)\n"
	  "  --at T       the window's end: unix seconds or RFC 3339 (default now)\n"
	  "  --function G the functions matching the glob G (default all)\n" },
	{ "export", "usage: kstats export --json|--csv|--prometheus [NAME...|all]\n"
	  "                     [-f FILE]... [-o OUT]\n"
	  "  --json         the snapshot document (one source)\n"
	  "  --csv          function,unit,cpu,slot,lo,hi,count,avg,n,p,timing per\n"
	  "                 non-empty slot (timing: qemu-icount, a \"ns\" is one\n"
	  "                 guest instruction; empty: real time)\n"
	  "  --prometheus   text exposition for node_exporter's textfile collector:\n"
	  "                 one histogram per node, le = 2^(i/4) s, 60 ns to 125 ms\n"
	  "                 (native schema 2's edges; quantiles within 19%)\n"
	  "  all            every node _control lists\n"
	  "  -f, --file F   a snapshot or node text instead of a live node\n"
	  "  -o, --output F Prometheus: write F.tmp.PID, then rename it to F\n"
	  "                 (F.prom)\n"
	  "  --per-cpu      Prometheus: one histogram per CPU (label cpu), no merge\n"
	  "  --slots        Prometheus: one bucket per slot (many series)\n"
	  "  --buckets log2 Prometheus: le = 2^k-1 ns (k = 1..40), the old layout\n"
	  "  --buckets schema3  Prometheus: le = 2^(i/8) s, 169 buckets (Prometheus\n"
	  "                 3's convert_classic_histograms_to_nhcb: one series)\n"
	  "  --callers      Prometheus: a node with callers N as one histogram per\n"
	  "                 call site (label caller: FUNCTION+0xOFF or other)\n"
	  "  --total        CSV: only the merged histogram, no per-CPU rows\n"
	  "  --label L      JSON: the snapshot label\n" },
	{ "serve", "usage: kstats serve [--listen ADDR:PORT] [--per-cpu] [NAME|GLOB...]\n"
	  "Serve every node (or those named) at http://ADDR:PORT/metrics for\n"
	  "Prometheus, read-only, each node read once per scrape: native\n"
	  "histograms (protobuf, schema = bits + 1, up to 8) to a scraper whose\n"
	  "Accept asks for them, else export's classic text.  Stops on\n"
	  "SIGINT or SIGTERM (docs/prometheus.md).\n"
	  "  -l, --listen A:P  the address to bind (default 127.0.0.1:9477;\n"
	  "                    [::1]:P for IPv6, port 0 picks one)\n"
	  "  --per-cpu         one histogram per CPU (label cpu), no merge\n" },
	{ "check", "usage: kstats check [NAME...] [-f FILE]...\n"
	  "Parse node text strictly (every invariant of docs/format.md) or read a\n"
	  "snapshot, and say whether it is consistent.\n" },
	{ "doctor", "usage: kstats doctor [--json] [--no-attach]\n"
	  "What this machine allows kstats: one line per fact (kernel, module and\n"
	  "its signature, lockdown, the control files, debugfs, tracefs, ftrace,\n"
	  "kprobes, direct calls, fprobe, BTF, each backend tried, the TSC, CPUs,\n"
	  "VM or emulator) with a verdict: ok; no, kstats cannot do that here;\n"
	  "warn, it works but numbers or features are affected; -, information.\n"
	  "Under no and warn, the fix.  The last line says whether kstats can\n"
	  "trace here.  Each backend is tried on hrtimer_nanosleep (trace, a\n"
	  "100 ms nanosleep, remove; skipped when such a node exists): its clock\n"
	  "and the node's time over CLOCK_MONOTONIC's, warn outside 0.95..1.05.\n"
	  "Exit status 0 when kstats can trace here, else 1.\n"
	  "  --json        one JSON object: facts (fact, value, verdict, fix),\n"
	  "                can_trace\n"
	  "  --no-attach   try no backend; judge by what the kernel offers\n" },
};

/*
 * The trace options, from the module's table: "  --KEY ARG" (options
 * without help of their own joined by ", "), then the help at column 22.
 */
static void ks_help_trace_opts(FILE *f)
{
	char words[256];
	size_t len = 0;
	unsigned int i;
	const char *h;

	for (i = 0; i < KS_CMD_NR_OPTS; i++) {
		const struct ks_cmd_opt *o = &ks_cmd_opts[i];

		len += snprintf(words + len, sizeof(words) - len, "%s--%s %s",
				len ? ", " : "", o->key, o->arg);
		if (!o->help)
			continue;
		fprintf(f, "  %s%*s", words, len + 2 <= 20 ? (int)(20 - len) : 3, "");
		for (h = o->help; *h; h++) {
			fputc(*h, f);
			if (*h == '\n')
				fprintf(f, "%22s", "");
		}
		fputc('\n', f);
		len = 0;
	}
}

/* Print the help of @cmd on @f. */
void ks_help(FILE *f, const char *cmd)
{
	size_t i;

	for (i = 0; i < sizeof(ks_helps) / sizeof(ks_helps[0]); i++) {
		if (strcmp(ks_helps[i].cmd, cmd))
			continue;
		fputs(ks_helps[i].text, f);
		if (!strcmp(cmd, "trace") || !strcmp(cmd, "run"))
			ks_help_trace_opts(f);
		return;
	}
}

/* The general usage. */
void ks_usage(FILE *f)
{
	fputs("usage: kstats COMMAND [ARGS]   (kstats COMMAND --help for details)\n"
	      "  trace NAME|GLOB [options]     start timing kernel functions\n"
	      "  remove NAME|GLOB|all          stop timing, delete the nodes\n"
	      "  start|stop|reset NAME|all     control nodes (a GLOB too)\n"
	      "  list [GLOB...]                the nodes\n"
	      "  show NAME | -f FILE           summary and bar histogram (--raw)\n"
	      "  callers NAME | -f FILE        per call site, most total time first\n"
	      "  slowest NAME | -f FILE        the slowest calls kept, with stacks\n"
	      "  watch NAME... [-i S]          per-interval samples, rate, percentiles\n"
	      "  top [GLOB...] [-i S] [-n N]   every node ranked, per interval (--raw)\n"
	      "  run [options] NAME... -- CMD  trace while CMD runs, show, remove\n"
	      "  save NAME|GLOB|all [-o FILE]  snapshot to a JSON file (--runs N)\n"
	      "  compare A B [C...]            compare snapshots (--markdown, --wide)\n"
	      "  compare A... -- B...          runs a side: verdicts (--json)\n"
	      "  export --json|--csv|--prometheus [NAME|all] [-f FILE] [-o OUT]\n"
	      "  serve [-l A:P] [NAME...]      Prometheus exporter, native histograms\n"
	      "  check NAME | -f FILE          verify node text or a snapshot\n"
	      "  doctor [--json] [--no-attach] what this machine allows, the fixes\n"
	      "Environment: KSTATS_DIR (default " KSTATS_DEBUGFS_DEFAULT ", else\n"
	      "  " KSTATS_PROCFS_DEFAULT " where the kernel is locked down)\n", f);
}

/* Bad usage of @cmd: "kstats: CMD: WHAT" (@what NULL: said already), exit 2. */
void ks_bad_usage(const char *cmd, const char *what)
{
	if (what)
		ks_err("%s: %s", cmd, what);
	exit(2);
}

/* getopt_long() refused an argument of @cmd (@opt '?' or ':'): say which, exit 2. */
void ks_bad_opt(const char *cmd, int opt, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "?";
	char what[128];

	if (optopt > 0 && optopt < 128 && strncmp(arg, "--", 2))
		snprintf(what, sizeof(what), "-%c", optopt);
	else
		snprintf(what, sizeof(what), "%.*s", (int)strcspn(arg, "="), arg);
	if (opt == ':')
		ks_err("%s: %s needs a value", cmd, what);
	else
		ks_err("%s: unknown option '%s' (kstats %s --help lists them)", cmd, what, cmd);
	exit(2);
}

/* Refuse "-o @path" of @cmd unless it ends in @ext; a name without one too unless @bare. */
void ks_check_out(const char *cmd, const char *path, const char *ext, int bare,
		  const char *why)
{
	const char *base = strrchr(path, '/'), *dot;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!strcmp(path, "-") || (dot && dot > base && !strcmp(dot, ext)) ||
	    (bare && (!dot || dot == base)))
		return;
	ks_err("%s: -o %s: %s writes %s files only%s", cmd, path, why, ext,
	       bare ? " (a name without extension is taken as it is)" : "");
	exit(2);
}

/* -i, -n and (test build) --test-tick of watch and top. */
int ks_tick_opt(const char *cmd, struct ks_tick *t, int opt, const char *arg)
{
	char *end;

	switch (opt) {
	case 'i':
		t->interval = strtod(arg, &end);
		if (*end || end == arg || !(t->interval >= 0.01 && t->interval <= 86400))
			ks_bad_usage(cmd, "-i wants seconds between 0.01 and 86400");
		return 1;
	case 'n':
		t->count = strtol(arg, &end, 10);
		if (*end || end == arg || t->count < 1)
			ks_bad_usage(cmd, "-n wants a positive count");
		return 1;
#ifdef KS_TEST
	case OPT_TEST_TICK:
		t->tick_cmd = arg;
		return 1;
#endif
	}
	return 0;
}
