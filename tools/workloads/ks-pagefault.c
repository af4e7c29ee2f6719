// SPDX-License-Identifier: GPL-2.0
/*
 * ks-pagefault: map a small anonymous region, touch each page, unmap it,
 * N times, while M other single-page mappings stay in the address space
 * (so the VMA tree is large): page faults and mmap/munmap call find_vma()
 * heavily, the function of the mmap_assert_locked() review thread.
 *
 * On kernels with per-VMA locks (6.4+) a fault in a VMA that has no
 * anon_vma yet falls back to the mmap_lock path and find_vma(), so the
 * fresh mapping of every iteration still goes through it at least once.
 */
#include <getopt.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ks_wl.h"

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: ks-pagefault [-n COUNT] [-p PAGES] [-m MAPPINGS]\n"
		"COUNT times: mmap PAGES anonymous pages, write each, munmap.\n"
		"  -n COUNT     iterations (default 10k; k/M suffixes)\n"
		"  -p PAGES     pages per mapping (default 4)\n"
		"  -m MAPPINGS  separate one-page VMAs kept mapped meanwhile\n"
		"               (default 256; more makes the VMA tree deeper)\n"
		"Prints: ks-pagefault: ops=N ns=T ns_per_op=X cycles=C cycles_per_op=Y\n"
		"        faults=F vmas=V\n");
	exit(status);
}

static unsigned long count_vmas(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long n = 0;
	int c;

	if (!f)
		return 0;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	unsigned long n = 10000, pages = 4, keep = 256, i, j;
	long ps = sysconf(_SC_PAGESIZE);
	volatile char *p;
	struct ks_span span;
	char *hold = NULL;
	int c;

	ks_prog = "ks-pagefault";
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	while ((c = getopt_long(argc, argv, "n:p:m:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n': n = ks_count("-n", optarg, 0, 1000000000ul); break;
		case 'p': pages = ks_count("-p", optarg, 1, 1ul << 20); break;
		case 'm': keep = ks_count("-m", optarg, 0, 60000); break;
		case 'h': usage(0); break;
		default: usage(2);
		}
	}
	if (optind != argc)
		usage(2);

	/*
	 * 2*keep pages with every other one PROT_NONE: 2*keep VMAs that
	 * cannot merge.  The writable ones are then touched, one fault each
	 * (split first, so no transparent huge page covers several).
	 */
	if (keep) {
		hold = mmap(NULL, 2 * keep * ps, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (hold == MAP_FAILED)
			ks_die("mmap of %lu pages: %s", 2 * keep, strerror(errno));
		for (i = 0; i < keep; i++)
			if (mprotect(hold + (2 * i + 1) * ps, ps, PROT_NONE))
				ks_die("mprotect: %s (vm.max_map_count?)",
				       strerror(errno));
		for (i = 0; i < keep; i++)
			hold[2 * i * ps] = 1;
	}

	ks_span_start(&span);
	for (i = 0; i < n; i++) {
		p = mmap(NULL, pages * ps, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (__builtin_expect(p == MAP_FAILED, 0))
			ks_die("mmap: %s", strerror(errno));
		for (j = 0; j < pages; j++)
			p[j * ps] = 1;
		munmap((void *)p, pages * ps);
	}
	ks_span_stop(&span);
	ks_report("ks-pagefault", n, &span);
	printf(" faults=%lu vmas=%lu\n", n * pages, count_vmas());
	return 0;
}
