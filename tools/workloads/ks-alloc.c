// SPDX-License-Identifier: GPL-2.0
/*
 * ks-alloc: an allocation-heavy loop for the slab and page allocator
 * fast paths (should_failslab(), should_fail_alloc_page()).  One
 * operation, by mode:
 *   pipe        pipe2(), write 1 byte (the pipe takes a page), close both
 *               ends: slab objects for the pipe, two files, an inode and a
 *               dentry, plus one page
 *   socketpair  AF_UNIX socketpair(), send 1 byte, close both: sockets,
 *               inodes, files and an skb (kmalloc)
 *   mmap        mmap PAGES anonymous pages, write each, munmap: one page
 *               per page plus page tables and a vm_area_struct
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ks_wl.h"

enum mode { M_PIPE, M_SOCKETPAIR, M_MMAP };
static const char * const mode_names[] = { "pipe", "socketpair", "mmap" };

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: ks-alloc [-n COUNT] [-m pipe|socketpair|mmap] [-p PAGES]\n"
		"An allocation-heavy loop, COUNT operations of one kind:\n"
		"  pipe        pipe2(), write 1 byte, close both ends (default)\n"
		"  socketpair  AF_UNIX socketpair(), send 1 byte, close both\n"
		"  mmap        mmap PAGES anonymous pages, write each, munmap\n"
		"  -n COUNT    operations (default 50k; k/M suffixes)\n"
		"  -p PAGES    pages per operation in mmap mode (default 4)\n"
		"Prints: ks-alloc: ops=N ns=T ns_per_op=X cycles=C cycles_per_op=Y mode=M\n");
	exit(status);
}

static void one_pipe(void)
{
	int fd[2];

	if (__builtin_expect(pipe2(fd, O_CLOEXEC), 0))
		ks_die("pipe2: %s", strerror(errno));
	if (__builtin_expect(write(fd[1], "x", 1) != 1, 0))
		ks_die("write: %s", strerror(errno));
	close(fd[0]);
	close(fd[1]);
}

static void one_socketpair(void)
{
	int fd[2];

	if (__builtin_expect(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC,
					0, fd), 0))
		ks_die("socketpair: %s", strerror(errno));
	if (__builtin_expect(send(fd[0], "x", 1, 0) != 1, 0))
		ks_die("send: %s", strerror(errno));
	close(fd[0]);
	close(fd[1]);
}

static void one_mmap(unsigned long pages, long ps)
{
	volatile char *p;
	unsigned long j;

	p = mmap(NULL, pages * ps, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (__builtin_expect(p == MAP_FAILED, 0))
		ks_die("mmap: %s", strerror(errno));
	for (j = 0; j < pages; j++)
		p[j * ps] = 1;
	munmap((void *)p, pages * ps);
}

int main(int argc, char **argv)
{
	unsigned long n = 50000, pages = 4, i;
	long ps = sysconf(_SC_PAGESIZE);
	enum mode mode = M_PIPE;
	struct ks_span span;
	int c;

	ks_prog = "ks-alloc";
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	while ((c = getopt_long(argc, argv, "n:m:p:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n': n = ks_count("-n", optarg, 0, 1000000000ul); break;
		case 'p': pages = ks_count("-p", optarg, 1, 1ul << 20); break;
		case 'm':
			for (mode = 0; mode < 3; mode++)
				if (!strcmp(optarg, mode_names[mode]))
					break;
			if (mode == 3)
				ks_die("-m: pipe, socketpair or mmap, not '%s'",
				       optarg);
			break;
		case 'h': usage(0); break;
		default: usage(2);
		}
	}
	if (optind != argc)
		usage(2);

	ks_span_start(&span);
	for (i = 0; i < n; i++) {
		switch (mode) {
		case M_PIPE: one_pipe(); break;
		case M_SOCKETPAIR: one_socketpair(); break;
		case M_MMAP: one_mmap(pages, ps); break;
		}
	}
	ks_span_stop(&span);
	ks_report("ks-alloc", n, &span);
	printf(" mode=%s", mode_names[mode]);
	if (mode == M_MMAP)
		printf(" pages=%lu", pages);
	printf("\n");
	return 0;
}
