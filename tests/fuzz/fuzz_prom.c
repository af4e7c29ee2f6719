// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the reader of Prometheus' answers (tools/lib/ks_prom.c,
 * on the JSON parser of tools/lib/ks_json.c), which kstats compare
 * --prometheus feeds with what a server sends, and the histograms it
 * builds from them.  A failed read must say why; a read answer must give
 * nodes of calls in the slots their buckets' bounds hold.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ks_prom.h"
#include "ks_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ks_prom_layout lay;
	struct ks_prom_side side;
	struct ks_prom_vec vec;
	char err[256];
	char *text;
	int i;
	__u32 s;

	text = ks_fuzz_text(data, size);
	if (!text)
		return size > KS_FUZZ_MAX ? -1 : 0;
	err[0] = '\0';
	if (ks_prom_parse(text, "fuzz", &vec, err, sizeof(err))) {
		if (!err[0])
			abort();
		free(text);
		return 0;
	}
	if (ks_prom_layout_init(&lay))
		abort();
	/* the same answer as buckets, sums and counts at once */
	if (ks_prom_side(&lay, &vec, &vec, &vec, NULL, "fuzz", &side))
		abort();
	for (i = 0; i < side.n; i++) {
		const struct ks_view *n = side.nodes[i];

		if (!n->samples || n->samples != kstats_total(n->total, n->nr_slots))
			abort();
		for (s = 0; s < n->nr_slots; s++)
			if (n->total[s].count && !(lay.bounds[s].lo <= lay.bounds[s].hi))
				abort();
	}
	ks_prom_side_free(&side);
	ks_prom_layout_free(&lay);
	ks_prom_vec_free(&vec);
	free(text);
	return 0;
}
