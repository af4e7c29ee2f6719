/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control-command parser of common/ks_cmd.c: turns one line written to _control into a
 * struct ks_cmd.  Pure string handling, no allocation, no global state, so
 * the same source is built into the module, into tools/kstats (which
 * checks a command before writing it) and into the userspace tests, through
 * include/kstats/shim.h for the kernel string helpers.
 */
#ifndef _KSTATS_CMD_H
#define _KSTATS_CMD_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/stddef.h>	/* struct_group_tagged() */
#else
#include <kstats/shim.h>
#endif

#include <kstats/contract.h>	/* the limits: KS_NAME_MAX, KS_SAMPLE_MAX... */

#define KS_MAXACTIVE_MIN_DEFAULT 64	/* calls in flight per symbol, at least */
#define KS_PCPU_PREFIX	"pcpu:"		/* old grammar: trace pcpu:NAME */

/*
 * The longest command the grammar accepts with one blank between words:
 * every option at its longest value, names at KS_NAME_MAX - 1 (a little
 * more than any valid command: via and start/end exclude each other).
 * KS_CMD_MAX, the most one write may hold, leaves room for extra blanks.
 */
#define KS_CMD_LONGEST	(sizeof("trace pcpu: bits 8 buckets 64 via kretprobe" \
				" clock local maxactive 4096 clones yes" \
				" sample 1000000 pid 1073741823" \
				" tgid 1073741823 comm  cpus  start  end " \
				" gap yes callers 16 slowest 64\n") - 1 + 3 * (KS_NAME_MAX - 1) + \
			 (KS_COMM_MAX - 1) + (KS_CPUS_MAX - 1))

enum ks_verb {
	KS_VERB_TRACE,
	KS_VERB_REMOVE,
	KS_VERB_START,
	KS_VERB_STOP,
	KS_VERB_RESET,
};

enum ks_via {
	KS_VIA_DEFAULT,		/* the cheapest the running kernel has */
	KS_VIA_KRETPROBE,
	KS_VIA_FPROBE,
	KS_VIA_DIRECT,		/* ftrace direct call into a trampoline */
	KS_VIA_SECTION,		/* kprobe/tracepoint pair, from start/end */
	KS_VIA_NR
};

/*
 * Each backend's name, by enum ks_via: what "via" takes (kretprobe,
 * fprobe, direct: ks_via_asked()) and attach= shows; NULL for the default.
 * The module's table of backends (kmod/ks_backend.c) and the command-line
 * tool's completion read this one.
 */
extern const char *const ks_via_names[KS_VIA_NR];
static inline int ks_via_asked(unsigned int via)
{
	return via > KS_VIA_DEFAULT && via < KS_VIA_SECTION;
}

enum ks_clock {
	KS_CLOCK_LOCAL,		/* local_clock(), ns */
	KS_CLOCK_TSC,		/* rdtsc, cycles */
};

/*
 * One parsed command; fields not given keep the defaults of ks_cmd_parse.
 * What every timed call reads comes first (struct ks_node keeps it in its
 * first cache line): the histogram layout, then the filters.  A node keeps
 * @spec, what it is (struct_group_tagged(): struct ks_spec, the same
 * fields by name), not the verb, the text of a cpus filter (the node
 * keeps it parsed) nor a section's ends.
 */
struct ks_cmd {
	struct_group_tagged(ks_spec, spec,	/* what a node keeps */
		u32 bits;
		u32 buckets;			/* 0: default for bits */
		u32 sample;			/* record one call in @sample */
		s32 pid;			/* -1: any */
		s32 tgid;			/* -1: any */
		char comm[KS_COMM_MAX];		/* "": any */
		char name[KS_NAME_MAX];		/* node name, also the symbol */
		enum ks_via via;
		enum ks_clock clock;
		u32 maxactive;			/* 0: backend default */
		bool clones;			/* also attach NAME.constprop.N etc. */
		bool gap;			/* also a GAP-NAME node */
		u32 callers;			/* call sites kept apart, 0: none */
		u32 slowest;			/* slowest calls kept, 0: none */
	);

	enum ks_verb verb;
	bool all;			/* remove/start/stop/reset all */
	char cpus[KS_CPUS_MAX];		/* "": any, else a cpulist */
	char start[KS_NAME_MAX];	/* section start: SYM or tp:NAME */
	char end[KS_NAME_MAX];		/* section end */
};

/**
 * struct ks_cmd_opt - one option of "trace NAME [OPTION VALUE]..."
 * @key:  the word in a command, and tools/kstats' --KEY
 * @arg:  what the value is, for help ("N", "yes|no")
 * @help: what the option does, lines joined by '\n'; NULL: told on one
 *        line with the next options, up to the next one with help
 * @set:  store the value in a command; 0, or -EINVAL for a bad value
 */
struct ks_cmd_opt {
	const char *key;
	const char *arg;
	const char *help;
	int (*set)(struct ks_cmd *cmd, const char *val);
	const char *bad;	/* why a value is refused: names what is allowed */
};

#define KS_CMD_NR_OPTS	16
extern const struct ks_cmd_opt ks_cmd_opts[KS_CMD_NR_OPTS];

long ks_cmd_text(const char *buf, size_t len, const char **why);
int ks_cmd_parse(char *line, struct ks_cmd *cmd, const char **why);
bool ks_name_valid(const char *name);
const char *ks_trace_name(const char *name);
bool ks_glob_valid(const char *name);

#endif /* _KSTATS_CMD_H */
