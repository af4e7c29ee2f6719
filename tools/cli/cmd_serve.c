// SPDX-License-Identifier: GPL-2.0
/*
 * kstats serve [--listen ADDR:PORT] [--per-cpu] [NAME|GLOB...]
 *
 * A read-only exporter: every node (or those the globs match) at
 * /metrics, native histograms for a Prometheus that asks for protobuf,
 * the text of export --prometheus for anyone else (lib/ks_serve.c).
 * Built without libmicrohttpd (KS_NO_SERVE: the static build, SERVE=0),
 * it says so.
 */
#include <stdio.h>
#include <string.h>

#include "kstats.h"
#include "ks_export.h"
#ifndef KS_NO_SERVE
#include "ks_serve.h"
#endif

#define KS_SERVE_LISTEN	"127.0.0.1:9477"

int cmd_serve(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "per-cpu", no_argument, NULL, OPT_PER_CPU },
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	const char *listen = KS_SERVE_LISTEN;
	unsigned int flags = 0;
	int opt;

	while ((opt = getopt_long(argc, argv, ":l:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'l':
			listen = optarg;
			break;
		case OPT_PER_CPU:
			flags |= KS_EXPORT_PER_CPU;
			break;
		case 'h':
		case OPT_HELP:
			ks_help(stdout, "serve");
			return 0;
		default:
			ks_bad_opt("serve", opt, argv);
		}
	}
#ifdef KS_NO_SERVE
	(void)listen;
	(void)flags;
	ks_err("serve: not in this build (it needs libmicrohttpd and libprotobuf-c)");
	return 1;
#else
	{
		struct ks_serve_opts o = {
			.globs = argv + optind, .nglobs = argc - optind, .flags = flags,
		};
		char err[KS_ERR_MAX];

		if (ks_serve_run(&o, listen, err, sizeof(err))) {
			ks_err("serve: %s", err);
			return 1;
		}
		return 0;
	}
#endif
}
