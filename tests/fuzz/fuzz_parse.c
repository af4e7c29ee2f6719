// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the CLI's node-file parser (tools/lib/ks_parse.c), which
 * reads node text captured on other machines and passed around.
 *
 * Each input is parsed leniently and strictly.  A node that parses must
 * have a consistent layout; it then goes through the snapshot writer and
 * reader (tools/lib/ks_snap.c) and must come back with the same histograms,
 * and through ks_view_delta() against itself.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ks_parse.h"
#include "ks_snap.h"
#include "ks_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned int flags[] = { 0, KS_PARSE_STRICT };
	struct ks_view node, delta;
	char err[256];
	unsigned int i;
	char *text;

	text = ks_fuzz_text(data, size);
	if (!text)
		return size > KS_FUZZ_MAX ? -1 : 0;
	for (i = 0; i < 2; i++) {
		err[0] = '\0';
		if (ks_parse_text(text, "fuzz", flags[i], &node, err, sizeof(err))) {
			if (!err[0])
				abort();	/* a failure always says why */
			continue;
		}
		ks_fuzz_check_node(&node);
		ks_fuzz_roundtrip(&node);
		if (ks_view_delta(&delta, &node, &node) == 0) {
			ks_fuzz_check_node(&delta);
			if (delta.samples)
				abort();	/* nothing happened in between */
			ks_view_free(&delta);
		}
		ks_view_free(&node);
	}
	free(text);
	return 0;
}
