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
 * @raw:  the full header (every attached symbol), wide columns, long
 *        lines whole; else 80 columns (for ns values)
 */
void ks_print_summary(FILE *f, const struct ks_view *node, int raw);

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

/* Styles of ks_print_compare(). */
enum {
	KS_PRINT_PLAIN,		/* fits a 72-column email: five percentiles */
	KS_PRINT_MARKDOWN,	/* a Markdown table */
	KS_PRINT_WIDE,		/* every percentile, missed, one decimal */
};

/**
 * ks_print_compare() - one row per node: count and percentiles, with the
 * change against the first node and a verdict
 * @f:      output
 * @nodes:  nodes of one unit and one bits
 * @labels: row names
 * @verdicts: the verdict of each node against the first (ks_cmp.c), in
 *          one column; NULL for none
 * @verdict_note: what the verdicts rest on, a footer line; or NULL
 * @n:      number of nodes
 * @style:  KS_PRINT_PLAIN (rows named A, B... with a legend when the
 *          labels would make it wider than 72 columns), KS_PRINT_MARKDOWN
 *          or KS_PRINT_WIDE
 */
void ks_print_compare(FILE *f, struct ks_view *const *nodes,
		      const char *const *labels, const char *const *verdicts,
		      const char *verdict_note, int n, int style);

/**
 * ks_print_wrapped() - @text, its words wrapped at @width columns
 * @f:     output
 * @first: what the first line starts with ("# ")
 * @next:  what each following line starts with
 * @text:  words separated by blanks; a word longer than a line stays whole
 * @width: columns, prefixes included
 */
void ks_print_wrapped(FILE *f, const char *first, const char *next,
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

#endif /* KS_FMT_H */
