// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the report's helpers (scripts/tools/report.c, html.c). */
#include "check.h"
#include "report-model.h"

#include <stdlib.h>

TEST(test_fmt_numbers_for_people)
{
	char b[32];

	rep_fmt(b, sizeof(b), 0);
	CHECK_STR(b, "0");
	rep_fmt(b, sizeof(b), 12345.678);
	CHECK_STR(b, "12346");
	rep_fmt(b, sizeof(b), 153.94);
	CHECK_STR(b, "153.9");
	rep_fmt(b, sizeof(b), 0.183333);
	CHECK_STR(b, "0.183");
	rep_fmt(b, sizeof(b), -2.5);
	CHECK_STR(b, "-2.5");
	rep_fmt(b, sizeof(b), 7);
	CHECK_STR(b, "7");
}

TEST(test_conf_value_is_data)
{
	const char *text = "mem=1G\nsets='A=1 B=2'\nmem=2G\nmemory=9\nx=$(touch /tmp/x)\n";
	char *v;

	v = rep_conf_value(text, "mem");
	CHECK_STR(v, "2G");	/* the last one wins */
	free(v);
	v = rep_conf_value(text, "sets");
	CHECK_STR(v, "A=1 B=2");	/* old folders quoted */
	free(v);
	v = rep_conf_value(text, "x");
	CHECK_STR(v, "$(touch /tmp/x)");	/* text, never run */
	free(v);
	CHECK(rep_conf_value(text, "me") == NULL);
	CHECK(rep_conf_value("", "mem") == NULL);
}

TEST(test_err_line)
{
	char a[] = "reclaimlab: guest hung: killed after 120s; console log: /x/runs/r/console.log";
	char b[] = "reclaimlab: guest command failed with status 137; output: /x/guest.log";
	char c[] = "reclaimlab: could not summarize; see the log";

	rep_err_line(a);
	CHECK_STR(a, "guest hung: killed after 120s");
	rep_err_line(b);
	CHECK_STR(b, "guest command failed with status 137");
	rep_err_line(c);
	CHECK_STR(c, "could not summarize; see the log");
}

TEST(test_safe_names)
{
	CHECK(rep_safe_name("v1-writer1"));
	CHECK(rep_safe_name("usemem.2"));
	CHECK(!rep_safe_name(""));
	CHECK(!rep_safe_name("a'b"));
	CHECK(!rep_safe_name("x;system('id')"));
	CHECK(!rep_safe_name("a b"));
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
