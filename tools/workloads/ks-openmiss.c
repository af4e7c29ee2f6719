// SPDX-License-Identifier: GPL-2.0
/*
 * ks-openmiss: open() a name that does not exist, N times, in one
 * directory: the workload of the should_failslab() revert thread
 * (each open() of a missing name allocates a struct filename, a file
 * and a dentry that are freed again).  Run it in a tmpfs directory.
 */
#include <fcntl.h>
#include <getopt.h>
#include <unistd.h>

#include "ks_wl.h"

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: ks-openmiss [-n COUNT] [-d DIR] [-f NAME]\n"
		"open(NAME, O_RDONLY) COUNT times in DIR; NAME must not exist.\n"
		"  -n COUNT  number of open() calls (default 100k; k/M suffixes)\n"
		"  -d DIR    directory to run in (default: the current one;\n"
		"            use a tmpfs for repeatable figures)\n"
		"  -f NAME   the missing name (default non_existent)\n"
		"Prints: ks-openmiss: ops=N ns=T ns_per_op=X cycles=C cycles_per_op=Y\n");
	exit(status);
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *name = "non_existent";
	unsigned long n = 100000, i;
	struct ks_span span;
	int c, fd;

	ks_prog = "ks-openmiss";
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	while ((c = getopt_long(argc, argv, "n:d:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n': n = ks_count("-n", optarg, 0, 1000000000ul); break;
		case 'd': dir = optarg; break;
		case 'f': name = optarg; break;
		case 'h': usage(0); break;
		default: usage(2);
		}
	}
	if (optind != argc)
		usage(2);
	if (dir && chdir(dir))
		ks_die("cannot enter %s: %s", dir, strerror(errno));
	if (!*name || strchr(name, '/'))
		ks_die("-f: a plain file name, please");
	fd = open(name, O_RDONLY);
	if (fd >= 0 || errno != ENOENT)
		ks_die("'%s' must not exist (open: %s)", name,
		       fd >= 0 ? "succeeded" : strerror(errno));

	ks_span_start(&span);
	for (i = 0; i < n; i++) {
		fd = open(name, O_RDONLY);
		if (__builtin_expect(fd >= 0, 0))
			ks_die("'%s' appeared while running", name);
	}
	ks_span_stop(&span);
	ks_report("ks-openmiss", n, &span);
	printf("\n");
	return 0;
}
