/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_snap: snapshot files, schema "kstats-snapshot/2" (docs/format.md), and
 * "kstats-snapshot/3" for several nodes in one file (a "nodes" array of /2
 * node objects).  Writing emits /2 for one node; reading accepts /1, /2 and
 * /3 (unknown keys are ignored) and rejects anything else with a message
 * naming the file, the line and the field.
 */
#ifndef KS_SNAP_H
#define KS_SNAP_H

#include <stdio.h>
#include "ks_parse.h"

#define KS_SNAP_SCHEMA	"kstats-snapshot/2"
#define KS_SNAP_SCHEMA_V1 "kstats-snapshot/1"	/* read: no maxactive, clamped, filters */
#define KS_SNAP_SCHEMA_MANY "kstats-snapshot/3"	/* several nodes: "nodes": [...] */

/**
 * ks_snap_write() - write @node as a snapshot document
 * @f:    output stream
 * @node: node with its meta filled
 *
 * Return: 0, or -1 on a write error (errno set).
 */
int ks_snap_write(FILE *f, const struct ks_view *node);

/**
 * ks_snap_write_many() - write @n nodes as one document
 * @f:     output stream
 * @nodes: the nodes; the meta is the first one's
 * @n:     their number; one node is written as ks_snap_write() does
 *
 * Return: 0, or -1 on a write error (errno set).
 */
int ks_snap_write_many(FILE *f, struct ks_view *const *nodes, int n);

/**
 * ks_snap_read_many() - parse a snapshot document of one or several nodes
 * @text:   NUL-terminated JSON text
 * @src:    name for error messages
 * @nodes:  on success, an array of @n nodes (ks_view_free() each, then free())
 * @n:      their number
 * @err:    on failure, "SRC:LINE: what is wrong"
 * @errlen: size of @err
 *
 * Return: 0 or -1.
 */
int ks_snap_read_many(const char *text, const char *src, struct ks_view **nodes,
		      int *n, char *err, size_t errlen);

/**
 * ks_snap_read() - parse a snapshot document of one node
 * @text:   NUL-terminated JSON text
 * @src:    name for error messages
 * @node:   filled on success (free with ks_view_free())
 * @err:    on failure, "SRC:LINE: what is wrong" or "SRC: FIELD: ..."
 * @errlen: size of @err
 *
 * Return: 0 or -1.
 */
int ks_snap_read(const char *text, const char *src, struct ks_view *node,
		 char *err, size_t errlen);

/* The schema's 64-bit figures of a node, shared by the reader and the writer. */
#define KS_SNAP_FIGURES	9
struct ks_snap_figure {
	const char *key;
	size_t off;		/* in struct ks_view */
	int optional;		/* older files lack it; 2: written only when not 0 */
};
extern const struct ks_snap_figure ks_snap_figures_u64[KS_SNAP_FIGURES];

/* Figure @f of @node. */
static inline __u64 *ks_snap_figure_of(const struct ks_view *node,
				       const struct ks_snap_figure *f)
{
	return (__u64 *)((char *)node + f->off);
}

#endif /* KS_SNAP_H */
