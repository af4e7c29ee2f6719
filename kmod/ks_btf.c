// SPDX-License-Identifier: GPL-2.0
/*
 * kstats: how a function takes its arguments, from BTF.
 *
 * The direct backend runs a traced body one stack frame deeper than its
 * caller did, so it may only trace functions whose arguments all travel in
 * registers (x86-64: six integer registers; a struct of up to 16 bytes
 * takes one or two, a bigger one or a variadic tail goes on the stack, and
 * a returned struct bigger than 16 bytes takes rdi for its address; arm64:
 * eight, a bigger struct goes by reference, a returned one through x8,
 * which the trampoline does not keep: ks_arch.h).  The
 * kernel's BTF (/sys/kernel/btf/vmlinux, and /sys/kernel/btf/MODULE split
 * on top of it) gives every function's prototype.
 *
 * vmlinux BTF is read and indexed once, on the first trace command that
 * needs it, outside the control lock (ks_btf_prepare()), and kept until
 * the module is unloaded (about 5 MiB, plus 4 bytes per type and per
 * function): every later lookup is a binary search.  A module's BTF is
 * small; it is read when needed and freed at once, or, between
 * ks_btf_hold() and ks_btf_drop() (a glob), kept for the next lookup.  A
 * name without MOD: that vmlinux's BTF lacks is looked for in each
 * module's, except in a glob, which names a module's functions MOD:NAME
 * (else each of the 250 vmlinux functions without BTF read them all).
 *
 * BTF describes a function as written, not its compiler clones.  gcc's
 * .constprop.N only drops arguments that are constant, so it keeps the
 * other arguments in their order and registers at most; .isra.N (IPA-SRA)
 * may replace a pointer with the values loaded through it, more arguments
 * than the prototype has, and .part.N (partial inlining) takes whatever
 * values are live at the split.  Only a clone made of .constprop steps
 * alone is judged by its original's prototype.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <uapi/linux/btf.h>
#include "ks_btf.h"

#define KS_BTF_MAX	(64 << 20)	/* refuse larger BTF blobs */

struct ks_btf {
	void *data;
	const char *strs;
	u32 str_len;
	u32 start_id;			/* first type id (1, or after the base) */
	u32 nr;				/* types in this blob */
	u32 *off;			/* byte offset of each type */
	u32 *funcs;			/* ids of FUNC types, sorted by name */
	u32 nr_funcs;
	const u8 *types;
	u32 types_len;
	struct ks_btf *base;
};

/* Bytes of kind-specific data after a struct btf_type. */
static u32 ks_btf_extra(const struct btf_type *t)
{
	u32 vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_ENUM64:
		return vlen * sizeof(struct btf_enum64);
	default:
		return 0;
	}
}

static void ks_btf_free(struct ks_btf *b)
{
	kvfree(b->funcs);
	kvfree(b->off);
	kvfree(b->data);
	memset(b, 0, sizeof(*b));
}

/* Read all of @path (a sysfs BTF file) into a new buffer; its size or error. */
static ssize_t ks_read_file(const char *path, void **data)
{
	struct file *f;
	loff_t size, pos = 0;
	ssize_t got = 0, n;

	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	size = i_size_read(file_inode(f));
	if (size <= 0 || size > KS_BTF_MAX) {
		got = -EFBIG;
		goto out;
	}
	*data = kvmalloc(size, GFP_KERNEL);
	if (!*data) {
		got = -ENOMEM;
		goto out;
	}
	while (pos < size) {
		n = kernel_read(f, *data + pos, size - pos, &pos);
		if (n <= 0)
			break;
		got += n;
	}
	if (got != size) {
		kvfree(*data);
		*data = NULL;
		/* a failed read says why (ENOMEM is tried again); short: EIO */
		got = n < 0 ? n : -EIO;
	}
out:
	filp_close(f, NULL);
	return got;
}

static int ks_btf_index_funcs(struct ks_btf *b);

/* Read and index the BTF at @path, split on @base (or NULL). */
static int ks_btf_load(struct ks_btf *b, const char *path, struct ks_btf *base)
{
	const struct btf_header *hdr;
	ssize_t got;
	u32 pos, n;

	memset(b, 0, sizeof(*b));
	got = ks_read_file(path, &b->data);
	if (got < 0)
		return got;
	hdr = b->data;
	if (got < sizeof(*hdr) || hdr->magic != BTF_MAGIC ||
	    (u64)hdr->hdr_len + hdr->type_off + hdr->type_len > got ||
	    (u64)hdr->hdr_len + hdr->str_off + hdr->str_len > got)
		goto bad;
	b->types = b->data + hdr->hdr_len + hdr->type_off;
	b->types_len = hdr->type_len;
	b->strs = b->data + hdr->hdr_len + hdr->str_off;
	b->str_len = hdr->str_len;
	b->base = base;
	b->start_id = base ? base->start_id + base->nr : 1;

	/* count, then index */
	for (pos = 0, n = 0; pos + sizeof(struct btf_type) <= b->types_len; n++)
		pos += sizeof(struct btf_type) +
		       ks_btf_extra((const void *)(b->types + pos));
	if (pos != b->types_len)
		goto bad;
	b->off = kvmalloc_array(n ? n : 1, sizeof(*b->off), GFP_KERNEL);
	if (!b->off) {
		ks_btf_free(b);
		return -ENOMEM;
	}
	for (pos = 0, n = 0; pos < b->types_len; n++) {
		b->off[n] = pos;
		pos += sizeof(struct btf_type) +
		       ks_btf_extra((const void *)(b->types + pos));
	}
	b->nr = n;
	return ks_btf_index_funcs(b);
bad:
	pr_err("%s: malformed BTF\n", path);
	ks_btf_free(b);
	return -EINVAL;
}

static const struct btf_type *ks_btf_type(const struct ks_btf *b, u32 id)
{
	if (b->base && id < b->start_id)
		return ks_btf_type(b->base, id);
	if (id < b->start_id || id - b->start_id >= b->nr)
		return NULL;
	return (const void *)(b->types + b->off[id - b->start_id]);
}

static const char *ks_btf_str(const struct ks_btf *b, u32 off)
{
	if (b->base) {
		if (off < b->base->str_len)
			return ks_btf_str(b->base, off);
		off -= b->base->str_len;
	}
	return off < b->str_len ? b->strs + off : "";
}

/* Follow typedefs and qualifiers to the type that sets the size. */
static const struct btf_type *ks_btf_resolve(const struct ks_btf *b, u32 id)
{
	const struct btf_type *t = ks_btf_type(b, id);
	int depth = 0;

	while (t && depth++ < 32) {
		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			t = ks_btf_type(b, t->type);
			break;
		default:
			return t;
		}
	}
	return NULL;
}

/* Registers a value of type @id takes, or -E2BIG if it goes in memory. */
static int ks_btf_regs(const struct ks_btf *b, u32 id, bool *aggregate)
{
	const struct btf_type *t = ks_btf_resolve(b, id);

	if (!t)
		return -E2BIG;
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
		return t->size > 8 ? 2 : 1;
	case BTF_KIND_PTR:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return 1;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		*aggregate = true;
		return t->size > 16 ? KS_BIG_STRUCT_REGS : (t->size + 7) / 8;
	default:
		return -E2BIG;	/* floats, unknown: not for the kernel's ABI */
	}
}

static const char *ks_btf_name(const struct ks_btf *b, u32 id)
{
	return ks_btf_str(b, ks_btf_type(b, id)->name_off);
}

static int ks_btf_cmp_funcs(const void *x, const void *y, const void *priv)
{
	return strcmp(ks_btf_name(priv, *(const u32 *)x),
		      ks_btf_name(priv, *(const u32 *)y));
}

/* List @b's FUNC types sorted by name, for ks_btf_find_func(). */
static int ks_btf_index_funcs(struct ks_btf *b)
{
	u32 i, n = 0;

	for (i = 0; i < b->nr; i++)
		n += BTF_INFO_KIND(((const struct btf_type *)
				    (b->types + b->off[i]))->info) == BTF_KIND_FUNC;
	b->funcs = kvmalloc_array(n ? n : 1, sizeof(*b->funcs), GFP_KERNEL);
	if (!b->funcs) {
		ks_btf_free(b);
		return -ENOMEM;
	}
	for (i = 0, n = 0; i < b->nr; i++)
		if (BTF_INFO_KIND(((const struct btf_type *)
				   (b->types + b->off[i]))->info) == BTF_KIND_FUNC)
			b->funcs[n++] = b->start_id + i;
	b->nr_funcs = n;
	sort_r(b->funcs, n, sizeof(*b->funcs), ks_btf_cmp_funcs, NULL, b);
	return 0;
}

/* The FUNC type named @name in @b itself (not its base), or NULL. */
static const struct btf_type *ks_btf_find_func(const struct ks_btf *b,
					       const char *name)
{
	u32 lo = 0, hi = b->nr_funcs;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		int c = strcmp(name, ks_btf_name(b, b->funcs[mid]));

		if (!c)
			return ks_btf_type(b, b->funcs[mid]);
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* Look @name up in @b; the register words its arguments need, or error. */
static int ks_btf_func_regs(const struct ks_btf *b, const char *name,
			    bool strict)
{
	const struct btf_param *p;
	const struct btf_type *t;
	bool aggregate = false;
	int regs = 0, r;
	u32 k;

	t = ks_btf_find_func(b, name);
	if (!t)
		return -ENOENT;
	t = ks_btf_type(b, t->type);
	if (!t || BTF_INFO_KIND(t->info) != BTF_KIND_FUNC_PROTO)
		return -EINVAL;
	if (t->type) {		/* a big returned struct: KS_BIG_RETURN_REGS */
		const struct btf_type *rt = ks_btf_resolve(b, t->type);

		if (rt && (BTF_INFO_KIND(rt->info) == BTF_KIND_STRUCT ||
			   BTF_INFO_KIND(rt->info) == BTF_KIND_UNION) &&
		    rt->size > 16) {
			if (KS_BIG_RETURN_REGS < 0)
				return KS_BIG_RETURN_REGS;
			regs += KS_BIG_RETURN_REGS;
		}
	}
	p = (const void *)(t + 1);
	for (k = 0; k < BTF_INFO_VLEN(t->info); k++) {
		if (!p[k].type)
			return -E2BIG;	/* variadic */
		r = ks_btf_regs(b, p[k].type, &aggregate);
		if (r < 0)
			return r;
		regs += r;
	}
	/* a clone may pass a struct's fields one by one: be strict */
	if (strict && aggregate)
		return -E2BIG;
	return regs > KS_ARG_REGS ? -E2BIG : regs;
}

/*
 * Does @suffix (".constprop.0.isra.0", ...) name clones that keep the
 * prototype, that is .constprop steps alone?
 */
static bool ks_clone_keeps_args(const char *suffix)
{
	while (*suffix) {
		if (!str_has_prefix(suffix, ".constprop."))
			return false;
		suffix += strlen(".constprop.");
		while (*suffix >= '0' && *suffix <= '9')
			suffix++;
	}
	return true;
}

/* The modules with BTF, as /sys/kernel/btf lists them. */
struct ks_btf_dir {
	struct dir_context ctx;
	char (*names)[KS_NAME_MAX];
	unsigned int n, max;
};

static bool ks_btf_dir_add(struct dir_context *ctx, const char *name, int len,
			   loff_t off, u64 ino, unsigned int type)
{
	struct ks_btf_dir *d = container_of(ctx, struct ks_btf_dir, ctx);

	if (name[0] == '.' || len >= KS_NAME_MAX ||
	    (len == 7 && !memcmp(name, "vmlinux", 7)))
		return true;
	if (d->n == d->max)
		return false;
	memcpy(d->names[d->n], name, len);
	d->names[d->n++][len] = '\0';
	return true;
}

#define KS_BTF_MODS_MAX	1024

/*
 * The module BTF read last, kept between ks_btf_hold() and ks_btf_drop():
 * the functions of a glob are mostly of one module, whose BTF is then read
 * and indexed once, not once per function (for a thousand functions of a
 * module with as many, that was most of the time "trace GLOB" took).
 */
static DEFINE_MUTEX(ks_mod_btf_lock);
static struct ks_btf ks_mod_btf;	/* zeroed unless read */
static char ks_mod_btf_name[KS_NAME_MAX];	/* "" if none kept */
static int ks_mod_btf_err;		/* why it could not be read */
static bool ks_mod_btf_held;

/**
 * ks_btf_hold() - keep the module BTF read next until ks_btf_drop()
 *
 * For a command that looks up many functions of one module.
 */
void ks_btf_hold(void)
{
	mutex_lock(&ks_mod_btf_lock);
	ks_mod_btf_held = true;
	mutex_unlock(&ks_mod_btf_lock);
}

/**
 * ks_btf_drop() - free the module BTF kept since ks_btf_hold()
 */
void ks_btf_drop(void)
{
	mutex_lock(&ks_mod_btf_lock);
	ks_mod_btf_held = false;
	ks_btf_free(&ks_mod_btf);
	ks_mod_btf_name[0] = '\0';
	mutex_unlock(&ks_mod_btf_lock);
}

/* Read module @mod's BTF into @b: 0, -ENOMEM, or -ENOENT (none that reads). */
static int ks_btf_load_mod(struct ks_btf *b, struct ks_btf *vmlinux,
			   const char *mod)
{
	char path[32 + KS_NAME_MAX];
	int ret;

	snprintf(path, sizeof(path), "/sys/kernel/btf/%s", mod);
	ret = ks_btf_load(b, path, vmlinux);
	return ret == -ENOMEM ? ret : ret ? -ENOENT : 0;
}

/* The register words of @name in module @mod's BTF, kept if held. */
static int ks_btf_mod_lookup(struct ks_btf *vmlinux, const char *mod,
			     const char *name, bool strict)
{
	struct ks_btf tmp, *b = &tmp;
	int ret;

	mutex_lock(&ks_mod_btf_lock);
	if (ks_mod_btf_held && !strcmp(ks_mod_btf_name, mod)) {
		b = &ks_mod_btf;
		ret = ks_mod_btf_err;
	} else {
		ret = ks_btf_load_mod(&tmp, vmlinux, mod);
		if (ks_mod_btf_held && ret != -ENOMEM &&
		    strlen(mod) < sizeof(ks_mod_btf_name)) {
			ks_btf_free(&ks_mod_btf);
			ks_mod_btf = tmp;
			ks_mod_btf_err = ret;
			strscpy(ks_mod_btf_name, mod, sizeof(ks_mod_btf_name));
			b = &ks_mod_btf;
		}
	}
	if (!ret)
		ret = ks_btf_func_regs(b, name, strict);
	if (b == &tmp)
		ks_btf_free(&tmp);	/* zeroed if it was not read */
	mutex_unlock(&ks_mod_btf_lock);
	return ret;
}

/*
 * The register words of module function @name: in module @mod's BTF, or
 * when @mod is NULL, in the first module BTF that has it.
 */
static int ks_btf_mod_func_regs(struct ks_btf *vmlinux, const char *mod,
				const char *name, bool strict)
{
	struct ks_btf_dir d = { .ctx.actor = ks_btf_dir_add };
	struct file *f;
	int ret = -ENOENT;
	unsigned int i;

	if (mod)
		return ks_btf_mod_lookup(vmlinux, mod, name, strict);
	d.max = KS_BTF_MODS_MAX;
	d.names = kvmalloc_array(d.max, sizeof(*d.names), GFP_KERNEL);
	if (!d.names)
		return -ENOMEM;
	f = filp_open("/sys/kernel/btf", O_RDONLY | O_DIRECTORY, 0);
	if (!IS_ERR(f)) {
		iterate_dir(f, &d.ctx);
		filp_close(f, NULL);
	}
	for (i = 0; i < d.n && ret == -ENOENT; i++)
		ret = ks_btf_mod_func_regs(vmlinux, d.names[i], name, strict);
	kvfree(d.names);
	return ret;
}

/*
 * One symbol ("name", "name.constprop.0", "mod:name") against @vmlinux:
 * 0 if its arguments are all in registers, -E2BIG if not, -EDOM for a
 * clone that need not keep its original's prototype, -ENOENT without BTF.
 */
static int ks_btf_sym_in_regs(struct ks_btf *vmlinux, const char *sym)
{
	char name[KS_NAME_MAX], mod[KS_NAME_MAX], *dot;
	const char *colon = strchr(sym, ':');
	bool clone = false;
	int ret;

	strscpy(name, colon ? colon + 1 : sym, sizeof(name));
	dot = strchr(name, '.');
	if (dot) {		/* a clone: judge by the original's prototype */
		if (!ks_clone_keeps_args(dot))
			return -EDOM;
		*dot = '\0';
		clone = true;
	}
	if (colon) {
		strscpy(mod, sym, min_t(size_t, colon - sym + 1, sizeof(mod)));
		ret = ks_btf_mod_func_regs(vmlinux, mod, name, clone);
	} else {
		ret = ks_btf_func_regs(vmlinux, name, clone);
		/* a glob (held) names a module's function MOD:NAME */
		if (ret == -ENOENT && !READ_ONCE(ks_mod_btf_held))
			ret = ks_btf_mod_func_regs(vmlinux, NULL, name, clone);
	}
	return ret < 0 ? ret : 0;
}

static DEFINE_MUTEX(ks_btf_lock);	/* loading ks_vmlinux */
static struct ks_btf ks_vmlinux;	/* indexed once, kept */
static int ks_vmlinux_err;		/* why it could not be read */

/**
 * ks_btf_prepare() - read and index vmlinux BTF, once
 *
 * The first call reads /sys/kernel/btf/vmlinux (some MiB) and indexes its
 * functions; later calls return at once.  Call it before taking the
 * control lock, so that other commands need not wait for it.
 *
 * Return: 0, or the error reading BTF.  What the kernel's BTF is (none,
 * malformed, too big) is remembered and not retried; a failed allocation
 * is tried again on the next call, so that a moment of memory pressure
 * does not take the direct backend away until the module is reloaded.
 */
int ks_btf_prepare(void)
{
	int ret;

	mutex_lock(&ks_btf_lock);
	if (!ks_vmlinux.data && !ks_vmlinux_err) {
		ret = ks_btf_load(&ks_vmlinux, "/sys/kernel/btf/vmlinux", NULL);
		if (!ret)
			pr_info("vmlinux BTF read: %u types, %u functions indexed\n",
				ks_vmlinux.nr, ks_vmlinux.nr_funcs);
		else if (ret == -ENOMEM)
			pr_warn("cannot read vmlinux BTF now (out of memory): direct backend not chosen this time\n");
		if (ret != -ENOMEM)
			ks_vmlinux_err = ret;
	} else {
		ret = ks_vmlinux_err;
	}
	mutex_unlock(&ks_btf_lock);
	return ret;
}

/**
 * ks_btf_release() - free what ks_btf_prepare() kept (module exit)
 */
void ks_btf_release(void)
{
	ks_btf_drop();
	mutex_lock(&ks_btf_lock);
	if (ks_vmlinux.data)
		ks_btf_free(&ks_vmlinux);
	ks_vmlinux_err = 0;
	mutex_unlock(&ks_btf_lock);
}

/**
 * ks_btf_args_in_regs() - may a node's symbols be traced through a trampoline?
 * @node: its syms, as attached: "name", "name.constprop.0", "mod:name"
 * @res: for each symbol, 0 if BTF shows every argument in registers,
 *	 -E2BIG if some go on the stack, -EDOM for a compiler clone whose
 *	 arguments need not be its original's (.isra, .part), -ENOENT if
 *	 there is no BTF for the function, -ENOMEM if reading it ran out
 *
 * Return: 0, or the error reading vmlinux BTF (then every @res holds it).
 */
int ks_btf_args_in_regs(const struct ks_node *node, int *res)
{
	unsigned int i;
	int ret;

	ret = ks_btf_prepare();
	for (i = 0; i < node->nsyms; i++)
		res[i] = ret ? ret : ks_btf_sym_in_regs(&ks_vmlinux,
							 node->syms[i]);
	return ret;
}
