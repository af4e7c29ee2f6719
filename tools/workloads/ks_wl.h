/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers of the kstats workload programs: clocks, number parsing
 * and the one-line result every workload prints on stdout:
 *
 *   NAME: ops=N ns=T ns_per_op=X cycles=C cycles_per_op=Y [key=value]...
 *
 * ns comes from clock_gettime(CLOCK_MONOTONIC), cycles from the TSC read
 * in this process right before and after the measured loop (0 where there
 * is no TSC).  Under an instruction-counting VM (QEMU -icount) prefer the
 * TSC figure: no wait for the host falls inside the loop.
 *
 * While the measured loop runs, the workload's comm is KS_WL_LOOP_COMM
 * (prctl PR_SET_NAME; its own name before and after): a kstats node with
 * "comm ks-wl-loop" counts the calls of the loop alone, exactly, without
 * those of the process's start-up and exit or of any other task.
 */
#ifndef KS_WL_H
#define KS_WL_H

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#define KS_WL_LOOP_COMM	"ks-wl-loop"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static inline uint64_t ks_cycles(void)
{
	uint64_t t;

	_mm_lfence();
	t = __rdtsc();
	_mm_lfence();
	return t;
}
#else
static inline uint64_t ks_cycles(void)
{
	return 0;
}
#endif

static inline uint64_t ks_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static const char *ks_prog = "ks-workload";

__attribute__((noreturn, format(printf, 1, 2)))
static inline void ks_die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", ks_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/*
 * A count with an optional k/M/G suffix (powers of ten: 100k = 100000),
 * within [lo, hi]; exits with a message on anything else.
 */
static inline unsigned long ks_count(const char *opt, const char *s,
				     unsigned long lo, unsigned long hi)
{
	unsigned long long v, mul = 1;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (end == s || errno || *s == '-')
		ks_die("%s: bad number '%s'", opt, s);
	switch (*end) {
	case 'k': case 'K': mul = 1000; end++; break;
	case 'm': case 'M': mul = 1000000; end++; break;
	case 'g': case 'G': mul = 1000000000; end++; break;
	}
	if (*end)
		ks_die("%s: bad number '%s'", opt, s);
	if (v > hi / mul || v * mul < lo || v * mul > hi)
		ks_die("%s: %s is out of range %lu..%lu", opt, s, lo, hi);
	return (unsigned long)(v * mul);
}

/* The measured span of a loop, and the comm to go back to after it. */
struct ks_span {
	uint64_t ns0, ns1, c0, c1;
	char comm[16];
};

static inline void ks_span_start(struct ks_span *s)
{
	if (prctl(PR_GET_NAME, s->comm) || prctl(PR_SET_NAME, KS_WL_LOOP_COMM))
		ks_die("prctl: %s", strerror(errno));
	s->ns0 = ks_now_ns();
	s->c0 = ks_cycles();
}

static inline void ks_span_stop(struct ks_span *s)
{
	s->c1 = ks_cycles();
	s->ns1 = ks_now_ns();
	prctl(PR_SET_NAME, s->comm);
}

/* Print "NAME: ops=... cycles_per_op=..." without the newline. */
static inline void ks_report(const char *name, unsigned long ops,
			     const struct ks_span *s)
{
	uint64_t ns = s->ns1 - s->ns0, cyc = s->c1 - s->c0;
	double d = ops ? (double)ops : 1.0;

	printf("%s: ops=%lu ns=%" PRIu64 " ns_per_op=%.1f cycles=%" PRIu64
	       " cycles_per_op=%.1f", name, ops, ns, ops ? ns / d : 0.0,
	       cyc, ops ? cyc / d : 0.0);
}

#endif /* KS_WL_H */
