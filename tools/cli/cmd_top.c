// SPDX-License-Identifier: GPL-2.0
/*
 * kstats top: every node (or those a glob matches), ranked by what each
 * interval added: calls, calls/s, p50, p99, max, total time and its share.
 *
 * On a terminal, and without -n, a live view like perf top: the screen
 * is redrawn every interval with ANSI codes only (no curses: it works
 * over ssh in any terminal), and keys change the order.  Otherwise (a
 * pipe, or -n COUNT) each interval prints one header line and one row per
 * node: in 72 columns for names of up to 24 characters, values with their
 * units; with --raw every column, values as integers in the node's unit,
 * for scripts.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "ks_callers.h"
#include "ks_ctl.h"
#include "ks_fmt.h"
#include "ks_load.h"
#include "ks_tick.h"
#include "kstats.h"

#include "ks_top.h"

/* Parse the arguments of top into @t; exits on bad usage; 1 for --help. */
static int ks_top_args(int argc, char **argv, struct ks_top *t)
{
	static const struct option lo[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ "sort", required_argument, NULL, 's' },
		{ "reverse", no_argument, NULL, 'r' },
		{ "raw", no_argument, NULL, OPT_RAW },
		{ "callers", no_argument, NULL, OPT_CALLERS },
#ifdef KS_TEST
		{ "test-tick", required_argument, NULL, OPT_TEST_TICK },
#endif
		{ "help", no_argument, NULL, OPT_HELP },
		{ 0 }
	};
	int opt, col;

	*t = (struct ks_top){ .tick = { .interval = 1.0, .count = -1 },
			      .sort = KS_TOP_TOTAL };
	while ((opt = getopt_long(argc, argv, ":i:n:s:rh", lo, NULL)) != -1) {
		if (ks_tick_opt("top", &t->tick, opt, optarg))
			continue;
		switch (opt) {
		case 's':
			col = ks_top_col_of(optarg);
			if (col < 0)
				ks_bad_usage("top", "--sort wants name, calls, p50, p99, max or total");
			t->sort = col;
			break;
		case 'r':
			t->reverse = 1;
			break;
		case OPT_RAW:
			t->raw = 1;
			break;
		case OPT_CALLERS:
			t->callers = 1;
			break;
		case 'h':
		case OPT_HELP:
			ks_help(stdout, "top");
			return 1;
		default:
			ks_bad_opt("top", opt, argv);
		}
	}
	t->globs = argv + optind;
	t->nglobs = argc - optind;
	t->live = t->tick.count < 0 && isatty(STDOUT_FILENO) && !t->raw;
	return 0;
}

/* ---- the live view ---- */

static struct termios ks_top_tio;
static int ks_top_tio_saved;	/* stdin is a terminal set up for keys */
static int ks_top_entered;	/* the alternate screen is on */
static volatile sig_atomic_t ks_top_resized;

/* SIGWINCH: redraw at the new size. */
static void ks_top_on_winch(int sig)
{
	(void)sig;
	ks_top_resized = 1;
}

/* Leave the live view: the terminal as it was. */
static void ks_top_leave(void)
{
	if (!ks_top_entered)
		return;
	ks_top_entered = 0;
	if (ks_top_tio_saved) {
		tcsetattr(STDIN_FILENO, TCSANOW, &ks_top_tio);
		ks_top_tio_saved = 0;
	}
	/* cursor back, main screen back */
	fputs("\033[?25h\033[?1049l", stdout);
	fflush(stdout);
}

/* Enter the live view: keys unbuffered and silent, alternate screen. */
static void ks_top_enter(void)
{
	struct sigaction sa = { .sa_handler = ks_top_on_winch };
	struct termios raw;

	if (isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &ks_top_tio)) {
		raw = ks_top_tio;
		raw.c_lflag &= ~(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 0;
		if (!tcsetattr(STDIN_FILENO, TCSANOW, &raw))
			ks_top_tio_saved = 1;
	}
	sigaction(SIGWINCH, &sa, NULL);
	atexit(ks_top_leave);
	ks_top_entered = 1;
	fputs("\033[?1049h\033[?25l", stdout);
}

/* The terminal's size, or 80x24. */
static void ks_top_winsize(int *rows, int *cols)
{
	struct winsize ws;

	*rows = 24;
	*cols = 80;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row > 0 && ws.ws_col > 0) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

/* Print @s cut at @cols columns, then clear to the end of the line. */
static void ks_top_put(const char *s, int cols, const char *pre, const char *post)
{
	printf("%s%.*s%s\033[K\n", pre, cols, s, post);
}

/* Draw the live view. */
static void ks_top_draw(struct ks_top *t)
{
	char line[512], when[16];
	int rows, cols, i, j, k, n, namew = ks_top_namew(t);
	double calls = 0;
	time_t now = time(NULL);
	struct tm tm;

	ks_top_winsize(&rows, &cols);
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	fputs("\033[H", stdout);
	if (!t->have_rows) {
		snprintf(line, sizeof(line), "kstats top %s: reading the first %g s...",
			 when, t->tick.interval);
		ks_top_put(line, cols, "", "");
		fputs("\033[J", stdout);
		fflush(stdout);
		return;
	}
	ks_top_sort(t);
	for (i = 0; i < t->nrows; i++)
		calls += t->rows[i].rate;
	snprintf(line, sizeof(line),
		 "kstats top %s, every %g s: %d node%s%s%s, %.1f calls/s; sorted by %s%s",
		 when, t->tick.interval, t->nrows, t->nrows == 1 ? "" : "s",
		 t->nglobs ? " matching " : "", t->nglobs ? t->globs[0] : "",
		 calls, ks_top_sorts[t->sort].word, t->reverse ? ", reversed" : "");
	ks_top_put(line, cols, "", "");
	ks_top_put("keys: t total  c calls  5 p50  9 p99  m max  n name  r reverse  q quit",
		   cols, "", "");
	if (t->note)
		ks_top_put(t->note, cols, "", "");
	ks_top_header(line, sizeof(line), namew, 1);
	ks_top_put(line, cols, "\033[7m", "\033[m");
	/* title, keys, the -icount note, header, and one line to spare */
	n = rows - 4 - !!t->note;
	if (n < 1)
		n = 1;
	for (i = 0, k = 0; i < t->nrows && k < n; i++) {
		for (j = -1; j < t->rows[i].nsites && k < n; j++, k++) {
			if (k == n - 1 && (j + 1 < t->rows[i].nsites || i + 1 < t->nrows)) {
				snprintf(line, sizeof(line), "... %d more node%s",
					 t->nrows - i - (j >= 0),
					 t->nrows - i - (j >= 0) == 1 ? "" : "s");
				ks_top_put(line, cols, "", "");
				break;
			}
			ks_top_line(line, sizeof(line),
				    j < 0 ? &t->rows[i] : &t->rows[i].sites[j], namew, 1);
			ks_top_put(line, cols, "", "");
		}
	}
	fputs("\033[J", stdout);	/* clear what is below */
	fflush(stdout);
}

/* Act on key @c; 1 to quit. */
static int ks_top_key(struct ks_top *t, int c)
{
	int i;

	if (c == 'q' || c == 'Q' || c == 3 /* ^C when ISIG is off */)
		return 1;
	if (c == 'r') {
		t->reverse = !t->reverse;
		return 0;
	}
	for (i = 0; i < KS_TOP_NR_COLS; i++)
		if (c == ks_top_sorts[i].key) {
			t->sort = i;
			t->reverse = 0;
		}
	return 0;
}

/* ks_tick_wait_fn of the live view: read keys, redraw on each, until @until. */
static int ks_top_wait(double until, void *arg)
{
	struct ks_top *t = arg;
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	unsigned char keys[16];
	double d;
	ssize_t n, i;

	while (!ks_tick_stop && (d = until - ks_mono_seconds()) > 0) {
		int r = poll(&pfd, ks_top_tio_saved && pfd.fd >= 0 ? 1 : 0,
			     (int)(d * 1000) + 1);

		if (ks_top_resized) {
			ks_top_resized = 0;
			fputs("\033[2J", stdout);
			ks_top_draw(t);
		}
		if (r <= 0 || !(pfd.revents & POLLIN))
			continue;
		n = read(STDIN_FILENO, keys, sizeof(keys));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {		/* no more keys: wait only */
			pfd.fd = -1;
			continue;
		}
		for (i = 0; i < n; i++)
			if (ks_top_key(t, keys[i]))
				return 1;
		ks_top_draw(t);
	}
	return 0;
}

/* kstats top [GLOB...] [-i S] [-n N] [--sort COL] [-r] */
int cmd_top(int argc, char **argv)
{
	struct ks_top t;
	int i, r, ret = 0;

	if (ks_top_args(argc, argv, &t))
		return 0;
	/* the first read: what later reads are compared with */
	if (ks_top_read(&t))
		return 1;
	if (!t.nrows)
		ks_err(t.nglobs ? "no node matches (kstats list shows them)" :
		       "no nodes yet (kstats trace FUNC adds one)");
	t.have_rows = 0;
	ks_tick_start(&t.tick);
	if (t.live) {
		ks_top_enter();
		ks_top_draw(&t);
	}
	while ((r = ks_tick_next(&t.tick, t.live ? ks_top_wait : NULL, &t)) > 0) {
		if (ks_top_read(&t)) {
			ret = 1;
			break;
		}
		if (t.live) {
			ks_top_draw(&t);
		} else {
			if (t.tick.it > 1)
				printf("\n");
			ks_top_print(&t);
		}
	}
	if (r < 0)
		ret = 1;
	if (t.live)
		ks_top_leave();
	for (i = 0; i < t.nn; i++)
		ks_view_free(&t.nodes[i].prev);
	free(t.nodes);
	free(t.index);
	ks_top_rows_free(t.rows, t.nrows_prev);
	return ret;
}
