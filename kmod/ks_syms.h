/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats symbols (ks_syms.c): a name and its compiler clones, ftrace's
 * filter API, modules and tracepoints.
 */
#ifndef _KSTATS_SYMS_H
#define _KSTATS_SYMS_H

#include "ks_types.h"

struct module;
struct tracepoint;

#define KS_MATCH_MAX	65536	/* functions one glob may match in ftrace */

int ks_resolve_syms(struct ks_node *node);
int ks_ftrace_ips(struct ks_node *node);
int ks_ftrace_each(const char *pattern, const char *mod,
		   int (*fn)(void *arg, unsigned long ip, const char *name,
			     const char *mod),
		   void *arg);
bool ks_module_has(struct module *mod, const char *name);
struct tracepoint *ks_find_tracepoint(const char *name);
bool ks_name_in(const char *name, const char * const *list, unsigned int n);

#define KS_WHY_MAX	192	/* a refusal's reason, as _last tells it */
#define KS_QUIET_LINES	5	/* a glob's refusals logged */
__printf(2, 3) void ks_refuse_err(const char *name, const char *fmt, ...);
void ks_refused_why(char *buf, size_t len);
unsigned int ks_quiet_glob(bool on);

#endif /* _KSTATS_SYMS_H */
