/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_slowest: the slowest calls of a node traced with "slowest K": their
 * lines in the node text (docs/format.md), read into the node.
 */
#ifndef KS_SLOWEST_H
#define KS_SLOWEST_H

#include "ks_parse.h"
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

#endif /* KS_SLOWEST_H */
