// SPDX-License-Identifier: GPL-2.0
/*
 * ks_hello: the VM harness' own test module.  Creates
 * /sys/kernel/debug/ks_hello/value (reads 42) so the selftest scenario can
 * check insmod, debugfs and rmmod without depending on kstats.
 */
#include <linux/module.h>
#include <linux/debugfs.h>

static struct dentry *ks_hello_dir;
static u32 ks_hello_value = 42;

static int __init ks_hello_init(void)
{
	ks_hello_dir = debugfs_create_dir("ks_hello", NULL);
	debugfs_create_u32("value", 0444, ks_hello_dir, &ks_hello_value);
	pr_info("ks_hello: loaded\n");
	return 0;
}

static void __exit ks_hello_exit(void)
{
	debugfs_remove_recursive(ks_hello_dir);
	pr_info("ks_hello: unloaded\n");
}

module_init(ks_hello_init);
module_exit(ks_hello_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kstats VM harness self-test module");
