// SPDX-License-Identifier: GPL-2.0
/*
 * kstats show and check: a node's summary and histograms, and whether its
 * text or snapshot is consistent.
 */
#include <errno.h>
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

/* Print one node as show does. */
void ks_show_node(const struct ks_view *node, int per_cpu, long only_cpu,
		  int log2, int flags)
{
	int raw = flags & KS_SHOW_RAW;
	__u32 c;

	ks_print_summary(stdout, node, (raw ? KS_SUM_RAW : 0) |
			 (flags & KS_SHOW_BRIEF ? KS_SUM_BRIEF : 0));
	if (per_cpu) {
		putchar('\n');
		ks_print_cpu_table(stdout, node, raw);
	}
	if (!(flags & KS_SHOW_HIST))
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
int cmd_show(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "cpu", optional_argument, NULL, OPT_CPU },
		{ "log2", no_argument, NULL, OPT_LOG2 },
		{ "no-hist", no_argument, NULL, OPT_NOHIST },
		{ "raw", no_argument, NULL, OPT_RAW },
		{ "brief", no_argument, NULL, OPT_BRIEF },
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	struct ks_set set = { 0 };
	int opt, per_cpu = 0, log2 = 0, flags = KS_SHOW_HIST, i, ret = 0;
	long only_cpu = -1;
	__u64 v;

	while ((opt = getopt_long(argc, argv, ":f:h", lo, NULL)) != -1) {
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
			flags &= ~KS_SHOW_HIST;
			break;
		case OPT_RAW:
			flags |= KS_SHOW_RAW;
			break;
		case OPT_BRIEF:
			flags |= KS_SHOW_BRIEF;
			break;
		case 'h':
		case OPT_HELP:
			ks_help(stdout, "show");
			return 0;
		default:
			ks_bad_opt("show", opt, argv);
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
		ks_show_node(set.nodes[i], per_cpu, only_cpu, log2, flags);
	}
	ks_set_free(&set);
	return ret;
}

/* kstats check [NAME...] [-f FILE]... */
int cmd_check(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	struct ks_set set = { 0 };
	int opt, i, ret = 0;

	while ((opt = getopt_long(argc, argv, ":f:h", lo, NULL)) != -1) {
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
			ks_bad_opt("check", opt, argv);
		}
	}
	for (i = optind; i < argc; i++) {
		struct ks_view node;

		if (ks_load_live(argv[i], KS_PARSE_STRICT, &node)) {
			ret = 1;
			continue;
		}
		printf("ok %s/%s: %llu samples, %u CPUs with samples\n", ks_root(), argv[i],
		       (unsigned long long)node.samples, node.nr_cpus);
		ks_view_free(&node);
	}
	for (i = 0; i < set.n; i++)
		printf("ok %s: %llu samples, %u CPUs with samples\n", set.srcs[i],
		       (unsigned long long)set.nodes[i]->samples, set.nodes[i]->nr_cpus);
	if (!set.n && optind >= argc && !ret)
		ks_bad_usage("check", "NAME or -f FILE expected");
	ks_set_free(&set);
	return ret;
}
