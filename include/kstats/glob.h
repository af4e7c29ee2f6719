/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What makes a name a glob, for the module and everything that writes or
 * reads its commands: a *, ? or [ in it.  The control grammar
 * (common/ks_cmd.c) takes globs of node names; the module's trace GLOB
 * matches functions through ftrace's filter, its other verbs match node
 * names with the kernel's glob_match(), which lib/glob.c documents as
 * !fnmatch(pat, str, 0): the CLI matches node names with that fnmatch().
 */
#ifndef _KSTATS_GLOB_H
#define _KSTATS_GLOB_H

/**
 * ks_glob_char() - does @c make a name a glob?
 * @c: a character of a name
 *
 * Return: nonzero for *, ? and [.
 */
static inline int ks_glob_char(char c)
{
	return c == '*' || c == '?' || c == '[';
}

/**
 * ks_is_glob() - is @name a glob (a *, ? or [ in it)?
 * @name: NUL-terminated name
 *
 * Return: nonzero if so.
 */
static inline int ks_is_glob(const char *name)
{
	for (; *name; name++)
		if (ks_glob_char(*name))
			return 1;
	return 0;
}

#endif /* _KSTATS_GLOB_H */
