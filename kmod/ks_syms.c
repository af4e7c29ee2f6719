// SPDX-License-Identifier: GPL-2.0
/*
 * kstats symbol resolution: NAME and its compiler clones.
 *
 * gcc emits copies of a function under new names (NAME.constprop.0,
 * NAME.isra.0, NAME.part.0, and combinations such as
 * NAME.constprop.0.isra.0); callers then call the copy, and a probe on NAME
 * alone sees nothing.  Modules cannot walk kallsyms on these kernels
 * (kallsyms_on_each_symbol and kallsyms_lookup_name are not exported), so
 * clones are found with ftrace's exported filter API: ftrace_set_filter()
 * on a private, never registered ftrace_ops matches a glob against every
 * traceable function of the kernel and its modules and fails when nothing
 * matches.  One glob, NAME*, finds NAME and its clones in one walk of
 * ftrace's functions (each walk looks every one's symbol up), and the
 * addresses the backends attach to with them.
 *
 * Also why a function cannot be traced as asked (ks_refuse_err()), which a
 * glob's _last repeats for each function it refused.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/ftrace.h>
#include <linux/glob.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/error-injection.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <kstats/glob.h>
#include "ks_syms.h"
#include "ks_compat.h"

#define KS_CLONE_DEPTH	3	/* suffixes in a row: .constprop.0.isra.0.part.0 */
#define KS_CLONE_INDEX	16	/* clone numbers taken per kind: 0 to 15 */

struct ks_search {
	struct ftrace_ops ops;		/* never registered: a filter scratchpad */
	struct ks_node *node;
	const char *mod;		/* "mod" of a "mod:name" request, or NULL */
	char buf[KS_NAME_MAX + 2];
};

/*
 * The first fields of ftrace's filter hash (kernel/trace/trace.h), the
 * same from 3.x to 7.x.  Every address read through it is checked: it must
 * be a function whose name matches what was asked (ks_ftrace_each()).
 */
struct ks_ftrace_hash {
	unsigned long size_bits;
	struct hlist_head *buckets;
	unsigned long count;
};

/* The function at ftrace address @ip: its name, and its module or "". */
static void ks_ip_name(unsigned long ip, char *name, char **mod)
{
	char *sp;

	sprint_symbol_no_offset(name, ip);
	sp = strchr(name, ' ');
	*mod = "";
	if (sp) {
		*sp = '\0';
		*mod = sp + 2;			/* " [mod]" */
		sp = strchr(*mod, ']');
		if (sp)
			*sp = '\0';
	}
}

/**
 * ks_ftrace_each() - the functions ftrace can trace that match a glob
 * @pattern: a name or a glob, as ftrace's filter takes it
 * @mod: only functions of this module ("" for vmlinux), or NULL for all
 * @fn: called with each function's ftrace address, name and module
 *	(its own return value, if not 0, stops the walk and is returned)
 * @arg: for @fn
 *
 * Return: the number of functions @fn was called for, -E2BIG if ftrace
 * matched more than KS_MATCH_MAX, or ftrace's error (-ENOMEM).
 */
int ks_ftrace_each(const char *pattern, const char *mod,
		   int (*fn)(void *arg, unsigned long ip, const char *name,
			     const char *mod),
		   void *arg)
{
	struct ks_search *s;
	struct ks_ftrace_hash *h;
	char *name, *m;
	unsigned long i;
	int ret, n = 0;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	name = kmalloc(KSYM_SYMBOL_LEN, GFP_KERNEL);
	ret = -ENOMEM;
	if (!s || !name || strscpy(s->buf, pattern, sizeof(s->buf)) < 0)
		goto out;
	ret = ks_ftrace_filter(&s->ops, s->buf);
	if (ret) {
		ret = ret == -ENOENT ? 0 : ret;
		goto out;
	}
	h = (__force struct ks_ftrace_hash *)s->ops.func_hash->filter_hash;
	if (h->count > KS_MATCH_MAX) {
		ret = -E2BIG;
		goto out;
	}
	for (i = 0; i < (1UL << h->size_bits) && !ret; i++) {
		struct ftrace_func_entry *e;

		hlist_for_each_entry(e, &h->buckets[i], hlist) {
			ks_ip_name(e->ip, name, &m);
			if (!ks_is_glob(pattern) ? strcmp(name, pattern) :
			    !glob_match(pattern, name)) {
				pr_err("ftrace matched %ps for '%s': its filter is not what kstats knows\n",
				       (void *)e->ip, pattern);
				ret = -EIO;
				break;
			}
			if (mod && strcmp(mod, m))
				continue;
			ret = fn(arg, e->ip, name, m);
			if (ret)
				break;
			n++;
		}
	}
	ftrace_free_filter(&s->ops);
out:
	kfree(name);
	kfree(s);
	return ret ? ret : n;
}

/* Append @ip to the node's addresses. */
static int ks_add_ip(void *arg, unsigned long ip, const char *name,
		     const char *mod)
{
	struct ks_node *node = arg;
	unsigned long *ips;

	ips = krealloc_array(node->ips, node->nips + 1, sizeof(*ips),
			     GFP_KERNEL);
	if (!ips)
		return -ENOMEM;
	ips[node->nips++] = ip;
	node->ips = ips;
	return 0;
}

/**
 * ks_ftrace_ips() - the ftrace addresses of a node's symbols
 * @node: with its symbols resolved; node->ips is filled unless set
 *
 * A name may be several functions (static ones of the same name): all of
 * them are the node's.
 *
 * Return: 0, -ENOENT if ftrace knows none of the symbols, -ENOMEM.
 */
int ks_ftrace_ips(struct ks_node *node)
{
	unsigned int i;
	int ret;

	if (node->ips)
		return 0;
	for (i = 0; i < node->nsyms; i++) {
		const char *colon = strchr(node->syms[i], ':');
		char mod[MODULE_NAME_LEN] = "";

		if (colon)
			strscpy(mod, node->syms[i],
				min_t(size_t, sizeof(mod),
				      colon - node->syms[i] + 1));
		ret = ks_ftrace_each(colon ? colon + 1 : node->syms[i],
				     colon ? mod : NULL, ks_add_ip, node);
		if (ret < 0)
			return ret;
	}
	return node->nips ? 0 : -ENOENT;
}

/**
 * ks_module_has() - is @name a symbol of module @mod?
 * @mod: a module, live or going away (its symbols are kept until freed)
 * @name: a bare symbol name
 *
 * Return: true if @mod's kallsyms hold @name.
 */
bool ks_module_has(struct module *mod, const char *name)
{
#ifdef CONFIG_KALLSYMS
	struct mod_kallsyms *ks;
	bool found = false;
	unsigned int i;

	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	for (i = 1; ks && i < ks->num_symtab && !found; i++)
		found = !strcmp(ks->strtab + ks->symtab[i].st_name, name);
	preempt_enable();
	return found;
#else
	return false;
#endif
}

/*
 * Is @name a function of kstats itself?  As a module: one of its symbols.
 * Built in (CONFIG_KSTATS=y), there is no module to ask: a core-kernel
 * function named with kstats' prefixes (ks_, kstats_) is taken as its own.
 */
static bool ks_is_own(const char *name)
{
#ifdef MODULE
	return ks_module_has(THIS_MODULE, name);
#else
	unsigned long addr;

	if (!str_has_prefix(name, "ks_") && !str_has_prefix(name, "kstats_"))
		return false;
	addr = kallsyms_lookup_name(name);
	return addr && core_kernel_text(addr);
#endif
}

/* Add @name (with the "mod:" prefix when one was asked for). */
static int ks_add_sym(struct ks_search *s, const char *name)
{
	struct ks_node *node = s->node;
	char sym[KS_NAME_MAX];
	int len;

	if (ks_is_own(name)) {
		pr_err("%s: kstats does not trace itself\n", node->cmd.name);
		return -EINVAL;
	}
	len = snprintf(sym, sizeof(sym), "%s%s%s", s->mod ? s->mod : "",
		       s->mod ? ":" : "", name);
	if (len >= sizeof(sym))
		return 0;		/* cannot be named within the limit */
	if (node->nsyms >= KS_SYMS_MAX) {
		pr_warn("%s: more than %d clones, attaching the first %d\n",
			node->cmd.name, KS_SYMS_MAX, KS_SYMS_MAX);
		return -E2BIG;
	}
	strscpy(node->syms[node->nsyms++], sym, KS_NAME_MAX);
	return 0;
}

/* A function NAME or a clone of it, found in ks_resolve_syms()'s walk. */
struct ks_found {
	unsigned long ip;
	u8 depth;				/* clone suffixes */
	u8 key[KS_CLONE_DEPTH][2];		/* each one's kind and number */
	char name[KS_NAME_MAX];
};

struct ks_finds {
	size_t len;				/* of the name asked for */
	struct ks_found *f;
	unsigned int n;
};

static const char * const ks_clone_kinds[] = {
	"constprop", "isra", "part", "lto_priv",
};

/*
 * Parse what follows NAME in a function's name into @f: nothing, or up to
 * KS_CLONE_DEPTH suffixes .KIND.N (N < KS_CLONE_INDEX, written as %u).
 * false for anything else (NAME_other is another function).
 */
static bool ks_clone_parse(const char *sfx, struct ks_found *f)
{
	for (f->depth = 0; *sfx; f->depth++) {
		unsigned int k, n = 0;
		size_t kl = 0;

		if (*sfx++ != '.' || f->depth >= KS_CLONE_DEPTH)
			return false;
		for (k = 0; k < ARRAY_SIZE(ks_clone_kinds); k++) {
			kl = strlen(ks_clone_kinds[k]);
			if (!strncmp(sfx, ks_clone_kinds[k], kl) && sfx[kl] == '.')
				break;
		}
		if (k == ARRAY_SIZE(ks_clone_kinds))
			return false;
		sfx += kl + 1;
		if (!isdigit(*sfx) || (*sfx == '0' && isdigit(sfx[1])))
			return false;
		while (isdigit(*sfx) && n < KS_CLONE_INDEX)
			n = n * 10 + *sfx++ - '0';
		if (n >= KS_CLONE_INDEX)
			return false;
		f->key[f->depth][0] = k;
		f->key[f->depth][1] = n;
	}
	return true;
}

static int ks_found_one(void *arg, unsigned long ip, const char *name,
			const char *mod)
{
	struct ks_finds *fs = arg;
	struct ks_found one, *f;

	/* NAME* matches other functions too (NAME_other): kept are NAME's */
	if (strlen(name) >= KS_NAME_MAX || !ks_clone_parse(name + fs->len, &one))
		return 0;
	f = krealloc_array(fs->f, fs->n + 1, sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	fs->f = f;
	one.ip = ip;
	strscpy(one.name, name, sizeof(one.name));
	f[fs->n++] = one;
	return 0;
}

/* NAME first, then its clones in the order of ks_clone_kinds and number */
static int ks_found_cmp(const void *a, const void *b)
{
	const struct ks_found *x = a, *y = b;
	unsigned int i;

	for (i = 0; i < min(x->depth, y->depth); i++) {
		if (x->key[i][0] != y->key[i][0])
			return x->key[i][0] - y->key[i][0];
		if (x->key[i][1] != y->key[i][1])
			return x->key[i][1] - y->key[i][1];
	}
	if (x->depth != y->depth)
		return x->depth - y->depth;
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/*
 * NAME and its clones (NAME.KIND.N and theirs) in one walk of ftrace's
 * functions (a walk looks up every traceable function's symbol: each one
 * costs about as much as the rest of an attach); their names into the
 * node's symbols, their addresses into its addresses.
 */
static int ks_find_clones(struct ks_search *s, const char *name)
{
	struct ks_finds fs = { .len = strlen(name) };
	char pat[KS_NAME_MAX + 2];
	unsigned int i, n = 0;
	int ret;

	snprintf(pat, sizeof(pat), "%s*", name);
	ret = ks_ftrace_each(pat, s->mod, ks_found_one, &fs);
	if (ret == -E2BIG) {	/* a short NAME: NAME, then NAME.* */
		fs.n = 0;
		snprintf(pat, sizeof(pat), "%s.*", name);
		ret = ks_ftrace_each(name, s->mod, ks_found_one, &fs);
		if (ret >= 0)
			ret = ks_ftrace_each(pat, s->mod, ks_found_one, &fs);
	}
	sort(fs.f, fs.n, sizeof(*fs.f), ks_found_cmp, NULL);
	for (i = 0; ret >= 0 && i < fs.n; i++) {
		if (!i || strcmp(fs.f[i - 1].name, fs.f[i].name)) {
			n = s->node->nsyms;
			ret = ks_add_sym(s, fs.f[i].name);
		}
		/* a name too long with its module's is not the node's */
		if (ret >= 0 && s->node->nsyms > n)
			ret = ks_add_ip(s->node, fs.f[i].ip, NULL, NULL);
	}
	kfree(fs.f);
	return ret < 0 ? ret : 0;
}

/**
 * ks_resolve_syms() - find the symbols a node attaches to
 * @node: node whose cmd.name (a symbol, or "module:symbol") is resolved
 *
 * Fills node->syms with the symbol and, unless cmd.clones is off, every
 * compiler clone of it that ftrace knows in the kernel and its modules
 * (or in the module asked for), and node->ips with their addresses.  A
 * name ftrace does not know is still tried as is (kprobes can attach to
 * some functions ftrace cannot trace).
 *
 * Return: 0, -EINVAL for a symbol of kstats itself, -ENOMEM (here or in
 * ftrace's filter API, which would otherwise pass for "no such clone").
 */
int ks_resolve_syms(struct ks_node *node)
{
	const char *colon = strchr(node->cmd.name, ':');
	const char *name = colon ? colon + 1 : node->cmd.name;
	struct ks_search *s;
	int ret = -ENOMEM;

	node->syms = kcalloc(KS_SYMS_MAX, sizeof(*node->syms), GFP_KERNEL);
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!node->syms || !s)
		goto out;
	s->node = node;
	if (colon) {
		s->mod = kstrndup(node->cmd.name, colon - node->cmd.name,
				  GFP_KERNEL);
		if (!s->mod)
			goto out;
	}
	ret = node->cmd.clones ? ks_find_clones(s, name) : 0;
	if (ret == -E2BIG)
		ret = 0;
	if (!ret && !node->nsyms)
		ret = ks_add_sym(s, name);	/* let the backend decide */
out:
	if (s)
		kfree(s->mod);
	kfree(s);
	return ret;
}
ALLOW_ERROR_INJECTION(ks_resolve_syms, ERRNO);

struct ks_tp_find {
	const char *name;
	struct tracepoint *tp;
};

static void ks_tp_match(struct tracepoint *tp, void *priv)
{
	struct ks_tp_find *f = priv;

	if (!f->tp && !strcmp(tp->name, f->name))
		f->tp = tp;
}

/**
 * ks_find_tracepoint() - the kernel's tracepoint called @name
 * @name: without its subsystem ("sched_process_exit")
 *
 * Return: the tracepoint, or NULL if this kernel has none of that name.
 */
struct tracepoint *ks_find_tracepoint(const char *name)
{
	struct ks_tp_find f = { .name = name };

	for_each_kernel_tracepoint(ks_tp_match, &f);
	return f.tp;
}

/**
 * ks_name_in() - is @name one of the @n names of @list?
 * @name: a function name, "mod:" prefix or clone suffix allowed
 * @list: function names
 * @n: entries in @list
 *
 * Return: true if @name, its module and clone suffix aside, is in @list.
 */
bool ks_name_in(const char *name, const char * const *list,
		unsigned int n)
{
	const char *colon = strchr(name, ':');
	unsigned int i;
	size_t len;

	name = colon ? colon + 1 : name;
	/*
	 * The first letters first, and nothing read of @name before: a glob
	 * asks this of every function (the lists have no '.').
	 */
	for (i = 0; i < n; i++) {
		if (list[i][0] != name[0])
			continue;
		len = strlen(list[i]);
		if (!strncmp(list[i], name, len) &&
		    (!name[len] || name[len] == '.'))
			return true;
	}
	return false;
}

/*
 * Why the last function was refused, as ks_refuse_err() said it: a glob's
 * _last tells it for each function (ks_glob.c).  Under ks_lock.
 */
static char ks_refused[KS_WHY_MAX];
static unsigned int ks_quiet_told;	/* lines logged in this glob */
static bool ks_quiet;

/**
 * ks_refuse_err() - say why function @name cannot be traced as asked
 * @name: the node
 * @fmt: the reason, printf format, without @name and newline
 *
 * Logged, and kept for ks_refused_why(); within a glob (ks_quiet_glob())
 * only the first KS_QUIET_LINES are logged: _last names each function with
 * its reason, and a glob on 48,000 functions would else write thousands of
 * lines, to the console too.  Caller holds ks_lock.
 */
void ks_refuse_err(const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(ks_refused, sizeof(ks_refused), fmt, ap);
	va_end(ap);
	if (!ks_quiet || ks_quiet_told++ < KS_QUIET_LINES)
		pr_err("%s: %s\n", name, ks_refused);
}

/**
 * ks_refused_why() - what ks_refuse_err() said last, and forget it
 * @buf: where to copy it ("" if nothing was said)
 * @len: its room
 */
void ks_refused_why(char *buf, size_t len)
{
	strscpy(buf, ks_refused, len);
	ks_refused[0] = '\0';
}

/**
 * ks_quiet_glob() - a glob's refusals logged KS_QUIET_LINES at most, or all
 * @on: a glob starts (true) or ends (false)
 *
 * Return: on the end, how many refusals were not logged.
 */
unsigned int ks_quiet_glob(bool on)
{
	unsigned int untold = ks_quiet_told > KS_QUIET_LINES ?
			      ks_quiet_told - KS_QUIET_LINES : 0;

	ks_quiet = on;
	ks_quiet_told = 0;
	ks_refused[0] = '\0';
	return untold;
}
