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
 * debugfs file that prints a summary header and the original kstats rows.
 * The command grammar is documented in ks_cmd.c; the output in
 * docs/format.md.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/mutex.h>
#include <linux/security.h>
#include "ks_core.h"
#include "ks_glob.h"

static int __init kstats_init(void)
{
	struct dentry *d;
	int ret;

	/*
	 * A locked-down kernel (Secure Boot, lockdown=) lets nobody open a
	 * writable debugfs file: _control could never be used.
	 */
	ret = security_locked_down(LOCKDOWN_DEBUGFS);
	if (ret) {
		pr_err("the kernel is locked down (/sys/kernel/security/lockdown): debugfs refuses kstats' files, not loading\n");
		return ret;
	}
	ret = ks_slots_setup();
	if (ret)
		return ret;
	ret = ks_backends_start();
	if (ret) {
		ks_slots_exit();
		return ret;
	}
	ks_dir = debugfs_create_dir("kstats", NULL);
	if (IS_ERR(ks_dir)) {
		pr_err("cannot create debugfs directory: error %ld\n",
		       PTR_ERR(ks_dir));
		ks_backends_stop();
		ks_slots_exit();
		return PTR_ERR(ks_dir);
	}
	ret = register_module_notifier(&ks_module_nb);
	if (ret) {
		debugfs_remove(ks_dir);
		ks_backends_stop();
		ks_slots_exit();
		return ret;
	}
	d = debugfs_create_file("_control", 0600, ks_dir, NULL,
				&ks_control_fops);
	if (!IS_ERR(d))
		d = debugfs_create_file("_last", 0400, ks_dir, NULL,
					&ks_last_fops);
	if (IS_ERR(d)) {
		unregister_module_notifier(&ks_module_nb);
		debugfs_remove(ks_dir);
		ks_backends_stop();
		ks_slots_exit();
		return PTR_ERR(d);
	}
	return 0;
}

static void __exit kstats_exit(void)
{
	unregister_module_notifier(&ks_module_nb);
	mutex_lock(&ks_lock);
	ks_nodes_remove(NULL, true);
	ks_last_free();
	mutex_unlock(&ks_lock);
	debugfs_remove(ks_dir);
	ks_reap_wait();
	ks_backends_stop();
	ks_slowest_exit();
	ks_slots_exit();
	ks_clock_watch_stop();
	ks_btf_release();
}

module_init(kstats_init);
module_exit(kstats_exit);
MODULE_DESCRIPTION("kstats: latency histograms of kernel functions");
MODULE_LICENSE("GPL");
