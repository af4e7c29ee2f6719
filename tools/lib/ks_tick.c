// SPDX-License-Identifier: GPL-2.0
/*
 * ks_tick: the interval loop of watch and top, and what each read of a
 * node added.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ks_load.h"
#include "ks_tick.h"
#include "ks_parse.h"

volatile sig_atomic_t ks_tick_stop;

/* SIGINT/SIGTERM: finish the current interval and leave. */
static void ks_tick_on_signal(int sig)
{
	(void)sig;
	ks_tick_stop = 1;
}

double ks_mono_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sleep until monotonic time @until (or a signal). */
static int ks_tick_sleep(double until, void *arg)
{
	double d;

	(void)arg;
	while (!ks_tick_stop && (d = until - ks_mono_seconds()) > 0) {
		struct timespec ts = {
			.tv_sec = (time_t)d,
			.tv_nsec = (long)((d - (double)(time_t)d) * 1e9),
		};

		nanosleep(&ts, NULL);
	}
	return 0;
}

void ks_tick_start(struct ks_tick *t)
{
	struct sigaction sa = { .sa_handler = ks_tick_on_signal };

	/* no SA_RESTART: a read of keys or a sleep returns at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	t->it = 0;
	t->t0 = t->last = t->now = ks_mono_seconds();
}

#ifdef KS_TEST
/* The tests' hook instead of a wait: 1 to read now, 0 done, -1 failed. */
static int ks_tick_hook(struct ks_tick *t, ks_tick_wait_fn wait, void *arg)
{
	char buf[24];

	if (wait && t->it > 0 && wait(ks_mono_seconds() + t->interval, arg))
		return 0;
	snprintf(buf, sizeof(buf), "%ld", t->it + 1);
	setenv("KSTATS_TICK", buf, 1);
	fflush(stdout);
	if (system(t->tick_cmd)) {
		ks_err("test hook failed");
		return -1;
	}
	t->it++;
	t->now = t->t0 + (double)t->it * t->interval;
	return 1;
}
#endif

int ks_tick_next(struct ks_tick *t, ks_tick_wait_fn wait, void *arg)
{
	if (ks_tick_stop || (t->count >= 0 && t->it >= t->count))
		return 0;
	t->last = t->now;
#ifdef KS_TEST
	if (t->tick_cmd)
		return ks_tick_hook(t, wait, arg);
#endif
	if ((wait ? wait : ks_tick_sleep)(t->t0 + (double)(t->it + 1) * t->interval, arg) ||
	    ks_tick_stop)
		return 0;
	t->it++;
	t->now = ks_mono_seconds();
	return 1;
}

int ks_tick_read(const char *name, struct ks_view *prev, struct ks_view *d,
		 unsigned int flags)
{
	struct ks_view cur;
	int reset;

	if (ks_load_live(name, flags, &cur))
		return -1;
	/*
	 * A node not read before starts from nothing; one re-created with
	 * another slot layout too (a reset).
	 */
	reset = prev->total && (prev->bits != cur.bits || prev->buckets != cur.buckets);
	if (!prev->total || reset) {
		ks_view_free(prev);
		*prev = (struct ks_view){ .samples = 0 };
		if (ks_view_setup(prev, cur.bits, cur.buckets))
			goto nomem;
	}
	switch (ks_view_delta(d, &cur, prev)) {
	case -1:
		goto nomem;
	case 1:
		reset = 1;
	}
	ks_view_free(prev);
	*prev = cur;
	return reset;
nomem:
	ks_view_free(&cur);
	ks_err("out of memory");
	return -1;
}
