/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats internals shared by kstats_main.c and the annotation API
 * (ks_api.c, include/linux/kstats.h): nodes that code records into itself.
 */
#ifndef _KSTATS_API_H
#define _KSTATS_API_H

#include "ks_node.h"

extern const struct ks_backend ks_api_backend;

/* kstats_main.c: publish and remove such nodes like traced ones */
struct ks_node *ks_api_node_add(const struct ks_cmd *cmd);
void ks_api_node_remove(struct ks_node *node);

/* ks_api.c: follow a start or stop of @node (the static key) */
void ks_api_node_acted(struct ks_node *node);

#endif /* _KSTATS_API_H */
