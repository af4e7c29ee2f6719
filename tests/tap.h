/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * TAP output of the C test programs (tests/unit), the counterpart of
 * vm/tap.sh: one numbered line per check,
 *   ok N - WHAT             not ok N - WHAT: WHY
 * and tap_end() for the plan and the closing line
 *   N passed, N failed, N skipped
 * Header-only: include it once per program.
 */
#ifndef KSTATS_TESTS_TAP_H
#define KSTATS_TESTS_TAP_H

#include <stdarg.h>
#include <stdio.h>

static unsigned int tap_n, tap_failed, tap_skipped;

/* One check: "ok N - WHAT" if @good, else "not ok N - WHAT". */
static void __attribute__((format(printf, 2, 3)))
tap_result(int good, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!good)
		tap_failed++;
	printf("%sok %u - ", good ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* A check that cannot run here: "ok N - WHAT # SKIP WHY". */
static inline void tap_skip(const char *what, const char *why)
{
	tap_n++;
	tap_skipped++;
	printf("ok %u - %s # SKIP %s\n", tap_n, what, why);
}

/* The plan and the closing line; the program's exit status. */
static inline int tap_end(void)
{
	printf("1..%u\n%u passed, %u failed, %u skipped\n", tap_n,
	       tap_n - tap_failed - tap_skipped, tap_failed, tap_skipped);
	return tap_failed ? 1 : 0;
}

#endif /* KSTATS_TESTS_TAP_H */
