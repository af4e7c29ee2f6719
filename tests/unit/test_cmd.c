// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the control-command parser: common/ks_cmd.c itself, built
 * in userspace through include/kstats/shim.h.  TAP lines, one per command checked.
 */
#include <stdio.h>
#include "../../common/ks_cmd.c"
#include "../tap.h"

static void report(int good, const char *line, const char *detail)
{
	char shown[256];
	size_t i, o = 0;

	for (i = 0; line[i] && o + 3 < sizeof(shown); i++) {
		if (line[i] == '\n' || line[i] == '\t') {
			shown[o++] = '\\';
			shown[o++] = line[i] == '\n' ? 'n' : 't';
		} else {
			shown[o++] = line[i];
		}
	}
	shown[o] = '\0';
	if (good)
		tap_result(1, "parse '%s'", shown);
	else
		tap_result(0, "parse '%s': %s", shown, detail);
}

/* Parse @line; 0 on success, else the error (and @why). */
static int parse(const char *line, struct ks_cmd *cmd, const char **why)
{
	char buf[512];

	*why = "";
	snprintf(buf, sizeof(buf), "%s", line);
	return ks_cmd_parse(buf, cmd, why);
}

/* @line must fail with -EINVAL and a reason containing @reason. */
static void bad(const char *line, const char *reason)
{
	struct ks_cmd cmd;
	const char *why;
	char d[256];
	int ret = parse(line, &cmd, &why);

	snprintf(d, sizeof(d), "ret %d why '%s', wanted -EINVAL '%s'", ret,
		 why, reason);
	report(ret == -EINVAL && strstr(why, reason), line, d);
}

/* ks_cmd_text() on @len bytes of @buf: bad byte at @want (-1: none). */
static void text(const char *desc, const char *buf, size_t len, long want)
{
	const char *why = "";
	long got = ks_cmd_text(buf, len, &why);
	char d[128];

	snprintf(d, sizeof(d), "first bad byte at %ld (%s), wanted %ld", got,
		 why, want);
	if (got == want)
		tap_result(1, "text: %s", desc);
	else
		tap_result(0, "text: %s: %s", desc, d);
}

#define GOOD(line, cond) do {						\
	struct ks_cmd cmd;						\
	const char *why;						\
	int ret = parse(line, &cmd, &why);				\
	report(!ret && (cond), line, ret ? why : "fields: " #cond);	\
} while (0)

/* include/kstats/glob.h: what makes a name a glob, as the grammar sees it. */
static void test_is_glob(void)
{
	static const char *const globs[] = { "vma_*", "f?o", "x[ab]", "*", "m:[!a]*" };
	static const char *const names[] = { "find_vma", "ext4:ext4_map_blocks", "a.b-c", "" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(globs); i++)
		tap_result(ks_is_glob(globs[i]) && ks_glob_valid(globs[i]),
			   "glob: '%s' is a glob, and a valid one", globs[i]);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		tap_result(!ks_is_glob(names[i]) && !ks_glob_valid(names[i]),
			   "glob: '%s' is not a glob", names[i]);
}

/*
 * The backends' one table (ks_via_names[]): each name "via" takes parses
 * to its place, "section" and the default are no "via", and the option's
 * help and refusal name exactly those "via" takes.
 */
static void test_via_names(void)
{
	const struct ks_cmd_opt *via = NULL;
	unsigned int i, asked = 0, named = 0;
	char line[64];

	for (i = 0; i < KS_CMD_NR_OPTS; i++)
		if (!strcmp(ks_cmd_opts[i].key, "via"))
			via = &ks_cmd_opts[i];
	tap_result(via != NULL, "via: an option of the grammar");
	if (!via)
		return;
	tap_result(!ks_via_names[KS_VIA_DEFAULT], "via: the default has no name");
	for (i = 0; i < KS_VIA_NR; i++) {
		struct ks_cmd cmd;
		const char *why;
		int ret;

		if (!ks_via_names[i])
			continue;
		snprintf(line, sizeof(line), "trace f via %s", ks_via_names[i]);
		ret = parse(line, &cmd, &why);
		if (ks_via_asked(i)) {
			asked++;
			named += strstr(via->help, ks_via_names[i]) &&
				 strstr(via->bad, ks_via_names[i]);
			tap_result(!ret && cmd.via == i, "via: '%s' parses to ks_via_names[%u]",
				   line, i);
		} else {
			tap_result(ret == -EINVAL, "via: '%s' is refused: no via", line);
		}
	}
	tap_result(asked == 3 && named == asked,
		   "via: the help and the refusal name each of the %u backends via takes", asked);
}

/* Longer than 100 lines: a list of commands, each parsed and checked on one TAP line. */
int main(void)
{
	char longname[80];

	test_is_glob();
	test_via_names();

	/* defaults */
	GOOD("trace find_vma", cmd.verb == KS_VERB_TRACE &&
	     !strcmp(cmd.name, "find_vma") && cmd.bits == KSTATS_BITS_DEFAULT &&
	     cmd.buckets == kstats_default_buckets(KSTATS_BITS_DEFAULT) &&
	     cmd.via == KS_VIA_DEFAULT && cmd.clock == KS_CLOCK_LOCAL &&
	     cmd.clones && cmd.sample == 1 && cmd.pid == -1 && cmd.tgid == -1 &&
	     !cmd.comm[0] && !cmd.cpus[0] && !cmd.gap && !cmd.maxactive);
	/* the original grammar */
	GOOD("trace pcpu:find_vma bits 3", !strcmp(cmd.name, "find_vma") &&
	     cmd.bits == 3);
	GOOD("  trace\tfind_vma   bits 5 \n", cmd.bits == 5 &&
	     cmd.buckets == kstats_default_buckets(5));
	/* every option */
	GOOD("trace f bits 0 buckets 64", cmd.bits == 0 && cmd.buckets == 64);
	GOOD("trace f bits 8 buckets 6", cmd.bits == 8 && cmd.buckets == 6);
	GOOD("trace f via kretprobe", cmd.via == KS_VIA_KRETPROBE);
	GOOD("trace f via fprobe", cmd.via == KS_VIA_FPROBE);
	GOOD("trace f via direct", cmd.via == KS_VIA_DIRECT);
	GOOD("trace f clock tsc", cmd.clock == KS_CLOCK_TSC);
	GOOD("trace f clock local", cmd.clock == KS_CLOCK_LOCAL);
	GOOD("trace f maxactive 4096", cmd.maxactive == 4096);
	GOOD("trace f clones no", !cmd.clones);
	GOOD("trace f sample 1000000", cmd.sample == 1000000);
	GOOD("trace f pid 0 tgid 42", cmd.pid == 0 && cmd.tgid == 42);
	GOOD("trace f pid 0x10", cmd.pid == 16);
	GOOD("trace f comm ksworker", !strcmp(cmd.comm, "ksworker"));
	GOOD("trace f comm 123456789012345", strlen(cmd.comm) == 15);
	GOOD("trace f cpus 0-3,8", !strcmp(cmd.cpus, "0-3,8"));
	GOOD("trace f gap yes", cmd.gap);
	GOOD("trace s start tp:sched:sched_switch end finish_task_switch",
	     cmd.via == KS_VIA_SECTION &&
	     !strcmp(cmd.start, "tp:sched:sched_switch") &&
	     !strcmp(cmd.end, "finish_task_switch"));
	GOOD("trace mod:fn.constprop.0", !strcmp(cmd.name, "mod:fn.constprop.0"));
	/* other verbs */
	GOOD("remove all", cmd.verb == KS_VERB_REMOVE && cmd.all);
	GOOD("remove find_vma", cmd.verb == KS_VERB_REMOVE && !cmd.all &&
	     !strcmp(cmd.name, "find_vma"));
	GOOD("start all", cmd.verb == KS_VERB_START && cmd.all);
	GOOD("stop f", cmd.verb == KS_VERB_STOP);
	GOOD("reset all", cmd.verb == KS_VERB_RESET && cmd.all);
	/* globs: a node per match (trace), every matching node (the others) */
	GOOD("trace vma_* bits 3", !strcmp(cmd.name, "vma_*") && cmd.bits == 3);
	GOOD("trace kstats_target:kt_gen_[0-2]?[!f]",
	     !strcmp(cmd.name, "kstats_target:kt_gen_[0-2]?[!f]"));
	GOOD("remove vma_*", cmd.verb == KS_VERB_REMOVE && !cmd.all &&
	     !strcmp(cmd.name, "vma_*"));

	/* errors */
	bad("", "empty command");
	bad("   \n", "empty command");
	bad("frobnicate f", "unknown command");
	bad("trace", "missing name");
	bad("trace all", "invalid name");
	bad("trace _control", "invalid name");
	bad("trace fi/le", "invalid name");
	bad("trace f*/", "invalid name");
	bad("trace f{a,b}", "invalid name");
	bad("trace ]", "invalid name");	/* a bracket alone is no glob */
	bad("trace f* start a end b", "a section is one node: no glob");
	memset(longname, 'x', 64);
	snprintf(longname + 64, 16, "%s", "");
	{
		char line[128];

		snprintf(line, sizeof(line), "trace %s", longname);
		bad(line, "invalid name");
	}
	bad("trace f colour blue", "unknown option");
	bad("trace f bits", "option needs a value");
	bad("trace f bits 9", "bad value for bits: not in 0..8");
	bad("trace f bits -1", "bad value");
	bad("trace f bits 3x", "bad value");
	bad("trace f bits 3 bits 4", "option given twice");
	bad("trace f buckets 0", "bad value for buckets: not in 1..64");
	bad("trace f bits 8 buckets 57", "buckets too large");
	bad("trace f via kprobe", "bad value for via: not one of direct, fprobe, kretprobe");
	bad("trace f clock wall", "bad value for clock: not one of local, tsc");
	bad("trace f maxactive 0", "bad value");
	bad("trace f maxactive 4097", "bad value for maxactive: not in 1..4096");
	bad("trace f sample 0", "bad value");
	bad("trace f sample 1000001", "bad value for sample: not in 1..1000000");
	bad("trace f pid -5", "bad value");
	bad("trace f pid 99999999999", "bad value for pid: not in 0..0x3fffffff");
	bad("trace f comm 1234567890123456", "bad value for comm: not shorter than 16 bytes");
	bad("trace f clones maybe", "bad value for clones: not yes or no");
	bad("trace f gap 1", "bad value for gap: not yes or no");
	bad("trace s start a", "start and end go together");
	bad("trace s end b", "start and end go together");
	bad("trace s start a end b via direct", "choose their own hooks");
	bad("trace s start a* end b", "bad value");
	bad("remove f extra", "trailing words");
	bad("reset", "missing name");
	snprintf(longname, sizeof(longname), "%.*s", 61, "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy");
	{
		char line[128];

		snprintf(line, sizeof(line), "trace %s gap yes", longname);
		bad(line, "too long for its GAP- node");
	}

	text("plain command", "trace f bits 3\n", 14, -1);
	text("tabs and newlines", "trace\tf\n\n", 9, -1);
	text("empty", "", 0, -1);
	text("embedded NUL", "trace f\0bits 3", 14, 7);
	text("trailing NUL", "trace f\0", 8, 7);
	text("carriage return", "trace f\r\n", 9, 7);
	text("escape byte", "\033[1mtrace f", 11, 0);
	text("DEL", "trace f\177", 8, 7);
	text("high byte", "trace f\xc3\xa9", 9, 7);

	return tap_end();
}
