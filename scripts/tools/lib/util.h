/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory, strings and whole files for the host tools.  Running out of
 * memory ends the tool (exit 1, after a line naming it): a report half
 * written is worth less than none.
 */
#ifndef RECLAIMLAB_UTIL_H
#define RECLAIMLAB_UTIL_H

#include <stddef.h>
#include <stdio.h>

void *xmalloc(size_t n);
char *xstrdup(const char *s);

/* A list of owned strings. */
struct strv {
	char **v;
	size_t n, cap;
};

void strv_push(struct strv *s, const char *x);
void strv_add_unique(struct strv *s, const char *x);
int strv_has(const struct strv *s, const char *x);
void strv_sort(struct strv *s);
void strv_print(FILE *f, const struct strv *s, const char *sep);
void strv_free(struct strv *s);
/* Drops the entries that start with prefix. */
void strv_remove_prefix(struct strv *s, const char *prefix);
/* The words of text (split at blanks and commas) appended. */
void strv_split(struct strv *s, const char *text);

/*
 * The next line of the text at *p, its newline cut off in place, and *p
 * moved past it; NULL at the end (or for a NULL *p).
 */
char *next_line(char **p);
/* Reads a whole file; malloc'ed and NUL-terminated, NULL if it cannot. */
char *read_whole_file(const char *path, size_t *len);
/* read_whole_file() of DIR/NAME, without its length. */
char *read_file_in(const char *dir, const char *name);

#endif
