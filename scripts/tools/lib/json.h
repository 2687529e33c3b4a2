/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json: a small reader of JSON text (RFC 8259) into a tree, for what a
 * guest's tools write (fio --output-format=json).  The text is data a guest
 * wrote: anything that is not JSON is refused with the offset of the error,
 * nesting is limited (JSON_MAX_DEPTH) and nothing is evaluated.  Strings
 * are kept decoded (\uXXXX as UTF-8, surrogate pairs joined; a NUL escape
 * is refused), numbers as doubles.
 */
#ifndef RECLAIMLAB_JSON_H
#define RECLAIMLAB_JSON_H

#include <stddef.h>

#define JSON_MAX_DEPTH	64

enum json_type { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	double number;		/* JSON_NUMBER */
	char *string;		/* JSON_STRING */
	/* JSON_ARRAY and JSON_OBJECT: n items; an object's keys in keys[] */
	size_t n;
	struct json **items;
	char **keys;
};

/*
 * Parses the whole of text (len bytes; whitespace around the value only).
 * Returns the tree, or NULL with the reason and byte offset in err.
 */
struct json *json_parse(const char *text, size_t len, char *err, size_t errlen);
void json_free(struct json *v);

/* The member key of an object (the first if repeated), or NULL */
const struct json *json_get(const struct json *obj, const char *key);
/* Item i of an array, or NULL */
const struct json *json_at(const struct json *arr, size_t i);
/* A member's number or string, or NULL when it is absent or of another type */
const double *json_number(const struct json *obj, const char *key);
const char *json_string(const struct json *obj, const char *key);

#endif
