/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_slowest: the slowest calls of a node traced with "slowest K": their
 * lines in the node text (docs/format.md), read into the node.
 */
#ifndef KS_SLOWEST_H
#define KS_SLOWEST_H

#include <stdio.h>
#include "ks_err.h"
#include "ks_view.h"

/**
 * ks_parse_slow() - one "# disturbed", "# slow" or "# stack" line
 * @e:    where errors go
 * @line: its line number
 * @node: the node, its header read
 * @tok:  the line's words after "#"
 * @ntok: how many
 *
 * Return: 0, or -1 with the error in @e.
 */
int ks_parse_slow(const struct ks_errbuf *e, int line, struct ks_view *node,
		  char **tok, int ntok);

/**
 * ks_slow_check() - is the last kept call of @node a valid one after the
 * others: its "by" one of KS_BY_*, no slower than the call before it?
 * @node: a node with a call just added (ks_view_slow()), filled
 * @why:  what is wrong, when something is
 * @len:  size of @why
 *
 * The rule of both readers, node text and snapshot.
 *
 * Return: 0, or -1 with @why written.
 */
int ks_slow_check(const struct ks_view *node, char *why, size_t len);

/**
 * ks_print_slowest() - the kept calls of @node, slowest first, each with
 * its stack; within 80 columns, or a Markdown table with the stacks after
 * @f:        output
 * @node:     a node traced with slowest
 * @how:      KS_TBL_MARKDOWN for Markdown; KS_TBL_BRIEF (no notes)
 */
void ks_print_slowest(FILE *f, const struct ks_view *node, int how);

#endif /* KS_SLOWEST_H */
