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

/* What run was asked for. */
struct ks_run {
	struct ks_trace_opts to;
	const char *out, *label;	/* -o FILE, --label L */
	int per_cpu, log2;
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
		{ "help", no_argument, NULL, OPT_HELP },
	};
	struct option lo[KS_CMD_NR_OPTS + 6] = { { 0 } };
	int opt, dd;

	memcpy(lo + ks_trace_longopts(lo), run_lo, sizeof(run_lo));
	*r = (struct ks_run){ .to.words = "" };
	for (dd = 1; dd < argc && strcmp(argv[dd], "--"); dd++)
		if (!strcmp(argv[dd], "--help") || !strcmp(argv[dd], "-h")) {
			ks_help(stdout, "run");
			return 1;
		}
	if (dd >= argc - 1)
		ks_bad_usage("run", "'-- COMMAND' expected");
	while ((opt = getopt_long(dd, argv, "o:", lo, NULL)) != -1) {
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
		default:
			if (ks_trace_opt(&r->to, opt, optarg) != 1)
				ks_bad_usage("run", NULL);
		}
	}
	r->names = argv + optind;
	r->nf = dd - optind;
	r->cmd = argv + dd + 1;
	if (r->nf < 1)
		ks_bad_usage("run", "NAME expected before --");
	if (r->out && r->nf != 1)
		ks_bad_usage("run", "-o saves one node: give one NAME");
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

/* Stop each node, show it, save it with -o; 0 or 1 when one failed. */
static int ks_run_report(const struct ks_run *r)
{
	int i, ret = 0;

	for (i = 0; i < r->nf; i++) {
		struct ks_view node;

		ks_run_ctl("stop", r->names[i]);
		if (ks_load_live(ks_trace_name(r->names[i]), 0, &node)) {
			ret = 1;
			continue;
		}
		if (i)
			putchar('\n');
		ks_show_node(&node, r->per_cpu, -1, r->log2, 1);
		if (r->out) {
			if (r->label)
				snprintf(node.meta.label, sizeof(node.meta.label), "%s",
					 r->label);
			if (ks_save_node(&node, r->out))
				ret = 1;
		}
		ks_view_free(&node);
	}
	return ret;
}

/* kstats run [trace options] [-o FILE] [--label L] NAME... -- COMMAND */
int cmd_run(int argc, char **argv)
{
	int i, traced, ret = 0;
	struct ks_run r;

	if (ks_run_args(argc, argv, &r))
		return 0;
	for (traced = 0; traced < r.nf; traced++)
		if (ks_do_trace(r.names[traced], &r.to)) {
			ret = 1;
			break;
		}
	if (!ret) {
		ret = ks_run_command(r.cmd);
		if (ret < 0)
			ret = 1;
		else if (ks_run_report(&r) && !ret)
			ret = 1;
	}
	for (i = 0; i < traced; i++)
		if (ks_run_ctl("remove", r.names[i]) && !ret)
			ret = 1;
	return ret;
}
