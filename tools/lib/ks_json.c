// SPDX-License-Identifier: GPL-2.0
/*
 * ks_json: the JSON of snapshots and comparisons.  Writing: struct ks_jw,
 * which nests containers and places commas, line breaks and indentation
 * (ks_snap.c and ks_cmp.c say what goes in them).  Reading: a small parser into
 * a tree of objects, arrays, strings, numbers, true/false/null; numbers
 * are kept as text, for the schema to judge.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_json.h"
#include "ks_parse.h"

/* ---- writing ---- */

/* Write @s as a JSON string. */
static void ks_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void ks_jw_init(struct ks_jw *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
}

void ks_jw_key(struct ks_jw *w, const char *key)
{
	w->key = key;
}

/* What goes before a value: the comma, the line break and indent, the key. */
static void ks_jw_sep(struct ks_jw *w)
{
	if (w->depth) {
		struct ks_jw_level *c = &w->c[w->depth - 1];

		if (c->inl)
			fputs(c->n ? ", " : c->close == '}' ? " " : "", w->f);
		else
			fprintf(w->f, "%s\n%*s", c->n ? "," : "", 2 * w->depth, "");
		c->n++;
	}
	if (w->key) {
		ks_json_str(w->f, w->key);
		fputs(": ", w->f);
		w->key = NULL;
	}
}

static void ks_jw_open(struct ks_jw *w, char open, char close, int flags)
{
	ks_jw_sep(w);
	fputc(open, w->f);
	assert(w->depth < KS_JW_DEPTH);
	w->c[w->depth].close = close;
	w->c[w->depth].inl = !!(flags & KS_JW_INLINE);
	w->c[w->depth].n = 0;
	w->depth++;
}

void ks_jw_obj(struct ks_jw *w, int flags)
{
	ks_jw_open(w, '{', '}', flags);
}

void ks_jw_arr(struct ks_jw *w, int flags)
{
	ks_jw_open(w, '[', ']', flags);
}

void ks_jw_end(struct ks_jw *w)
{
	struct ks_jw_level *c;

	if (!w->depth)
		return;
	c = &w->c[--w->depth];
	if (c->inl)
		fputs(c->n && c->close == '}' ? " }" : c->close == '}' ? "}" : "]", w->f);
	else
		fprintf(w->f, "\n%*s%c", 2 * w->depth, "", c->close);
	if (!w->depth)
		fputc('\n', w->f);
}

void ks_jw_str(struct ks_jw *w, const char *s)
{
	ks_jw_sep(w);
	ks_json_str(w->f, s);
}

void ks_jw_u64(struct ks_jw *w, unsigned long long v)
{
	ks_jw_sep(w);
	fprintf(w->f, "%llu", v);
}

void ks_jw_int(struct ks_jw *w, long long v)
{
	ks_jw_sep(w);
	fprintf(w->f, "%lld", v);
}

void ks_jw_num(struct ks_jw *w, const char *fmt, double v)
{
	ks_jw_sep(w);
	if (isinf(v) || isnan(v))
		fputs("null", w->f);
	else
		fprintf(w->f, fmt, v);
}

void ks_jw_bool(struct ks_jw *w, int v)
{
	ks_jw_sep(w);
	fputs(v ? "true" : "false", w->f);
}

void ks_jw_null(struct ks_jw *w)
{
	ks_jw_sep(w);
	fputs("null", w->f);
}

void ks_jw_kstr(struct ks_jw *w, const char *key, const char *s)
{
	ks_jw_key(w, key);
	ks_jw_str(w, s);
}

void ks_jw_ku64(struct ks_jw *w, const char *key, unsigned long long v)
{
	ks_jw_key(w, key);
	ks_jw_u64(w, v);
}

/* ---- reading ---- */

struct ks_jparser {
	const char *p;
	int line;
	int depth;
	struct ks_errbuf e;
};

/* Skip blanks, counting lines. */
static void ks_jskip(struct ks_jparser *jp)
{
	for (;;) {
		char c = *jp->p;

		if (c == '\n')
			jp->line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			return;
		jp->p++;
	}
}

/* Free the tree under @v (not @v itself). */
void ks_jfree(struct ks_jv *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		ks_jfree(&v->kids[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->kids);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof(*v));
}

/* Append @c as UTF-8 to @buf at *@n (buf is large enough: 4 per escape). */
static void ks_utf8(char *buf, size_t *n, unsigned int c)
{
	if (c < 0x80) {
		buf[(*n)++] = (char)c;
	} else if (c < 0x800) {
		buf[(*n)++] = (char)(0xc0 | (c >> 6));
		buf[(*n)++] = (char)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		buf[(*n)++] = (char)(0xe0 | (c >> 12));
		buf[(*n)++] = (char)(0x80 | ((c >> 6) & 0x3f));
		buf[(*n)++] = (char)(0x80 | (c & 0x3f));
	} else {
		buf[(*n)++] = (char)(0xf0 | (c >> 18));
		buf[(*n)++] = (char)(0x80 | ((c >> 12) & 0x3f));
		buf[(*n)++] = (char)(0x80 | ((c >> 6) & 0x3f));
		buf[(*n)++] = (char)(0x80 | (c & 0x3f));
	}
}

/* Four hex digits of a \u escape. */
static int ks_hex4(const char *p, unsigned int *out)
{
	unsigned int v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned int)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* Parse a string at jp->p (on the opening quote) into a new buffer. */
static int ks_jstring(struct ks_jparser *jp, char **out)
{
	const char *p = jp->p + 1, *end = p;
	size_t n = 0;
	char *buf;

	/* find the closing quote to size the buffer */
	while (*end && *end != '"') {
		if (*end == '\\' && end[1])
			end++;
		end++;
	}
	if (!*end)
		return ks_fail(&jp->e, jp->line, "unterminated string: the file is truncated");
	buf = malloc((size_t)(end - p) + 1);
	if (!buf)
		return ks_fail(&jp->e, jp->line, "out of memory");
	while (p < end) {
		unsigned char c = (unsigned char)*p++;
		unsigned int u, lo;

		if (c < 0x20) {
			free(buf);
			return ks_fail(&jp->e, jp->line, "control character in a string");
		}
		if (c != '\\') {
			buf[n++] = (char)c;
			continue;
		}
		c = (unsigned char)*p++;
		switch (c) {
		case '"': case '\\': case '/':
			buf[n++] = (char)c;
			break;
		case 'b': buf[n++] = '\b'; break;
		case 'f': buf[n++] = '\f'; break;
		case 'n': buf[n++] = '\n'; break;
		case 'r': buf[n++] = '\r'; break;
		case 't': buf[n++] = '\t'; break;
		case 'u':
			if (end - p < 4 || ks_hex4(p, &u))
				goto bad;
			p += 4;
			if (u >= 0xd800 && u < 0xdc00) {
				if (end - p < 6 || p[0] != '\\' || p[1] != 'u' ||
				    ks_hex4(p + 2, &lo) || lo < 0xdc00 || lo >= 0xe000)
					goto bad;
				p += 6;
				u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
			} else if (u >= 0xdc00 && u < 0xe000) {
				goto bad;
			}
			if (!u)
				goto bad;
			ks_utf8(buf, &n, u);
			break;
		default:
			goto bad;
		}
	}
	buf[n] = '\0';
	jp->p = end + 1;
	*out = buf;
	return 0;
bad:
	free(buf);
	return ks_fail(&jp->e, jp->line, "bad escape in a string");
}

static int ks_jvalue(struct ks_jparser *jp, struct ks_jv *v);

/* Add a zeroed child to @v, and a key slot for objects. */
static struct ks_jv *ks_jadd(struct ks_jv *v)
{
	struct ks_jv *kids = realloc(v->kids, (v->n + 1) * sizeof(*kids));

	if (!kids)
		return NULL;
	v->kids = kids;
	if (v->type == KS_JOBJ) {
		char **keys = realloc(v->keys, (v->n + 1) * sizeof(*keys));

		if (!keys)
			return NULL;
		v->keys = keys;
		keys[v->n] = NULL;
	}
	memset(&kids[v->n], 0, sizeof(*kids));
	return &kids[v->n++];
}

/* Array or object body after the opening bracket. */
static int ks_jcontainer(struct ks_jparser *jp, struct ks_jv *v, char close)
{
	if (++jp->depth > 32)
		return ks_fail(&jp->e, jp->line, "nesting too deep");
	jp->p++;
	ks_jskip(jp);
	if (*jp->p == close) {
		jp->p++;
		jp->depth--;
		return 0;
	}
	for (;;) {
		struct ks_jv *kid;
		char *key = NULL;

		ks_jskip(jp);
		if (v->type == KS_JOBJ) {
			if (!*jp->p)
				return ks_fail(&jp->e, jp->line, "unexpected end of file: the file is truncated");
			if (*jp->p != '"')
				return ks_fail(&jp->e, jp->line, "expected a key string");
			if (ks_jstring(jp, &key))
				return -1;
			ks_jskip(jp);
			if (*jp->p != ':') {
				if (*jp->p)
					ks_fail(&jp->e, jp->line, "expected ':' after key \"%s\"", key);
				else
					ks_fail(&jp->e, jp->line, "unexpected end of file: the file is truncated");
				free(key);
				return -1;
			}
			jp->p++;
		}
		kid = ks_jadd(v);
		if (!kid) {
			free(key);
			return ks_fail(&jp->e, jp->line, "out of memory");
		}
		if (v->keys)
			v->keys[v->n - 1] = key;
		if (ks_jvalue(jp, kid))
			return -1;
		ks_jskip(jp);
		if (*jp->p == ',') {
			jp->p++;
			continue;
		}
		if (*jp->p == close) {
			jp->p++;
			jp->depth--;
			return 0;
		}
		if (!*jp->p)
			return ks_fail(&jp->e, jp->line, "unexpected end of file: the file is truncated");
		return ks_fail(&jp->e, jp->line, "expected ',' or '%c'", close);
	}
}

/* Any value at jp->p. */
static int ks_jvalue(struct ks_jparser *jp, struct ks_jv *v)
{
	const char *p;

	ks_jskip(jp);
	v->line = jp->line;
	p = jp->p;
	switch (*p) {
	case '\0':
		return ks_fail(&jp->e, jp->line, "unexpected end of file: the file is truncated");
	case '{':
		v->type = KS_JOBJ;
		return ks_jcontainer(jp, v, '}');
	case '[':
		v->type = KS_JARR;
		return ks_jcontainer(jp, v, ']');
	case '"':
		v->type = KS_JSTR;
		return ks_jstring(jp, &v->str);
	}
	if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4)) {
		v->type = *p == 't' ? KS_JBOOL : KS_JNULL;
		jp->p += 4;
		return 0;
	}
	if (!strncmp(p, "false", 5)) {
		v->type = KS_JBOOL;
		jp->p += 5;
		return 0;
	}
	if (*p == '-' || (*p >= '0' && *p <= '9')) {
		/* JSON number grammar; the schema decides what it accepts */
		const char *s = p;

		if (*p == '-')
			p++;
		if (*p == '0')
			p++;
		else if (*p >= '1' && *p <= '9')
			while (*p >= '0' && *p <= '9')
				p++;
		else
			return ks_fail(&jp->e, jp->line, "bad number");
		if (*p == '.') {
			if (*++p < '0' || *p > '9')
				return ks_fail(&jp->e, jp->line, "bad number");
			while (*p >= '0' && *p <= '9')
				p++;
		}
		if (*p == 'e' || *p == 'E') {
			p++;
			if (*p == '+' || *p == '-')
				p++;
			if (*p < '0' || *p > '9')
				return ks_fail(&jp->e, jp->line, "bad number");
			while (*p >= '0' && *p <= '9')
				p++;
		}
		v->type = KS_JNUM;
		v->str = strndup(s, (size_t)(p - s));
		if (!v->str)
			return ks_fail(&jp->e, jp->line, "out of memory");
		jp->p = p;
		return 0;
	}
	return ks_fail(&jp->e, jp->line, "unexpected character '%c'", *p);
}

/* Member @key of object @obj, or NULL. */
const struct ks_jv *ks_jget(const struct ks_jv *obj, const char *key)
{
	size_t i;

	for (i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return &obj->kids[i];
	return NULL;
}

int ks_json_parse(const char *text, const char *src, struct ks_jv *root,
		  char *err, size_t errlen)
{
	struct ks_jparser jp = {
		.p = text, .line = 1, .e = { .src = src, .buf = err, .len = errlen },
	};

	memset(root, 0, sizeof(*root));
	ks_jskip(&jp);
	if (!*jp.p)
		return ks_fail(&jp.e, jp.line, "empty file");
	if (ks_jvalue(&jp, root))
		goto fail;
	ks_jskip(&jp);
	if (*jp.p) {
		ks_fail(&jp.e, jp.line, "trailing text after the JSON document");
		goto fail;
	}
	return 0;
fail:
	ks_jfree(root);
	return -1;
}
