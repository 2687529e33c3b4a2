// SPDX-License-Identifier: GPL-2.0
/* values: checking and ranking values read from files (values.h). */
#include "lib/values.h"

#include <string.h>

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int value_is_number(const char *s)
{
	const char *p = s;

	if (*p == '-')
		p++;
	if (!*p || !strchr("0123456789.", *p))
		return 0;
	p += strspn(p, "0123456789.");
	if (*p == 'e') {
		p++;
		if (*p == '-' || *p == '+')
			p++;
		if (!strchr("0123456789", *p) || !*p)
			return 0;
		p += strspn(p, "0123456789");
	}
	return !*p;
}

int value_is_plain_name(const char *name)
{
	if (!*name)
		return 0;
	for (; *name; name++)
		if (!((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') ||
		      (*name >= '0' && *name <= '9') || strchr("._-", *name)))
			return 0;
	return 1;
}

int value_parse_decimal(const char *s, size_t len, long max, long *out)
{
	long v = 0;
	size_t i;

	if (len == 0 || len > 18)
		return -1;
	for (i = 0; i < len; i++) {
		if (!is_digit(s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

int value_cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

long value_percentile(const long *sorted, size_t n, int pct)
{
	size_t rank;

	if (!n)
		return 0;
	rank = ((size_t)pct * n + 99) / 100;
	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}
