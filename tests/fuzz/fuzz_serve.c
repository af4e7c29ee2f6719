// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the request path of kstats serve (tools/lib/ks_serve.c):
 * content negotiation on any Accept header, and the answer to any method
 * and path, over a fake debugfs of one node (KSTATS_DEBUGFS, made at
 * start from tests/cli/fixtures/hand-bits3.txt).  The input is METHOD
 * newline PATH newline ACCEPT.  Every answer must have a known status and
 * a type; /metrics must be the node whole in either format: the protobuf
 * read back with protoc-c's unpack (its count 13), the text holding its
 * _count.
 */
#define _GNU_SOURCE	/* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/prometheus/client/metrics.pb-c.h"
#include "ks_serve.h"
#include "ks_fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct ks_serve_opts ks_fuzz_opts;	/* every node, merged */
static char ks_fuzz_dir[] = "/tmp/kstats-fuzz-serve-XXXXXX";

/* The fake debugfs removed at exit. */
static void ks_fuzz_rm(void)
{
	char path[sizeof(ks_fuzz_dir) + 32];

	snprintf(path, sizeof(path), "%s/find_vma", ks_fuzz_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/_control", ks_fuzz_dir);
	unlink(path);
	rmdir(ks_fuzz_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *dir = ks_fuzz_dir, path[sizeof(ks_fuzz_dir) + 32], buf[65536];
	FILE *in, *out;
	size_t n;

	(void)argc;
	(void)argv;
	if (!mkdtemp(dir))
		abort();
	atexit(ks_fuzz_rm);
	snprintf(path, sizeof(path), "%s/find_vma", dir);
	in = fopen(KS_FUZZ_FIXTURE, "r");
	out = fopen(path, "w");
	if (!in || !out)
		abort();
	n = fread(buf, 1, sizeof(buf), in);
	if (fwrite(buf, 1, n, out) != n)
		abort();
	fclose(in);
	fclose(out);
	snprintf(path, sizeof(path), "%s/_control", dir);
	out = fopen(path, "w");
	if (!out)
		abort();
	fputs("find_vma kretprobe active 13 0\n", out);
	fclose(out);
	setenv("KSTATS_DEBUGFS", dir, 1);
	return 0;
}

/* The protobuf answer: delimited families, kstats_latency_seconds' count 13. */
static void ks_fuzz_pb(const struct ks_buf *b)
{
	size_t pos = 0;
	int seen = 0;

	while (pos < b->len) {
		Io__Prometheus__Client__MetricFamily *f;
		__u64 len = 0;
		int sh = 0;

		while (pos < b->len && (b->data[pos] & 0x80)) {
			len |= (__u64)(b->data[pos++] & 0x7f) << sh;
			sh += 7;
		}
		if (pos >= b->len)
			abort();
		len |= (__u64)b->data[pos++] << sh;
		if (len > b->len - pos)
			abort();
		f = io__prometheus__client__metric_family__unpack(NULL, len, b->data + pos);
		if (!f)
			abort();
		if (!strcmp(f->name, "kstats_latency_seconds")) {
			if (f->n_metric != 1 || !f->metric[0]->histogram ||
			    f->metric[0]->histogram->sample_count != 13)
				abort();
			seen = 1;
		}
		io__prometheus__client__metric_family__free_unpacked(f, NULL);
		pos += len;
	}
	if (!seen)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ks_serve_resp r;
	char *text, *path, *accept;

	text = ks_fuzz_text(data, size);
	if (!text)
		return size > KS_FUZZ_MAX ? -1 : 0;
	path = strchr(text, '\n');
	if (path)
		*path++ = '\0';
	else
		path = "/metrics";
	accept = strchr(path, '\n');
	if (accept)
		*accept++ = '\0';
	(void)ks_serve_wants_pb(accept);
	if (ks_serve_respond(&ks_fuzz_opts, text, path, accept, &r))
		abort();	/* only out of memory */
	if (!r.type || (r.status != 200 && r.status != 404 && r.status != 405))
		abort();
	if (r.status == 200 && !strcmp(path, "/metrics")) {
		if (ks_serve_wants_pb(accept) != !strncmp(r.type, "application/vnd.google.protobuf", 31))
			abort();
		if (ks_serve_wants_pb(accept))
			ks_fuzz_pb(&r.body);
		else if (!memmem(r.body.data, r.body.len, "\nkstats_latency_seconds_count{", 30))
			abort();
	}
	free(r.body.data);
	free(text);
	return 0;
}
