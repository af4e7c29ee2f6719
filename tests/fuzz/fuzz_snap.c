// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the CLI's snapshot reader (tools/lib/ks_snap.c, on the
 * JSON parser of tools/lib/ks_json.c), which reads files users attach to
 * emails.  A snapshot that reads must have a consistent layout and survive
 * a write and a second read with the same histograms.
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
	struct ks_view node;
	char err[256];
	char *text;

	text = ks_fuzz_text(data, size);
	if (!text)
		return size > KS_FUZZ_MAX ? -1 : 0;
	err[0] = '\0';
	if (ks_snap_read(text, "fuzz", &node, err, sizeof(err))) {
		if (!err[0])
			abort();
	} else {
		ks_fuzz_check_node(&node);
		ks_fuzz_roundtrip(&node);
		ks_view_free(&node);
	}
	free(text);
	return 0;
}
