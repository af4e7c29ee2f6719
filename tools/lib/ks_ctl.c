// SPDX-License-Identifier: GPL-2.0
/*
 * ks_ctl: talk to kstats' files: /proc/kstats (which
 * /sys/kernel/debug/kstats links to), else, for an older module,
 * /sys/kernel/debug/kstats, or $KSTATS_DIR.
 *
 * The module reports a failed command as the errno of the write():
 * ENOENT unknown symbol or node (or a glob matching none), EINVAL bad
 * verb/option/value, EEXIST the node exists, EBUSY a node made in the
 * kernel (remove) or a busy function, E2BIG a glob matching more than
 * glob_max functions, ENOSPC a limit reached, ENOMEM, EPERM/EACCES not
 * root, or root refused (lockdown, a security module: ks_ctl_denied()).
 * Each becomes one line that says what to do.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kstats/cmd.h>
#include <kstats/contract.h>
#include <kstats/version.h>
#include "ks_ctl.h"
#include "ks_parse.h"

/* $KSTATS_DIR, or its older name $KSTATS_DEBUGFS: a directory given */
static const char *ks_root_env(void)
{
	const char *r = getenv("KSTATS_DIR");

	if (!r || !*r)
		r = getenv("KSTATS_DEBUGFS");
	return r && *r ? r : NULL;
}

const char *ks_ctl_path(const char *var, const char *path)
{
#ifdef KS_TEST
	const char *p = getenv(var);

	if (p && *p)
		return p;
#else
	(void)var;
#endif
	return path;
}

/* The effective uid; a test build takes $KSTATS_TEST_EUID. */
static unsigned int ks_euid(void)
{
	const char *u = ks_ctl_path("KSTATS_TEST_EUID", NULL);

	return u ? (unsigned int)atoi(u) : (unsigned int)geteuid();
}

const char *ks_root(void)
{
	static const char *root;
	const char *dfs = ks_ctl_path("KSTATS_TEST_DEBUGFS", KSTATS_DEBUGFS_DEFAULT);
	const char *proc = ks_ctl_path("KSTATS_TEST_PROCFS", KSTATS_PROCFS_DEFAULT);
	struct stat st;

	if (root)
		return root;
	root = ks_root_env();
	if (root)
		return root;
	/*
	 * /proc/kstats where it is: the module's files are there, and
	 * lockdown leaves it open (debugfs links to it); an older module
	 * has them in debugfs, and some also in /proc/kstats
	 */
	if (!stat(proc, &st) && S_ISDIR(st.st_mode))
		root = proc;
	else
		root = dfs;
	return root;
}

const char *ks_iface(void)
{
	const char *r = ks_root();

	if (ks_root_env())
		return "KSTATS_DIR";
	return strcmp(r, ks_ctl_path("KSTATS_TEST_PROCFS", KSTATS_PROCFS_DEFAULT)) ?
	       "debugfs" : "procfs";
}

const char *ks_lockdown(char *buf, size_t len)
{
	char line[256], *o, *c;

	if (ks_ctl_first_line(ks_ctl_path("KSTATS_TEST_LOCKDOWN",
					  "/sys/kernel/security/lockdown"), line, sizeof(line)))
		return NULL;
	o = strchr(line, '[');
	c = o ? strchr(o, ']') : NULL;
	if (!c)
		return NULL;
	*c = '\0';
	snprintf(buf, len, "%s", o + 1);
	return buf;
}

int ks_sig_required(void)
{
	char lk[64], v[8];

	if (ks_lockdown(lk, sizeof(lk)) && strcmp(lk, "none"))
		return 1;
	return !ks_ctl_first_line(ks_ctl_path("KSTATS_TEST_SIG_ENFORCE", KS_SIG_ENFORCE),
				  v, sizeof(v)) && *v == 'Y';
}

int ks_mounted(const char *dir, const char *type)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	char line[1024], mnt[512], t[64];
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %511s %63s", mnt, t) == 2 &&
		    !strcmp(mnt, dir) && !strcmp(t, type))
			found = 1;
	fclose(f);
	return found;
}

void ks_ctl_denied(const char *what, char *err, size_t errlen)
{
	char lk[64];

	if (ks_euid()) {
		snprintf(err, errlen, "%s: permission denied: kstats needs root (sudo kstats ...)",
			 what);
		return;
	}
	if (ks_lockdown(lk, sizeof(lk)) && strcmp(lk, "none") &&
	    strcmp(ks_iface(), "procfs")) {
		snprintf(err, errlen,
			 "%s: the kernel is locked down (%s): debugfs refuses kstats' files, and this kstats module has no /proc/kstats: update the module to kstats " KS_VERSION "'s, which serves /proc/kstats too",
			 what, lk);
		return;
	}
	snprintf(err, errlen,
		 "%s: permission denied although root: a security module (SELinux, AppArmor) refuses it; kstats doctor tells more",
		 what);
}

int ks_ctl_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char *got = f ? fgets(buf, (int)len, f) : NULL;

	if (f)
		fclose(f);
	if (got)
		buf[strcspn(buf, "\n")] = '\0';
	return got ? 0 : -1;
}

/* Switch @path (a file holding 0 or 1): 1 on, 0 off, -1 unreadable. */
static int ks_switch(const char *path)
{
	char v[32];

	return ks_ctl_first_line(path, v, sizeof(v)) ? -1 : !!atoi(v);
}

int ks_ctl_ftrace_on(void)
{
	return ks_switch(ks_ctl_path("KSTATS_TEST_FTRACE_ENABLED", KS_FTRACE_ENABLED));
}

int ks_ctl_kprobes_on(void)
{
	return ks_switch(ks_ctl_path("KSTATS_TEST_KPROBES_ENABLED", KS_KPROBES_ENABLED));
}

int ks_ctl_switched_off(const char *backend, char *why, size_t len)
{
	const char *ft = ks_ctl_path("KSTATS_TEST_FTRACE_ENABLED", KS_FTRACE_ENABLED);
	const char *kp = ks_ctl_path("KSTATS_TEST_KPROBES_ENABLED", KS_KPROBES_ENABLED);

	if (!strcmp(backend, "api") || !strcmp(backend, "gap"))
		return 0;	/* recorded by kernel code; a GAP- node's parent says */
	/* every backend hooks through ftrace (kprobes on a function's entry too) */
	if (!ks_ctl_ftrace_on()) {
		snprintf(why, len,
			 "ftrace is switched off (%s is 0): %s counts no call until sysctl kernel.ftrace_enabled=1",
			 ft, backend);
		return 1;
	}
	if ((!strcmp(backend, "kretprobe") || !strcmp(backend, "section")) &&
	    !ks_ctl_kprobes_on()) {
		snprintf(why, len,
			 "kprobes are switched off (%s is 0): %s counts no call until echo 1 > %s",
			 kp, backend, kp);
		return 1;
	}
	return 0;
}

int ks_ctl_ready(char *err, size_t errlen)
{
	const char *root = ks_root();
	struct stat st;
	char lk[64];

	if (!stat(root, &st) && S_ISDIR(st.st_mode)) {
		if (ks_euid() && access(root, R_OK | X_OK)) {
			ks_ctl_denied(root, err, errlen);
			return -1;
		}
		return 0;
	}
	if (ks_root_env()) {
		snprintf(err, errlen, "%s=%s: %s",
			 getenv("KSTATS_DIR") && *getenv("KSTATS_DIR") ?
			 "KSTATS_DIR" : "KSTATS_DEBUGFS", root,
			 errno ? strerror(errno) : "not a directory");
		return -1;
	}
	if (errno == EACCES || (ks_euid() && access("/sys/kernel/debug", X_OK))) {
		ks_ctl_denied(root, err, errlen);
		return -1;
	}
	if (!access("/sys/module/kstats", F_OK)) {
		if (!ks_mounted("/sys/kernel/debug", "debugfs"))
			snprintf(err, errlen,
				 "debugfs is not mounted and this kstats module has no /proc/kstats: mount -t debugfs none /sys/kernel/debug");
		else
			snprintf(err, errlen, "the kstats module is loaded but %s is missing", root);
		return -1;
	}
	if (ks_lockdown(lk, sizeof(lk)) && strcmp(lk, "none"))
		snprintf(err, errlen,
			 "the kstats module is not loaded, and the kernel is locked down (%s): it loads only signed modules: modprobe kstats as DKMS built and signed it (docs/install.md, Secure Boot)",
			 lk);
	else if (ks_sig_required())
		snprintf(err, errlen,
			 "the kstats module is not loaded, and the kernel requires signed modules (sig_enforce): modprobe kstats as DKMS built and signed it (docs/install.md)");
	else
		snprintf(err, errlen,
			 "the kstats module is not loaded: modprobe kstats (from a built tree: insmod kmod/kstats.ko)");
	return -1;
}

/*
 * Compiler clones of @name in kallsyms ("NAME.constprop.0"), up to @len.
 * The test build reads $KSTATS_KALLSYMS instead when it is set.
 */
static void ks_kallsyms_clones(const char *name, char *out, size_t len)
{
#ifdef KS_TEST
	const char *path = getenv("KSTATS_KALLSYMS");
#else
	const char *path = NULL;
#endif
	size_t nlen = strlen(name), used = 0;
	char line[512], sym[256];
	FILE *f;
	int n = 0;

	*out = '\0';
	f = fopen(path && *path ? path : "/proc/kallsyms", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && n < 6) {
		if (sscanf(line, "%*s %*s %255s", sym) != 1)
			continue;
		if (strncmp(sym, name, nlen) || sym[nlen] != '.')
			continue;
		if (used + strlen(sym) + 3 >= len)
			break;
		used += (size_t)snprintf(out + used, len - used, "%s%s", n ? ", " : "", sym);
		n++;
	}
	fclose(f);
}

/* One line for a failed command; @e is a positive errno. */
static void ks_explain(int e, const char *file, const char *cmd, char *err,
		       size_t errlen)
{
	char line[KS_CMD_MAX + 1], clones[256];
	int vlen = (int)strcspn(cmd, " \t");	/* the verb, for "see kstats VERB --help" */
	const char *name = "", *sym, *why;
	struct ks_cmd parsed;
	bool is_trace = false, is_remove = false;

	/* the module's own parser says what the command was */
	snprintf(line, sizeof(line), "%s", cmd);
	if (!ks_cmd_parse(line, &parsed, &why)) {
		name = parsed.all ? "all" : parsed.name;
		is_trace = parsed.verb == KS_VERB_TRACE;
		is_remove = parsed.verb == KS_VERB_REMOVE;
	}
	sym = strrchr(name, ':');	/* MODULE:SYMBOL */
	sym = sym ? sym + 1 : name;
	switch (e) {
	case EPERM:
	case EACCES: {
		char what[KS_CMD_MAX + 3];

		snprintf(what, sizeof(what), "'%s'", cmd);
		ks_ctl_denied(what, err, errlen);
		break;
	}
	case ENOENT:
		if (!strcmp(file, "_control") && ks_glob_valid(name)) {
			snprintf(err, errlen, is_trace ?
				 "'%s': no function ftrace can trace matches '%s' (available_filter_functions lists them)" :
				 "'%s': no node matches '%s' (kstats list shows them)",
				 cmd, name);
			break;
		}
		if (strcmp(file, "_control") || !is_trace) {
			snprintf(err, errlen, "no node named '%s' (kstats list shows them)",
				 strcmp(file, "_control") ? file : name);
			break;
		}
		ks_kallsyms_clones(sym, clones, sizeof(clones));
		if (*clones)
			snprintf(err, errlen,
				 "'%s': no function '%s' to attach to, but the compiler made clones of it: %s; trace those with --clones yes (or give a clone's full name)",
				 cmd, name, clones);
		else
			snprintf(err, errlen,
				 "'%s': no function '%s' in this kernel (not in /proc/kallsyms): it may have been inlined (trace a caller) or renamed by the compiler (NAME.constprop.N, NAME.isra.N: use --clones yes)",
				 cmd, name);
		break;
	case EINVAL:
		snprintf(err, errlen,
			 "'%s': refused by the module as invalid (dmesg says why; see kstats %.*s --help)",
			 cmd, vlen, cmd);
		break;
	case EEXIST:
		snprintf(err, errlen, "'%s': a node named '%s' already exists (kstats remove %s)",
			 cmd, name, name);
		break;
	case ENOMEM:
		snprintf(err, errlen, "'%s': the kernel is out of memory (try fewer --buckets or --bits)",
			 cmd);
		break;
	case E2BIG:
		snprintf(err, errlen,
			 "'%s': the glob matches more functions than the module's glob_max; nothing was attached (narrow the glob, or raise /sys/module/kstats/parameters/glob_max)",
			 cmd);
		break;
	case ENOSPC:
		snprintf(err, errlen,
			 "'%s': a limit of the module is reached (%d nodes, or the direct backend's call sites): kstats remove some",
			 cmd, KS_NODES_MAX);
		break;
	case EOPNOTSUPP:
		snprintf(err, errlen, "'%s': not supported by this kernel or module (e.g. fprobe needs CONFIG_FPROBE)",
			 cmd);
		break;
	case EBUSY:
		if (is_remove)	/* the module's answer for an API node */
			snprintf(err, errlen,
				 "'%s': '%s' was made in the kernel with kstats_new() (attach=api:%s): only the code that made it removes it, with kstats_delete(); stop or reset it instead",
				 cmd, name, name);
		else
			snprintf(err, errlen, "'%s': busy: the function is already traced by another tool or node",
				 cmd);
		break;
	default:
		snprintf(err, errlen, "'%s': %s", cmd, strerror(e));
	}
}

int ks_ctl_cmd(const char *file, const char *cmd, char *err, size_t errlen)
{
	char path[4096], *line;
	size_t len = strlen(cmd);
	ssize_t n;
	int fd, e;

	if (ks_ctl_ready(err, errlen))
		return -ENOENT;
#ifdef KS_TEST
	/* the test build: the module "fails" with this errno (a file cannot) */
	if (getenv("KSTATS_TEST_ERRNO") && *getenv("KSTATS_TEST_ERRNO")) {
		e = atoi(getenv("KSTATS_TEST_ERRNO"));
		ks_explain(e, file, cmd, err, errlen);
		return -e;
	}
#endif
	snprintf(path, sizeof(path), "%s/%s", ks_root(), file);
	/* O_APPEND: a test's fake _control keeps every command written */
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0) {
		e = errno;
		if (e == ENOENT && strcmp(file, "_control"))
			snprintf(err, errlen, "no node named '%s' (kstats list shows them)", file);
		else
			ks_explain(e, file, cmd, err, errlen);
		return -e;
	}
	line = malloc(len + 2);
	if (!line) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	memcpy(line, cmd, len);
	line[len] = '\n';
	n = write(fd, line, len + 1);
	e = n < 0 ? errno : (size_t)n != len + 1 ? EIO : 0;
	free(line);
	if (close(fd) && !e)
		e = errno;
	if (e) {
		ks_explain(e, file, cmd, err, errlen);
		return -e;
	}
	return 0;
}

char *ks_text_read(const char *path, size_t *len)
{
	size_t cap = 65536, used = 0;
	char *buf = malloc(cap), *nb;
	ssize_t n;
	int fd, e;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		e = errno;
		free(buf);
		errno = e;
		return NULL;
	}
	for (;;) {
		if (cap - used < 4096) {
			nb = realloc(buf, cap * 2);
			if (!nb) {
				e = ENOMEM;
				goto fail;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + used, cap - used - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			goto fail;
		}
		if (!n)
			break;
		used += (size_t)n;
	}
	close(fd);
	buf[used] = '\0';
	if (memchr(buf, '\0', used)) {
		free(buf);
		errno = EILSEQ;
		return NULL;
	}
	if (len)
		*len = used;
	return buf;
fail:
	close(fd);
	free(buf);
	errno = e;
	return NULL;
}

char *ks_ctl_read_control(char *err, size_t errlen)
{
	char path[4096], *text;

	if (ks_ctl_ready(err, errlen))
		return NULL;
	snprintf(path, sizeof(path), "%s/_control", ks_root());
	text = ks_text_read(path, NULL);
	if (!text && (errno == EACCES || errno == EPERM))
		ks_ctl_denied(path, err, errlen);
	else if (!text)
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	return text;
}

char **ks_ctl_names_called(int *n, int *idle, char *err, size_t errlen)
{
	struct ks_list_row r;
	char **names = NULL, **p;
	char *text, *line, *next;

	*n = 0;
	if (idle)
		*idle = 0;
	text = ks_ctl_read_control(err, errlen);
	if (!text)
		return NULL;
	names = calloc(1, sizeof(*names));
	for (line = text; names && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (ks_list_row(line, &r))
			continue;
		if (idle && !r.samples) {
			++*idle;
			continue;
		}
		p = realloc(names, (*n + 2) * sizeof(*names));
		if (!p || !(p[*n] = strdup(r.name))) {
			names = p ? p : names;
			ks_ctl_names_free(names);
			names = NULL;
			break;
		}
		names = p;
		names[++*n] = NULL;
	}
	free(text);
	if (!names)
		snprintf(err, errlen, "%s", strerror(ENOMEM));
	return names;
}

int ks_list_row(const char *line, struct ks_list_row *r)
{
	char name[KS_NAME_MAX + 1], s1[32], s2[32], rest[2];

	if (*line == '#' ||
	    sscanf(line, "%64s %31s %31s %31s %31s %1s", name, r->backend, r->state,
		   s1, s2, rest) != KS_LIST_FIELDS ||
	    strlen(name) >= KS_NAME_MAX ||
	    ks_parse_u64(s1, &r->samples) || ks_parse_u64(s2, &r->missed))
		return -1;
	memcpy(r->name, name, strlen(name) + 1);
	return 0;
}

int ks_last_read(const char *cmd, struct ks_last *last)
{
	char path[4096], head[2 * KS_CMD_MAX], *line, *next, **p;

	memset(last, 0, sizeof(*last));
	snprintf(path, sizeof(path), "%s/_last", ks_root());
	snprintf(head, sizeof(head), KS_LAST_HEAD, cmd);
	last->text = ks_text_read(path, NULL);
	if (!last->text || strncmp(last->text, head, strlen(head))) {
		ks_last_free(last);
		return -1;
	}
	for (line = last->text + strlen(head); *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (!strncmp(line, KS_LAST_REFUSED " ", strlen(KS_LAST_REFUSED) + 1)) {
			p = realloc(last->refused, (last->nrefused + 1) * sizeof(*p));
			if (!p)
				break;
			last->refused = p;
			last->refused[last->nrefused++] = line;
		} else if (!strncmp(line, KS_LAST_MATCHED " ", strlen(KS_LAST_MATCHED) + 1)) {
			last->done = line;
		}
		sscanf(line, KS_LAST_UNTOLD_KEY " %d:", &last->untold);
	}
	return 0;
}

void ks_last_free(struct ks_last *last)
{
	free(last->refused);
	free(last->text);
	memset(last, 0, sizeof(*last));
}
