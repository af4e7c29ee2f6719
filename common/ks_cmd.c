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
 * Options of trace, each at most once, are the entries of ks_cmd_opts[]
 * below: the word, its value, and what it does; the ks_set_*() function of
 * each holds the values it accepts.  tools/kstats builds its --OPTION flags
 * and their help from the same table.
 *
 * NAME: 1..KS_NAME_MAX-1 characters of [A-Za-z0-9_.:-]; "_control" and
 * "all" are reserved.  "mod:sym" names a symbol of module mod.
 * A NAME with *, ? or [...] in it is a glob (include/kstats/glob.h; the
 * module's kmod/ks_glob.c runs trace GLOB): trace makes one
 * node per matching function ("mod:glob": that module's), the other verbs
 * act on every node whose name matches.
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
#include <kstats/glob.h>
#include <kstats/hist.h>
#include <kstats/cmd.h>

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

/**
 * ks_trace_name() - the node name in the NAME of a trace command
 * @name: NAME as written
 *
 * The old grammar's "pcpu:NAME" asked for per-CPU rows, which every node
 * now shows: the prefix is accepted and dropped.
 *
 * Return: @name without a leading KS_PCPU_PREFIX.
 */
const char *ks_trace_name(const char *name)
{
	size_t len = strlen(KS_PCPU_PREFIX);

	return strncmp(name, KS_PCPU_PREFIX, len) ? name : name + len;
}

/**
 * ks_glob_valid() - is @name a glob of names (a node name with *, ? or [)?
 * @name: NUL-terminated candidate
 *
 * Return: true for 1..KS_NAME_MAX-1 characters of [A-Za-z0-9_.:-*?[]!]
 * with at least one *, ? or [.
 */
bool ks_glob_valid(const char *name)
{
	bool glob = false;
	size_t i;

	for (i = 0; name[i]; i++) {
		char c = name[i];

		if (i >= KS_NAME_MAX - 1)
			return false;
		if (ks_glob_char(c))
			glob = true;
		else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			   (c >= '0' && c <= '9') || c == '_' || c == '.' ||
			   c == ':' || c == '-' || c == ']' || c == '!'))
			return false;
	}
	return glob;
}

/* @val as a u32 in @lo..@hi, into *@out. */
static int ks_u32_opt(const char *val, u32 lo, u32 hi, u32 *out)
{
	unsigned int v;

	if (kstrtouint(val, 0, &v) || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

/* "yes" or "no", into *@out. */
static int ks_yesno_opt(const char *val, bool *out)
{
	if (!strcmp(val, "yes"))
		*out = true;
	else if (!strcmp(val, "no"))
		*out = false;
	else
		return -EINVAL;
	return 0;
}

/* @val as one of @n @words (NULL ones are not values): its index, or -EINVAL. */
static int ks_word_opt(const char *val, const char * const *words,
		       unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (words[i] && !strcmp(val, words[i]))
			return i;
	return -EINVAL;
}

/* A string of fewer than @size bytes, into @dst. */
static int ks_str_opt(const char *val, char *dst, size_t size)
{
	if (strlen(val) >= size)
		return -EINVAL;
	strscpy(dst, val, size);
	return 0;
}

static int ks_set_bits(struct ks_cmd *cmd, const char *val)
{
	return ks_u32_opt(val, 0, KSTATS_BITS_MAX, &cmd->bits);
}

static int ks_set_buckets(struct ks_cmd *cmd, const char *val)
{
	return ks_u32_opt(val, 1, KS_BUCKETS_MAX, &cmd->buckets);
}

const char *const ks_via_names[KS_VIA_NR] = {
	[KS_VIA_KRETPROBE] = "kretprobe",
	[KS_VIA_FPROBE] = "fprobe",
	[KS_VIA_DIRECT] = "direct",
	[KS_VIA_SECTION] = "section",
};

static int ks_set_via(struct ks_cmd *cmd, const char *val)
{
	int i = ks_word_opt(val, ks_via_names, KS_VIA_NR);

	if (i < 0 || !ks_via_asked(i))
		return -EINVAL;
	cmd->via = i;
	return 0;
}

static int ks_set_start(struct ks_cmd *cmd, const char *val)
{
	if (!ks_name_valid(val))
		return -EINVAL;
	strscpy(cmd->start, val, KS_NAME_MAX);
	return 0;
}

static int ks_set_end(struct ks_cmd *cmd, const char *val)
{
	if (!ks_name_valid(val))
		return -EINVAL;
	strscpy(cmd->end, val, KS_NAME_MAX);
	return 0;
}

static int ks_set_gap(struct ks_cmd *cmd, const char *val)
{
	return ks_yesno_opt(val, &cmd->gap);
}

static int ks_set_clock(struct ks_cmd *cmd, const char *val)
{
	static const char * const clocks[] = {
		[KS_CLOCK_LOCAL] = "local", [KS_CLOCK_TSC] = "tsc",
	};
	int i = ks_word_opt(val, clocks, ARRAY_SIZE(clocks));

	if (i < 0)
		return i;
	cmd->clock = i;
	return 0;
}

static int ks_set_pid(struct ks_cmd *cmd, const char *val)
{
	u32 v;

	if (ks_u32_opt(val, 0, KS_PID_MAX, &v))
		return -EINVAL;
	cmd->pid = v;
	return 0;
}

static int ks_set_tgid(struct ks_cmd *cmd, const char *val)
{
	u32 v;

	if (ks_u32_opt(val, 0, KS_PID_MAX, &v))
		return -EINVAL;
	cmd->tgid = v;
	return 0;
}

static int ks_set_comm(struct ks_cmd *cmd, const char *val)
{
	return ks_str_opt(val, cmd->comm, KS_COMM_MAX);
}

static int ks_set_cpus(struct ks_cmd *cmd, const char *val)
{
	return ks_str_opt(val, cmd->cpus, KS_CPUS_MAX);
}

static int ks_set_sample(struct ks_cmd *cmd, const char *val)
{
	return ks_u32_opt(val, 1, KS_SAMPLE_MAX, &cmd->sample);
}

static int ks_set_clones(struct ks_cmd *cmd, const char *val)
{
	return ks_yesno_opt(val, &cmd->clones);
}

static int ks_set_callers(struct ks_cmd *cmd, const char *val)
{
	return ks_u32_opt(val, 1, KS_CALLERS_MAX, &cmd->callers);
}

static int ks_set_slowest(struct ks_cmd *cmd, const char *val)
{
	return ks_u32_opt(val, 1, KS_SLOWEST_MAX, &cmd->slowest);
}

static int ks_set_maxactive(struct ks_cmd *cmd, const char *val)
{
	return ks_u32_opt(val, 1, KS_MAXACTIVE_MAX, &cmd->maxactive);
}

/*
 * The options of trace, in the order help shows them.  An entry without
 * help is described on one line with the entries after it, up to the next
 * one with help.
 */
/* A limit of contract.h or hist.h in a message, as written there. */
#define KS_STR_(x)	#x
#define KS_STR(x)	KS_STR_(x)
#define KS_BAD(key, what)	"bad value for " key ": " what

const struct ks_cmd_opt ks_cmd_opts[] = {
	{ "bits", "B", "fractional bits per power of two, 0..8\n"
	  "(default 3: 12.5%)",
	  ks_set_bits, KS_BAD("bits", "not in 0.." KS_STR(KSTATS_BITS_MAX)) },
	{ "buckets", "N", "power-of-two ranges (default 40 - bits:\n"
	  "up to 2^40)",
	  ks_set_buckets, KS_BAD("buckets", "not in 1.." KS_STR(KS_BUCKETS_MAX)) },
	{ "via", "BACKEND", "direct, fprobe or kretprobe (default: the cheapest\n"
	  "the kernel allows for this function)", ks_set_via,
	  KS_BAD("via", "not one of direct, fprobe, kretprobe") },
	{ "start", "A", NULL, ks_set_start,
	  KS_BAD("start", "not a function or tp:NAME") },
	{ "end", "B", "time from A to B on one CPU; a point is a function\n"
	  "or a tracepoint tp:NAME / tp:SUBSYSTEM:NAME", ks_set_end,
	  KS_BAD("end", "not a function or tp:NAME") },
	{ "gap", "yes|no", "also GAP-NAME: time between consecutive calls",
	  ks_set_gap, KS_BAD("gap", "not yes or no") },
	{ "clock", "CLOCK", "local (default, any backend): ns, counted by the\n"
	  "TSC or arm64's counter where it keeps time, else\n"
	  "by local_clock() (show says which); tsc: cycles", ks_set_clock,
	  KS_BAD("clock", "not one of local, tsc") },
	{ "pid", "N", NULL, ks_set_pid,
	  KS_BAD("pid", "not in 0.." KS_STR(KS_PID_MAX)) },
	{ "tgid", "N", NULL, ks_set_tgid,
	  KS_BAD("tgid", "not in 0.." KS_STR(KS_PID_MAX)) },
	{ "comm", "S", NULL, ks_set_comm,
	  KS_BAD("comm", "not shorter than " KS_STR(KS_COMM_MAX) " bytes") },
	{ "cpus", "LIST", "record only matching calls",
	  ks_set_cpus,
	  KS_BAD("cpus", "not shorter than " KS_STR(KS_CPUS_MAX) " bytes") },
	{ "sample", "N", "record 1 call in N", ks_set_sample,
	  KS_BAD("sample", "not in 1.." KS_STR(KS_SAMPLE_MAX)) },
	{ "clones", "yes|no", "also attach the compiler clones\n"
	  "(NAME.constprop.0 ...)",
	  ks_set_clones, KS_BAD("clones", "not yes or no") },
	{ "maxactive", "N", "instances in flight per symbol: kretprobe, and\n"
	  "fprobe before 6.14 (drops show as missed)", ks_set_maxactive,
	  KS_BAD("maxactive", "not in 1.." KS_STR(KS_MAXACTIVE_MAX)) },
	{ "callers", "N", "also one histogram per call site for the first N\n"
	  "seen, 1.." KS_STR(KS_CALLERS_MAX) ", and one for the rest", ks_set_callers,
	  KS_BAD("callers", "not in 1.." KS_STR(KS_CALLERS_MAX)) },
	{ "slowest", "K", "also keep the K slowest calls, 1.." KS_STR(KS_SLOWEST_MAX) ",\n"
	  "with their stacks", ks_set_slowest,
	  KS_BAD("slowest", "not in 1.." KS_STR(KS_SLOWEST_MAX)) },
};

static_assert(ARRAY_SIZE(ks_cmd_opts) == KS_CMD_NR_OPTS);
static_assert(KS_CMD_NR_OPTS <= 32);	/* the "seen" bits of a command */

/* What a trace command's options say together: sections, GAP, buckets. */
static int ks_check_trace(struct ks_cmd *cmd, const char **why)
{
	if (!cmd->start[0] != !cmd->end[0]) {
		*why = "start and end go together";
		return -EINVAL;
	}
	if (cmd->start[0]) {
		if (ks_glob_valid(cmd->name)) {
			*why = "a section is one node: no glob";
			return -EINVAL;
		}
		if (cmd->via != KS_VIA_DEFAULT) {
			*why = "start/end sections choose their own hooks";
			return -EINVAL;
		}
		if (cmd->callers) {
			*why = "a section has no caller";
			return -EINVAL;
		}
		if (cmd->slowest) {
			*why = "slowest keeps calls of a function, not sections";
			return -EINVAL;
		}
		cmd->via = KS_VIA_SECTION;
	}
	if (cmd->gap && strlen(cmd->name) + strlen(KS_GAP_PREFIX) >= KS_NAME_MAX) {
		*why = "name too long for its GAP- node";
		return -EINVAL;
	}
	if (!cmd->buckets) {	/* not given: at least 1 when it is */
		cmd->buckets = kstats_default_buckets(cmd->bits);
	} else if (cmd->buckets > kstats_max_buckets(cmd->bits)) {
		*why = "buckets too large for bits";
		return -EINVAL;
	}
	return 0;
}

/* Parse the options of "trace NAME ..."; @s is what follows NAME. */
static int ks_parse_trace_opts(char *s, struct ks_cmd *cmd, const char **why)
{
	unsigned int seen = 0, k;
	char *key, *val;

	while ((key = ks_word(&s))) {
		for (k = 0; k < KS_CMD_NR_OPTS; k++)
			if (!strcmp(key, ks_cmd_opts[k].key))
				break;
		if (k == KS_CMD_NR_OPTS) {
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
		if (ks_cmd_opts[k].set(cmd, val)) {
			*why = ks_cmd_opts[k].bad;
			return -EINVAL;
		}
	}
	return ks_check_trace(cmd, why);
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
	char *s = line, *verb;
	const char *name;
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
	if (cmd->verb == KS_VERB_TRACE)
		name = ks_trace_name(name);
	if (cmd->verb != KS_VERB_TRACE && !strcmp(name, "all")) {
		cmd->all = true;
	} else {
		if (!ks_name_valid(name) && !ks_glob_valid(name)) {
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
