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

#endif /* KS_SLOWEST_H */
