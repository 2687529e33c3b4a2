// SPDX-License-Identifier: GPL-2.0
/*
 * report.html: the markdown the report writes, as one self-contained page
 * (no network, no script): headings, paragraphs, lists, quotes, tables,
 * **bold**, `code`, links; a link to plots/NAME.svg also puts that SVG
 * inline below its line, so the page shows every figure by itself.  Only
 * the markdown markdown.c writes is understood, not markdown in general.
 */
#include "report/html.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

static void escape(FILE *f, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(s[i], f);
		}
	}
}

/*
 * Whether href may be a link: the report links its own files (plots/...),
 * so a scheme (javascript:, data:, http:) or a protocol-relative //host
 * is text that merely looks like a link, from a value a guest chose.
 */
static int local_href(const char *href, size_t n)
{
	return !memchr(href, ':', n) && !(n >= 2 && href[0] == '/' && href[1] == '/');
}

/* inline markup of one line: **bold**, `code`, [text](href) */
static void inline_md(FILE *f, const char *s, size_t n, struct strv *svgs)
{
	size_t i = 0;

	while (i < n) {
		const char *end, *close;

		if (s[i] == '`' && (end = memchr(s + i + 1, '`', n - i - 1))) {
			fputs("<code>", f);
			escape(f, s + i + 1, (size_t)(end - s - i - 1));
			fputs("</code>", f);
			i = (size_t)(end - s) + 1;
		} else if (i + 1 < n && s[i] == '*' && s[i + 1] == '*' &&
			   (end = strstr(s + i + 2, "**")) && (size_t)(end - s) < n) {
			fputs("<strong>", f);
			inline_md(f, s + i + 2, (size_t)(end - s - i - 2), svgs);
			fputs("</strong>", f);
			i = (size_t)(end - s) + 2;
		} else if (s[i] == '[' && (end = memchr(s + i, ']', n - i)) &&
			   (size_t)(end - s) + 1 < n && end[1] == '(' &&
			   (close = memchr(end, ')', n - (size_t)(end - s))) &&
			   local_href(end + 2, (size_t)(close - end - 2))) {
			const char *href = end + 2;
			size_t hl = (size_t)(close - href);

			fputs("<a href=\"", f);
			escape(f, href, hl);
			fputs("\">", f);
			escape(f, s + i + 1, (size_t)(end - s - i - 1));
			fputs("</a>", f);
			if (hl > 10 && !strncmp(href, "plots/", 6) && !strncmp(close - 4, ".svg", 4)) {
				char name[512];

				snprintf(name, sizeof(name), "%.*s", (int)(hl - 6), href + 6);
				strv_push(svgs, name);
			}
			i = (size_t)(close - s) + 1;
		} else {
			escape(f, s + i, 1);
			i++;
		}
	}
}

static int is_separator_row(const char *l)
{
	return !strncmp(l, "|---", 4);
}

static void table_row(FILE *f, const char *l, const char *cell, struct strv *svgs)
{
	const char *p = l + 1;

	fputs("<tr>", f);
	while (*p) {
		const char *bar = strchr(p, '|');
		size_t n;

		if (!bar)
			break;
		n = (size_t)(bar - p);
		while (n && p[0] == ' ') {
			p++;
			n--;
		}
		while (n && p[n - 1] == ' ')
			n--;
		fprintf(f, "<%s>", cell);
		inline_md(f, p, n, svgs);
		fprintf(f, "</%s>", cell);
		p = bar + 1;
	}
	fputs("</tr>\n", f);
}

static void inline_svgs(FILE *f, struct strv *svgs, const char *plots_dir)
{
	size_t i;

	for (i = 0; i < svgs->n; i++) {
		size_t n = strlen(plots_dir) + strlen(svgs->v[i]) + 2;
		char *path = xmalloc(n), *svg, *start;

		snprintf(path, n, "%s/%s", plots_dir, svgs->v[i]);
		svg = read_whole_file(path, NULL);
		free(path);
		/* the <svg> element itself, without gnuplot's XML prologue */
		start = svg ? strstr(svg, "<svg") : NULL;
		if (start) {
			fputs("<figure>", f);
			fputs(start, f);
			fputs("<figcaption>", f);
			escape(f, svgs->v[i], strlen(svgs->v[i]));
			fputs("</figcaption></figure>\n", f);
		}
		free(svg);
	}
	strv_free(svgs);
}

int report_html(const char *md, const char *title, const char *plots_dir, FILE *f)
{
	enum { NONE, PARA, LIST, TABLE, QUOTE } open = NONE;
	static const char *const close_tag[] = { "", "</p>\n", "</ul>\n", "</table>\n", "</blockquote>\n" };
	struct strv svgs = { 0 };
	const char *l = md;
	int header_row = 0;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", f);
	escape(f, title, strlen(title));
	fputs("</title>\n<style>\n"
	      "body { font-family: sans-serif; max-width: 80em; margin: 2em auto; padding: 0 1em; color: #222; }\n"
	      "table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }\n"
	      "td, th { border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: left; }\n"
	      "th { background: #eee; }\n"
	      "code { background: #f3f3f3; padding: 0 0.2em; }\n"
	      "blockquote { border-left: 4px solid #c60; margin: 1em 0; padding: 0.2em 1em; background: #fff6ee; }\n"
	      "figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; }\n"
	      "h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }\n"
	      "</style></head><body>\n", f);
	while (*l) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		int kind;

		if (!n)
			kind = NONE;
		else if (l[0] == '|')
			kind = TABLE;
		else if (n > 1 && l[0] == '-' && l[1] == ' ')
			kind = LIST;
		else if (n > 1 && l[0] == '>' && l[1] == ' ')
			kind = QUOTE;
		else if (l[0] == '#')
			kind = -1;
		else
			kind = PARA;
		if (kind != (int)open || kind == -1) {
			fputs(close_tag[open], f);
			inline_svgs(f, &svgs, plots_dir);
			open = NONE;
		}
		if (kind == -1) {
			size_t level = strspn(l, "#");

			fprintf(f, "<h%zu>", level);
			inline_md(f, l + level + 1, n > level ? n - level - 1 : 0, &svgs);
			fprintf(f, "</h%zu>\n", level);
		} else if (kind == TABLE) {
			if (open != TABLE) {
				fputs("<table>\n", f);
				header_row = 1;
			}
			if (!is_separator_row(l)) {
				char row[8192];

				snprintf(row, sizeof(row), "%.*s", (int)n, l);
				table_row(f, row, header_row ? "th" : "td", &svgs);
				header_row = 0;
			}
		} else if (kind == LIST) {
			if (open != LIST)
				fputs("<ul>\n", f);
			fputs("<li>", f);
			inline_md(f, l + 2, n - 2, &svgs);
			fputs("</li>\n", f);
		} else if (kind == QUOTE) {
			if (open != QUOTE)
				fputs("<blockquote>", f);
			inline_md(f, l + 2, n - 2, &svgs);
			fputc('\n', f);
		} else if (kind == PARA) {
			fputs(open == PARA ? "\n" : "<p>", f);
			inline_md(f, l, n, &svgs);
		}
		if (kind >= 0)
			open = kind;
		l += n + (nl != NULL);
	}
	fputs(close_tag[open], f);
	inline_svgs(f, &svgs, plots_dir);
	fputs("</body></html>\n", f);
	return ferror(f) ? -1 : 0;
}
