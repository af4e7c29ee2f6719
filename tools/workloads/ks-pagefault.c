// SPDX-License-Identifier: GPL-2.0
/*
 * ks-pagefault: map a small anonymous region, touch each page, unmap it,
 * N times, while M other single-page mappings stay in the address space
 * (so the VMA tree is large): page faults and mmap/munmap call find_vma()
 * heavily, the function of the mmap_assert_locked() review thread.
 *
 * Who touches the pages matters on kernels with per-VMA locks (6.4+):
 * there a fault taken in user mode is served under the VMA's own lock,
 * found without find_vma(), while a fault taken by the kernel itself
 * (copy_to_user() into a page not yet present) still takes mmap_lock and
 * looks the VMA up with find_vma() (x86 lock_mm_and_find_vma()).  -t
 * kernel (the default) touches each page with read(2) of one byte from
 * /dev/zero, so the loop calls find_vma() once per page on every kernel;
 * -t user writes the pages from user space.
 */
#include <fcntl.h>
#include <getopt.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ks_wl.h"

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: ks-pagefault [-n COUNT] [-p PAGES] [-m MAPPINGS] [-t kernel|user]\n"
		"COUNT times: mmap PAGES anonymous pages, fault each in, munmap.\n"
		"  -n COUNT     iterations (default 10k; k/M suffixes)\n"
		"  -p PAGES     pages per mapping (default 4)\n"
		"  -m MAPPINGS  separate one-page VMAs kept mapped meanwhile\n"
		"               (default 256; more makes the VMA tree deeper)\n"
		"  -t kernel    fault the pages in from the kernel: read(2) one\n"
		"               byte of /dev/zero into each (default; mmap_lock\n"
		"               and find_vma() on every kernel)\n"
		"  -t user      write each page from user space (on 6.4+ kernels\n"
		"               served under the per-VMA lock, no find_vma())\n"
		"Prints: ks-pagefault: ops=N ns=T ns_per_op=X cycles=C cycles_per_op=Y\n"
		"        faults=F vmas=V touch=kernel|user\n");
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
	int c, kernel = 1, zfd = -1;

	ks_prog = "ks-pagefault";
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	while ((c = getopt_long(argc, argv, "n:p:m:t:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n': n = ks_count("-n", optarg, 0, 1000000000ul); break;
		case 'p': pages = ks_count("-p", optarg, 1, 1ul << 20); break;
		case 'm': keep = ks_count("-m", optarg, 0, 60000); break;
		case 't':
			if (!strcmp(optarg, "kernel"))
				kernel = 1;
			else if (!strcmp(optarg, "user"))
				kernel = 0;
			else
				ks_die("-t: kernel or user, not '%s'", optarg);
			break;
		case 'h': usage(0); break;
		default: usage(2);
		}
	}
	if (optind != argc)
		usage(2);
	if (kernel) {
		zfd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
		if (zfd < 0)
			ks_die("/dev/zero: %s", strerror(errno));
	}

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
		for (j = 0; j < pages; j++) {
			if (!kernel)
				p[j * ps] = 1;
			else if (__builtin_expect(read(zfd, (char *)p + j * ps, 1) != 1, 0))
				ks_die("read /dev/zero: %s", strerror(errno));
		}
		munmap((void *)p, pages * ps);
	}
	ks_span_stop(&span);
	ks_report("ks-pagefault", n, &span);
	printf(" faults=%lu vmas=%lu touch=%s\n", n * pages, count_vmas(),
	       kernel ? "kernel" : "user");
	return 0;
}
