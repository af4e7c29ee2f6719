// SPDX-License-Identifier: GPL-2.0
/*
 * ks-fork: fork a process with a large resident set N times; each child
 * exits at once and the parent waits for it.  Fork copies one page table
 * entry per resident page (vm_normal_page() per entry, the function of
 * the "improve the performance during fork" thread) and the child's exit
 * zaps them again.  Transparent huge pages are disabled on the region by
 * default so that every 4 KiB page has its own entry.
 */
#include <getopt.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ks_wl.h"

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: ks-fork [-n COUNT] [-s MIB] [--thp]\n"
		"Fill MIB MiB of anonymous memory, then COUNT times: fork(), the\n"
		"child _exit()s at once, the parent waits.\n"
		"  -n COUNT  forks (default 20)\n"
		"  -s MIB    resident set to build first (default 64)\n"
		"  --thp     allow transparent huge pages on it (default: off,\n"
		"            MADV_NOHUGEPAGE, one PTE per 4 KiB page)\n"
		"Prints: ks-fork: ops=N ns=T ns_per_op=X cycles=C cycles_per_op=Y\n"
		"        fork_ns_per_op=F rss_pages=R\n"
		"(ns covers fork + child exit + wait; fork_ns_per_op only the\n"
		"parent's fork() call.)\n");
	exit(status);
}

/* Resident pages of this process, from /proc/self/statm. */
static unsigned long rss_pages(void)
{
	unsigned long size = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%lu %lu", &size, &res) != 2)
			res = 0;
		fclose(f);
	}
	return res;
}

int main(int argc, char **argv)
{
	unsigned long n = 20, mib = 64, i, off;
	long ps = sysconf(_SC_PAGESIZE);
	uint64_t fork_ns = 0, t;
	struct ks_span span;
	int c, thp = 0, st;
	char *mem;
	pid_t pid;

	ks_prog = "ks-fork";
	static const struct option longopts[] = {
		{ "thp", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	while ((c = getopt_long(argc, argv, "n:s:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n': n = ks_count("-n", optarg, 0, 100000000ul); break;
		case 's': mib = ks_count("-s", optarg, 0, 1ul << 20); break;
		case 'T': thp = 1; break;
		case 'h': usage(0); break;
		default: usage(2);
		}
	}
	if (optind != argc)
		usage(2);

	if (mib) {
		mem = mmap(NULL, mib << 20, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED)
			ks_die("mmap of %lu MiB: %s", mib, strerror(errno));
		if (!thp && madvise(mem, mib << 20, MADV_NOHUGEPAGE) && errno != EINVAL)
			ks_die("madvise(MADV_NOHUGEPAGE): %s", strerror(errno));
		for (off = 0; off < mib << 20; off += ps)
			mem[off] = (char)off | 1;
	}

	fflush(stdout);
	ks_span_start(&span);
	for (i = 0; i < n; i++) {
		t = ks_now_ns();
		pid = fork();
		if (pid == 0)
			_exit(0);
		fork_ns += ks_now_ns() - t;
		if (pid < 0)
			ks_die("fork: %s", strerror(errno));
		if (waitpid(pid, &st, 0) != pid)
			ks_die("waitpid: %s", strerror(errno));
	}
	ks_span_stop(&span);
	ks_report("ks-fork", n, &span);
	printf(" fork_ns_per_op=%.1f rss_pages=%lu\n",
	       n ? (double)fork_ns / n : 0.0, rss_pages());
	return 0;
}
