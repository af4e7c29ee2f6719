// SPDX-License-Identifier: GPL-2.0
/*
 * ks-bench: time one kernel operation from inside the guest.
 *
 *   ks-bench [OPTIONS] [-n NODE] write FILE DATA
 *	REPS times: one write() of DATA to FILE (opened once)
 *   ks-bench [OPTIONS] [-n NODE] open DIR N
 *	REPS times: N open("non_existent") in DIR (each must fail, ENOENT)
 *   ks-bench [OPTIONS] read FILE
 *	REPS times: open FILE, read it to EOF, close
 *   ks-bench [OPTIONS] fork N
 *	REPS times: N fork()s, each child exiting at once, waited for
 *   OPTIONS: [-r REPS] [-w WARM] [-c] [-f] [-s MS]
 *
 * Each timed operation is bracketed by two reads of the TSC (on arm64 the
 * virtual counter, scaled to ns), or with -c of CLOCK_MONOTONIC, in this
 * process.  Under QEMU -icount shift=0 both advance by one per guest
 * instruction, so the figures are instruction counts.  One untimed
 * warm-up operation comes first (-w: more).
 *
 * With -s MS, the program sleeps MS milliseconds before each timed
 * operation, so that work the kernel deferred (RCU
 * callbacks, kworkers, console output) runs then rather than inside a
 * timed operation.  Under -icount sleep=off an idle guest's clock jumps to
 * the next timer: the sleep costs no host time.
 *
 * With -f the program runs SCHED_FIFO: no other task (kworkers, RCU
 * callback threads, a tracer's reader) runs on its CPU inside a timed
 * operation; interrupts and softirqs still do.
 *
 * With -n NODE (a kstats node file), the node's "samples" header field is
 * read before the first and after the last timed operation, and the
 * difference is printed as the number of traced calls those made.
 *
 * Output, one line:
 *   KSB op=OP reps=R min=M median=D max=X [calls=C] t=T1,T2,...
 * Exit status 0 on success, 1 on a failed operation, 2 on a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include <kstats/contract.h>	/* the words of the node text */

/* The line of a node's text that holds its sample count. */
#define KS_SAMPLES_LINE	"# " KS_LINE_SAMPLES " "

#define REPS_MAX	1000

static int use_clock;

#if defined(__x86_64__)
static uint64_t counter(void)
{
	_mm_lfence();
	return __rdtsc();
}
#elif defined(__aarch64__)
/*
 * The arch timer's virtual counter in ns: under -icount shift=0 the
 * counter runs at CNTFRQ per second of guest time (62.5 MHz on QEMU 7's
 * virt machine, 16 instructions a tick), so this too counts instructions.
 */
static uint64_t counter(void)
{
	uint64_t cnt, frq;

	asm volatile("isb; mrs %0, cntvct_el0" : "=r"(cnt) : : "memory");
	asm("mrs %0, cntfrq_el0" : "=r"(frq));
	return (uint64_t)((unsigned __int128)cnt * 1000000000u / frq);
}
#else
#error "ks-bench: x86-64 or arm64"
#endif

static uint64_t now(void)
{
	struct timespec ts;

	if (!use_clock)
		return counter();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: ks-bench [OPTIONS] [-n NODE] write FILE DATA\n"
		"       ks-bench [OPTIONS] [-n NODE] open DIR N\n"
		"       ks-bench [OPTIONS] read FILE\n"
		"       ks-bench [OPTIONS] fork N\n"
		"OPTIONS: -r REPS (5), -w WARM (1), -c (CLOCK_MONOTONIC),\n"
		"         -f (SCHED_FIFO), -s MS (sleep before each timed op)\n");
	exit(2);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The "samples" field of a kstats node file opened as @fd, or -1. */
static long long node_samples(int fd)
{
	char buf[512], *p;
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strstr(buf, KS_SAMPLES_LINE);
	if (!p)
		return -1;
	return strtoll(p + strlen(KS_SAMPLES_LINE), NULL, 10);
}

struct op {
	const char *name;
	int fd;			/* write: the open FILE */
	const char *path;	/* read: FILE */
	const char *data;	/* write: DATA */
	size_t len;
	long n;			/* open, fork: per operation */
};

/* One operation; 0 on success. */
static int run_op(const struct op *op)
{
	static char buf[1 << 16];
	ssize_t r;
	long i;
	int fd;

	if (!strcmp(op->name, "write")) {
		r = write(op->fd, op->data, op->len);
		if (r != (ssize_t)op->len) {
			perror("ks-bench: write");
			return 1;
		}
	} else if (!strcmp(op->name, "fork")) {
		for (i = 0; i < op->n; i++) {
			pid_t pid = fork();
			int st;

			if (pid == 0)
				_exit(0);
			if (pid < 0 || waitpid(pid, &st, 0) != pid ||
			    !WIFEXITED(st) || WEXITSTATUS(st)) {
				perror("ks-bench: fork");
				return 1;
			}
		}
	} else if (!strcmp(op->name, "open")) {
		for (i = 0; i < op->n; i++) {
			fd = open("non_existent", O_RDONLY);
			if (fd >= 0 || errno != ENOENT) {
				fprintf(stderr, "ks-bench: open(non_existent) did not fail with ENOENT\n");
				if (fd >= 0)
					close(fd);
				return 1;
			}
		}
	} else {
		fd = open(op->path, O_RDONLY);
		if (fd < 0) {
			perror("ks-bench: open");
			return 1;
		}
		do {
			r = read(fd, buf, sizeof(buf));
		} while (r > 0);
		close(fd);
		if (r < 0) {
			perror("ks-bench: read");
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	static uint64_t t[REPS_MAX], sorted[REPS_MAX];
	long long c0 = 0, c1 = 0;
	const char *node = NULL;
	struct op op = { .fd = -1 };
	int reps = 5, warm = 1, settle_ms = 0, fifo = 0, opt, i, nfd = -1;
	char *end;

	while ((opt = getopt(argc, argv, "+r:w:cfs:n:")) != -1) {
		switch (opt) {
		case 'r':
			reps = atoi(optarg);
			if (reps < 1 || reps > REPS_MAX)
				usage();
			break;
		case 'w':
			warm = atoi(optarg);
			if (warm < 0 || warm > REPS_MAX)
				usage();
			break;
		case 'c':
			use_clock = 1;
			break;
		case 'f':
			fifo = 1;
			break;
		case 's':
			settle_ms = atoi(optarg);
			if (settle_ms < 0 || settle_ms > 10000)
				usage();
			break;
		case 'n':
			node = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 2)
		usage();
	op.name = argv[0];
	if (!strcmp(op.name, "write") && argc == 3) {
		op.data = argv[2];
		op.len = strlen(op.data);
		op.fd = open(argv[1], O_WRONLY);
		if (op.fd < 0) {
			perror(argv[1]);
			return 1;
		}
	} else if (!strcmp(op.name, "open") && argc == 3) {
		op.n = strtol(argv[2], &end, 10);
		if (*end || op.n < 1)
			usage();
		if (chdir(argv[1])) {
			perror(argv[1]);
			return 1;
		}
	} else if (!strcmp(op.name, "fork") && argc == 2) {
		op.n = strtol(argv[1], &end, 10);
		if (*end || op.n < 1)
			usage();
	} else if (!strcmp(op.name, "read") && argc == 2) {
		op.path = argv[1];
	} else {
		usage();
	}
	if (node) {
		nfd = open(node, O_RDONLY);
		if (nfd < 0) {
			perror(node);
			return 1;
		}
	}

	if (fifo) {
		struct sched_param sp = { .sched_priority = 50 };

		if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
			perror("ks-bench: SCHED_FIFO");
			return 1;
		}
	}
	for (i = 0; i < warm; i++)	/* page faults, dentry cache... */
		if (run_op(&op))
			return 1;
	if (nfd >= 0)
		c0 = node_samples(nfd);
	for (i = 0; i < reps; i++) {
		uint64_t t0, t1;

		if (settle_ms)
			usleep(settle_ms * 1000);
		t0 = now();
		if (run_op(&op))
			return 1;
		t1 = now();
		t[i] = t1 - t0;
	}
	if (nfd >= 0)
		c1 = node_samples(nfd);

	memcpy(sorted, t, reps * sizeof(t[0]));
	qsort(sorted, reps, sizeof(sorted[0]), cmp_u64);
	printf("KSB op=%s reps=%d min=%llu median=%llu max=%llu", op.name,
	       reps, (unsigned long long)sorted[0],
	       (unsigned long long)sorted[reps / 2],
	       (unsigned long long)sorted[reps - 1]);
	if (nfd >= 0)
		printf(" calls=%lld", c0 < 0 || c1 < 0 ? -1 : c1 - c0);
	printf(" t=");
	for (i = 0; i < reps; i++)
		printf("%s%llu", i ? "," : "", (unsigned long long)t[i]);
	printf("\n");
	return 0;
}
