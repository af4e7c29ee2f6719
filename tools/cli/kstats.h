/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the subcommands of tools/kstats share: kstats.c holds main and the
 * command table, ks_help.c the help texts and the usage every subcommand
 * shares (below them all); each cmd_*.c holds a family of
 * subcommands (cmd_node.c trace, remove, start, stop, reset, list;
 * cmd_show.c show, check; cmd_callers.c callers; cmd_slowest.c slowest;
 * cmd_watch.c watch; cmd_top.c top; cmd_run.c
 * run; cmd_save.c save; cmd_compare.c compare; cmd_export.c export;
 * cmd_prom.c compare --prometheus; cmd_serve.c serve; cmd_doctor.c
 * doctor); ks_load.c loads the nodes they
 * act on, ks_tick.c runs the intervals of watch and top.
 */
#ifndef KSTATS_H
#define KSTATS_H

#include <getopt.h>
#include <stdio.h>

#include <kstats/cmd.h>
#include "ks_parse.h"

#define KS_SAVE_MAX	KS_NODES_MAX	/* nodes in one saved file */

/*
 * getopt_long() values of the long options without a short form: first
 * one per trace option, OPT_TRACE + its index in ks_cmd_opts[].
 */
enum {
	OPT_TRACE = 1000,
	OPT_LABEL = OPT_TRACE + KS_CMD_NR_OPTS, OPT_MARKDOWN, OPT_JSON, OPT_CSV,
	OPT_PROM, OPT_CPU, OPT_LOG2, OPT_TOTAL, OPT_HIST, OPT_NOHIST,
	OPT_TEST_TICK /* the test build's */, OPT_PER_CPU, OPT_SLOTS, OPT_HELP, OPT_ICOUNT, OPT_RUNS,
	OPT_RAW, OPT_BRIEF, OPT_BUCKETS, OPT_CALLERS, OPT_UNDISTURBED, OPT_CALLED,
};

struct ks_tick;

/**
 * ks_tick_opt() - -i SECONDS, -n COUNT (and in the test build --test-tick
 * CMD) of watch and top, into @t; exits on bad usage
 * @cmd: subcommand name
 * @t:   the interval loop
 * @opt: getopt_long() value
 * @arg: its argument
 *
 * Return: 1 if @opt was one of them, else 0.
 */
int ks_tick_opt(const char *cmd, struct ks_tick *t, int opt, const char *arg);

/* The options of a trace command, as words for _control. */
struct ks_trace_opts {
	char words[KS_CMD_MAX];
	int has_start, has_end;
};

/**
 * ks_help() - print the help of a subcommand
 * @f:   output stream
 * @cmd: subcommand name
 */
void ks_help(FILE *f, const char *cmd);

/**
 * ks_usage() - print the general usage: every command in a line
 * @f: output stream
 */
void ks_usage(FILE *f);

/**
 * ks_bad_usage() - bad usage of @cmd: one line "kstats: CMD: WHAT", exit 2
 * @cmd:  subcommand name
 * @what: what is wrong, or NULL when it has been printed already
 */
void ks_bad_usage(const char *cmd, const char *what) __attribute__((noreturn));

/**
 * ks_bad_opt() - getopt_long() refused an argument of @cmd: say which, exit 2
 * @cmd:  subcommand name
 * @opt:  what getopt_long() returned: ':' a value is missing (the option
 *        string starts with ':'), else an unknown option
 * @argv: the arguments getopt_long() read
 */
void ks_bad_opt(const char *cmd, int opt, char **argv) __attribute__((noreturn));

/**
 * ks_check_out() - refuse an output file the writer does not produce, exit 2
 * @cmd:  subcommand name
 * @path: the -o argument ("-": stdout, always taken)
 * @ext:  the one extension written (".json")
 * @bare: a name without extension is taken too
 * @why:  who writes (subcommand or format), for the message
 */
void ks_check_out(const char *cmd, const char *path, const char *ext, int bare,
		  const char *why);

/**
 * ks_trace_longopts() - the long options of the trace options
 * @lo: room for KS_CMD_NR_OPTS entries
 *
 * Return: the number of entries filled, KS_CMD_NR_OPTS.
 */
int ks_trace_longopts(struct option *lo);

/**
 * ks_trace_opt() - append " WORD ARG" for trace option @opt
 * @to:  the options so far
 * @opt: getopt_long() value
 * @arg: its argument
 *
 * Return: 1 if @opt was a trace option, 0 if not, -1 on error (printed).
 */
int ks_trace_opt(struct ks_trace_opts *to, int opt, const char *arg);

/**
 * ks_do_trace() - send "trace NAME OPTS", checked first
 * @name: NAME
 * @to:   the options
 *
 * Return: 0, or -1 (the error is printed).
 */
int ks_do_trace(const char *name, const struct ks_trace_opts *to);

/* Flags of ks_show_node(). */
#define KS_SHOW_HIST	0x1	/* print histograms at all */
#define KS_SHOW_RAW	0x2	/* the full header, wide columns (show --raw) */
#define KS_SHOW_BRIEF	0x4	/* no notes under the figures (show --brief) */

/**
 * ks_show_node() - print one node as show does
 * @node:     the node
 * @per_cpu:  also the table per CPU and each CPU's histogram
 * @only_cpu: with @per_cpu, only this CPU's histogram (-1: all)
 * @log2:     one histogram line per power of two
 * @flags:    KS_SHOW_HIST, KS_SHOW_RAW
 */
void ks_show_node(const struct ks_view *node, int per_cpu, long only_cpu,
		  int log2, int flags);

/**
 * ks_save_node() - write a snapshot of @node to @out, atomically
 * @node: the node
 * @out:  file name, "-" for stdout
 *
 * Return: 0, or -1 (the error is printed).
 */
int ks_save_node(const struct ks_view *node, const char *out);

/**
 * ks_save_nodes() - write @n nodes to @out as one snapshot, atomically
 * @nodes: the nodes (one: schema /2; several: /3)
 * @n:     their number
 * @out:   file name, "-" for stdout
 *
 * Return: 0, or -1 (the error is printed).
 */
int ks_save_nodes(struct ks_view *const *nodes, int n, const char *out);

/**
 * ks_run_out() - the file of run @r: FILE-R.json for FILE or FILE.json
 * @buf: output
 * @len: size of @buf
 * @out: FILE or FILE.json
 * @r:   run, from 1
 */
void ks_run_out(char *buf, size_t len, const char *out, int r);

/**
 * ks_meta_timing() - mark @m as taken under QEMU -icount
 * @m:      meta
 * @icount: known to be so (--icount); a live node read in a kernel booted
 *          with ks.icount=1 is marked already (ks_load_live())
 */
void ks_meta_timing(struct ks_meta *m, int icount);

/* The subcommands: argv[0] is the subcommand's name; exit status. */
int cmd_trace(int argc, char **argv);
int cmd_verb(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_callers(int argc, char **argv);
int cmd_slowest(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_save(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_compare_prom(int argc, char **argv);	/* compare --prometheus (cmd_prom.c) */
int cmd_export(int argc, char **argv);
int cmd_doctor(int argc, char **argv);	/* cmd_doctor.c */
int cmd_serve(int argc, char **argv);	/* cmd_serve.c */

/* What a table of the nodes read: the nodes that keep it, the rest said so. */
struct ks_table {
	const char *cmd;	/* the subcommand */
	const char *why;	/* what a node without it lacks, and the fix */
	int (*keeps)(const struct ks_view *node);
	void (*print)(FILE *f, const struct ks_view *node, int how);
};

/**
 * ks_table_cmd() - kstats CMD [NAME...] [-f FILE]... [--markdown] [--brief]
 * @argc: arguments
 * @argv: the command's words
 * @t:    the table: what it prints of each node that keeps it
 *
 * In cmd_callers.c; callers and slowest are each one.
 *
 * Return: 0, or 1 when a node could not be read or keeps nothing.
 */
int ks_table_cmd(int argc, char **argv, const struct ks_table *t);

#endif /* KSTATS_H */
