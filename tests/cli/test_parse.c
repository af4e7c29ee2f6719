// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the CLI's parsers: tools/lib/ks_parse.c (node text) and
 * tools/lib/ks_snap.c with tools/lib/ks_json.c (snapshots).  TAP lines
 * (tests/tap.h); run.sh relays them into its numbering.
 *
 *   test_parse FIXTURE.txt...              every fixture: strict parse,
 *                                          independent consistency checks,
 *                                          snapshot round trip
 *   test_parse --builtin HAND.txt          broken variants of a good node
 *   test_parse --delta OLD NEW EXPECTED    ks_view_delta(NEW, OLD) == EXPECTED
 *   test_parse --callers CALLERS.txt       the call sites of a node with callers N
 *                                          (mkcallers.c), and broken variants
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_ctl.h"
#include "ks_parse.h"
#include "ks_snap.h"
#include "../tap.h"

/* One TAP line (tests/tap.h); @cond true means ok. */
#define check(cond, ...)	tap_result(!!(cond), __VA_ARGS__)

/* A diagnostic line. */
static void diag(const char *msg)
{
	printf("# %s\n", msg);
}

/* Re-read the rows with sscanf, independently of ks_parse. */
static int raw_scan(const char *text, char *why, size_t len)
{
	long last_cpus_slot = -1, last_slot[4096];
	unsigned long long cum[4097] = { 0 }, tot[4097] = { 0 };
	const char *line;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		memset(last_slot, 0xff, sizeof(last_slot));
		memset(cum, 0, sizeof(cum));
		last_cpus_slot = -1;
		for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
			unsigned int slot, c;
			unsigned long long count, avg, n;
			char kind[8];
			double p;
			int idx;

			if (sscanf(line, "slot %u %7s %u count %llu avg %llu p %lf n %llu",
				   &slot, kind, &c, &count, &avg, &p, &n) != 7)
				continue;
			idx = strcmp(kind, "CPUS") ? (int)c : 4096;
			if (idx > 4096) {
				snprintf(why, len, "CPU %u too large for the test", c);
				return -1;
			}
			if (!pass) {
				tot[idx] += count;
				continue;
			}
			cum[idx] += count;
			if (n != cum[idx]) {
				snprintf(why, len, "slot %u: n %llu != cumulative %llu", slot, n, cum[idx]);
				return -1;
			}
			if (fabs(p - (double)cum[idx] / (double)tot[idx]) > 1.000001e-6) {
				snprintf(why, len, "slot %u: p %f != n/total", slot, p);
				return -1;
			}
			if (idx == 4096) {
				if ((long)slot <= last_cpus_slot) {
					snprintf(why, len, "CPUS slot %u not ascending", slot);
					return -1;
				}
				last_cpus_slot = slot;
			} else {
				if ((long)slot <= last_slot[idx]) {
					snprintf(why, len, "CPU %u slot %u not ascending", c, slot);
					return -1;
				}
				last_slot[idx] = slot;
			}
		}
	}
	return 0;
}

/* Whether two nodes hold the same figures and slots. */
static int same_node(const struct ks_view *a, const struct ks_view *b,
		     char *why, size_t len)
{
	__u32 c, s;
	int k;

	if (strcmp(a->name, b->name) || strcmp(a->unit, b->unit) ||
	    strcmp(a->clock, b->clock) || strcmp(a->attach, b->attach) ||
	    strcmp(a->symbols, b->symbols) || strcmp(a->state, b->state)) {
		snprintf(why, len, "strings differ");
		return 0;
	}
	if (a->bits != b->bits || a->buckets != b->buckets || a->ncpus != b->ncpus ||
	    a->samples != b->samples || a->missed != b->missed || a->min != b->min ||
	    a->avg != b->avg || a->max != b->max || a->floor != b->floor ||
	    a->sample != b->sample || a->nr_cpus != b->nr_cpus) {
		snprintf(why, len, "header figures differ");
		return 0;
	}
	for (k = 0; k < KSTATS_NR_PCT; k++)
		if (a->pct[k] != b->pct[k]) {
			snprintf(why, len, "%s differs", kstats_pct_name[k]);
			return 0;
		}
	if (a->callers_n != b->callers_n || a->nr_callers != b->nr_callers) {
		snprintf(why, len, "call sites differ");
		return 0;
	}
	for (c = 0; c < a->nr_callers; c++) {
		const struct ks_caller *x = &a->callers[c], *y = &b->callers[c];

		if (strcmp(x->id, y->id) || strcmp(x->site, y->site) || x->count != y->count ||
		    x->p50 != y->p50 || x->p99 != y->p99 || x->max != y->max ||
		    memcmp(x->slots, y->slots, a->nr_slots * sizeof(*x->slots))) {
			snprintf(why, len, "call site %s differs", x->id);
			return 0;
		}
	}
	for (s = 0; s < a->nr_slots; s++) {
		if (a->total[s].count != b->total[s].count || a->total[s].sum != b->total[s].sum) {
			snprintf(why, len, "total slot %u differs", s);
			return 0;
		}
		for (c = 0; c < a->nr_cpus; c++)
			if (a->cpus[c].cpu != b->cpus[c].cpu ||
			    a->cpus[c].slots[s].count != b->cpus[c].slots[s].count ||
			    a->cpus[c].slots[s].sum != b->cpus[c].slots[s].sum) {
				snprintf(why, len, "CPU %u slot %u differs", a->cpus[c].cpu, s);
				return 0;
			}
	}
	return 1;
}

/* All checks on one fixture file. */
static void test_fixture(const char *path)
{
	char err[1024], why[256] = "", *text, *json = NULL;
	struct ks_view node, back;
	__u64 pct[KSTATS_NR_PCT];
	size_t jlen = 0;
	int ok, k;
	__u32 c, s;
	FILE *f;

	text = ks_text_read(path, NULL);
	check(text != NULL, "%s: readable", path);
	if (!text)
		return;
	ok = !ks_parse_text(text, path, KS_PARSE_STRICT, &node, err, sizeof(err));
	check(ok, "%s: strict parse", path);
	if (!ok) {
		diag(err);
		free(text);
		return;
	}
	ok = !raw_scan(text, why, sizeof(why));
	check(ok, "%s: n/p columns cumulative, slots strictly ascending (raw scan)", path);
	if (!ok)
		diag(why);

	ok = 1;
	for (s = 0; s < node.nr_slots && ok; s++) {
		__u64 sum = 0;

		for (c = 0; c < node.nr_cpus; c++)
			sum += node.cpus[c].slots[s].count;
		ok = sum == node.total[s].count;
	}
	check(ok, "%s: CPU rows add up to the CPUS rows", path);
	check(node.samples == kstats_total(node.total, node.nr_slots),
	      "%s: header samples %llu == total count", path,
	      (unsigned long long)node.samples);
	kstats_percentiles(node.total, node.nr_slots, node.bits, pct);
	for (ok = 1, k = 0; k < KSTATS_NR_PCT; k++)
		ok &= pct[k] == node.pct[k];
	check(ok, "%s: header percentiles == hist.h over the CPUS rows", path);

	f = open_memstream(&json, &jlen);
	ok = f && !ks_snap_write(f, &node);
	if (f)
		fclose(f);
	check(ok, "%s: snapshot written", path);
	if (ok) {
		ok = !ks_snap_read(json, "memory", &back, err, sizeof(err));
		check(ok, "%s: snapshot read back", path);
		if (!ok) {
			diag(err);
		} else {
			ok = same_node(&node, &back, why, sizeof(why));
			check(ok, "%s: snapshot round trip keeps every figure and slot", path);
			if (!ok)
				diag(why);
			ks_view_free(&back);
		}
	}
	free(json);
	ks_view_free(&node);
	free(text);
}

/* Replace the first @from in @text by @to (new buffer). */
static char *subst(const char *text, const char *from, const char *to)
{
	const char *p = strstr(text, from);
	char *out;

	if (!p)
		return NULL;
	if (asprintf(&out, "%.*s%s%s", (int)(p - text), text, to, p + strlen(from)) < 0)
		return NULL;
	return out;
}

/* @text with @from replaced must fail strictly with @msg; @lenient_ok too. */
static void broken(const char *text, const char *what, const char *from,
		   const char *to, const char *msg, int lenient_ok)
{
	char err[1024];
	struct ks_view node;
	char *bad = subst(text, from, to);
	int r;

	if (!bad) {
		check(0, "broken text (%s): pattern not found", what);
		return;
	}
	r = ks_parse_text(bad, "bad.txt", KS_PARSE_STRICT, &node, err, sizeof(err));
	if (!r)
		ks_view_free(&node);
	check(r && strstr(err, msg), "strict parse rejects %s", what);
	if (!r || !strstr(err, msg))
		diag(r ? err : "accepted");
	r = ks_parse_text(bad, "bad.txt", 0, &node, err, sizeof(err));
	if (!r)
		ks_view_free(&node);
	check((!r) == lenient_ok, "lenient parse %s %s", lenient_ok ? "accepts" : "rejects", what);
	if ((!r) != lenient_ok)
		diag(r ? err : "accepted");
	free(bad);
}

/* @json with @from replaced must be rejected with @msg. */
static void bad_snap(const char *json, const char *what, const char *from,
		     const char *to, const char *msg)
{
	char err[1024];
	struct ks_view node;
	char *bad = subst(json, from, to);
	int r;

	if (!bad) {
		check(0, "bad snapshot (%s): pattern not found", what);
		return;
	}
	r = ks_snap_read(bad, "bad.json", &node, err, sizeof(err));
	if (!r)
		ks_view_free(&node);
	check(r && strstr(err, msg), "snapshot reader rejects %s", what);
	if (!r || !strstr(err, msg))
		diag(r ? err : "accepted");
	free(bad);
}

/* Broken variants of a known-good node and snapshot. */
/* The _control listing's rows, read by ks_list_row() (KS_LIST_ROW). */
static void test_list_row(void)
{
	static const char *const bad[] = {
		KS_LIST_HEAD, "", "f direct active 1", "f direct active 1 2 3",
		"f direct active -1 0", "f direct active 1 x",
		"a_name_of_sixty_four_characters_which_is_one_more_than_allowed_x direct active 1 2",
	};
	struct ks_list_row r;
	char line[128];
	unsigned int i;

	snprintf(line, sizeof(line), KS_LIST_ROW, "vma_*x", "direct", KS_STATE_ACTIVE,
		 12ULL, 3ULL);
	check(!ks_list_row(line, &r) && !strcmp(r.name, "vma_*x") &&
	      !strcmp(r.backend, "direct") && !strcmp(r.state, KS_STATE_ACTIVE) &&
	      r.samples == 12 && r.missed == 3, "list row: '%s' read back", line);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		check(ks_list_row(bad[i], &r), "list row: '%s' is not a row", bad[i]);
}

/* Longer than 100 lines: one check after another on the built-in fixtures, each a TAP line. */
static void test_builtin(const char *path)
{
	char err[1024], *text = ks_text_read(path, NULL), *json = NULL, *extra;
	struct ks_view node;
	size_t jlen = 0, cut;
	int all, r;
	FILE *f;

	if (!text) {
		check(0, "%s readable", path);
		return;
	}
	broken(text, "a wrong n column", "n        8\n", "n        7\n", "cumulative", 1);
	broken(text, "a wrong p column", "p 0.888888", "p 0.777777", "n/total", 1);
	broken(text, "header samples != rows", "# samples 13 ", "# samples 14 ", "samples 14", 1);
	broken(text, "CPU rows not adding up to CPUS",
	       "slot 37   CPUS 2    count        5  avg      110  p 0.692307  n        9",
	       "slot 37   CPUS 2    count        6  avg      110  p 0.692307  n        9",
	       "add up", 1);
	broken(text, "a wrong percentile", "p50 110", "p50 111", "p50 111", 1);
	broken(text, "slots out of order",
	       "slot 36   CPU  1    count        1  avg       97  p 0.250000  n        1\n"
	       "slot 39   CPU  1    count        2  avg      122  p 0.750000  n        3\n",
	       "slot 39   CPU  1    count        2  avg      122  p 0.750000  n        3\n"
	       "slot 36   CPU  1    count        1  avg       97  p 0.250000  n        1\n",
	       "slots must ascend", 1);
	broken(text, "a slot beyond the layout", "slot 63   CPU", "slot 99999 CPU", "out of range", 0);
	broken(text, "a bad number", "count        5  avg      110  p 0.888888",
	       "count       5x  avg      110  p 0.888888", "bad number '5x'", 0);
	broken(text, "a missing header", "# kstats find_vma", "# kstatz find_vma",
	       "before the '# kstats' header", 0);
	broken(text, "a duplicate row",
	       "slot 36   CPU  1    count        1  avg       97  p 0.250000  n        1\n",
	       "slot 36   CPU  1    count        1  avg       97  p 0.250000  n        1\n"
	       "slot 36   CPU  1    count        1  avg       97  p 0.250000  n        1\n",
	       "second row", 0);
	broken(text, "a garbage line", "slot 63   CPU", "hello\nslot 63   CPU", "unexpected line", 0);
	broken(text, "an avg outside its slot", "avg      122", "avg      130", "outside its slot", 1);
	broken(text, "a CPU beyond the CPUS count", "slot 63   CPU  1 ", "slot 63   CPU  7 ",
	       "CPU number not below", 1);

	/* the same rows interleaved slot by slot read the same */
	{
		static const char inter[] =
			"# kstats find_vma attach=kretprobe:find_vma clock=local unit=ns bits=3 buckets=37 sample=1 state=active\n"
			"# samples 13 missed 0 min 97 avg 184 max 1000 floor 0\n"
			"# percentiles p10 99 p50 110 p90 200 p95 1000 p98 1000 p99 1000 p99.9 1000 precision_ppm 125000 estimate slot-mean\n"
			"slot 36   CPU  0    count        3  avg      100  p 0.333333  n        3\n"
			"slot 36   CPU  1    count        1  avg       97  p 0.250000  n        1\n"
			"slot 36   CPUS 2    count        4  avg       99  p 0.307692  n        4\n"
			"slot 37   CPU  0    count        5  avg      110  p 0.888889  n        8\n"
			"slot 37   CPUS 2    count        5  avg      110  p 0.692308  n        9\n"
			"slot 39   CPU  1    count        2  avg      122  p 0.750000  n        3\n"
			"slot 39   CPUS 2    count        2  avg      122  p 0.846154  n       11\n"
			"slot 44   CPU  0    count        1  avg      200  p 1.000000  n        9\n"
			"slot 44   CPUS 2    count        1  avg      200  p 0.923077  n       12\n"
			"slot 63   CPU  1    count        1  avg     1000  p 1.000000  n        4\n"
			"slot 63   CPUS 2    count        1  avg     1000  p 1.000000  n       13\n";
		struct ks_view a, b;
		char why[256] = "";

		r = ks_parse_text(inter, "inter.txt", KS_PARSE_STRICT, &a, err, sizeof(err));
		if (!r) {
			r = ks_parse_text(text, path, KS_PARSE_STRICT, &b, err, sizeof(err));
			if (!r) {
				r = !same_node(&a, &b, why, sizeof(why));
				ks_view_free(&b);
			}
			ks_view_free(&a);
		}
		check(!r, "rows interleaved slot by slot parse to the same node");
		if (r)
			diag(*why ? why : err);
	}

	/* additions a later module may make are skipped */
	extra = subst(text, "state=active\n", "state=active maxactive=64 newkey=x\n# future line 1 2\n");
	r = extra ? ks_parse_text(extra, "extra.txt", KS_PARSE_STRICT, &node, err, sizeof(err)) : -1;
	check(!r, "unknown header keys and '#' lines are ignored");
	if (r)
		diag(err);
	else
		ks_view_free(&node);
	free(extra);

	/* the clock, its frequency and the slots' unit, and a fallback */
	extra = subst(text, "clock=local unit=ns",
		      "clock=local hz=2096017000 unit=ns slots=cycles");
	if (extra) {
		char *t = subst(extra, "# percentiles",
				"# fallback tsc unstable: local_clock() since, its ns recorded as cycles at hz\n# percentiles");

		free(extra);
		extra = t;
	}
	r = extra ? ks_parse_text(extra, "clock.txt", KS_PARSE_STRICT, &node, err, sizeof(err)) : -1;
	check(!r && node.hz == 2096017000ULL && !strcmp(node.unit, "ns") &&
	      !strcmp(node.slots_unit, "cycles") && !strcmp(node.clock, "local") &&
	      node.fell_back, "hz=, slots= and '# fallback' are read");
	if (r) {
		diag(err);
	} else {
		char *j = NULL;
		size_t jl = 0;
		struct ks_view back;

		f = open_memstream(&j, &jl);
		ks_snap_write(f, &node);
		fclose(f);
		r = ks_snap_read(j, "clock.json", &back, err, sizeof(err));
		check(!r && back.hz == 2096017000ULL &&
		      !strcmp(back.slots_unit, "cycles"),
		      "a snapshot keeps hz and slots_unit");
		if (!r)
			ks_view_free(&back);
		free(j);
		ks_view_free(&node);
	}
	free(extra);

	/* snapshots */
	if (ks_parse_text(text, path, KS_PARSE_STRICT, &node, err, sizeof(err))) {
		check(0, "%s parses", path);
		free(text);
		return;
	}
	snprintf(node.meta.kernel, sizeof(node.meta.kernel), "6.1.0-test");
	snprintf(node.meta.date, sizeof(node.meta.date), "2026-11-30T05:40:00Z");
	snprintf(node.meta.label, sizeof(node.meta.label), "a \"quoted\" label\twith tab");
	f = open_memstream(&json, &jlen);
	ks_snap_write(f, &node);
	fclose(f);
	ks_view_free(&node);
	r = ks_snap_read(json, "good.json", &node, err, sizeof(err));
	check(!r && !strcmp(node.meta.label, "a \"quoted\" label\twith tab"),
	      "snapshot strings escape and unescape");
	if (!r)
		ks_view_free(&node);

	for (all = 1, cut = 1; cut < jlen - 2; cut += 7) {
		char *t = strndup(json, cut);

		r = ks_snap_read(t, "cut.json", &node, err, sizeof(err));
		if (!r) {
			ks_view_free(&node);
			all = 0;
			printf("# truncated at %zu accepted\n", cut);
		}
		free(t);
	}
	check(all, "every truncation of a snapshot is rejected");
	bad_snap(json, "a truncated file", "  }\n}\n", "  }\n", "truncated");
	bad_snap(json, "another schema", "kstats-snapshot/2", "kstats-snapshot/9", "not supported");
	bad_snap(json, "a missing schema", "\"schema\"", "\"schemo\"", "not a kstats snapshot");
	bad_snap(json, "a negative count", "\"count\": 3,", "\"count\": -3,", "not an unsigned");
	bad_snap(json, "a fractional count", "\"count\": 3,", "\"count\": 3.5,", "not an unsigned");
	bad_snap(json, "an exponent", "\"count\": 3,", "\"count\": 3e0,", "not an unsigned");
	bad_snap(json, "a count past 2^64", "\"count\": 3,",
		 "\"count\": 18446744073709551616,", "not an unsigned");
	bad_snap(json, "a number as a string", "\"count\": 3,", "\"count\": \"3\",", "must be a number");
	bad_snap(json, "a malformed number", "\"count\": 3,", "\"count\": 0x3,", "expected ','");
	bad_snap(json, "slot bounds not of its bits", "\"lo\": 96", "\"lo\": 95", "bounds");
	bad_snap(json, "bits out of range", "\"bits\": 3", "\"bits\": 9", "out of range");
	bad_snap(json, "a missing field", "\"samples\":", "\"sample_s\":", "node.samples: missing");
	bad_snap(json, "a missing percentile", "\"p99.9\":", "\"p99.8\":", "p99.9: missing");
	bad_snap(json, "an avg outside the slot", "\"avg\": 97", "\"avg\": 90", "outside");
	bad_snap(json, "trailing garbage", "  }\n}\n", "  }\n}\n}\n", "trailing");
	bad_snap(json, "a bad escape", "quoted\\\"", "quoted\\q", "bad escape");
	free(json);
	free(text);
}

/*
 * A node with "callers 4" from mkcallers (a 10 x 20 us, b 20 x 80 us,
 * c 30 x 320 us, slow 1 x 5 ms): its sites as read, a snapshot keeps them,
 * and broken texts and snapshots are refused.
 */
static void test_callers(const char *path)
{
	static const struct { const char *id, *site; __u64 count; } want[] = {
		{ "0", "kt_site_a+0x1c/0x30 [kstats_target]", 10 },
		{ "1", "kt_site_b+0x1c/0x30 [kstats_target]", 20 },
		{ "2", "kt_site_c+0x1c/0x30 [kstats_target]", 30 },
		{ "3", "kt_site_slow+0x22/0x40 [kstats_target]", 1 },
		{ "other", "-", 0 },
	};
	char *text = ks_text_read(path, NULL), *json = NULL, *less, *tmp, err[1024], why[256];
	const struct ks_caller *by[KS_CALLERS_MAX + 1];
	struct ks_view node, back;
	size_t jlen = 0;
	unsigned int i;
	FILE *f;
	int r;

	if (!text || ks_parse_text(text, path, KS_PARSE_STRICT, &node, err, sizeof(err))) {
		check(0, "callers: %s parses strictly", path);
		diag(text ? err : "unreadable");
		free(text);
		return;
	}
	check(node.callers_n == 4 && node.nr_callers == 5, "callers: callers=4, five '# caller' lines");
	for (i = 0; i < 5 && node.nr_callers == 5; i++) {
		const struct ks_caller *c = &node.callers[i];

		check(!strcmp(c->id, want[i].id) && !strcmp(c->site, want[i].site) &&
		      c->count == want[i].count && kstats_total(c->slots, node.nr_slots) == c->count,
		      "callers: site %s is '%s', count %llu, its rows hold it", want[i].id,
		      want[i].site, (unsigned long long)want[i].count);
	}
	check(node.nr_callers == 5 && node.callers[0].p50 == 20166 && node.callers[2].max == 321073,
	      "callers: p50 and max as printed");
	ks_callers_by_time(&node, by);
	check(!strcmp(by[0]->id, "2") && !strcmp(by[1]->id, "3") && !strcmp(by[2]->id, "1") &&
	      !strcmp(by[3]->id, "0") && !strcmp(by[4]->id, "other"),
	      "callers: by total time c (9.6 ms), slow (5 ms), b (1.6 ms), a (0.2 ms), other");
	f = open_memstream(&json, &jlen);
	r = f && !ks_snap_write(f, &node);
	if (f)
		fclose(f);
	r = r && !ks_snap_read(json, "memory", &back, err, sizeof(err));
	check(r, "callers: snapshot written and read back");
	if (r) {
		r = same_node(&node, &back, why, sizeof(why));
		check(r, "callers: the snapshot keeps every site, figure and slot");
		if (!r)
			diag(why);
		ks_view_free(&back);
	}
	ks_view_free(&node);

	broken(text, "a site's count not its rows'", "# caller 0 count 10 ", "# caller 0 count 11 ",
	       "caller 0: count 11 but its rows end at 10", 1);
	broken(text, "a site's rows without its line", "# caller 0 count 10 p50 20166 p99 20166 max 20333 site kt_site_a+0x1c/0x30 [kstats_target]\n",
	       "", "rows of caller '0' without its '# caller' line", 0);
	/* exact once stopped: an active node's read may race a record */
	tmp = subst(text, "# caller 3 count 1 p50 5003520 p99 5003520 max 5003520 site kt_site_slow+0x22/0x40 [kstats_target]\n", "");
	less = tmp ? subst(tmp, "state=active", "state=stopped") : NULL;
	free(tmp);
	if (less)
		broken(less, "a stopped node's sites not adding up to the samples",
		       "# slot 161  CALLER 3    count        1  avg  5003520  p 1.000000  n        1\n",
		       "", "samples 61 but the callers add up to 60", 1);
	free(less);
	broken(text, "a site's p50 not its rows'", "p50 80351", "p50 80350", "caller 1: p50 80350", 1);
	broken(text, "a site's max outside its last slot", "max 321073", "max 400000",
	       "caller 2: max 400000 is not in its last slot", 1);
	broken(text, "a second line of one site", "# caller 1 ", "# caller 0 ",
	       "second '# caller 0' line", 0);
	broken(text, "an ID past callers=N", "# caller 3 ", "# caller 4 ", "bad ID '4'", 0);
	broken(text, "a line without its site", " site kt_site_b+0x1c/0x30 [kstats_target]", " site",
	       "without 'site SITE'", 0);
	broken(text, "no other line", "# caller other count 0 p50 0 p99 0 max 0 site -\n", "",
	       "no '# caller other' line", 1);
	broken(text, "a site's rows not ascending", "# slot 129  CALLER 2 ", "# slot 97   CALLER 2 ",
	       "caller 2: slot 97", 1);
	broken(text, "sites without callers=", " callers=4", "", "without callers= in the header", 1);

	if (json) {
		bad_snap(json, "a site's count not its slots'", "\"count\": 20,\n          \"p50\"",
			 "\"count\": 21,\n          \"p50\"",
			 "count 21 but the slots hold 20");
		bad_snap(json, "two sites of one ID", "\"id\": \"1\"", "\"id\": \"0\"",
			 "second site with id '0'");
		bad_snap(json, "callers.n out of range", "\"n\": 4", "\"n\": 17", "out of range");
		bad_snap(json, "a site without its site text", "\"site\": \"-\"", "\"sight\": \"-\"",
			 "site: missing");
	}
	free(json);
	free(text);
}

/* ks_view_delta(new, old) against a fixture made of exactly the difference. */
static void test_delta(const char *oldp, const char *newp, const char *expp)
{
	char err[1024], why[256];
	char *a = ks_text_read(oldp, NULL), *b = ks_text_read(newp, NULL);
	char *e = ks_text_read(expp, NULL);
	struct ks_view o, n, x, d;
	int r;

	if (!a || !b || !e || ks_parse_text(a, oldp, KS_PARSE_STRICT, &o, err, sizeof(err)) ||
	    ks_parse_text(b, newp, KS_PARSE_STRICT, &n, err, sizeof(err)) ||
	    ks_parse_text(e, expp, KS_PARSE_STRICT, &x, err, sizeof(err))) {
		check(0, "delta fixtures parse");
		return;
	}
	r = ks_view_delta(&d, &n, &o);
	check(r == 0, "delta of two reads: no reset detected");
	if (!r) {
		/* exact min/max are not knowable from a difference */
		d.min = x.min;
		d.max = x.max;
		d.avg = x.avg;
		r = same_node(&d, &x, why, sizeof(why));
		check(r, "delta slots, counts and percentiles == the added samples");
		if (!r)
			diag(why);
		ks_view_free(&d);
	}
	r = ks_view_delta(&d, &o, &n);
	check(r == 1 && d.samples == o.samples, "a count going down is a reset: the delta is the new read");
	if (r >= 0)
		ks_view_free(&d);
	ks_view_free(&o);
	ks_view_free(&n);
	ks_view_free(&x);
	free(a);
	free(b);
	free(e);
}

int main(int argc, char **argv)
{
	int i;

	if (argc > 2 && !strcmp(argv[1], "--builtin")) {
		test_list_row();
		test_builtin(argv[2]);
	} else if (argc > 2 && !strcmp(argv[1], "--callers")) {
		test_callers(argv[2]);
	} else if (argc > 4 && !strcmp(argv[1], "--delta")) {
		test_delta(argv[2], argv[3], argv[4]);
	} else {
		for (i = 1; i < argc; i++)
			test_fixture(argv[i]);
	}
	return tap_end();
}
