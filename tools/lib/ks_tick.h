/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_tick: the interval loop of watch and top: when to read the nodes
 * again (a sleep, a caller's wait, or, in the test build only, the tests'
 * hook) and what a node added since its previous read.
 *
 * The test build (tools/kstats-test, -DKS_TEST, for tests/cli) has
 * watch and top take --test-tick CMD: CMD runs instead of each wait, so
 * that a test changes the nodes between reads without waiting.  The
 * installed tools/kstats has no such option.
 */
#ifndef KS_TICK_H
#define KS_TICK_H

#include <signal.h>
#include "ks_view.h"

/* Set by SIGINT/SIGTERM once ks_tick_start() ran: finish and leave. */
extern volatile sig_atomic_t ks_tick_stop;

/* An interval loop. */
struct ks_tick {
	double interval;	/* seconds between reads */
	long count;		/* reads to make, -1: until interrupted */
#ifdef KS_TEST
	const char *tick_cmd;	/* tests: run this instead of waiting */
#endif
	long it;		/* reads made so far */
	double t0, last, now;	/* monotonic seconds: start, previous read, this read */
};

/**
 * ks_mono_seconds() - CLOCK_MONOTONIC in seconds
 *
 * Return: the time.
 */
double ks_mono_seconds(void);

/**
 * ks_tick_start() - start the loop now; SIGINT and SIGTERM end it
 * @t: interval, count (and in the test build tick_cmd) set; the rest is
 *     filled here
 */
void ks_tick_start(struct ks_tick *t);

/**
 * ks_tick_wait_fn - how a caller waits (top reads keys meanwhile)
 * @until: monotonic time to return at
 * @arg:   the caller's
 *
 * Return: 0 to go on, nonzero to end the loop.
 */
typedef int (*ks_tick_wait_fn)(double until, void *arg);

/**
 * ks_tick_next() - wait for the next read
 * @t:    the loop
 * @wait: NULL to sleep, else how to wait
 * @arg:  passed to @wait
 *
 * Test build: with a tick_cmd, the hook runs at once with KSTATS_TICK=N and the time
 * of the read is t0 + N * interval (with @wait, the wait still happens
 * between reads, not before the first).  t->now is the time of the read,
 * t->last that of the previous one.
 *
 * Return: 1 to read now, 0 when done (count reached, signal, @wait said
 * so), -1 when the hook failed (printed).
 */
int ks_tick_next(struct ks_tick *t, ks_tick_wait_fn wait, void *arg);

/**
 * ks_tick_read() - read live node @name again; what it added since @prev
 * @name: node name
 * @prev: the previous read (becomes this one), or zeroed for a node not
 *        read before (then all it holds is what it added)
 * @d:    the difference (ks_view_delta()); free with ks_view_free()
 * @flags: for ks_load_live() (KS_LOAD_QUIET: no message when it fails)
 *
 * A node re-created with another slot layout counts as reset.
 *
 * Return: 0, 1 when the node was reset in between, -1 on error.
 */
int ks_tick_read(const char *name, struct ks_view *prev, struct ks_view *d,
		 unsigned int flags);

#endif /* KS_TICK_H */
