/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats' version: the module's (MODULE_VERSION, /sys/module/kstats/version)
 * and the CLI's (kstats --version, meta.tool of a snapshot), one number;
 * dkms.conf's PACKAGE_VERSION says the same.
 */
#ifndef _KSTATS_VERSION_H
#define _KSTATS_VERSION_H

#define KS_VERSION	"0.1"

#endif /* _KSTATS_VERSION_H */
