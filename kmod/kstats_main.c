// SPDX-License-Identifier: GPL-2.0
/*
 * kstats: measure how long chosen kernel functions take, in place.
 *
 *   echo "trace find_vma bits 3" > /sys/kernel/debug/kstats/_control
 *   cat /sys/kernel/debug/kstats/find_vma
 *   echo "remove find_vma" > /sys/kernel/debug/kstats/_control
 *
 * Each traced function gets a node: a per-CPU log-linear histogram
 * (include/kstats/hist.h) fed by entry/exit hooks (a backend), and a
 * file that prints a summary header and the original kstats rows, in
 * /proc/kstats, which /sys/kernel/debug/kstats links to (ks_files.c).
 * The command grammar is documented in ks_cmd.c; the output in
 * docs/format.md.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/mutex.h>
#include <kstats/version.h>
#include "ks_slots.h"
#include "ks_slowest.h"
#include "ks_btf.h"
#include "ks_backend.h"
#include "ks_node.h"
#include "ks_clock.h"
#include "ks_modules.h"
#include "ks_control.h"
#include "ks_glob.h"

static struct ks_file ks_control, ks_last;

static int __init kstats_init(void)
{
	int ret;

	ks_clock_watch_init(&ks_lock, &ks_nodes);
	ks_nest_init();
	ret = ks_node_cache_init();
	if (ret)
		return ret;
	ret = ks_slots_setup();
	if (ret)
		goto out_cache;
	ret = ks_backends_start();
	if (ret)
		goto out_slots;
	ret = ks_files_init();
	if (ret)
		goto out_backends;
	ret = register_module_notifier(&ks_module_nb);
	if (ret)
		goto out_files;
	ret = ks_file_add(&ks_control, "_control", 0600, NULL,
			  &ks_control_file);
	if (!ret)
		ret = ks_file_add(&ks_last, "_last", 0400, NULL, &ks_last_file);
	if (ret)
		goto out_notifier;
	return 0;

out_notifier:
	unregister_module_notifier(&ks_module_nb);
out_files:
	ks_files_exit();
out_backends:
	ks_backends_stop();
out_slots:
	ks_slots_exit();
out_cache:
	ks_node_cache_exit();
	return ret;
}

static void __exit kstats_exit(void)
{
	unregister_module_notifier(&ks_module_nb);
	mutex_lock(&ks_lock);
	ks_nodes_remove(NULL, true);
	ks_control_exit();
	mutex_unlock(&ks_lock);
	ks_files_exit();
	ks_reap_wait();
	ks_backends_stop();
	ks_slowest_exit();
	ks_slots_exit();
	ks_node_cache_exit();
	ks_clock_watch_stop();
	ks_btf_release();
}

module_init(kstats_init);
module_exit(kstats_exit);
MODULE_DESCRIPTION("kstats: latency histograms of kernel functions");
MODULE_LICENSE("GPL");
MODULE_VERSION(KS_VERSION);
