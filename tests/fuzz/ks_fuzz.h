/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checks shared by the CLI fuzz targets: the invariants of a parsed
 * struct ks_view, and a snapshot write + read round trip.
 */
#ifndef KS_FUZZ_H
#define KS_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ks_parse.h"
#include "ks_snap.h"

#define KS_FUZZ_MAX	65536	/* bytes of one input */

/*
 * The input as a NUL-terminated string to free(), or NULL: too long (the
 * caller returns -1, so libFuzzer drops it) or out of memory.
 */
static inline char *ks_fuzz_text(const uint8_t *data, size_t size)
{
	char *text;

	if (size > KS_FUZZ_MAX)
		return NULL;
	text = malloc(size + 1);
	if (text) {
		memcpy(text, data, size);
		text[size] = '\0';
	}
	return text;
}

/* Layout and histograms of @node agree with include/kstats/hist.h. */
static inline void ks_fuzz_check_node(const struct ks_view *node)
{
	__u32 c, s;

	if (node->bits > KSTATS_BITS_MAX || node->buckets < 1 ||
	    node->buckets > kstats_max_buckets(node->bits) ||
	    node->nr_slots != kstats_nr_slots(node->bits, node->buckets) ||
	    !node->total)
		abort();
	if (!memchr(node->name, '\0', sizeof(node->name)) ||
	    !memchr(node->attach, '\0', sizeof(node->attach)) ||
	    !memchr(node->unit, '\0', sizeof(node->unit)))
		abort();
	for (c = 0; c < node->nr_cpus; c++) {
		if (c && node->cpus[c].cpu <= node->cpus[c - 1].cpu)
			abort();	/* ascending, no duplicates */
		for (s = 0; s < node->nr_slots; s++)
			if (!node->cpus[c].slots[s].count &&
			    node->cpus[c].slots[s].sum)
				abort();
	}
	(void)ks_slots_sum(node->total, node->nr_slots);
}

/*
 * Same counts and same slot means (the formats print integer means, so
 * a merged slot's sum comes back as count * mean).
 */
static inline int ks_fuzz_same_slots(const struct kstats_slot *a,
			      const struct kstats_slot *b, __u32 n)
{
	__u32 s;

	for (s = 0; s < n; s++)
		if (a[s].count != b[s].count ||
		    kstats_slot_mean(&a[s]) != kstats_slot_mean(&b[s]))
			return 0;
	return 1;
}

/* Write @node as a snapshot, read it back: the same node must return. */
static inline void ks_fuzz_roundtrip(const struct ks_view *node)
{
	struct ks_view back;
	char err[256], *doc = NULL;
	size_t len = 0;
	FILE *f;
	__u32 c;

	f = open_memstream(&doc, &len);
	if (!f)
		return;
	if (ks_snap_write(f, node)) {
		fclose(f);
		free(doc);
		return;
	}
	fclose(f);
	if (ks_snap_read(doc, "roundtrip", &back, err, sizeof(err))) {
		fprintf(stderr, "snapshot written cannot be read: %s\n%s\n",
			err, doc);
		abort();
	}
	if (strcmp(back.name, node->name) || back.bits != node->bits ||
	    back.buckets != node->buckets || back.samples != node->samples ||
	    back.nr_cpus != node->nr_cpus ||
	    !ks_fuzz_same_slots(back.total, node->total, node->nr_slots))
		abort();
	if (back.nr_callers != (node->callers_n ? node->nr_callers : 0))
		abort();
	for (c = 0; c < back.nr_callers; c++)
		if (strcmp(back.callers[c].id, node->callers[c].id) ||
		    strcmp(back.callers[c].site, node->callers[c].site) ||
		    back.callers[c].count != node->callers[c].count ||
		    !ks_fuzz_same_slots(back.callers[c].slots, node->callers[c].slots,
					node->nr_slots))
			abort();
	for (c = 0; c < node->nr_cpus; c++)
		if (back.cpus[c].cpu != node->cpus[c].cpu ||
		    !ks_fuzz_same_slots(back.cpus[c].slots, node->cpus[c].slots,
					node->nr_slots))
			abort();
	ks_view_free(&back);
	free(doc);
}

#endif /* KS_FUZZ_H */
