/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_load: the one place tools/kstats loads nodes from: a live node under
 * /sys/kernel/debug/kstats, or a file (a snapshot or captured node text).
 * Failures are printed ("kstats: ...").
 */
#ifndef KS_LOAD_H
#define KS_LOAD_H

#include "ks_parse.h"

/* For ks_load_*(): no message on failure (KS_PARSE_STRICT is the other). */
#define KS_LOAD_QUIET		0x100

/**
 * ks_load_live() - read the live node @name (meta.timing "qemu-icount" in a
 * kernel booted with ks.icount=1)
 * @name:  node name
 * @flags: KS_PARSE_STRICT, KS_LOAD_QUIET
 * @node:  filled on success (free with ks_view_free())
 *
 * Return: 0, or -1 (the error is printed unless KS_LOAD_QUIET).
 */
int ks_load_live(const char *name, unsigned int flags, struct ks_view *node);

/**
 * ks_load_control() - the listing of the nodes, read from _control
 *
 * Return: the text (free() it), or NULL (the error is printed).
 */
char *ks_load_control(void);

/**
 * ks_load_file() - read @path: a snapshot when it starts with '{', else node text
 * @path:  file
 * @flags: 0 or KS_PARSE_STRICT, for node text
 * @node:  filled on success (free with ks_view_free())
 *
 * Return: 0, or -1 (the error is printed).
 */
int ks_load_file(const char *path, unsigned int flags, struct ks_view *node);

/**
 * ks_name_match() - does node @name match one of @globs?
 * @globs: shell globs (fnmatch(3)), tried on the whole name and on what
 *         follows "MODULE:"
 * @n:     number of globs; none matches every name
 * @name:  node name
 *
 * Return: 1 if so, 0 if not.
 */
int ks_name_match(char *const *globs, int n, const char *name);

/* A list of nodes from live names and files. */
struct ks_set {
	struct ks_view **nodes;
	const char **srcs;
	int n;
};

/**
 * ks_set_add() - load a node into @set
 * @set:   the set
 * @src:   node name (@live) or file; kept, not copied
 * @live:  @src is a live node name
 * @flags: for ks_load_live() or ks_load_file()
 *
 * Return: 0, or -1 (the error is printed).
 */
int ks_set_add(struct ks_set *set, const char *src, int live, unsigned int flags);

/**
 * ks_set_free() - free the nodes of @set, and empty it
 * @set: the set
 */
void ks_set_free(struct ks_set *set);

#endif /* KS_LOAD_H */
