// SPDX-License-Identifier: GPL-2.0
/*
 * Memory, strings and whole files for the host tools: see util.h.
 */
#include "lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "%s: out of memory\n", program_invocation_short_name);
		exit(1);
	}
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

void strv_push(struct strv *s, const char *x)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		char **v = realloc(s->v, cap * sizeof(*v));

		if (!v) {
			fprintf(stderr, "%s: out of memory\n", program_invocation_short_name);
			exit(1);
		}
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = xstrdup(x);
}

int strv_has(const struct strv *s, const char *x)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], x))
			return 1;
	return 0;
}

void strv_add_unique(struct strv *s, const char *x)
{
	if (!strv_has(s, x))
		strv_push(s, x);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void strv_sort(struct strv *s)
{
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), cmp_str);
}

void strv_print(FILE *f, const struct strv *s, const char *sep)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		fprintf(f, "%s%s", i ? sep : "", s->v[i]);
}

void strv_free(struct strv *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

void strv_remove_prefix(struct strv *s, const char *prefix)
{
	size_t i, j = 0;

	for (i = 0; i < s->n; i++) {
		if (!strncmp(s->v[i], prefix, strlen(prefix)))
			free(s->v[i]);
		else
			s->v[j++] = s->v[i];
	}
	s->n = j;
}

void strv_split(struct strv *s, const char *text)
{
	char word[512];
	size_t n;

	while (text && *text) {
		text += strspn(text, " \t\n,");
		n = strcspn(text, " \t\n,");
		if (n && n < sizeof(word)) {
			memcpy(word, text, n);
			word[n] = '\0';
			strv_push(s, word);
		}
		text += n;
	}
}

char *read_whole_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (cap - n < 4096) {
			cap = cap ? 2 * cap : 8192;
			buf = realloc(buf, cap + 1);
			if (!buf) {
				fclose(f);
				fprintf(stderr, "%s: out of memory\n", program_invocation_short_name);
				exit(1);
			}
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

char *next_line(char **p)
{
	char *l = *p, *nl;

	if (!l || !*l)
		return NULL;
	nl = strchr(l, '\n');
	if (nl) {
		*nl = '\0';
		*p = nl + 1;
	} else {
		*p = l + strlen(l);
	}
	return l;
}

char *read_file_in(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = xmalloc(n), *t;

	snprintf(p, n, "%s/%s", dir, name);
	t = read_whole_file(p, NULL);
	free(p);
	return t;
}
