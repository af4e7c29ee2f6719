// SPDX-License-Identifier: GPL-2.0
/*
 * kstats globs: "trace GLOB ..." makes one node per matching function,
 * each through the trace pipeline (ks_trace.c).
 *
 * A glob is matched against what ftrace can trace (its filter API, as
 * available_filter_functions lists it), "MODULE:GLOB" against that
 * module's functions.  Compiler clones (NAME.constprop.0...) belong to the
 * node of their NAME.  Nodes that take the direct backend or fprobe are
 * hooked by one ftrace operation per module and backend (a batch);
 * kretprobe's one by one.  What
 * happened to each function is in /sys/kernel/debug/kstats/_last.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bsearch.h>
#include <linux/glob.h>
#include <linux/jhash.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "ks_syms.h"
#include "ks_btf.h"
#include "ks_trace.h"
#include "ks_glob.h"

static unsigned int glob_max = 1000;
module_param(glob_max, uint, 0644);
MODULE_PARM_DESC(glob_max, "functions one trace GLOB may match (default 1000)");

/* ---- trace GLOB ---- */

/* One function a glob matched, with its clones. */
struct ks_glob_fn {
	char name[KS_NAME_MAX];		/* as the node is called */
	char mod[MODULE_NAME_LEN];	/* "" for vmlinux */
	unsigned int nsyms;
	char (*syms)[KS_NAME_MAX];
	unsigned long *ips;
	unsigned int nips;
	struct ks_node *node;
	const char *why;		/* refused, or NULL */
	char *said;			/* why, as the log said it (kfree) */
	int err;
	bool qualify;			/* the node is called MODULE:NAME */
	bool plain;			/* its first symbol is [MOD:]NAME */
};

/* [MOD:]NAME into @sym (KS_NAME_MAX bytes): snprintf()'s count. */
static int ks_mod_sym(char *sym, const char *mod, const char *name)
{
	return snprintf(sym, KS_NAME_MAX, "%s%s%s", mod, mod[0] ? ":" : "",
			name);
}

/*
 * The functions matched so far, found by name through @index: open
 * addressing over twice @cap entries, each 0 (free) or an index into
 * @fns plus one.
 */
struct ks_match {
	const char *glob;		/* without its MODULE: */
	bool clones;
	struct ks_glob_fn *fns;
	unsigned int n, cap;
	u32 *index;
	int skipped;			/* names too long for a node */
};

/* Where the function @base of @mod is in mt->index, or would go. */
static u32 *ks_fn_slot(struct ks_match *mt, const char *base, const char *mod)
{
	u32 mask = 2 * mt->cap - 1;
	u32 h = jhash(base, strlen(base), jhash(mod, strlen(mod), 0));

	for (h &= mask; mt->index[h]; h = (h + 1) & mask) {
		struct ks_glob_fn *fn = &mt->fns[mt->index[h] - 1];

		if (!strcmp(fn->name, base) && !strcmp(fn->mod, mod))
			break;
	}
	return &mt->index[h];
}

/* Room for twice as many functions; mt->index made again. */
static int ks_match_grow(struct ks_match *mt)
{
	unsigned int cap = mt->cap ? 2 * mt->cap : 64, i;
	struct ks_glob_fn *fns;
	u32 *index;

	fns = kvcalloc(cap, sizeof(*fns), GFP_KERNEL);
	index = kvcalloc(2 * cap, sizeof(*index), GFP_KERNEL);
	if (!fns || !index) {
		kvfree(fns);
		kvfree(index);
		return -ENOMEM;
	}
	if (mt->n)
		memcpy(fns, mt->fns, mt->n * sizeof(*fns));
	kvfree(mt->fns);
	kvfree(mt->index);
	mt->fns = fns;
	mt->index = index;
	mt->cap = cap;
	for (i = 0; i < mt->n; i++)
		*ks_fn_slot(mt, fns[i].name, fns[i].mod) = i + 1;
	return 0;
}

static int ks_match_one(void *arg, unsigned long ip, const char *name,
			const char *mod)
{
	struct ks_match *mt = arg;
	char base[KS_NAME_MAX], sym[KS_NAME_MAX];	/* NAME; MOD:NAME.clone */
	struct ks_glob_fn *fn;
	unsigned long *ips;
	u32 *slot;

	if (strscpy(base, name, sizeof(base)) < 0) {
		mt->skipped++;
		return 0;
	}
	base[strcspn(base, ".")] = '\0';
	if (!glob_match(mt->glob, base))
		return 0;		/* a clone of a function not asked for */
	if (!mt->clones && strcmp(base, name))
		return 0;
	if (mt->n == mt->cap && ks_match_grow(mt))
		return -ENOMEM;
	slot = ks_fn_slot(mt, base, mod);
	if (*slot) {
		fn = &mt->fns[*slot - 1];
	} else {
		fn = &mt->fns[mt->n++];
		*slot = mt->n;
		strscpy(fn->name, base, sizeof(fn->name));
		strscpy(fn->mod, mod, sizeof(fn->mod));
	}
	ips = krealloc_array(fn->ips, fn->nips + 1, sizeof(*ips), GFP_KERNEL);
	if (!ips)
		return -ENOMEM;
	fn->ips = ips;
	fn->ips[fn->nips++] = ip;
	if (fn->nsyms < KS_SYMS_MAX &&
	    ks_mod_sym(sym, mod, name) < KS_NAME_MAX) {
		char (*syms)[KS_NAME_MAX];
		unsigned int i;

		/* most functions have one symbol, no clone: no array */
		if (!fn->nsyms && !strcmp(name, fn->name)) {
			fn->nsyms = 1;
			fn->plain = true;
			return 0;
		}
		if (fn->plain && !strcmp(name, fn->name))
			return 0;
		for (i = fn->plain; i < fn->nsyms; i++)
			if (!strcmp(fn->syms[i], sym))
				return 0;
		syms = krealloc_array(fn->syms, fn->nsyms + 1, sizeof(*syms),
				      GFP_KERNEL);
		if (!syms)
			return -ENOMEM;
		fn->syms = syms;
		if (fn->plain && fn->nsyms == 1)
			ks_mod_sym(syms[0], fn->mod, fn->name);
		strscpy(syms[fn->nsyms++], sym, KS_NAME_MAX);
	}
	return 0;
}

static int ks_fn_cmp(const void *a, const void *b)
{
	const struct ks_glob_fn *x = a, *y = b;
	int r = strcmp(x->mod, y->mod);

	return r ? r : strcmp(x->name, y->name);
}

static int ks_fn_cmp_r(const void *a, const void *b, const void *fns)
{
	const struct ks_glob_fn *f = fns;

	return ks_fn_cmp(&f[*(const u32 *)a], &f[*(const u32 *)b]);
}

/*
 * Order @mt's functions by module, then name (mt->index, which points
 * into the order they came in, is done): their indices sorted, then each
 * function moved once, not swapped about (200 bytes each, 48,000 in '*').
 */
static int ks_match_sort(struct ks_match *mt)
{
	struct ks_glob_fn *fns;
	u32 *order, i;

	order = kvmalloc_array(mt->n, sizeof(*order), GFP_KERNEL);
	fns = kvmalloc_array(mt->n, sizeof(*fns), GFP_KERNEL);
	if (!order || !fns) {
		kvfree(order);
		kvfree(fns);
		return -ENOMEM;
	}
	for (i = 0; i < mt->n; i++)
		order[i] = i;
	sort_r(order, mt->n, sizeof(*order), ks_fn_cmp_r, NULL, mt->fns);
	for (i = 0; i < mt->n; i++)
		fns[i] = mt->fns[order[i]];
	kvfree(mt->fns);
	mt->fns = fns;
	mt->cap = mt->n;
	kvfree(order);
	return 0;
}

static void ks_match_free(struct ks_match *mt)
{
	unsigned int i;

	for (i = 0; i < mt->n; i++) {
		kfree(mt->fns[i].syms);
		kfree(mt->fns[i].ips);
		kfree(mt->fns[i].said);
	}
	kvfree(mt->fns);
	kvfree(mt->index);
}

/* Collect the functions @glob (in @mod, or anywhere if NULL) matches. */
static int ks_match(struct ks_match *mt, const char *mod)
{
	char pat[KS_NAME_MAX + 2];
	int ret;

	ret = ks_ftrace_each(mt->glob, mod, ks_match_one, mt);
	/* a glob that ends in * has matched NAME.constprop.0 and the like */
	if (ret < 0 || !mt->clones || !mt->glob[0] ||
	    mt->glob[strlen(mt->glob) - 1] == '*')
		return ret;
	/*
	 * Else they take a second walk (ftrace's costs a symbol lookup per
	 * traceable function: about as long as the rest of an attach).
	 */
	snprintf(pat, sizeof(pat), "%s.*", mt->glob);
	ret = ks_ftrace_each(pat, mod, ks_match_one, mt);
	return ret < 0 ? ret : 0;
}

static int ks_fn_name_cmp(const void *a, const void *b)
{
	const struct ks_glob_fn *x = *(struct ks_glob_fn * const *)a;
	const struct ks_glob_fn *y = *(struct ks_glob_fn * const *)b;

	return strcmp(x->name, y->name);
}

static int ks_fn_name_key(const void *key, const void *elt)
{
	return strcmp(key, ((const struct ks_glob_fn *)elt)->name);
}

/*
 * A name matched in more than one place (vmlinux and a module, or two
 * modules: static functions of the same name): the modules' nodes are
 * called MODULE:NAME, as "trace MODULE:GLOB" calls them, so that each
 * is traced rather than the second refused as already traced.  After
 * ks_match_sort(): vmlinux's first, by name, each looked up there; the
 * modules' sorted by name among themselves.
 */
static int ks_qualify_shared_names(struct ks_match *mt)
{
	struct ks_glob_fn **by;
	unsigned int i, v, m;

	for (v = 0; v < mt->n && !mt->fns[v].mod[0]; v++)
		;
	m = mt->n - v;
	if (!m)
		return 0;
	by = kvmalloc_array(m, sizeof(*by), GFP_KERNEL);
	if (!by)
		return -ENOMEM;
	for (i = 0; i < m; i++)
		by[i] = &mt->fns[v + i];
	sort(by, m, sizeof(*by), ks_fn_name_cmp, NULL);
	for (i = 0; i < m; i++) {
		if (i && !strcmp(by[i - 1]->name, by[i]->name)) {
			by[i - 1]->qualify = true;
			by[i]->qualify = true;
		}
		if (bsearch(by[i]->name, mt->fns, v, sizeof(*mt->fns),
			    ks_fn_name_key))
			by[i]->qualify = true;
	}
	kvfree(by);
	return 0;
}

/* Keep what the log said of refused @fn, for _last. */
static void ks_glob_said_why(struct ks_glob_fn *fn)
{
	char why[KS_WHY_MAX];

	ks_refused_why(why, sizeof(why));
	if (why[0])
		fn->said = kstrdup(why, GFP_KERNEL);
}

/* Make the node of @fn (not attached yet) or say why not. */
static void ks_glob_prepare(struct ks_glob_fn *fn, const struct ks_cmd *cmd,
			    bool named_mod)
{
	struct ks_cmd c = *cmd;
	struct ks_node *node;

	named_mod |= fn->qualify;
	fn->why = ks_denied(fn->name);
	if (fn->why) {
		fn->err = -EINVAL;
		return;
	}
	if (!fn->nsyms ||	/* MOD:NAME too long for a symbol */
	    ks_mod_sym(c.name, named_mod ? fn->mod : "", fn->name) >=
	    KS_NAME_MAX ||
	    (c.gap && strlen(c.name) + strlen(KS_GAP_PREFIX) >= KS_NAME_MAX)) {
		fn->why = "name too long";
		fn->err = -ENAMETOOLONG;
		return;
	}
	/*
	 * A plain symbol is the node's name (its syms then point at it) but
	 * for a module's function called NAME alone: MOD:NAME is its own.
	 */
	if (fn->plain && fn->nsyms == 1 && fn->mod[0] && !named_mod) {
		fn->syms = kmalloc(sizeof(*fn->syms), GFP_KERNEL);
		if (!fn->syms) {
			fn->why = "out of memory";
			fn->err = -ENOMEM;
			return;
		}
		ks_mod_sym(fn->syms[0], fn->mod, fn->name);
	}
	node = ks_node_prepare(&c, fn->syms, fn->nsyms, &fn->err);	/* takes syms */
	fn->syms = NULL;
	if (!node) {
		fn->why = fn->err == -EEXIST ? "already traced" :
			  "cannot be traced (see the kernel log)";
		ks_glob_said_why(fn);
		return;
	}
	node->ips = fn->ips;
	node->nips = fn->nips;
	fn->ips = NULL;
	fn->node = node;
}

/*
 * Hook the nodes made for @mt's functions: one ftrace operation per module
 * and backend that takes many (@batch: room for every node).
 */
static void ks_glob_hook(struct ks_match *mt, struct ks_node **batch)
{
	unsigned int i, j;

	for (i = 0; i < mt->n; i = j) {
		unsigned int via, k;

		for (j = i; j < mt->n && !strcmp(mt->fns[j].mod, mt->fns[i].mod); j++)
			;
		for (via = 0; via < KS_VIA_NR; via++) {
			unsigned int n = 0;

			for (k = i; k < j; k++)
				if (mt->fns[k].node &&
				    mt->fns[k].node->backend->via == via &&
				    mt->fns[k].node->backend->attach_many)
					batch[n++] = mt->fns[k].node;
			if (n > 1)
				ks_nodes_attach_many(batch, n);
		}
	}
}

/*
 * Say in _last why @fn was refused, if there is room: the summary's is
 * kept, whatever the refusals.  Return: said it.
 */
static bool ks_glob_refused(struct ks_text *last, const struct ks_glob_fn *fn)
{
	if (last->size - last->len < KS_LAST_KEEP)
		return false;
	ks_text_say(last, KS_LAST_REFUSED_FN, fn->mod, fn->mod[0] ? ":" : "",
		    fn->name);
	if (fn->said)
		ks_text_say(last, "%s\n", fn->said);
	else if (fn->why)
		ks_text_say(last, "%s\n", fn->why);
	else
		ks_text_say(last, "attach failed (%pe, see the kernel log)\n",
			    ERR_PTR(fn->err));
	return true;
}

/* The last line of _last's text and of the log: what a glob command did. */
static void ks_glob_said(const struct ks_cmd *cmd, struct ks_text *last,
			 unsigned int n, unsigned int ok, unsigned int refused,
			 const unsigned int *by)
{
	unsigned int i;

	ks_text_say(last, KS_LAST_DONE, n, ok, refused);
	for (i = 0; i < KS_VIA_SECTION; i++)
		if (by[i])
			ks_text_say(last, KS_LAST_DONE_VIA, ks_via_name(i), by[i]);
	ks_text_say(last, "\n");
	pr_info("%s: %u functions matched, %u attached, %u refused (%s_last)\n",
		cmd->name, n, ok, refused, "/sys/kernel/debug/kstats/");
}

/**
 * ks_glob_trace() - run "trace GLOB ...": one node per matching function
 * @cmd: the parsed command, cmd->name a glob (or MODULE:glob)
 * @line: the command as written, for _last
 * @last: where to say what happened to each function (_last's text)
 *
 * Caller holds ks_lock.
 * Return: 0 if at least one function was attached, -E2BIG if the glob
 * matches more than glob_max functions (nothing attached), -ENOENT if it
 * matches none, else the first error.
 */
int ks_glob_trace(const struct ks_cmd *cmd, const char *line, struct ks_text *last)
{
	const char *colon = strchr(cmd->name, ':');
	struct ks_match mt = { .glob = colon ? colon + 1 : cmd->name,
			       .clones = cmd->clones };
	char mod[MODULE_NAME_LEN] = "";
	unsigned int i, ok = 0, refused = 0, untold = 0;
	unsigned int by[KS_VIA_SECTION] = { 0 };
	struct ks_node **batch = NULL;
	u64 t[5];
	int ret, first = 0;

	t[0] = ktime_get_ns();
	ks_text_start(last, KS_LAST_SIZE);
	ks_text_say(last, KS_LAST_HEAD, line);
	if (colon)
		strscpy(mod, cmd->name, min_t(size_t, sizeof(mod),
					      colon - cmd->name + 1));
	ret = ks_match(&mt, colon ? mod : NULL);
	if (ret == -E2BIG || (ret >= 0 && mt.n > glob_max)) {
		pr_err("%s: matches %s%u functions, more than glob_max (%u)\n",
		       cmd->name, ret == -E2BIG ? "over " : "",
		       ret == -E2BIG ? KS_MATCH_MAX : mt.n, glob_max);
		ks_text_say(last, KS_LAST_TOO_MANY,
			    ret == -E2BIG ? KS_MATCH_MAX : mt.n, glob_max);
		ret = -E2BIG;
		goto out;
	}
	if (ret < 0)
		goto out;
	if (!mt.n) {
		pr_err("%s: matches no function ftrace can trace\n", cmd->name);
		ks_text_say(last, KS_LAST_NONE);
		ret = -ENOENT;
		goto out;
	}
	t[1] = ktime_get_ns();
	ret = ks_match_sort(&mt);
	if (!ret && !colon)
		ret = ks_qualify_shared_names(&mt);
	if (ret)
		goto out;
	batch = kvcalloc(mt.n, sizeof(*batch), GFP_KERNEL);
	if (!batch) {
		ret = -ENOMEM;
		goto out;
	}
	ks_quiet_glob(true);	/* _last says why each is refused */
	ks_btf_hold();		/* each module's BTF read once */
	for (i = 0; i < mt.n; i++)
		ks_glob_prepare(&mt.fns[i], cmd, colon);
	ks_btf_drop();
	t[2] = ktime_get_ns();
	ks_glob_hook(&mt, batch);
	t[3] = ktime_get_ns();
	for (i = 0; i < mt.n; i++) {
		struct ks_glob_fn *fn = &mt.fns[i];

		if (fn->node) {
			fn->err = ks_node_finish(fn->node);
			if (fn->err)
				ks_glob_said_why(fn);
		}
		if (fn->err) {
			refused++;
			first = first ?: fn->err;
			untold += !ks_glob_refused(last, fn);
			continue;
		}
		ok++;
		by[fn->node->cmd.via]++;
	}
	if (untold)
		ks_text_say(last, KS_LAST_UNTOLD, untold);
	untold = ks_quiet_glob(false);
	if (untold)
		pr_err("%s: %u more functions refused, not logged: _last names each with its reason\n",
		       cmd->name, untold);
	t[4] = ktime_get_ns();
	/* where the time went: dynamic debug (module kstats +p) prints it */
	pr_debug("%s: %u functions: match %llu us, prepare %llu us, hook %llu us, publish %llu us\n",
		 cmd->name, mt.n, (t[1] - t[0]) / 1000, (t[2] - t[1]) / 1000,
		 (t[3] - t[2]) / 1000, (t[4] - t[3]) / 1000);
	ks_glob_said(cmd, last, mt.n, ok, refused, by);
	ret = ok ? 0 : first;
out:
	kvfree(batch);
	ks_match_free(&mt);
	return ret;
}
