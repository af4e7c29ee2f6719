// SPDX-License-Identifier: GPL-2.0
/*
 * kstats - measure how long kernel functions take, with the kstats module.
 *
 *   kstats trace FUNC|GLOB [options]  start timing FUNC (a node per match)
 *   kstats remove FUNC|all            stop timing and drop the node
 *   kstats start|stop|reset FUNC|all  control recording
 *   kstats list [GLOB]                the nodes and their state
 *   kstats show FUNC                  summary, percentiles, bar histogram
 *   kstats watch FUNC [-i S]          what each interval adds
 *   kstats top [GLOB] [-i S]          every node ranked, live
 *   kstats run [options] FUNC... -- COMMAND
 *   kstats save FUNC [-o FILE]        snapshot (JSON)
 *   kstats compare A B [C...]         the table for a patch review
 *   kstats compare A... -- B...       runs a side: verdicts with intervals
 *   kstats export --json|--csv|--prometheus
 *   kstats check FUNC|-f FILE         verify a node's text or a snapshot
 *   kstats doctor [--json]            what this machine allows kstats
 *
 * This file holds main and the command table; ks_help.c the help texts
 * and the usage every subcommand shares; kstats.h says where each
 * subcommand lives.  The node text is parsed by
 * ks_parse.c only; snapshots by ks_snap.c.  $KSTATS_DIR ($KSTATS_DEBUGFS)
 * overrides the directory ks_ctl.c chooses (used by the tests).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_ctl.h"
#include "kstats.h"

/* Edit distance of @a and @b (Levenshtein), for "did you mean". */
static size_t ks_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, d[32];

	if (lb >= sizeof(d) / sizeof(d[0]))
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		d[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = d[0];

		d[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = d[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (d[j - 1] + 1 < best)
				best = d[j - 1] + 1;
			diag = up;
			d[j] = best;
		}
	}
	return d[lb];
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "trace", cmd_trace }, { "remove", cmd_verb }, { "start", cmd_verb },
		{ "stop", cmd_verb }, { "reset", cmd_verb }, { "list", cmd_list },
		{ "show", cmd_show }, { "callers", cmd_callers }, { "slowest", cmd_slowest },
		{ "watch", cmd_watch },
		{ "top", cmd_top },
		{ "run", cmd_run },
		{ "save", cmd_save }, { "compare", cmd_compare },
		{ "export", cmd_export }, { "check", cmd_check },
		{ "doctor", cmd_doctor }, { "serve", cmd_serve },
	};
	const char *near = NULL;
	size_t i, best = (size_t)-1;

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
	opterr = 0;		/* ks_bad_opt() says it, with the kstats: prefix */
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	/* the nearest command, when it is near: at most 2 edits, fewer than its length */
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		size_t d = ks_distance(argv[1], cmds[i].name);

		if (d < best && d <= 2 && d < strlen(cmds[i].name)) {
			best = d;
			near = cmds[i].name;
		}
	}
	if (near)
		ks_err("unknown command '%s'; did you mean '%s'?", argv[1], near);
	else
		ks_err("unknown command '%s' (kstats --help lists them)", argv[1]);
	return 2;
}
