// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the report's helpers (scripts/tools/report/: markdown.c,
 * model.c, plots.c, html.c).
 */
#include "check.h"
#include "report/html.h"
#include "report/markdown.h"
#include "report/model.h"
#include "report/plots.h"

#include <stdlib.h>
#include <string.h>

TEST(test_fmt_numbers_for_people)
{
	char b[32];

	format_readable(b, sizeof(b), 0);
	CHECK_STR(b, "0");
	format_readable(b, sizeof(b), 12345.678);
	CHECK_STR(b, "12346");
	format_readable(b, sizeof(b), 153.94);
	CHECK_STR(b, "153.9");
	format_readable(b, sizeof(b), 0.183333);
	CHECK_STR(b, "0.183");
	format_readable(b, sizeof(b), -2.5);
	CHECK_STR(b, "-2.5");
	format_readable(b, sizeof(b), 7);
	CHECK_STR(b, "7");
}

TEST(test_err_line)
{
	char a[] = "reclaimlab: guest hung: killed after 120s; console log: /x/runs/r/console.log";
	char b[] = "reclaimlab: guest command failed with status 137; output: /x/guest.log";
	char c[] = "reclaimlab: could not summarize; see the log";

	strip_error_line(a);
	CHECK_STR(a, "guest hung: killed after 120s");
	strip_error_line(b);
	CHECK_STR(b, "guest command failed with status 137");
	strip_error_line(c);
	CHECK_STR(c, "could not summarize; see the log");
}

/* The thread's thresholds, on the full-timeout share, their ends included. */
TEST(test_picture_classes)
{
	CHECK_STR(picture_class(0), "fluent");
	CHECK_STR(picture_class(PICTURE_FLUENT_MAX), "fluent");
	CHECK_STR(picture_class(0.1001), "between");
	CHECK_STR(picture_class(7.0 / 17), "between");	/* the thread's vfat */
	CHECK_STR(picture_class(PICTURE_BATCHED_MIN), "batched");
	CHECK_STR(picture_class(10.0 / 12), "batched");	/* the thread's xfs */
	CHECK_STR(picture_class(1), "batched");
}

TEST(test_html_tables_lists_and_escaping)
{
	const char *md = "# reclaimlab report: m\n\n- Kernel: <6.12>\n- Runs: 2\n\n"
			 "## s: a & b\n\n**Setup:** guest `mem` 1G\n\n"
			 "| fs | mode |\n|---|---|\n| ext4 | patched |\n\n"
			 "> **Knobs absent** in mode(s) x\n\n"
			 "- patched: [histogram](plots/none.svg) ([png](plots/none.png))\n";
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_EQ_INT(report_html(md, "t<1>", "/nonexistent", f), 0);
	fclose(f);
	CHECK(strstr(out, "<title>t&lt;1&gt;</title>") != NULL);
	CHECK(strstr(out, "<h1>reclaimlab report: m</h1>") != NULL);
	CHECK(strstr(out, "<li>Kernel: &lt;6.12&gt;</li>") != NULL);
	CHECK(strstr(out, "<h2>s: a &amp; b</h2>") != NULL);
	CHECK(strstr(out, "<p><strong>Setup:</strong> guest <code>mem</code> 1G</p>") != NULL);
	CHECK(strstr(out, "<tr><th>fs</th><th>mode</th></tr>") != NULL);
	CHECK(strstr(out, "<tr><td>ext4</td><td>patched</td></tr>") != NULL);
	CHECK(strstr(out, "|---") == NULL);
	CHECK(strstr(out, "<blockquote><strong>Knobs absent</strong>") != NULL);
	CHECK(strstr(out, "<a href=\"plots/none.svg\">histogram</a>") != NULL);
	CHECK(strstr(out, "</body></html>") != NULL);
	free(out);
}

/*
 * Whether q is exactly one gnuplot single-quoted string: ' then any
 * characters but a lone ' (a quote is doubled), then the closing ' as the
 * last character; and nothing in it a gnuplot command line acts on.
 */
static int one_gp_literal(const char *q)
{
	size_t i, n = strlen(q);

	if (n < 2 || q[0] != '\'' || q[n - 1] != '\'')
		return 0;
	for (i = 1; i < n - 1; i++) {
		if ((unsigned char)q[i] < 0x20 || (unsigned char)q[i] >= 0x7f || q[i] == '`')
			return 0;
		if (q[i] == '\'') {
			if (i + 1 >= n - 1 || q[i + 1] != '\'')
				return 0;
			i++;
		}
	}
	return 1;
}

TEST(test_gnuplot_quoting)
{
	char q[GNUPLOT_QUOTED_SIZE], small[5], tiny[3], big[1001];

	/* the exploit of a mode name: a title that ran a command */
	gnuplot_quote(q, sizeof(q), "patched'; system \"id >X\"; print '");
	CHECK_STR(q, "'patched''; system \"id >X\"; print '''");
	CHECK(one_gp_literal(q));
	/* "set title 'fs-completion, " + value + ..." made in one piece */
	gnuplot_quote(q, sizeof(q), "fs-completion, patched'\nsystem 'id'\n");
	CHECK_STR(q, "'fs-completion, patched''?system ''id''?'");
	CHECK(one_gp_literal(q));
	gnuplot_quote(q, sizeof(q), "a`id`b\t\r\x7f\xc3\xa9");
	CHECK_STR(q, "'a?id?b?" "?" "?" "?" "?'");	/* split: no trigraph */
	CHECK(one_gp_literal(q));
	gnuplot_quote(q, sizeof(q), "");
	CHECK_STR(q, "''");
	gnuplot_quote(q, sizeof(q), "patched@6.1 (342 waits)");
	CHECK_STR(q, "'patched@6.1 (342 waits)'");
	/* bounded: GNUPLOT_STRING_MAX characters, and quotes doubled within */
	memset(big, 'a', 1000);
	big[1000] = '\0';
	gnuplot_quote(q, sizeof(q), big);
	CHECK_EQ_INT(strlen(q), GNUPLOT_STRING_MAX + 2);
	CHECK(one_gp_literal(q));
	memset(big, '\'', 1000);
	gnuplot_quote(q, sizeof(q), big);
	CHECK_EQ_INT(strlen(q), 2 * GNUPLOT_STRING_MAX + 2);
	CHECK(one_gp_literal(q));
	/* a small buffer cuts, never between the two quotes of a pair */
	gnuplot_quote(small, sizeof(small), "''''");
	CHECK_STR(small, "''''");
	CHECK(one_gp_literal(small));
	gnuplot_quote(small, sizeof(small), "x'y");
	CHECK_STR(small, "'x'");
	CHECK(one_gp_literal(small));
	gnuplot_quote(tiny, sizeof(tiny), "abc");
	CHECK_STR(tiny, "''");
}

TEST(test_md_text_of_guest_values)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	CHECK(f != NULL);
	if (!f)
		return;
	md_text(f, "vm.x=[a](javascript:alert(1)) `c` **b** |t| <i>\n");
	fclose(f);
	CHECK_STR(out, "vm.x=_a_(javascript:alert(1)) _c_ __b__ _t_ _i__");
	free(out);
}

/* A link is the report's own file: a scheme or //host stays text. */
TEST(test_html_links_only_local)
{
	const char *md = "- a [x](javascript:alert(1)) b\n"
			 "- c [y](//evil.example/z) d\n"
			 "- e [z](data:text/html,hi) f\n"
			 "- [plot](plots/p.svg)\n";
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_EQ_INT(report_html(md, "t", "/nonexistent", f), 0);
	fclose(f);
	CHECK(strstr(out, "href=\"javascript") == NULL);
	CHECK(strstr(out, "href=\"//") == NULL);
	CHECK(strstr(out, "href=\"data") == NULL);
	CHECK(strstr(out, "<li>a [x](javascript:alert(1)) b</li>") != NULL);
	CHECK(strstr(out, "<a href=\"plots/p.svg\">plot</a>") != NULL);
	free(out);
}
