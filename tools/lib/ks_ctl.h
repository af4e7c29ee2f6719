/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_ctl: the debugfs side of kstats: where the nodes are, writing
 * commands to _control, and turning failures into what to do about them.
 */
#ifndef KS_CTL_H
#define KS_CTL_H

#include <stddef.h>
#include <stdlib.h>
#include <linux/types.h>
#include <kstats/contract.h>

#define KSTATS_DEBUGFS_DEFAULT	"/sys/kernel/debug/kstats"
#define KSTATS_PROCFS_DEFAULT	"/proc/kstats"
/* the switches a backend needs, and whether signatures are enforced */
#define KS_FTRACE_ENABLED	"/proc/sys/kernel/ftrace_enabled"
#define KS_KPROBES_ENABLED	"/sys/kernel/debug/kprobes/enabled"
#define KS_SIG_ENFORCE		"/sys/module/module/parameters/sig_enforce"

/**
 * ks_root() - the kstats directory: $KSTATS_DIR (or $KSTATS_DEBUGFS), else
 * /proc/kstats where it is (the module's files; /sys/kernel/debug/kstats
 * links to it), else debugfs's (an older module)
 *
 * Return: a path, never NULL; chosen once.
 */
const char *ks_root(void);

/**
 * ks_iface() - which directory ks_root() chose
 *
 * Return: "debugfs", "procfs" or "KSTATS_DIR".
 */
const char *ks_iface(void);

/**
 * ks_lockdown() - the kernel's lockdown level
 * @buf: where to put it ("none", "integrity", "confidentiality")
 * @len: size of @buf
 *
 * Return: @buf, or NULL when it cannot be read (no securityfs, no LSM).
 */
const char *ks_lockdown(char *buf, size_t len);

/**
 * ks_ctl_path() - @path, or in a test build the file $@var names
 * @var:  the test's environment variable (KSTATS_TEST_...)
 * @path: the real file
 *
 * Return: the file to read.
 */
const char *ks_ctl_path(const char *var, const char *path);

/**
 * ks_mounted() - is a file system of @type mounted on @dir?
 * @dir:  the mount point
 * @type: "debugfs", "tracefs", "securityfs"...
 *
 * Return: 1 or 0 from /proc/self/mounts, -1 when it cannot be read.
 */
int ks_mounted(const char *dir, const char *type);

/**
 * ks_ctl_denied() - why kstats' files refuse us (EPERM/EACCES), in one line
 * @what:   the file or command, to name first
 * @err:    the line: not root, lockdown, or a security module
 * @errlen: size of @err
 */
void ks_ctl_denied(const char *what, char *err, size_t errlen);

/**
 * ks_ctl_first_line() - the first line of @path, without its newline
 * @path: the file
 * @buf:  where it goes
 * @len:  size of @buf
 *
 * Return: 0, or -1 when it cannot be read.
 */
int ks_ctl_first_line(const char *path, char *buf, size_t len);

/**
 * ks_ctl_ftrace_on() - is ftrace on (KS_FTRACE_ENABLED)?
 *
 * Return: 1 on, 0 off, -1 unreadable.
 */
int ks_ctl_ftrace_on(void);

/**
 * ks_ctl_kprobes_on() - are kprobes on (KS_KPROBES_ENABLED; debugfs, so
 * unreadable under lockdown)?
 *
 * Return: 1 on, 0 off, -1 unreadable.
 */
int ks_ctl_kprobes_on(void);

/**
 * ks_ctl_switched_off() - is a switch that @backend needs off?
 * @backend: a node's backend (direct, fprobe, kretprobe, section)
 * @why:     the line saying which and how to turn it on
 * @len:     size of @why
 *
 * ftrace_enabled (every backend) and kprobes' enabled (kretprobe and
 * sections): with either off a node attaches and counts nothing.  An
 * unreadable switch (debugfs under lockdown) is taken as on.
 *
 * Return: 1 when one is off, 0 otherwise.
 */
int ks_ctl_switched_off(const char *backend, char *why, size_t len);

/**
 * ks_sig_required() - does the kernel load only signed modules?
 *
 * Return: 1 under lockdown or with module.sig_enforce, else 0.
 */
int ks_sig_required(void);

/**
 * ks_ctl_ready() - check that the kstats directory can be used
 * @err:    on failure, one line saying what to do (mount, insmod, sudo)
 * @errlen: size of @err
 *
 * Return: 0 when the directory is there, -1 otherwise.
 */
int ks_ctl_ready(char *err, size_t errlen);

/**
 * ks_ctl_cmd() - write one command to _control, or to a node file
 * @file:   "_control" or a node name
 * @cmd:    the command line, without newline
 * @err:    on failure, one line saying what went wrong and what to do
 * @errlen: size of @err
 *
 * Return: 0, or -errno of the failed open or write.
 */
int ks_ctl_cmd(const char *file, const char *cmd, char *err, size_t errlen);

/**
 * ks_text_read() - whole contents of a file (debugfs files report size 0)
 * @path: file
 * @len:  if not NULL, the length read
 *
 * Return: a NUL-terminated malloc'ed buffer, or NULL with errno set.
 */
char *ks_text_read(const char *path, size_t *len);

/**
 * ks_ctl_names() - the names of the nodes, as _control lists them
 * @n:      number of names
 * @err:    on failure, one line saying what went wrong and what to do
 * @errlen: size of @err
 *
 * Return: a NULL-terminated array (free with ks_ctl_names_free()), or
 * NULL on failure.  ks_ctl_names_called(): the same, of the nodes that
 * recorded a call (their count in the listing above 0), with @idle (not
 * NULL) counting those that did not.
 */
char **ks_ctl_names_called(int *n, int *idle, char *err, size_t errlen);

static inline char **ks_ctl_names(int *n, char *err, size_t errlen)
{
	return ks_ctl_names_called(n, NULL, err, errlen);
}

/* The text of _control, or NULL with the reason in @err. */
char *ks_ctl_read_control(char *err, size_t errlen);

/**
 * ks_ctl_names_free() - free what ks_ctl_names() returned
 * @names: the array, or NULL
 */
static inline void ks_ctl_names_free(char **names)
{
	char **p;

	for (p = names; p && *p; p++)
		free(*p);
	free(names);
}

/* One row of the _control listing (KS_LIST_ROW in contract.h). */
struct ks_list_row {
	char name[KS_NAME_MAX], backend[32], state[32];
	__u64 samples, missed;
};

/**
 * ks_list_row() - read one line of the _control listing
 * @line: the line, without its newline
 * @r:    filled when it is a row
 *
 * The one reader of KS_LIST_ROW: KS_LIST_FIELDS blank-separated words,
 * NAME BACKEND STATE SAMPLES MISSED.
 *
 * Return: 0 for a row, -1 for a comment, a blank line or anything else.
 */
int ks_list_row(const char *line, struct ks_list_row *r);

/* What _last says of one trace GLOB (the KS_LAST_* lines of contract.h). */
struct ks_last {
	char *text;		/* the file, split into lines */
	char **refused;		/* each "refused [MOD:]FUNCTION: WHY" line */
	int nrefused;
	int untold;		/* refused beyond those lines ("untold N: ...") */
	const char *done;	/* the closing "matched N ..." line, or NULL */
};

/**
 * ks_last_read() - read _last, if it is about @cmd
 * @cmd:  the command written to _control ("trace GLOB OPTIONS")
 * @last: filled on success (free with ks_last_free())
 *
 * The one reader of _last.
 *
 * Return: 0, or -1 when _last cannot be read or tells of another command
 * (a later one, from elsewhere).
 */
int ks_last_read(const char *cmd, struct ks_last *last);

/**
 * ks_last_free() - free what ks_last_read() filled
 * @last: the result
 */
void ks_last_free(struct ks_last *last);

#endif /* KS_CTL_H */
