// SPDX-License-Identifier: GPL-2.0
/*
 * kstats callers: the call sites of a node traced with "callers N", most
 * total time first; kstats slowest: the slowest calls of a node traced
 * with "slowest K", with their stacks (docs/cli.md).
 */
#include <stdio.h>
#include <string.h>

#include "ks_callers.h"
#include "ks_load.h"
#include "kstats.h"

/* kstats callers [NAME...] [-f FILE]... [--markdown] */
int cmd_callers(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "markdown", no_argument, NULL, OPT_MARKDOWN },
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	struct ks_set set = { 0 };
	int opt, i, ret = 0, markdown = 0, shown = 0;

	while ((opt = getopt_long(argc, argv, ":f:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (ks_set_add(&set, optarg, 0, 0))
				ret = 1;
			break;
		case OPT_MARKDOWN:
			markdown = 1;
			break;
		case 'h':
		case OPT_HELP:
			ks_help(stdout, "callers");
			return 0;
		default:
			ks_bad_opt("callers", opt, argv);
		}
	}
	for (i = optind; i < argc; i++)
		if (ks_set_add(&set, argv[i], 1, 0))
			ret = 1;
	if (!set.n && !ret)
		ks_bad_usage("callers", "NAME or -f FILE expected");
	for (i = 0; i < set.n; i++) {
		const struct ks_view *node = set.nodes[i];

		if (!node->callers_n) {
			ks_err("callers: %s (%s) keeps no call sites: trace it with --callers N",
			       node->name, set.srcs[i]);
			ret = 1;
			continue;
		}
		if (shown++)
			putchar('\n');
		ks_print_callers(stdout, node, markdown);
	}
	ks_set_free(&set);
	return ret;
}

/* kstats slowest [NAME...] [-f FILE]... [--markdown] */
int cmd_slowest(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "markdown", no_argument, NULL, OPT_MARKDOWN },
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	struct ks_set set = { 0 };
	int opt, i, ret = 0, markdown = 0, shown = 0;

	while ((opt = getopt_long(argc, argv, ":f:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (ks_set_add(&set, optarg, 0, 0))
				ret = 1;
			break;
		case OPT_MARKDOWN:
			markdown = 1;
			break;
		case 'h':
		case OPT_HELP:
			ks_help(stdout, "slowest");
			return 0;
		default:
			ks_bad_opt("slowest", opt, argv);
		}
	}
	for (i = optind; i < argc; i++)
		if (ks_set_add(&set, argv[i], 1, 0))
			ret = 1;
	if (!set.n && !ret)
		ks_bad_usage("slowest", "NAME or -f FILE expected");
	for (i = 0; i < set.n; i++) {
		const struct ks_view *node = set.nodes[i];

		if (!node->slowest_k) {
			ks_err("slowest: %s (%s) keeps no calls: trace it with --slowest K",
			       node->name, set.srcs[i]);
			ret = 1;
			continue;
		}
		if (shown++)
			putchar('\n');
		ks_print_slowest(stdout, node, markdown);
	}
	ks_set_free(&set);
	return ret;
}
