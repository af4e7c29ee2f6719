/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_fmt: how kstats prints numbers, summaries, bar histograms and the
 * comparison table.  Every histogram goes through ks_print_hist().
 */
#ifndef KS_FMT_H
#define KS_FMT_H

#include <stdio.h>
#include "ks_parse.h"

/* A display unit: values are divided by @div and printed with @name. */
struct ks_scale {
	const char *name;
	__u64 div;
};

/**
 * ks_unit_words() - the display unit as a heading names it
 * @buf:    the words: "us", or under QEMU -icount the instructions it
 *          stands for, "us = 1,000 instructions, QEMU -icount"
 * @len:    size of @buf
 * @sc:     the display unit
 * @icount: the values are QEMU -icount's (a "ns" is one instruction)
 *
 * plots/kstats_snapshot.py's unit_words() says the same (checked there).
 *
 * Return: @buf.
 */
const char *ks_unit_words(char *buf, size_t len, const struct ks_scale *sc, int icount);

/**
 * ks_scale_pick() - display unit for values around @v
 * @sc:   result
 * @v:    a typical value (e.g. the median) in @unit
 * @unit: the node's unit; only "ns" is ever scaled (cycles stay cycles)
 */
void ks_scale_pick(struct ks_scale *sc, __u64 v, const char *unit);

/**
 * ks_fmt_scaled() - @v in scale @sc, no unit name
 * @buf: output
 * @len: size of @buf
 * @v:   value in the node's unit
 * @sc:  scale
 *
 * Integers when @sc is the node's own unit, else 3 significant digits.
 *
 * Return: @buf.
 */
char *ks_fmt_scaled(char *buf, size_t len, __u64 v, const struct ks_scale *sc);

/**
 * ks_fmt_value() - @v with the unit that reads best ("109 ns", "2.04 us")
 * @buf:  output
 * @len:  size of @buf
 * @v:    value in @unit
 * @unit: node unit
 *
 * Return: @buf.
 */
char *ks_fmt_value(char *buf, size_t len, __u64 v, const char *unit);

/**
 * ks_value_width() - column width that fits ks_fmt_value() of @unit
 * @unit: node unit
 *
 * Return: 10 for ns ("1023 us"), 15 otherwise ("12345678 cycles").
 */
int ks_value_width(const char *unit);

/**
 * ks_print_summary() - header, samples/missed/min/avg/max and percentiles
 * @f:    output
 * @node: node
 * @how:  KS_SUM_RAW: the full header (every attached symbol), wide
 *        columns, long lines whole, a note a line; else 72 columns (for
 *        ns values) and the notes in one paragraph; KS_SUM_BRIEF: no
 *        notes (warnings stay)
 */
#define KS_SUM_RAW	0x1
#define KS_SUM_BRIEF	0x2
void ks_print_summary(FILE *f, const struct ks_view *node, int how);

/**
 * ks_print_cpu_table() - one line of count and percentiles per CPU
 * @f:    output
 * @node: node
 * @raw:  the wide columns; else 80 columns (for ns values)
 */
void ks_print_cpu_table(FILE *f, const struct ks_view *node, int raw);

/**
 * ks_print_hist() - "lo -> hi : count |****|" bars of @slots
 * @f:     output
 * @node:  node giving the slot layout and unit
 * @slots: node->nr_slots slots (total or one CPU's)
 * @log2:  one line per power of two instead of one per slot
 *
 * Slots from the first to the last non-empty one are shown; a run of
 * three or more empty slots is shown as one line.
 */
void ks_print_hist(FILE *f, const struct ks_view *node,
		   const struct kstats_slot *slots, int log2);

/* Styles of ks_cmp_table() (ks_cmp.h) and the per-site table. */
enum {
	KS_PRINT_PLAIN,		/* fits a 72-column email: five percentiles */
	KS_PRINT_MARKDOWN,	/* a Markdown table */
	KS_PRINT_WIDE,		/* every percentile and missed, 80 columns */
	KS_PRINT_BRIEF = 0x10,	/* or'ed: no notes under the table */
};

/* Why calls are clamped to 0, as show and compare say it. */
#define KS_CLAMPED_WHY	"they ended on a CPU whose clock read earlier than the start's"

#define KS_NBSP		'\001'	/* ks_print_wrapped(): a blank, not a break */
/* How the tables of callers and slowest print (their @how). */
#define KS_TBL_MARKDOWN	0x1
#define KS_TBL_BRIEF	0x2

#define KS_MAIL_WIDTH	72	/* what a review email takes */
#define KS_WIDE_WIDTH	80	/* --wide */

/**
 * ks_fmt_change() - the change of @v against @base as a table prints it
 * @buf:       output: "+44%", "-16%"; "<12.5%" when smaller than
 *             @precision, the histogram's resolution; "-" without @base
 * @len:       size of @buf
 * @v:         the new figure
 * @base:      the base figure
 * @precision: the resolution of both figures, in % (12.5 at bits 3);
 *             whole percents from 1% up, one decimal below; three
 *             digits at most (+1180%)
 */
void ks_fmt_change(char *buf, size_t len, __u64 v, __u64 base, double precision);

/**
 * ks_print_wrapped() - @text, its words wrapped at @width columns
 * @f:     output; NULL to count the lines only
 * @first: what the first line starts with ("# ")
 * @next:  what each following line starts with
 * @text:  words separated by blanks; a word longer than a line stays whole;
 *         KS_NBSP prints a blank that is not a break
 * @width: columns, prefixes included
 *
 * Return: the number of lines.
 */
int ks_print_wrapped(FILE *f, const char *first, const char *next,
		     const char *text, int width);

/**
 * ks_fmt_site() - a call site's text in at most @width columns
 * @buf:   output
 * @len:   size of @buf
 * @site:  FUNCTION+0xOFF/0xSIZE [MODULE] (%pS), or "-" for the rest
 * @width: columns
 *
 * "-" reads "(other)".  Otherwise, until it fits: the "/0xSIZE" goes
 * (it says nothing of where the call was made), then the " [MODULE]",
 * then the end of FUNCTION, marked by a '~' before "+0xOFF".
 *
 * Return: @buf.
 */
char *ks_fmt_site(char *buf, size_t len, const char *site, int width);

/**
 * ks_print_heading() - the heading line of a table about @node
 * @f:        output
 * @node:     the node: its name first, and under QEMU -icount what a "ns"
 *            is, then @text
 * @markdown: one line and a blank, the name in bold; else wrapped at 72
 *            columns
 * @text:     what the table holds
 */
void ks_print_heading(FILE *f, const struct ks_view *node, int markdown, const char *text);

#endif /* KS_FMT_H */
