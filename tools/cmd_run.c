// SPDX-License-Identifier: GPL-2.0
/*
 * kstats run: trace, run a command, show, remove.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ks_ctl.h"
#include "ks_load.h"
#include "ks_parse.h"
#include "kstats.h"

/* kstats run [trace options] [-o FILE] [--label L] NAME... -- COMMAND */
int cmd_run(int argc, char **argv)
{
	static const struct option run_lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "cpu", no_argument, NULL, OPT_CPU },
		{ "log2", no_argument, NULL, OPT_LOG2 },
		{ "help", no_argument, NULL, OPT_HELP },
	};
	struct option lo[KS_CMD_NR_OPTS + 6] = { { 0 } };
	struct ks_trace_opts to = { .words = "" };
	const char *out = NULL, *label = NULL;
	char cmd[512], err[KS_ERR_MAX];
	int opt, dd, nf, i, traced = 0, status = 0, ret = 0, per_cpu = 0, log2 = 0;
	struct sigaction ign = { .sa_handler = SIG_IGN }, oint, oquit;
	pid_t pid;

	memcpy(lo + ks_trace_longopts(lo), run_lo, sizeof(run_lo));
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
		const char *name = ks_trace_name(argv[optind + i]);
		struct ks_view node;

		snprintf(cmd, sizeof(cmd), "stop %s", name);
		if (ks_ctl_cmd("_control", cmd, err, sizeof(err)))
			ks_err("%s", err);
		if (ks_load_live(name, 0, &node)) {
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
		const char *name = ks_trace_name(argv[optind + i]);

		snprintf(cmd, sizeof(cmd), "remove %s", name);
		if (ks_ctl_cmd("_control", cmd, err, sizeof(err))) {
			ks_err("%s", err);
			ret = ret ? ret : 1;
		}
	}
	return ret;
}
