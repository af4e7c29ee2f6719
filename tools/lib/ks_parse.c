// SPDX-License-Identifier: GPL-2.0
/*
 * ks_parse: the one parser of kstats node text (docs/format.md, versions 1
 * and 2).
 *
 *   # kstats NAME key=value...
 *   # samples N missed N min N avg N max N floor N
 *   # clamped N: ...                                (only when N > 0)
 *   # percentiles p10 N ... p99.9 N precision_ppm P estimate WORD
 *   # caller ID count N p50 N p99 N max N site SITE   (callers=N, version 2)
 *   # disturbed N ... / # slow R ... / # stack R FRAME (slowest=K: ks_slowest.c)
 *   slot S CPU  c count N avg N p F n N
 *   slot S CPUS n count N avg N p F n N
 *   # slot S CALLER ID count N avg N p F n N            (version 2)
 *
 * Unknown '#' lines, unknown key=value words and unknown name/value pairs
 * are skipped: later module versions may add them.
 *
 * The strict checks (KS_PARSE_STRICT) are ks_parse_check.c's: they work
 * on the parser's own rows (ks_parse_rows.h) and report their lines.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_parse.h"
#include "ks_parse_rows.h"
#include "ks_slowest.h"

#define KS_MAX_TOKENS	64

/* Parse a u32 that must be <= @max. */
static int ks_parse_u32(const char *s, __u32 max, __u32 *out)
{
	__u64 v;

	if (ks_parse_u64(s, &v) || v > max)
		return -1;
	*out = (__u32)v;
	return 0;
}

/* Copy @s into a fixed buffer, failing when it does not fit. */
static int ks_copy(char *dst, size_t len, const char *s)
{
	size_t n = strlen(s);

	if (n >= len)
		return -1;
	memcpy(dst, s, n + 1);
	return 0;
}

/* Split @line (modified) on blanks into at most KS_MAX_TOKENS tokens. */
static int ks_split(char *line, char **tok)
{
	int n = 0;
	char *p = line;

	while (*p) {
		while (*p && isspace((unsigned char)*p))
			*p++ = '\0';
		if (!*p)
			break;
		if (n == KS_MAX_TOKENS)
			return -1;
		tok[n++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
	}
	return n;
}

/* Line 1: "# kstats NAME key=value...". */
static int ks_parse_head(struct ks_parser *ps, struct ks_view *node,
			 char **tok, int ntok)
{
	int i;

	if (ntok < 3)
		return ks_fail(&ps->e, ps->line, "'# kstats' without a node name");
	if (ks_copy(node->name, sizeof(node->name), tok[2]))
		return ks_fail(&ps->e, ps->line, "node name too long");
	for (i = 3; i < ntok; i++) {
		char *key = tok[i], *val = strchr(tok[i], '=');
		int bad = 0;

		if (!val)
			continue;
		*val++ = '\0';
		if (!strcmp(key, KS_KEY_ATTACH)) {
			char *syms = strchr(val, ':');

			if (syms)
				*syms++ = '\0';
			bad = ks_copy(node->attach, sizeof(node->attach), val);
			free(node->symbols);
			node->symbols = strdup(syms ? syms : "");
			if (!node->symbols)
				return ks_fail(&ps->e, ps->line, "out of memory");
		} else if (!strcmp(key, KS_KEY_CLOCK)) {
			bad = ks_copy(node->clock, sizeof(node->clock), val);
		} else if (!strcmp(key, KS_KEY_HZ)) {
			bad = ks_parse_u64(val, &node->hz);
		} else if (!strcmp(key, KS_KEY_SLOTS)) {
			bad = ks_copy(node->slots_unit, sizeof(node->slots_unit), val);
		} else if (!strcmp(key, KS_KEY_UNIT)) {
			bad = ks_copy(node->unit, sizeof(node->unit), val);
			ps->have_unit = 1;
		} else if (!strcmp(key, KS_KEY_STATE)) {
			bad = ks_copy(node->state, sizeof(node->state), val);
		} else if (!strcmp(key, KS_KEY_BITS)) {
			bad = ks_parse_u32(val, KSTATS_BITS_MAX, &node->bits);
			ps->have_bits = 1;
		} else if (!strcmp(key, KS_KEY_BUCKETS)) {
			bad = ks_parse_u32(val, KS_BUCKETS_MAX, &node->buckets);
			ps->have_buckets = 1;
		} else if (!strcmp(key, KS_KEY_SAMPLE)) {
			bad = ks_parse_u32(val, KS_SAMPLE_MAX, &node->sample) ||
			      !node->sample;
		} else if (!strcmp(key, KS_KEY_MAXACTIVE)) {
			bad = ks_parse_u32(val, KS_MAXACTIVE_MAX, &node->maxactive);
		} else if (!strcmp(key, KS_KEY_PID) || !strcmp(key, KS_KEY_TGID)) {
			__u32 v = 0;

			bad = ks_parse_u32(val, KS_PID_MAX, &v);
			*(key[0] == 'p' ? &node->pid : &node->tgid) = (__s32)v;
		} else if (!strcmp(key, KS_KEY_COMM)) {
			bad = ks_copy(node->comm, sizeof(node->comm), val);
		} else if (!strcmp(key, KS_KEY_CPUS)) {
			bad = ks_copy(node->cpulist, sizeof(node->cpulist), val);
		} else if (!strcmp(key, KS_KEY_CALLERS)) {
			bad = ks_parse_u32(val, KS_CALLERS_MAX, &node->callers_n) ||
			      !node->callers_n;
		} else if (!strcmp(key, KS_KEY_SLOWEST)) {
			bad = ks_parse_u32(val, KS_SLOWEST_MAX, &node->slowest_k) ||
			      !node->slowest_k;
		}
		if (bad)
			return ks_fail(&ps->e, ps->line, "bad value '%s' for '%s'",
				       val, key);
	}
	if (!ps->have_bits)
		return ks_fail(&ps->e, ps->line, "header has no bits=");
	if (!ps->have_buckets)
		node->buckets = kstats_default_buckets(node->bits);
	if (node->buckets < 1 || node->buckets > kstats_max_buckets(node->bits))
		return ks_fail(&ps->e, ps->line, "buckets=%u out of range for bits=%u",
			       node->buckets, node->bits);
	if (!ps->have_unit)
		strcpy(node->unit, strcmp(node->clock, KS_CLOCK_NAME_TSC) ?
		       KS_UNIT_NS : KS_UNIT_CYCLES);	/* before hz= */
	if (ks_view_setup(node, node->bits, node->buckets))
		return ks_fail(&ps->e, ps->line, "out of memory");
	ps->have_head = 1;
	return 0;
}

/* Line 2: "# samples N missed N min N avg N max N floor N". */
static int ks_parse_samples(struct ks_parser *ps, struct ks_view *node,
			    char **tok, int ntok)
{
	static const char * const keys[] = {
		KS_LINE_SAMPLES, KS_SAMPLES_MISSED, KS_SAMPLES_MIN, KS_SAMPLES_AVG,
		KS_SAMPLES_MAX, KS_SAMPLES_FLOOR
	};
	__u64 *dst[] = {
		&node->samples, &node->missed, &node->min, &node->avg,
		&node->max, &node->floor
	};
	int i, k;

	if (ntok % 2)
		return ks_fail(&ps->e, ps->line, "'# samples' needs name/value pairs");
	for (i = 0; i + 1 < ntok; i += 2) {
		for (k = 0; k < 6; k++) {
			if (strcmp(tok[i], keys[k]))
				continue;
			if (ks_parse_u64(tok[i + 1], dst[k]))
				return ks_fail(&ps->e, ps->line, "bad number '%s' for '%s'",
					       tok[i + 1], tok[i]);
		}
	}
	ps->have_samples = 1;
	ps->samples_line = ps->line;
	return 0;
}

/* "# clamped N: ...": calls recorded as 0 because the clock stepped back. */
static int ks_parse_clamped(struct ks_parser *ps, struct ks_view *node,
			    char **tok, int ntok)
{
	size_t n = ntok > 2 ? strlen(tok[2]) : 0;

	if (n < 2 || tok[2][n - 1] != ':')
		return ks_fail(&ps->e, ps->line, "'# clamped' without 'N:'");
	tok[2][n - 1] = '\0';
	if (ks_parse_u64(tok[2], &node->clamped))
		return ks_fail(&ps->e, ps->line, "bad number '%s' for 'clamped'", tok[2]);
	return 0;
}

/* "# nested N cost C each off ...": traced calls inside, C off each. */
static int ks_parse_nested(struct ks_parser *ps, struct ks_view *node,
			   char **tok, int ntok)
{
	if (ntok < 5 || strcmp(tok[3], KS_NESTED_COST))
		return ks_fail(&ps->e, ps->line, "'# nested' without 'N cost C'");
	if (ks_parse_u64(tok[2], &node->nested))
		return ks_fail(&ps->e, ps->line, "bad number '%s' for 'nested'", tok[2]);
	if (ks_parse_u64(tok[4], &node->ncost))
		return ks_fail(&ps->e, ps->line, "bad number '%s' for 'cost'", tok[4]);
	return 0;
}

/* Line 3: "# percentiles p10 N ... precision_ppm P estimate WORD". */
static int ks_parse_pct(struct ks_parser *ps, struct ks_view *node,
			char **tok, int ntok)
{
	int i, k, seen = 0;

	if (ntok % 2)
		return ks_fail(&ps->e, ps->line, "'# percentiles' needs name/value pairs");
	for (i = 0; i + 1 < ntok; i += 2) {
		if (!strcmp(tok[i], KS_PCT_ESTIMATE)) {
			if (ks_copy(node->estimate, sizeof(node->estimate), tok[i + 1]))
				return ks_fail(&ps->e, ps->line, "estimate too long");
			continue;
		}
		if (!strcmp(tok[i], KS_PCT_PRECISION)) {
			if (ks_parse_u32(tok[i + 1], 1000000, &node->precision_ppm))
				return ks_fail(&ps->e, ps->line, "bad precision_ppm '%s'",
					       tok[i + 1]);
			continue;
		}
		for (k = 0; k < KSTATS_NR_PCT; k++) {
			if (strcmp(tok[i], kstats_pct_name[k]))
				continue;
			if (ks_parse_u64(tok[i + 1], &node->pct[k]))
				return ks_fail(&ps->e, ps->line, "bad number '%s' for '%s'",
					       tok[i + 1], tok[i]);
			seen |= 1 << k;
		}
	}
	if (seen != (1 << KSTATS_NR_PCT) - 1 && (ps->flags & KS_PARSE_STRICT))
		return ks_fail(&ps->e, ps->line, "'# percentiles' lacks some of p10..p99.9");
	node->has_pct = seen == (1 << KSTATS_NR_PCT) - 1;
	ps->pct_line = ps->line;
	return 0;
}

/* A call site's ID: 0..N-1 (N of callers=, else KS_CALLERS_MAX) or "other". */
static int ks_caller_id_ok(const struct ks_view *node, const char *id)
{
	__u32 v;

	if (!strcmp(id, KS_CALLER_OTHER))
		return 1;
	return !ks_parse_u32(id, (node->callers_n ? node->callers_n : KS_CALLERS_MAX) - 1, &v) &&
	       (id[0] != '0' || !id[1]);
}

/* "# caller ID count N p50 N p99 N max N site SITE..." (@tok from "caller"). */
static int ks_parse_caller(struct ks_parser *ps, struct ks_view *node,
			   char **tok, int ntok)
{
	const char * const keys[] = {
		KS_ROW_COUNT, kstats_pct_name[KSTATS_P50], kstats_pct_name[KSTATS_P99],
		KS_SAMPLES_MAX
	};
	struct ks_caller *c;
	__u64 v[4];
	int i, k, seen = 0, *lines;

	if (!ps->have_head)
		return ks_fail(&ps->e, ps->line, "'# caller' before the '# kstats' header");
	if (ntok < 2 || !ks_caller_id_ok(node, tok[1]))
		return ks_fail(&ps->e, ps->line, "'# caller' with a bad ID '%s' (0..N-1 of callers=N, or %s)",
			       ntok < 2 ? "" : tok[1], KS_CALLER_OTHER);
	if (ks_caller_find(node, tok[1]) >= 0)
		return ks_fail(&ps->e, ps->line, "second '# caller %s' line", tok[1]);
	for (i = 2; i < ntok && strcmp(tok[i], KS_CALLER_SITE); i += 2) {
		if (i + 1 >= ntok)
			return ks_fail(&ps->e, ps->line, "'# caller' needs name/value pairs");
		for (k = 0; k < 4; k++) {
			if (strcmp(tok[i], keys[k]))
				continue;
			if (ks_parse_u64(tok[i + 1], &v[k]))
				return ks_fail(&ps->e, ps->line, "bad number '%s' for '%s'",
					       tok[i + 1], tok[i]);
			seen |= 1 << k;
		}
	}
	if (seen != 0xf)
		return ks_fail(&ps->e, ps->line, "'# caller' without count, p50, p99 and max");
	if (i + 1 >= ntok)
		return ks_fail(&ps->e, ps->line, "'# caller' without '%s SITE' at its end",
			       KS_CALLER_SITE);
	lines = realloc(ps->caller_lines, (node->nr_callers + 1) * sizeof(*lines));
	if (!lines)
		return ks_fail(&ps->e, ps->line, "out of memory");
	ps->caller_lines = lines;
	lines[node->nr_callers] = ps->line;
	c = ks_view_caller(node, tok[1]);
	if (!c)
		return ks_fail(&ps->e, ps->line, "out of memory");
	c->count = v[0];
	c->p50 = v[1];
	c->p99 = v[2];
	c->max = v[3];
	/* the site: the rest of the line (at least a word, as checked above) */
	if (ks_join_words(c->site, sizeof(c->site), tok, i + 1, ntok))
		return ks_fail(&ps->e, ps->line, "site too long");
	return 0;
}

/*
 * "slot S CPU c count N avg N p F n N", "slot S CPUS n ...", or a call
 * site's "slot S CALLER ID ..." (@tok after its "#").
 */
static int ks_parse_row(struct ks_parser *ps, struct ks_view *node,
			char **tok, int ntok)
{
	struct ks_row r = { .line = ps->line };
	int i, has_count = 0, has_avg = 0;
	__u32 v;

	if (!ps->have_head)
		return ks_fail(&ps->e, ps->line, "slot row before the '# kstats' header");
	if (ntok < 4 || (ntok - 4) % 2)
		return ks_fail(&ps->e, ps->line, "malformed slot row");
	if (ks_parse_u32(tok[1], ~0U, &r.slot) || r.slot >= node->nr_slots)
		return ks_fail(&ps->e, ps->line, "slot '%s' out of range (%u slots for bits=%u buckets=%u)",
			       tok[1], node->nr_slots, node->bits, node->buckets);
	r.caller = -1;
	if (!strcmp(tok[2], KS_ROW_DISTURBED)) {
		r.cpu = -2;
		r.disturbed = 1;
		if (!node->slowest_k)
			return ks_fail(&ps->e, ps->line, "%s rows without slowest=K in the header",
				       KS_ROW_DISTURBED);
	} else if (!strcmp(tok[2], KS_ROW_CALLER)) {
		r.caller = ks_caller_find(node, tok[3]);
		r.cpu = -2;
		if (r.caller < 0)
			return ks_fail(&ps->e, ps->line, "rows of caller '%s' without its '# %s' line",
				       tok[3], KS_LINE_CALLER);
	} else if (ks_parse_u32(tok[3], 1U << 20, &v)) {
		return ks_fail(&ps->e, ps->line, "bad CPU number '%s'", tok[3]);
	} else if (!strcmp(tok[2], KS_ROW_CPU)) {
		r.cpu = v;
	} else if (!strcmp(tok[2], KS_ROW_CPUS)) {
		r.cpu = -1;
		r.ncpus = v;
	} else {
		return ks_fail(&ps->e, ps->line, "expected CPU or CPUS, got '%s'", tok[2]);
	}
	for (i = 4; i + 1 < ntok; i += 2) {
		const char *k = tok[i], *val = tok[i + 1];
		int bad = 0;

		if (!strcmp(k, KS_ROW_COUNT)) {
			bad = ks_parse_u64(val, &r.count);
			has_count = 1;
		} else if (!strcmp(k, KS_ROW_AVG)) {
			bad = ks_parse_u64(val, &r.avg);
			has_avg = 1;
		} else if (!strcmp(k, KS_ROW_N)) {
			bad = ks_parse_u64(val, &r.n);
			r.has_n = 1;
		} else if (!strcmp(k, KS_ROW_P)) {
			char *end;

			errno = 0;
			r.p = strtod(val, &end);
			bad = errno || *end || end == val || !(r.p >= 0 && r.p <= 1);
			r.has_p = 1;
		}
		if (bad)
			return ks_fail(&ps->e, ps->line, "bad number '%s' for '%s'", val, k);
	}
	if (!has_count || !has_avg)
		return ks_fail(&ps->e, ps->line, "slot row without count and avg");
	if ((ps->flags & KS_PARSE_STRICT) && (!r.has_p || !r.has_n))
		return ks_fail(&ps->e, ps->line, "slot row without p and n");
	if (ps->nr_rows == ps->cap_rows) {
		size_t cap = ps->cap_rows ? 2 * ps->cap_rows : 64;
		struct ks_row *rows = realloc(ps->rows, cap * sizeof(*rows));

		if (!rows)
			return ks_fail(&ps->e, ps->line, "out of memory");
		ps->rows = rows;
		ps->cap_rows = cap;
	}
	ps->rows[ps->nr_rows++] = r;
	return 0;
}

/*
 * Put one row's count and count * avg into @sl, refusing duplicates.  An
 * avg outside its slot (a read that raced an update; KS_PARSE_STRICT
 * reports it) is kept inside the slot bounds, as ks_view_delta() does,
 * so that what was read can be saved and read back as a snapshot.
 */
static int ks_fill_slot(struct ks_parser *ps, struct ks_view *node,
			struct kstats_slot *sl, const struct ks_row *r)
{
	__u64 avg = kstats_slot_clamp(r->avg, r->slot, node->bits, node->buckets);

	if (sl->count)
		return ks_fail(&ps->e, r->line, "second row for slot %u %s", r->slot,
			       r->disturbed ? "of the disturbed calls" :
			       r->caller >= 0 ? "of this caller" :
			       r->cpu < 0 ? "CPUS" : "of this CPU");
	if (__builtin_mul_overflow(r->count, avg, &sl->sum))
		return ks_fail(&ps->e, r->line, "count * avg overflows");
	sl->count = r->count;
	return 0;
}

/* Build the per-CPU and merged histograms from the rows. */
static int ks_build(struct ks_parser *ps, struct ks_view *node)
{
	int have_cpus_rows = 0;
	size_t i;

	for (i = 0; i < ps->nr_rows; i++) {
		const struct ks_row *r = &ps->rows[i];
		struct kstats_slot *sl;

		if (!r->count)
			continue;	/* nothing (KS_PARSE_STRICT reports it) */
		if (r->caller >= 0) {
			if (ks_fill_slot(ps, node, &node->callers[r->caller].slots[r->slot], r))
				return -1;
			continue;
		}
		if (r->disturbed) {
			if (!node->disturbed)
				node->disturbed = calloc(node->nr_slots, sizeof(*node->disturbed));
			if (!node->disturbed)
				return ks_fail(&ps->e, r->line, "out of memory");
			if (ks_fill_slot(ps, node, &node->disturbed[r->slot], r))
				return -1;
			continue;
		}
		if (r->cpu < 0) {
			if (have_cpus_rows && r->ncpus != node->ncpus)
				return ks_fail(&ps->e, r->line, "CPUS %u differs from earlier CPUS %u",
					       r->ncpus, node->ncpus);
			node->ncpus = r->ncpus;
			have_cpus_rows = 1;
			if (ks_fill_slot(ps, node, &node->total[r->slot], r))
				return -1;
			continue;
		}
		sl = ks_view_cpu(node, (__u32)r->cpu);
		if (!sl)
			return ks_fail(&ps->e, r->line, "out of memory");
		if (ks_fill_slot(ps, node, &sl[r->slot], r))
			return -1;
	}
	/* Tolerate a text without CPUS rows: merge the CPUs. */
	if (!have_cpus_rows) {
		for (i = 0; i < node->nr_cpus; i++)
			kstats_merge(node->total, node->cpus[i].slots, node->nr_slots);
		if (node->nr_cpus)
			node->ncpus = node->cpus[node->nr_cpus - 1].cpu + 1;
	}
	/* A CPU row beyond the CPUS count (KS_PARSE_STRICT reports it). */
	if (!(ps->flags & KS_PARSE_STRICT) && node->nr_cpus &&
	    node->cpus[node->nr_cpus - 1].cpu >= node->ncpus)
		node->ncpus = node->cpus[node->nr_cpus - 1].cpu + 1;
	return 0;
}

/*
 * A "# WORD ..." line: the header, figures, call sites, slowest calls, a
 * call site's rows; unknown words are later additions, skipped.
 */
static int ks_parse_hash(struct ks_parser *ps, struct ks_view *node, char **tok, int ntok)
{
	if (strcmp(tok[0], "#") || ntok < 2)
		return 0;
	if (!strcmp(tok[1], KS_LINE_HEAD)) {
		if (ps->have_head)
			return ks_fail(&ps->e, ps->line, "second '# kstats' header");
		return ks_parse_head(ps, node, tok, ntok);
	}
	if (!strcmp(tok[1], KS_LINE_SAMPLES))
		return ks_parse_samples(ps, node, tok + 1, ntok - 1);
	if (!strcmp(tok[1], KS_LINE_FALLBACK)) {
		node->fell_back = 1;
		return 0;
	}
	if (!strcmp(tok[1], KS_LINE_CLAMPED))
		return ks_parse_clamped(ps, node, tok, ntok);
	if (!strcmp(tok[1], KS_LINE_NESTED))
		return ks_parse_nested(ps, node, tok, ntok);
	if (!strcmp(tok[1], KS_LINE_PCT))
		return ks_parse_pct(ps, node, tok + 2, ntok - 2);
	if (!strcmp(tok[1], KS_LINE_CALLER))
		return ks_parse_caller(ps, node, tok + 1, ntok - 1);
	if (!strcmp(tok[1], KS_LINE_DISTURBED) || !strcmp(tok[1], KS_LINE_SLOW) ||
	    !strcmp(tok[1], KS_LINE_STACK)) {
		if (!ps->have_head)
			return ks_fail(&ps->e, ps->line, "'# %s' before the '# kstats' header",
				       tok[1]);
		return ks_parse_slow(&ps->e, ps->line, node, tok + 1, ntok - 1);
	}
	if (!strcmp(tok[1], KS_ROW_SLOT) && ntok > 3 &&
	    (!strcmp(tok[3], KS_ROW_CALLER) || !strcmp(tok[3], KS_ROW_DISTURBED)))
		return ks_parse_row(ps, node, tok + 1, ntok - 1);
	return 0;
}

int ks_parse_text(const char *text, const char *src, unsigned int flags,
		  struct ks_view *node, char *err, size_t errlen)
{
	struct ks_parser ps = {
		.e = { .src = src, .buf = err, .len = errlen }, .flags = flags,
	};
	char *copy = strdup(text), *line, *next;
	char *tok[KS_MAX_TOKENS];
	int ntok, ret = -1;
	__u32 i;

	memset(node, 0, sizeof(*node));
	node->sample = 1;
	node->pid = -1;
	node->tgid = -1;
	if (!copy)
		return ks_fail(&ps.e, 0, "out of memory");
	for (line = copy; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ps.line++;
		ntok = ks_split(line, tok);
		if (ntok < 0) {
			ks_fail(&ps.e, ps.line, "too many words");
			goto out;
		}
		if (!ntok)
			continue;
		if (tok[0][0] == '#') {
			if (ks_parse_hash(&ps, node, tok, ntok))
				goto out;
			continue;
		}
		if (strcmp(tok[0], KS_ROW_SLOT)) {
			ks_fail(&ps.e, ps.line, "unexpected line starting with '%s'", tok[0]);
			goto out;
		}
		if (ks_parse_row(&ps, node, tok, ntok))
			goto out;
	}
	if (!ps.have_head) {
		ks_fail(&ps.e, 0, "no '# kstats NAME ...' header: not a kstats node");
		goto out;
	}
	if (!ps.have_samples && (flags & KS_PARSE_STRICT)) {
		ks_fail(&ps.e, 0, "no '# samples' line");
		goto out;
	}
	if (!node->has_pct && (flags & KS_PARSE_STRICT)) {
		ks_fail(&ps.e, 0, "no '# percentiles' line");
		goto out;
	}
	if (ks_build(&ps, node))
		goto out;
	/* a site's rows are its histogram (KS_PARSE_STRICT checks its count) */
	if (!(flags & KS_PARSE_STRICT))
		for (i = 0; i < node->nr_callers; i++)
			node->callers[i].count = kstats_total(node->callers[i].slots,
							      node->nr_slots);
	if (flags & KS_PARSE_STRICT) {
		if (ks_parse_check(&ps, node))
			goto out;
	}
	if (!node->has_pct)
		kstats_percentiles(node->total, node->nr_slots, node->bits, node->pct);
	/* it follows from bits (KS_PARSE_STRICT checked the printed one) */
	node->precision_ppm = kstats_precision_ppm(node->bits);
	ret = 0;
out:
	free(ps.rows);
	free(ps.caller_lines);
	free(copy);
	if (ret)
		ks_view_free(node);
	return ret;
}
