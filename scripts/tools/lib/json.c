// SPDX-License-Identifier: GPL-2.0
/*
 * A JSON reader into a tree; see json.h.  Recursive descent over the
 * grammar of RFC 8259, one function per production; bytes of strings other
 * than escapes are kept as they are.
 *
 * Why not json-c or jansson (Debian 12: libjson-c-dev 0.16,
 * libjansson-dev 2.14): what this reads is a guest's fio and iostat
 * output, read only through guest-read.h's size caps, for a few numbers
 * per document.  json-c is lenient by default (a strict mode must be
 * asked for); jansson is strict, but refuses a whole document for one
 * integer past 64 bits.  Both keep a repeated key's last value where
 * json_get() takes the first: a switch would change what such a document
 * gives.  Either adds a library to every host tool and a package to
 * scripts/deps.sh, and would still need the
 * json_number()/json_string() lookups.  This reader is strict, bounds
 * nesting (JSON_MAX_DEPTH), refuses \u0000, names the byte offset of an
 * error and is tested (tests/unit/test-json.c, and through sysstat and
 * summarize); its 500 lines are cheaper to keep than the dependency.
 */
#include "lib/json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	const char *s;
	size_t len, pos;
	char *err;
	size_t errlen;
	int failed;
};

static void perr(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void perr(struct parser *p, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	if (p->failed)
		return;
	p->failed = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->errlen)
		snprintf(p->err, p->errlen, "%s at byte %zu", msg, p->pos);
}

static int peek(const struct parser *p)
{
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static void skip_ws(struct parser *p)
{
	while (p->pos < p->len && strchr(" \t\n\r", p->s[p->pos]) && p->s[p->pos])
		p->pos++;
}

static struct json *new_value(struct parser *p, enum json_type type)
{
	struct json *v = calloc(1, sizeof(*v));

	if (!v)
		perr(p, "out of memory");
	else
		v->type = type;
	return v;
}

/* buffer of a string being decoded */
struct buf {
	char *b;
	size_t n, cap;
};

static int buf_add(struct parser *p, struct buf *b, const char *bytes, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 32;
		char *nb;

		while (cap < b->n + n + 1)
			cap *= 2;
		nb = realloc(b->b, cap);
		if (!nb) {
			perr(p, "out of memory");
			return -1;
		}
		b->b = nb;
		b->cap = cap;
	}
	memcpy(b->b + b->n, bytes, n);
	b->n += n;
	b->b[b->n] = '\0';
	return 0;
}

/* four hex digits at the position; -1 if they are not */
static long hex4(struct parser *p)
{
	long v = 0;
	int i;

	if (p->len - p->pos < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		char c = p->s[p->pos + (size_t)i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	p->pos += 4;
	return v;
}

static int add_utf8(struct parser *p, struct buf *b, unsigned long c)
{
	char u[4];
	size_t n;

	if (c < 0x80) {
		u[0] = (char)c;
		n = 1;
	} else if (c < 0x800) {
		u[0] = (char)(0xc0 | (c >> 6));
		u[1] = (char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		u[0] = (char)(0xe0 | (c >> 12));
		u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[2] = (char)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | (c >> 18));
		u[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[3] = (char)(0x80 | (c & 0x3f));
		n = 4;
	}
	return buf_add(p, b, u, n);
}

/* \uXXXX (the backslash and u read): one code point, a surrogate pair joined */
static int unicode_escape(struct parser *p, struct buf *b)
{
	long c = hex4(p), lo;

	if (c < 0) {
		perr(p, "bad \\u escape");
		return -1;
	}
	if (c >= 0xdc00 && c <= 0xdfff) {
		perr(p, "lone low surrogate in a \\u escape");
		return -1;
	}
	if (c >= 0xd800 && c <= 0xdbff) {
		if (p->len - p->pos < 2 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u') {
			perr(p, "high surrogate without its low half");
			return -1;
		}
		p->pos += 2;
		lo = hex4(p);
		if (lo < 0xdc00 || lo > 0xdfff) {
			perr(p, "high surrogate without its low half");
			return -1;
		}
		c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (c == 0) {
		perr(p, "NUL in a string");
		return -1;
	}
	return add_utf8(p, b, (unsigned long)c);
}

/* a string at its opening quote; returns the decoded bytes (malloc'd) */
static char *parse_string(struct parser *p)
{
	static const char esc_in[] = "\"\\/bfnrt", esc_out[] = "\"\\/\b\f\n\r\t";
	struct buf b = { 0 };

	p->pos++;
	if (buf_add(p, &b, "", 0) < 0)
		return NULL;
	for (;;) {
		size_t start = p->pos;
		int c;

		while (p->pos < p->len && p->s[p->pos] != '"' && p->s[p->pos] != '\\' &&
		       (unsigned char)p->s[p->pos] >= 0x20)
			p->pos++;
		if (buf_add(p, &b, p->s + start, p->pos - start) < 0)
			goto bad;
		c = peek(p);
		if (c == '"') {
			p->pos++;
			return b.b;
		}
		if (c < 0) {
			perr(p, "unterminated string");
			goto bad;
		}
		if (c != '\\') {
			perr(p, "control character in a string");
			goto bad;
		}
		p->pos++;
		c = peek(p);
		if (c == 'u') {
			p->pos++;
			if (unicode_escape(p, &b) < 0)
				goto bad;
		} else if (c > 0 && strchr(esc_in, c)) {
			p->pos++;
			if (buf_add(p, &b, &esc_out[strchr(esc_in, c) - esc_in], 1) < 0)
				goto bad;
		} else {
			perr(p, "bad escape in a string");
			goto bad;
		}
	}
bad:
	free(b.b);
	return NULL;
}

static size_t digits(const struct parser *p, size_t at)
{
	size_t n = 0;

	while (at + n < p->len && p->s[at + n] >= '0' && p->s[at + n] <= '9')
		n++;
	return n;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)? */
static struct json *parse_number(struct parser *p)
{
	size_t start = p->pos, at = p->pos, n;
	char text[400];
	struct json *v;

	if (at < p->len && p->s[at] == '-')
		at++;
	n = digits(p, at);
	if (!n || (p->s[at] == '0' && n > 1)) {
		p->pos = at;
		perr(p, "bad number");
		return NULL;
	}
	at += n;
	if (at < p->len && p->s[at] == '.') {
		n = digits(p, at + 1);
		if (!n) {
			p->pos = at + 1;
			perr(p, "bad number: no digit after the point");
			return NULL;
		}
		at += 1 + n;
	}
	if (at < p->len && (p->s[at] == 'e' || p->s[at] == 'E')) {
		at++;
		if (at < p->len && (p->s[at] == '-' || p->s[at] == '+'))
			at++;
		n = digits(p, at);
		if (!n) {
			p->pos = at;
			perr(p, "bad number: no digit in the exponent");
			return NULL;
		}
		at += n;
	}
	if (at - start >= sizeof(text)) {
		perr(p, "number too long");
		return NULL;
	}
	memcpy(text, p->s + start, at - start);
	text[at - start] = '\0';
	p->pos = at;
	v = new_value(p, JSON_NUMBER);
	if (v)
		v->number = strtod(text, NULL);
	return v;
}

static struct json *parse_value(struct parser *p, int depth);

/* add item (and key, for an object) to container v; frees them on failure */
static int add_item(struct parser *p, struct json *v, struct json *item, char *key)
{
	struct json **items = realloc(v->items, (v->n + 1) * sizeof(*items));
	char **keys;

	if (items)
		v->items = items;
	if (items && key) {
		keys = realloc(v->keys, (v->n + 1) * sizeof(*keys));
		if (keys)
			v->keys = keys;
		else
			items = NULL;
	}
	if (!items) {
		perr(p, "out of memory");
		json_free(item);
		free(key);
		return -1;
	}
	v->items[v->n] = item;
	if (key)
		v->keys[v->n] = key;
	v->n++;
	return 0;
}

/* an array or object at its opening bracket */
static struct json *parse_container(struct parser *p, int depth)
{
	int object = peek(p) == '{';
	char close = object ? '}' : ']';
	struct json *v;

	if (depth >= JSON_MAX_DEPTH) {
		perr(p, "nested deeper than %d", JSON_MAX_DEPTH);
		return NULL;
	}
	v = new_value(p, object ? JSON_OBJECT : JSON_ARRAY);
	if (!v)
		return NULL;
	p->pos++;
	skip_ws(p);
	if (peek(p) == close) {
		p->pos++;
		return v;
	}
	for (;;) {
		char *key = NULL;
		struct json *item;

		skip_ws(p);
		if (object) {
			if (peek(p) != '"') {
				perr(p, "expected a member name");
				break;
			}
			if (!(key = parse_string(p)))
				break;
			skip_ws(p);
			if (peek(p) != ':') {
				free(key);
				perr(p, "expected ':'");
				break;
			}
			p->pos++;
		}
		item = parse_value(p, depth + 1);
		if (!item) {
			free(key);
			break;
		}
		if (add_item(p, v, item, key) < 0)
			break;
		skip_ws(p);
		if (peek(p) == ',') {
			p->pos++;
			continue;
		}
		if (peek(p) == close) {
			p->pos++;
			return v;
		}
		perr(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
		break;
	}
	json_free(v);
	return NULL;
}

static struct json *parse_literal(struct parser *p, const char *word, enum json_type type)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n)) {
		perr(p, "unexpected character");
		return NULL;
	}
	p->pos += n;
	return new_value(p, type);
}

static struct json *parse_value(struct parser *p, int depth)
{
	int c;

	skip_ws(p);
	c = peek(p);
	switch (c) {
	case '{':
	case '[':
		return parse_container(p, depth);
	case '"': {
		char *s = parse_string(p);
		struct json *v;

		if (!s)
			return NULL;
		v = new_value(p, JSON_STRING);
		if (!v) {
			free(s);
			return NULL;
		}
		v->string = s;
		return v;
	}
	case 't':
		return parse_literal(p, "true", JSON_TRUE);
	case 'f':
		return parse_literal(p, "false", JSON_FALSE);
	case 'n':
		return parse_literal(p, "null", JSON_NULL);
	case -1:
		perr(p, "unexpected end of the text");
		return NULL;
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return parse_number(p);
		perr(p, "unexpected character");
		return NULL;
	}
}

struct json *json_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct parser p = { text, len, 0, err, errlen, 0 };
	struct json *v;

	if (errlen)
		err[0] = '\0';
	v = parse_value(&p, 0);
	if (!v)
		return NULL;
	skip_ws(&p);
	if (p.pos != p.len) {
		perr(&p, "text after the value");
		json_free(v);
		return NULL;
	}
	return v;
}

void json_free(struct json *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		json_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->string);
	free(v);
}

const struct json *json_get(const struct json *obj, const char *key)
{
	size_t i;

	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}

const struct json *json_at(const struct json *arr, size_t i)
{
	if (!arr || arr->type != JSON_ARRAY || i >= arr->n)
		return NULL;
	return arr->items[i];
}

const double *json_number(const struct json *obj, const char *key)
{
	const struct json *v = json_get(obj, key);

	return v && v->type == JSON_NUMBER ? &v->number : NULL;
}

const char *json_string(const struct json *obj, const char *key)
{
	const struct json *v = json_get(obj, key);

	return v && v->type == JSON_STRING ? v->string : NULL;
}
