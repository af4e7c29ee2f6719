// SPDX-License-Identifier: GPL-2.0
/*
 * A client of the original kstats header (lr-cstats include/linux/kstats.h),
 * written the way code annotated for it is: only the original's names,
 * nothing of this project.  It must build unchanged against
 * include/linux/kstats.h.  On load it records the values 1..100 into
 * "lr_client" (avg 50, min 1, max 100) and one time into "lr_client2";
 * unloading deletes both.
 */
#include <linux/module.h>
#include <linux/ktime.h>
#include <linux/kstats.h>

static struct kstats *key;
static struct kstats *key2;

static int __init lr_client_init(void)
{
	struct kstats_cfg cfg = { .name = "lr_client2", .frac_bits = 3 };
	u64 i, dt;

	key = kstats_new("lr_client", 3);
	key2 = kstats2_new(&cfg);
	if (!key || !key2) {
		kstats_delete(key);
		kstats_delete(key2);
		return -ENOMEM;
	}
	for (i = 1; i <= 100; i++)
		KSTATS_RECORD(key, i);

	dt = ktime_get_ns();
	kstats_log(key2, &dt, sizeof(dt));
	dt = ktime_get_ns() - dt;
	if (kstats_active(key2))
		kstats_record(key2, dt);
	return 0;
}

static void __exit lr_client_exit(void)
{
	kstats_delete(key);
	kstats_delete(key2);
}

module_init(lr_client_init);
module_exit(lr_client_exit);
MODULE_DESCRIPTION("a client of the original kstats annotation API");
MODULE_LICENSE("GPL");
