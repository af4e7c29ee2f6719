/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ks_json: the one reader and writer of JSON in tools/kstats (snapshots).
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

/**
 * ks_json_str() - write @s as a JSON string
 * @f: output stream
 * @s: UTF-8 text
 */
void ks_json_str(FILE *f, const char *s);

/**
 * ks_json_kv() - write "KEY": "VALUE" at @indent, then "," unless @last
 * @f:      output stream
 * @indent: blanks before the key
 * @key:    key
 * @v:      string value
 * @last:   the last member of its object
 */
void ks_json_kv(FILE *f, int indent, const char *key, const char *v, int last);

#endif /* KS_JSON_H */
