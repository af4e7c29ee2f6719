/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_json: the one reader and writer of JSON in tools/kstats: snapshots
 * (ks_snap.c, which save and export --json write) and compare --json
 * (ks_cmp.c) print through struct ks_jw, never by hand.
 */
#ifndef KS_JSON_H
#define KS_JSON_H

#include <stddef.h>
#include <stdio.h>

enum ks_jtype { KS_JNULL, KS_JBOOL, KS_JNUM, KS_JSTR, KS_JARR, KS_JOBJ };

struct ks_jv {
	enum ks_jtype type;
	int line;
	char *str;		/* string value, or the number's text */
	char **keys;		/* object keys */
	struct ks_jv *kids;	/* array items / object values */
	size_t n;
};

/**
 * ks_json_parse() - parse one JSON document into a tree
 * @text:   NUL-terminated JSON text
 * @src:    name for error messages
 * @root:   the tree, on success (free with ks_jfree())
 * @err:    on failure, "SRC:LINE: what is wrong"
 * @errlen: size of @err
 *
 * Return: 0 or -1.
 */
int ks_json_parse(const char *text, const char *src, struct ks_jv *root,
		  char *err, size_t errlen);

/**
 * ks_jfree() - free the tree under @v (not @v itself)
 * @v: a value
 */
void ks_jfree(struct ks_jv *v);

/**
 * ks_jget() - member @key of object @obj
 * @obj: an object
 * @key: member name
 *
 * Return: the member, or NULL.
 */
const struct ks_jv *ks_jget(const struct ks_jv *obj, const char *key);

/* ---- writing ---- */

#define KS_JW_DEPTH	8

/*
 * A JSON writer: containers nest, commas and indentation are its own.
 * A block container puts each member on a line of its own, indented two
 * blanks a level; an inline one (KS_JW_INLINE) keeps them on one line:
 * { "a": 1, "b": 2 } and [1, 2].
 */
struct ks_jw_level {
	char close;			/* '}' or ']' */
	char inl;			/* on one line */
	int n;				/* members so far */
};

struct ks_jw {
	FILE *f;
	int depth;
	const char *key;		/* of the next value, in an object */
	struct ks_jw_level c[KS_JW_DEPTH];
};

#define KS_JW_INLINE	0x1

/**
 * ks_jw_init() - start a document on @f
 * @w: the writer
 * @f: output stream
 */
void ks_jw_init(struct ks_jw *w, FILE *f);

/**
 * ks_jw_key() - the key of the next value (inside an object)
 * @w:   the writer
 * @key: the key
 */
void ks_jw_key(struct ks_jw *w, const char *key);

/**
 * ks_jw_obj() - open an object
 * @w:     the writer
 * @flags: 0 (block) or KS_JW_INLINE
 */
void ks_jw_obj(struct ks_jw *w, int flags);

/**
 * ks_jw_arr() - open an array
 * @w:     the writer
 * @flags: 0 (block) or KS_JW_INLINE
 */
void ks_jw_arr(struct ks_jw *w, int flags);

/**
 * ks_jw_end() - close the innermost container (the document's: a newline)
 * @w: the writer
 */
void ks_jw_end(struct ks_jw *w);

/**
 * ks_jw_str() - a string value
 * @w: the writer
 * @s: UTF-8 text
 */
void ks_jw_str(struct ks_jw *w, const char *s);

/**
 * ks_jw_u64() - an unsigned integer value
 * @w: the writer
 * @v: the value
 */
void ks_jw_u64(struct ks_jw *w, unsigned long long v);

/**
 * ks_jw_int() - a signed integer value
 * @w: the writer
 * @v: the value
 */
void ks_jw_int(struct ks_jw *w, long long v);

/**
 * ks_jw_num() - a number as printf's @fmt writes it; null if not finite
 * @w:   the writer
 * @fmt: a printf format of one double ("%.6g")
 * @v:   the value
 */
void ks_jw_num(struct ks_jw *w, const char *fmt, double v);

/**
 * ks_jw_bool() - true or false
 * @w: the writer
 * @v: the value
 */
void ks_jw_bool(struct ks_jw *w, int v);

/**
 * ks_jw_null() - null
 * @w: the writer
 */
void ks_jw_null(struct ks_jw *w);

/* "KEY": VALUE in one call. */
void ks_jw_kstr(struct ks_jw *w, const char *key, const char *s);
void ks_jw_ku64(struct ks_jw *w, const char *key, unsigned long long v);

#endif /* KS_JSON_H */
