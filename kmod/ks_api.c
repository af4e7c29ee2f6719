// SPDX-License-Identifier: GPL-2.0
/*
 * kstats annotation API (include/linux/kstats.h): nodes that kernel code
 * fills itself, with kstats_record() or a KSTATS_SECTION_START/END pair.
 * They are published and removed like the nodes "trace" makes
 * (attach=api:NAME), through ks_node_create() and ks_node_delete(); this
 * file is their backend and the exported calls.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/error-injection.h>
#include <linux/slab.h>
#include <linux/kprobes.h>
#include <linux/kstats.h>
#include "ks_record.h"
#include "ks_node.h"
#include "ks_trace.h"

/* The header reads a node's active flag inline, as struct kstats_head. */
static_assert(offsetof(struct ks_node, active) ==
	      offsetof(struct kstats_head, active));
static_assert(sizeof_field(struct ks_node, active) ==
	      sizeof_field(struct kstats_head, active));

/*
 * Enabled while some API node is active: the first thing every annotation
 * tests, so that it costs one no-op jump otherwise.
 */
DEFINE_STATIC_KEY_FALSE(kstats_key);
EXPORT_SYMBOL_GPL(kstats_key);

/* The backend state of an API node: does it hold a count of kstats_key? */
struct ks_api {
	bool keyed;
};

/*
 * Make kstats_key follow @node's state after a start or stop (process
 * context; concurrent calls may leave the key on for a stopped node, which
 * costs a test, never a sample).
 */
static void ks_api_acted(struct ks_node *node)
{
	struct ks_api *api = node->priv;

	if (!api)
		return;
	if (READ_ONCE(node->active)) {
		if (!xchg(&api->keyed, true))
			static_branch_inc(&kstats_key);
	} else if (xchg(&api->keyed, false)) {
		static_branch_dec(&kstats_key);
	}
}

static int ks_api_attach(struct ks_node *node)
{
	struct ks_api *api = kzalloc(sizeof(*api), GFP_KERNEL);

	if (!api)
		return -ENOMEM;
	node->cmd.maxactive = 0;	/* no pool: nothing is in flight */
	node->priv = api;
	ks_api_acted(node);
	return 0;
}
ALLOW_ERROR_INJECTION(ks_api_attach, ERRNO);

/* Stop recording; the caller waits for the calls still recording. */
static void ks_api_detach(struct ks_node *node)
{
	struct ks_api *api = node->priv;

	WRITE_ONCE(node->active, false);
	if (xchg(&api->keyed, false))
		static_branch_dec(&kstats_key);
	node->priv = NULL;
	kfree(api);
}

static u64 ks_api_missed(struct ks_node *node)
{
	return 0;
}

static const struct ks_backend ks_api_backend = {
	.via = KS_VIA_API,
	.attach = ks_api_attach,
	.detach = ks_api_detach,
	.missed = ks_api_missed,
	.acted = ks_api_acted,
	.owner_removes = "made by kstats_new(): only kstats_delete() removes it",
};

/**
 * kstats_new() - make node @name, recorded into by its caller
 * @name: node name, as for "trace" (letters, digits, ._-:, no blanks)
 * @frac_bits: 2^@frac_bits slots per power of two, 0..KSTATS_BITS_MAX
 *
 * Process context.  The node starts active.
 *
 * Return: the node, or NULL (logged) if @name is taken or invalid, the
 * bits out of range, or memory short.
 */
struct kstats *kstats_new(const char *name, u8 frac_bits)
{
	struct ks_node *node = NULL;
	const char *why = "";
	struct ks_cmd *cmd;
	char *line;

	if (!name || strpbrk(name, " \t\n")) {
		pr_err("%s: a node name is one word\n", __func__);
		return NULL;
	}
	cmd = kmalloc(sizeof(*cmd), GFP_KERNEL);
	line = kasprintf(GFP_KERNEL, "trace %s bits %u", name, frac_bits);
	if (cmd && line) {
		/* the names and limits of _control, from its own parser */
		if (ks_cmd_parse(line, cmd, &why))
			pr_err("%s(\"%s\", %u): %s\n", __func__, name,
			       frac_bits, why);
		else
			node = ks_node_create(cmd, &ks_api_backend);
	}
	kfree(line);
	kfree(cmd);
	return IS_ERR_OR_NULL(node) ? NULL : (struct kstats *)node;
}
EXPORT_SYMBOL_GPL(kstats_new);

/**
 * kstats2_new() - make a node from the original's configuration
 * @cfg: name and frac_bits; a log (entry_size > 0) is not supported
 *
 * Return: as kstats_new().
 */
struct kstats *kstats2_new(const struct kstats_cfg *cfg)
{
	if (!cfg || !cfg->name)
		return NULL;
	if (cfg->entry_size) {
		pr_err("%s(\"%s\"): logs (entry_size %u) are not supported\n",
		       __func__, cfg->name, cfg->entry_size);
		return NULL;
	}
	return kstats_new(cfg->name, cfg->frac_bits);
}
EXPORT_SYMBOL_GPL(kstats2_new);

/**
 * kstats_delete() - remove a node made by kstats_new()
 * @ks: the node, or NULL
 *
 * Process context.  Unpublishes and stops the node, waits for the calls
 * recording into it to return, and frees it (include/linux/kstats.h:
 * "Lifetime").
 */
void kstats_delete(struct kstats *ks)
{
	if (ks)
		ks_node_delete((struct ks_node *)ks);
}
EXPORT_SYMBOL_GPL(kstats_delete);

/**
 * kstats_record() - add @value to @ks's histogram on this CPU
 * @ks: the node, or NULL (nothing is recorded)
 * @value: any u64: a time in the node's unit, a length, a count...
 *
 * Any context, NMI included; recorded only while the node is active.
 */
notrace void kstats_record(struct kstats *ks, u64 value)
{
	struct ks_node *node = (struct ks_node *)ks;

	if (!node)
		return;
	preempt_disable_notrace();
	if (READ_ONCE(node->active))
		ks_record(node, value);
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(kstats_record);
NOKPROBE_SYMBOL(kstats_record);

/**
 * kstats_section_begin() - start of a section (KSTATS_SECTION_START)
 * @ks: the node, or NULL
 *
 * Return: the node's clock now if it is active, else 0 (no section).
 */
notrace u64 kstats_section_begin(struct kstats *ks)
{
	struct ks_node *node = (struct ks_node *)ks;

	if (!node || !READ_ONCE(node->active))
		return 0;
	return ks_now(node);
}
EXPORT_SYMBOL_GPL(kstats_section_begin);
NOKPROBE_SYMBOL(kstats_section_begin);

/**
 * kstats_section_end() - end of a section (KSTATS_SECTION_END)
 * @ks: the node, or NULL (the section is dropped)
 * @t0: what kstats_section_begin() returned; 0: no section
 *
 * Records the time since @t0, in the node's unit, on this CPU.
 */
notrace void kstats_section_end(struct kstats *ks, u64 t0)
{
	struct ks_node *node = (struct ks_node *)ks;
	u64 now;

	if (!node || !t0)
		return;
	now = ks_now(node);
	preempt_disable_notrace();
	ks_record(node, ks_delta(node, t0, now));
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(kstats_section_end);
NOKPROBE_SYMBOL(kstats_section_end);
