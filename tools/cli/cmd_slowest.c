// SPDX-License-Identifier: GPL-2.0
/*
 * kstats slowest: the slowest calls of a node traced with "slowest K",
 * with their stacks (docs/cli.md): read and printed by lib/ks_slowest.c,
 * run as cmd_callers.c's table command.
 */
#include <stdio.h>

#include "ks_slowest.h"
#include "kstats.h"

static int ks_keeps_slowest(const struct ks_view *node)
{
	return node->slowest_k != 0;
}

int cmd_slowest(int argc, char **argv)
{
	static const struct ks_table t = {
		"slowest", "keeps no calls: trace it with --slowest K",
		ks_keeps_slowest, ks_print_slowest,
	};

	return ks_table_cmd(argc, argv, &t);
}
