// SPDX-License-Identifier: GPL-2.0
/*
 * kstats run: trace, run a command, show, remove.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ks_ctl.h"
#include "ks_load.h"
#include "ks_parse.h"
#include "kstats.h"

/* What run was asked for. */
struct ks_run {
	struct ks_trace_opts to;
	const char *out, *label;	/* -o FILE, --label L */
	int per_cpu, log2;
	int runs, icount;		/* --runs N, --icount */
	char **names;			/* NAME... */
	int nf;
	char **cmd;			/* COMMAND [ARGS], NULL-terminated */
};

/* Parse the arguments of run into @r; exits on bad usage; 1 for --help. */
static int ks_run_args(int argc, char **argv, struct ks_run *r)
{
	static const struct option run_lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "cpu", no_argument, NULL, OPT_CPU },
		{ "log2", no_argument, NULL, OPT_LOG2 },
		{ "runs", required_argument, NULL, OPT_RUNS },
		{ "icount", no_argument, NULL, OPT_ICOUNT },
		{ "help", no_argument, NULL, OPT_HELP },
	};
	struct option lo[KS_CMD_NR_OPTS + 8] = { { 0 } };
	char *end;
	int opt, dd, ret;

	memcpy(lo + ks_trace_longopts(lo), run_lo, sizeof(run_lo));
	*r = (struct ks_run){ .to.words = "", .runs = 1 };
	for (dd = 1; dd < argc && strcmp(argv[dd], "--"); dd++)
		if (!strcmp(argv[dd], "--help") || !strcmp(argv[dd], "-h")) {
			ks_help(stdout, "run");
			return 1;
		}
	if (dd >= argc - 1)
		ks_bad_usage("run", "'-- COMMAND' expected");
	while ((opt = getopt_long(dd, argv, ":o:", lo, NULL)) != -1) {
		switch (opt) {
		case 'o':
			r->out = optarg;
			break;
		case OPT_LABEL:
			r->label = optarg;
			break;
		case OPT_CPU:
			r->per_cpu = 1;
			break;
		case OPT_LOG2:
			r->log2 = 1;
			break;
		case OPT_RUNS:
			r->runs = (int)strtol(optarg, &end, 10);
			if (*end || r->runs < 1 || r->runs > 1000)
				ks_bad_usage("run", "--runs takes 1 to 1000");
			break;
		case OPT_ICOUNT:
			r->icount = 1;
			break;
		default:
			ret = ks_trace_opt(&r->to, opt, optarg);
			if (!ret)
				ks_bad_opt("run", opt, argv);
			if (ret < 0)
				ks_bad_usage("run", NULL);
		}
	}
	r->names = argv + optind;
	r->nf = dd - optind;
	r->cmd = argv + dd + 1;
	if (r->nf < 1)
		ks_bad_usage("run", "NAME expected before --");
	if (r->out)
		ks_check_out("run", r->out, ".json", 1, "run");
	if (r->runs > 1 && !r->out)
		ks_bad_usage("run", "--runs goes with -o FILE (FILE-1.json, FILE-2.json...)");
	if (r->to.has_start != r->to.has_end)
		ks_bad_usage("run", "--start and --end go together");
	return 0;
}

/* Run @cmd and wait for it: its exit status (128 + signal), -1 if no fork. */
static int ks_run_command(char **cmd)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, oint, oquit;
	int status = 0, ret = 0;
	pid_t pid;

	fflush(stdout);
	sigaction(SIGINT, &ign, &oint);
	sigaction(SIGQUIT, &ign, &oquit);
	pid = fork();
	if (pid < 0) {
		ks_err("fork: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		sigaction(SIGINT, &oint, NULL);
		sigaction(SIGQUIT, &oquit, NULL);
		execvp(cmd[0], cmd);
		ks_err("%s: %s", cmd[0], strerror(errno));
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
		ks_err("run: %s exited with status %d", cmd[0], ret);
	return ret;
}

/* Write "VERB NAME" to _control for a NAME of run; 0 or -1 (printed). */
static int ks_run_ctl(const char *verb, const char *name)
{
	char cmd[512], err[KS_ERR_MAX];

	snprintf(cmd, sizeof(cmd), "%s %s", verb, ks_trace_name(name));
	if (ks_ctl_cmd("_control", cmd, err, sizeof(err))) {
		ks_err("%s", err);
		return -1;
	}
	return 0;
}

/*
 * Stop each node, show it, and with -o save them all in one file (@run of
 * several: FILE-RUN.json); 0 or 1 when one failed.
 */
static int ks_run_report(const struct ks_run *r, int run)
{
	struct ks_view **nodes;
	char path[4096];
	int i, n = 0, ret = 0;

	nodes = calloc(r->nf, sizeof(*nodes));
	if (!nodes)
		return 1;
	for (i = 0; i < r->nf; i++) {
		struct ks_view *node = calloc(1, sizeof(*node));

		ks_run_ctl("stop", r->names[i]);
		if (!node || ks_load_live(ks_trace_name(r->names[i]), 0, node)) {
			free(node);
			ret = 1;
			continue;
		}
		if (i || run > 1)
			putchar('\n');
		if (r->runs > 1)
			printf("# run %d of %d\n", run, r->runs);
		ks_show_node(node, r->per_cpu, -1, r->log2, KS_SHOW_HIST);
		if (r->label)
			snprintf(node->meta.label, sizeof(node->meta.label), "%s", r->label);
		ks_meta_timing(&node->meta, r->icount);
		nodes[n++] = node;
	}
	if (r->out && n) {
		if (r->runs > 1)
			ks_run_out(path, sizeof(path), r->out, run);
		else
			snprintf(path, sizeof(path), "%s", r->out);
		if (ks_save_nodes(nodes, n, path))
			ret = 1;
	}
	for (i = 0; i < n; i++) {
		ks_view_free(nodes[i]);
		free(nodes[i]);
	}
	free(nodes);
	return ret;
}

/* Reset and start every node of @r (each run starts from nothing). */
static int ks_run_restart(const struct ks_run *r)
{
	int i;

	for (i = 0; i < r->nf; i++)
		if (ks_run_ctl("reset", r->names[i]) || ks_run_ctl("start", r->names[i]))
			return -1;
	return 0;
}

/* kstats run [trace options] [-o FILE] [--label L] NAME... -- COMMAND */
int cmd_run(int argc, char **argv)
{
	int i, traced, run, ret = 0;
	struct ks_run r;

	if (ks_run_args(argc, argv, &r))
		return 0;
	for (traced = 0; traced < r.nf; traced++)
		if (ks_do_trace(r.names[traced], &r.to)) {
			ret = 1;
			break;
		}
	for (run = 1; !ret && run <= r.runs; run++) {
		if (run > 1 && ks_run_restart(&r)) {
			ret = 1;
			break;
		}
		ret = ks_run_command(r.cmd);
		if (ret < 0)
			ret = 1;
		else if (ks_run_report(&r, run) && !ret)
			ret = 1;
	}
	for (i = 0; i < traced; i++)
		if (ks_run_ctl("remove", r.names[i]) && !ret)
			ret = 1;
	return ret;
}
