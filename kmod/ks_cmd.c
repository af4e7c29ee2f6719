// SPDX-License-Identifier: GPL-2.0
/*
 * kstats control-command parser.
 *
 * Grammar (one command per write to /sys/kernel/debug/kstats/_control):
 *
 *   trace [pcpu:]NAME [OPTION VALUE]...   create node NAME timing symbol NAME
 *   remove NAME | remove all              detach and free
 *   start|stop|reset NAME | ... all       act on one node or on all of them
 *
 * Options of trace (each at most once):
 *   bits B        2^B linear sub-slots per power of two, 0..KSTATS_BITS_MAX
 *   buckets N     power-of-two ranges above the linear part, 1..64-B
 *   via BACKEND   kretprobe | fprobe | direct (default: the cheapest the
 *                 kernel has for this function)
 *   clock C       local (ns, default) | tsc (cycles)
 *   maxactive N   calls in flight per symbol, 1..KS_MAXACTIVE_MAX: the
 *                 instance pool of kretprobe, and of fprobe up to 6.13
 *                 (from 6.14 fprobe has no pool; direct never has one)
 *   clones yes|no also attach gcc clones NAME.constprop.N, .isra.N, .part.N
 *   sample N      record one call in N per CPU, 1..KS_SAMPLE_MAX
 *   pid N, tgid N only calls from that thread / process
 *   comm NAME     only calls from tasks with that comm
 *   cpus LIST     only calls on these CPUs (kernel cpulist syntax)
 *   start A end B time from A to B on one CPU instead of a function's
 *                 duration; A and B are function names (kprobes) or
 *                 tracepoints "tp:NAME" / "tp:SUBSYSTEM:NAME"
 *   gap yes|no    also keep GAP-NAME: time between consecutive calls
 *                 (or section starts) on a CPU
 *
 * NAME: 1..KS_NAME_MAX-1 characters of [A-Za-z0-9_.:-]; "_control" and
 * "all" are reserved.  "mod:sym" names a symbol of module mod.
 *
 * A write is one whole command, from offset 0, of printable ASCII, blanks
 * and newlines (ks_cmd_text()); a write of 0 bytes does nothing.
 *
 * On error ks_cmd_parse() returns -EINVAL and points *why at a short text
 * naming the problem; the caller logs it with the offending word.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/errno.h>
#endif
#include <kstats/hist.h>
#include "ks_cmd.h"

static const char ks_seps[] = " \t\n";

/* Next non-empty word of *s, or NULL. */
static char *ks_word(char **s)
{
	char *w;

	do {
		w = strsep(s, ks_seps);
	} while (w && !*w);
	return w;
}

/**
 * ks_name_valid() - is @name acceptable as a node name or symbol?
 * @name: NUL-terminated candidate
 *
 * Return: true for 1..KS_NAME_MAX-1 characters of [A-Za-z0-9_.:-] other
 * than the reserved "_control" and "all".
 */
bool ks_name_valid(const char *name)
{
	size_t i;

	if (!name[0] || !strcmp(name, "_control") || !strcmp(name, "all"))
		return false;
	for (i = 0; name[i]; i++) {
		char c = name[i];

		if (i >= KS_NAME_MAX - 1)
			return false;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		      c == ':' || c == '-'))
			return false;
	}
	return true;
}

static int ks_u32_opt(const char *val, u32 lo, u32 hi, u32 *out)
{
	unsigned int v;

	if (kstrtouint(val, 0, &v) || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Parse the options of "trace NAME ..."; @s is what follows NAME. */
static int ks_parse_trace_opts(char *s, struct ks_cmd *cmd, const char **why)
{
	unsigned int seen = 0;
	bool buckets_given = false;
	char *key, *val;
	u32 v;

	while ((key = ks_word(&s))) {
		static const char * const keys[] = {
			"bits", "buckets", "via", "clock", "maxactive",
			"clones", "sample", "pid", "tgid", "comm", "cpus",
			"start", "end", "gap",
		};
		unsigned int k;

		for (k = 0; k < ARRAY_SIZE(keys); k++)
			if (!strcmp(key, keys[k]))
				break;
		if (k == ARRAY_SIZE(keys)) {
			*why = "unknown option";
			return -EINVAL;
		}
		if (seen & (1U << k)) {
			*why = "option given twice";
			return -EINVAL;
		}
		seen |= 1U << k;
		val = ks_word(&s);
		if (!val) {
			*why = "option needs a value";
			return -EINVAL;
		}
		switch (k) {
		case 0:
			if (ks_u32_opt(val, 0, KSTATS_BITS_MAX, &cmd->bits))
				goto bad_value;
			break;
		case 1:
			if (ks_u32_opt(val, 1, KS_BUCKETS_MAX, &cmd->buckets))
				goto bad_value;
			buckets_given = true;
			break;
		case 2:
			if (!strcmp(val, "kretprobe"))
				cmd->via = KS_VIA_KRETPROBE;
			else if (!strcmp(val, "fprobe"))
				cmd->via = KS_VIA_FPROBE;
			else if (!strcmp(val, "direct"))
				cmd->via = KS_VIA_DIRECT;
			else
				goto bad_value;
			break;
		case 3:
			if (!strcmp(val, "local"))
				cmd->clock = KS_CLOCK_LOCAL;
			else if (!strcmp(val, "tsc"))
				cmd->clock = KS_CLOCK_TSC;
			else
				goto bad_value;
			break;
		case 4:
			if (ks_u32_opt(val, 1, KS_MAXACTIVE_MAX, &cmd->maxactive))
				goto bad_value;
			break;
		case 5:
			if (!strcmp(val, "yes"))
				cmd->clones = true;
			else if (!strcmp(val, "no"))
				cmd->clones = false;
			else
				goto bad_value;
			break;
		case 6:
			if (ks_u32_opt(val, 1, KS_SAMPLE_MAX, &cmd->sample))
				goto bad_value;
			break;
		case 7:
		case 8:
			if (ks_u32_opt(val, 0, KS_PID_MAX, &v))
				goto bad_value;
			if (k == 7)
				cmd->pid = v;
			else
				cmd->tgid = v;
			break;
		case 9:
			if (strlen(val) >= KS_COMM_MAX)
				goto bad_value;
			strscpy(cmd->comm, val, KS_COMM_MAX);
			break;
		case 10:
			if (strlen(val) >= KS_CPUS_MAX)
				goto bad_value;
			strscpy(cmd->cpus, val, KS_CPUS_MAX);
			break;
		case 11:
		case 12:
			if (!ks_name_valid(val))
				goto bad_value;
			strscpy(k == 11 ? cmd->start : cmd->end, val,
				KS_NAME_MAX);
			break;
		case 13:
			if (!strcmp(val, "yes"))
				cmd->gap = true;
			else if (!strcmp(val, "no"))
				cmd->gap = false;
			else
				goto bad_value;
			break;
		}
	}
	if (!cmd->start[0] != !cmd->end[0]) {
		*why = "start and end go together";
		return -EINVAL;
	}
	if (cmd->start[0]) {
		if (cmd->via != KS_VIA_DEFAULT) {
			*why = "start/end sections choose their own hooks";
			return -EINVAL;
		}
		cmd->via = KS_VIA_SECTION;
	}
	if (cmd->gap && strlen(cmd->name) + strlen(KS_GAP_PREFIX) >= KS_NAME_MAX) {
		*why = "name too long for its GAP- node";
		return -EINVAL;
	}
	if (!buckets_given) {
		cmd->buckets = kstats_default_buckets(cmd->bits);
	} else if (cmd->buckets > kstats_max_buckets(cmd->bits)) {
		*why = "buckets too large for bits";
		return -EINVAL;
	}
	return 0;

bad_value:
	*why = "bad value for option";
	return -EINVAL;
}

/**
 * ks_cmd_text() - is a write plain text a command can be made of?
 * @buf: the bytes as written
 * @len: how many
 * @why: on error, set to a short description of the problem
 *
 * A command is printable ASCII, blanks and newlines.  An embedded NUL
 * would silently cut the command short, and other bytes have no place in
 * names, numbers or keywords: both are refused before parsing.
 *
 * Return: -1 when the bytes are acceptable, else the offset of the first
 * bad byte (*why says what it is).
 */
long ks_cmd_text(const char *buf, size_t len, const char **why)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = buf[i];

		if (!c) {
			*why = "NUL byte";
			return i;
		}
		if ((c < ' ' && c != '\t' && c != '\n') || c > '~') {
			*why = "control or non-ASCII byte";
			return i;
		}
	}
	return -1;
}

/**
 * ks_cmd_parse() - parse one control command
 * @line: the command, modified in place (words are split with strsep)
 * @cmd: filled with the command and its options
 * @why: on error, set to a short description of the problem
 *
 * Return: 0, or -EINVAL for anything that is not a valid command.
 */
int ks_cmd_parse(char *line, struct ks_cmd *cmd, const char **why)
{
	static const char * const verbs[] = {
		[KS_VERB_TRACE] = "trace", [KS_VERB_REMOVE] = "remove",
		[KS_VERB_START] = "start", [KS_VERB_STOP] = "stop",
		[KS_VERB_RESET] = "reset",
	};
	char *s = line, *verb, *name;
	unsigned int i;

	memset(cmd, 0, sizeof(*cmd));
	cmd->bits = KSTATS_BITS_DEFAULT;
	cmd->clones = true;
	cmd->sample = 1;
	cmd->pid = -1;
	cmd->tgid = -1;

	verb = ks_word(&s);
	if (!verb) {
		*why = "empty command";
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(verbs); i++)
		if (!strcmp(verb, verbs[i]))
			break;
	if (i == ARRAY_SIZE(verbs)) {
		*why = "unknown command";
		return -EINVAL;
	}
	cmd->verb = i;

	name = ks_word(&s);
	if (!name) {
		*why = "missing name";
		return -EINVAL;
	}
	if (cmd->verb == KS_VERB_TRACE && !strncmp(name, "pcpu:", 5))
		name += 5;	/* old grammar: per-CPU rows are always shown */
	if (cmd->verb != KS_VERB_TRACE && !strcmp(name, "all")) {
		cmd->all = true;
	} else {
		if (!ks_name_valid(name)) {
			*why = "invalid name";
			return -EINVAL;
		}
		strscpy(cmd->name, name, KS_NAME_MAX);
	}

	if (cmd->verb == KS_VERB_TRACE)
		return ks_parse_trace_opts(s, cmd, why);
	if (ks_word(&s)) {
		*why = "trailing words";
		return -EINVAL;
	}
	return 0;
}
