// SPDX-License-Identifier: GPL-2.0
/*
 * kstats callers: the call sites of a node traced with "callers N", most
 * total time first (lib/ks_callers.c); and the command both it and
 * slowest (cmd_slowest.c) are: a table of each node named that keeps it.
 */
#include <stdio.h>
#include <string.h>

#include "ks_callers.h"
#include "ks_fmt.h"
#include "ks_load.h"
#include "kstats.h"

/* kstats CMD [NAME...] [-f FILE]... [--markdown] */
int ks_table_cmd(int argc, char **argv, const struct ks_table *t)
{
	static const struct option lo[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "markdown", no_argument, NULL, OPT_MARKDOWN },
		{ "brief", no_argument, NULL, OPT_BRIEF },
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	struct ks_set set = { 0 };
	int opt, i, ret = 0, how = 0, shown = 0;

	while ((opt = getopt_long(argc, argv, ":f:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (ks_set_add(&set, optarg, 0, 0))
				ret = 1;
			break;
		case OPT_MARKDOWN:
			how |= KS_TBL_MARKDOWN;
			break;
		case OPT_BRIEF:
			how |= KS_TBL_BRIEF;
			break;
		case 'h':
		case OPT_HELP:
			ks_help(stdout, t->cmd);
			return 0;
		default:
			ks_bad_opt(t->cmd, opt, argv);
		}
	}
	for (i = optind; i < argc; i++)
		if (ks_set_add(&set, argv[i], 1, 0))
			ret = 1;
	if (!set.n && !ret)
		ks_bad_usage(t->cmd, "NAME or -f FILE expected");
	for (i = 0; i < set.n; i++) {
		const struct ks_view *node = set.nodes[i];

		if (!t->keeps(node)) {
			ks_err("%s: %s (%s) %s", t->cmd, node->name, set.srcs[i], t->why);
			ret = 1;
			continue;
		}
		if (shown++)
			putchar('\n');
		t->print(stdout, node, how);
	}
	ks_set_free(&set);
	return ret;
}

static int ks_keeps_callers(const struct ks_view *node)
{
	return node->callers_n != 0;
}

int cmd_callers(int argc, char **argv)
{
	static const struct ks_table t = {
		"callers", "keeps no call sites: trace it with --callers N",
		ks_keeps_callers, ks_print_callers,
	};

	return ks_table_cmd(argc, argv, &t);
}
