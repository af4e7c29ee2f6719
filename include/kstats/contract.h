/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * kstats contract: what the module and its readers (the CLI, the tests,
 * and through snapshots the plots) must agree on, written once.
 *
 *   - limits of the _control grammar (common/ks_cmd.c checks them, the CLI
 *     checks with that same parser; tests/cli/contract.c and run.sh feed
 *     every boundary to both);
 *   - the percentiles every report shows, with names and indices;
 *   - the keywords of the node text, the line of the _control listing and
 *     the lines of _last (docs/format.md), printed by kmod/ks_show.c and
 *     kmod/ks_glob.c and read by the CLI (tools/lib/ks_parse.c the node
 *     text, tools/lib/ks_ctl.c the listing and _last).
 *
 * Freestanding like hist.h: only <linux/types.h>, nothing to link.
 */
#ifndef _KSTATS_CONTRACT_H
#define _KSTATS_CONTRACT_H

#include <linux/types.h>

/*
 * The tables below are unused in some files: the kernel's W=1 warns about
 * that even in a header, userspace's -Wall only in the file itself.
 */
#ifndef __maybe_unused
#define __maybe_unused
#endif

/* ---- limits ---- */

#define KS_NAME_MAX	64	/* node names and symbols, NUL included */
#define KS_COMM_MAX	16	/* comm filter, NUL included (TASK_COMM_LEN) */
#define KS_CPUS_MAX	64	/* text of a cpulist filter, NUL included */
#define KS_BUCKETS_MAX	64	/* power-of-two ranges, and at most 64 - bits */
#define KS_SAMPLE_MAX	1000000	/* sample N: one call in N */
#define KS_MAXACTIVE_MAX 4096	/* kretprobe/fprobe instances in flight */
#define KS_PID_MAX	0x3fffffff	/* pid/tgid filters: FUTEX_TID_MASK */
#define KS_NODES_MAX	65536	/* nodes at once */
#define KS_SYMS_MAX	16	/* symbols of one node: a function and its clones */
#define KS_CALLERS_MAX	16	/* call sites kept apart by "callers N" */
#define KS_SLOWEST_MAX	64	/* calls kept by "slowest K" */
#define KS_STACK_MAX	16	/* frames of a kept call's stack */
#define KS_CMD_MAX	512	/* bytes of one write to _control or a node */
#define KS_GAP_PREFIX	"GAP-"	/* name of a node's time-between-calls twin */
/*
 * bits: 0..KSTATS_BITS_MAX, in hist.h with the slot math it bounds.
 * KS_CMD_MAX holds KS_CMD_LONGEST, the longest command of the grammar
 * (include/kstats/cmd.h), with room for extra blanks.
 */

/* ---- percentiles ---- */

/* Index of each reported percentile in every pct[] array. */
enum kstats_pct {
	KSTATS_P10,
	KSTATS_P50,
	KSTATS_P90,
	KSTATS_P95,
	KSTATS_P98,
	KSTATS_P99,
	KSTATS_P999,
	KSTATS_NR_PCT
};

/* The percentiles, in thousandths. */
static const __u32 kstats_pct_milli[KSTATS_NR_PCT] __maybe_unused = {
	[KSTATS_P10] = 100, [KSTATS_P50] = 500, [KSTATS_P90] = 900,
	[KSTATS_P95] = 950, [KSTATS_P98] = 980, [KSTATS_P99] = 990,
	[KSTATS_P999] = 999,
};

/* Their names in the node text, snapshots and tables. */
static const char * const kstats_pct_name[KSTATS_NR_PCT] __maybe_unused = {
	[KSTATS_P10] = "p10", [KSTATS_P50] = "p50", [KSTATS_P90] = "p90",
	[KSTATS_P95] = "p95", [KSTATS_P98] = "p98", [KSTATS_P99] = "p99",
	[KSTATS_P999] = "p99.9",
};

/* ---- node text (docs/format.md) ---- */

/* The # lines: "#", a blank, one of these words, then the line's words. */
#define KS_LINE_HEAD	"kstats"	/* NAME key=value... */
#define KS_LINE_SAMPLES	"samples"	/* N missed N min N avg N max N floor N */
#define KS_LINE_SAMPLED	"sampled"	/* 1 in N: estimated calls M */
#define KS_LINE_CLAMPED	"clamped"	/* N: ... recorded as 0 */
#define KS_LINE_FALLBACK "fallback"	/* CLOCK unstable: ... */
#define KS_LINE_PCT	"percentiles"	/* pNN V... precision_ppm P estimate E */
#define KS_LINE_UNSLOTTED "unslotted"	/* N: ... counted in missed */
/* N cost C: traced calls that ended inside the recorded ones, C off each */
#define KS_LINE_NESTED	"nested"
#define KS_NESTED_COST	"cost"
#define KS_LINE_MEMORY	"memory"	/* N bytes: slots on C CPUs, S spares shared by N nodes */
#define KS_LINE_CALLER	"caller"	/* ID count N p50 V p99 V max V site SITE */
/* N switched S interrupted I: calls that left their CPU, or took an interrupt */
#define KS_LINE_DISTURBED "disturbed"
/* RANK time V cpu C pid P at T by WHY comm COMM caller SITE: a kept call */
#define KS_LINE_SLOW	"slow"
#define KS_LINE_STACK	"stack"		/* RANK FRAME: its stack, caller first */

/* Words of the KS_LINE_SAMPLES line after its count, each before its value. */
#define KS_SAMPLES_MISSED	"missed"
#define KS_SAMPLES_MIN		"min"
#define KS_SAMPLES_AVG		"avg"
#define KS_SAMPLES_MAX		"max"
#define KS_SAMPLES_FLOOR	"floor"

/* Words of the KS_LINE_PCT line after the percentiles, and its estimate. */
#define KS_PCT_PRECISION	"precision_ppm"
#define KS_PCT_ESTIMATE		"estimate"
#define KS_ESTIMATE_SLOT_MEAN	"slot-mean"

/* key= words of the head line; the filters appear only when set. */
#define KS_KEY_ATTACH	"attach"	/* BACKEND:SYM[,SYM...] */
#define KS_KEY_CLOCK	"clock"		/* the clock read now */
#define KS_KEY_CLOCK_BY	"clock_by"	/* the rule that chose it: KS_CLOCK_BY_* */
#define KS_KEY_HZ	"hz"		/* its frequency, when slots= cycles */
#define KS_KEY_UNIT	"unit"		/* of every figure of the text */
#define KS_KEY_SLOTS	"slots"		/* unit the node records in */
#define KS_KEY_BITS	"bits"
#define KS_KEY_BUCKETS	"buckets"
#define KS_KEY_SAMPLE	"sample"
#define KS_KEY_MAXACTIVE "maxactive"
#define KS_KEY_STATE	"state"
#define KS_KEY_PID	"pid"
#define KS_KEY_TGID	"tgid"
#define KS_KEY_COMM	"comm"
#define KS_KEY_CPUS	"cpus"
#define KS_KEY_CALLERS	"callers"	/* N: call sites kept apart, when asked */
#define KS_KEY_SLOWEST	"slowest"	/* K: the slowest calls kept, when asked */

/* Values of clock=, unit=, slots= and state=. */
#define KS_CLOCK_NAME_LOCAL	"local"		/* local_clock() */
#define KS_CLOCK_NAME_TSC	"tsc"		/* x86-64's counter */
#define KS_CLOCK_NAME_CNTVCT	"cntvct"	/* arm64's counter */
/* Values of clock_by=: why the node reads the clock of clock= */
#define KS_CLOCK_BY_ASKED	"asked"		/* "clock tsc": cycles, as asked */
#define KS_CLOCK_BY_INVARIANT	"invariant_tsc"	/* x86: constant, nonstop TSC */
#define KS_CLOCK_BY_CLOCKSOURCE	"tsc_clocksource" /* x86: the kernel keeps time on the TSC */
#define KS_CLOCK_BY_ARCH	"arch_counter"	/* arm64: the generic timer */
#define KS_CLOCK_BY_LOCAL	"no_stable_counter" /* none of those: local_clock() */
#define KS_CLOCK_BY_UNSTABLE	"counter_unstable" /* it was, until the kernel said no */
#define KS_UNIT_NS		"ns"
#define KS_UNIT_CYCLES		"cycles"
#define KS_STATE_ACTIVE		"active"
#define KS_STATE_STOPPED	"stopped"

/* Rows: "slot S CPU c ..." per CPU, "slot S CPUS n ..." merged. */
#define KS_ROW_SLOT	"slot"
#define KS_ROW_CPU	"CPU"
#define KS_ROW_CPUS	"CPUS"
#define KS_ROW_CALLER	"CALLER"	/* in "# slot S CALLER ID ...": a caller's row */
#define KS_ROW_DISTURBED "DISTURBED"	/* "# slot S DISTURBED - ...": a disturbed calls' row */
/* A caller's ID: 0..N-1 in the order first seen, or this for the rest */
#define KS_CALLER_OTHER	"other"
/* Last word of a "# caller" line, before the site: the rest of the line */
#define KS_CALLER_SITE	"site"	/* FUNCTION+0xOFF/0xSIZE [MODULE], as %pS */
/*
 * Words of a "# slow" line after its rank (0: the slowest), each before
 * its value; its time in the text's unit, "at" in local_clock() ns (as
 * the kernel log's timestamps), "by" one of KS_BY_*; the comm with each
 * blank or unprintable byte as '?', then the caller: the rest of the line.
 */
#define KS_SLOW_TIME	"time"
#define KS_SLOW_CPU	"cpu"
#define KS_SLOW_PID	"pid"
#define KS_SLOW_AT	"at"
#define KS_SLOW_BY	"by"
#define KS_SLOW_COMM	"comm"
#define KS_SLOW_CALLER	"caller"
#define KS_BY_NONE	"-"		/* ran through on its CPU */
#define KS_BY_SWITCH	"switched"	/* its task left the CPU (slept, preempted) */
#define KS_BY_IRQ	"interrupted"	/* its CPU took an interrupt */
/* Words of the KS_LINE_DISTURBED line, each before its count */
#define KS_DISTURBED_SWITCH	KS_BY_SWITCH
#define KS_DISTURBED_IRQ	KS_BY_IRQ
/* ...then these words, each before its value: count, mean, rank, running total */
#define KS_ROW_COUNT	"count"
#define KS_ROW_AVG	"avg"
#define KS_ROW_P	"p"
#define KS_ROW_N	"n"

/* ---- _control listing (docs/format.md) ---- */

/* Reading _control: this head line, then one line per node. */
#define KS_LIST_HEAD	"# name backend state samples missed"
/* NAME BACKEND STATE(KS_STATE_*) SAMPLES MISSED, blank-separated */
#define KS_LIST_ROW	"%s %s %s %llu %llu"
#define KS_LIST_FIELDS	5

/* ---- _last: what the last trace GLOB did (docs/format.md) ---- */

/*
 * "# COMMAND" (the line as written), then one line per function refused,
 * then one closing line:
 *   refused [MOD:]FUNCTION: WHY
 *   matched N attached N refused N[ BACKEND N]...   (attached by backend)
 *   matched N refused all: WHY                      (nothing tried)
 *   matched 0
 */
#define KS_LAST_HEAD	"# %s\n"
#define KS_LAST_REFUSED	"refused"
#define KS_LAST_MATCHED	"matched"
#define KS_LAST_REFUSED_FN	KS_LAST_REFUSED " %s%s%s: "	/* then WHY, newline */
#define KS_LAST_DONE	KS_LAST_MATCHED " %u attached %u " KS_LAST_REFUSED " %u"
#define KS_LAST_DONE_VIA " %s %u"
#define KS_LAST_TOO_MANY KS_LAST_MATCHED " %u " KS_LAST_REFUSED " all: more than glob_max %u\n"
#define KS_LAST_NONE	KS_LAST_MATCHED " 0\n"
/* more refusals than _last holds: their count, before the summary */
#define KS_LAST_UNTOLD_KEY "untold"
#define KS_LAST_UNTOLD	KS_LAST_UNTOLD_KEY \
	" %u: refused, not listed here (the kernel log has each)\n"

#endif /* _KSTATS_CONTRACT_H */
