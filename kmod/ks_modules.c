// SPDX-License-Identifier: GPL-2.0
/*
 * kstats and other modules: a node that hooks a function of a module that
 * goes is detached (and stopped) before that module is freed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/mutex.h>
#include "ks_syms.h"
#include "ks_backend.h"
#include "ks_node.h"
#include "ks_modules.h"

/* Does @node hook a function of @mod? */
static bool ks_node_in_module(struct ks_node *node, struct module *mod)
{
	size_t len = strlen(mod->name);
	unsigned int i;

	for (i = 0; i < node->nsyms; i++) {
		const char *sym = node->syms[i];
		const char *colon = strchr(sym, ':');

		if (colon && (colon - sym != len || strncmp(sym, mod->name, len)))
			continue;	/* another module's, by its name */
		if (ks_module_has(mod, colon ? colon + 1 : sym))
			return true;
	}
	return false;
}

/*
 * A module that goes takes its functions with it, but an ftrace_ops keeps
 * their addresses in its filter: once another module is loaded there, a
 * direct call would be patched into its text (ftrace warns) and an fprobe
 * would time it.  Before the module is freed (this runs before ftrace
 * forgets its functions), detach every node that hooks one of them by
 * address; the node stays, stopped, with its samples, until removed.
 */
static int ks_module_going(struct notifier_block *nb, unsigned long state,
			   void *data)
{
	struct module *mod = data;
	struct ks_node *node;

	if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&ks_lock);
	list_for_each_entry(node, &ks_nodes, list) {
		if (!(node->backend->caps & KS_CAP_BY_ADDRESS) || !node->priv ||
		    !ks_node_in_module(node, mod))
			continue;
		pr_info("%s: module %s unloaded: detached and stopped, samples kept\n",
			node->cmd.name, mod->name);
		ks_node_act(node, KS_VERB_STOP);
		node->backend->detach(node);
		ks_backends_settle();
	}
	mutex_unlock(&ks_lock);
	return NOTIFY_DONE;
}

struct notifier_block ks_module_nb = {
	.notifier_call = ks_module_going,
};
