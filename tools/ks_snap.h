/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_snap: snapshot files, schema "kstats-snapshot/2" (docs/format.md).
 * Writing emits exactly that schema; reading accepts it and version 1
 * (unknown keys are ignored) and rejects anything else with a message
 * naming the file, the line and the field.
 */
#ifndef KS_SNAP_H
#define KS_SNAP_H

#include <stdio.h>
#include "ks_parse.h"

#define KS_SNAP_SCHEMA	"kstats-snapshot/2"
#define KS_SNAP_SCHEMA_V1 "kstats-snapshot/1"	/* read: no maxactive, clamped, filters */

/**
 * ks_snap_write() - write @node as a snapshot document
 * @f:    output stream
 * @node: node with its meta filled
 *
 * Return: 0, or -1 on a write error (errno set).
 */
int ks_snap_write(FILE *f, const struct ks_view *node);

/**
 * ks_snap_read() - parse a snapshot document
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

#endif /* KS_SNAP_H */
