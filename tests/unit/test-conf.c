// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the one key=value reader (scripts/tools/lib/conf.c). */
#include "check.h"
#include "lib/conf.h"

#include <stdlib.h>
#include <string.h>

TEST(test_conf_value_is_data)
{
	const char *text = "mem=1G\nsets='A=1 B=2'\nmem=2G\nmemory=9\nx=$(touch /tmp/x)\n";
	char *v;

	v = conf_value(text, "mem");
	CHECK_STR(v, "2G");	/* the last one wins */
	free(v);
	v = conf_value(text, "sets");
	CHECK_STR(v, "A=1 B=2");	/* old folders quoted */
	free(v);
	v = conf_value(text, "x");
	CHECK_STR(v, "$(touch /tmp/x)");	/* text, never run */
	free(v);
	CHECK(conf_value(text, "me") == NULL);
	CHECK(conf_value("", "mem") == NULL);
}

TEST(test_conf_value_takes_the_rest_of_the_line)
{
	char *v = conf_value("params=A=1 B=2\nempty=\n", "params");

	CHECK_STR(v, "A=1 B=2");	/* after the first '=' */
	free(v);
	v = conf_value("params=A=1 B=2\nempty=\n", "empty");
	CHECK_STR(v, "");	/* there, and empty */
	free(v);
}
