// SPDX-License-Identifier: GPL-2.0
/* The benchmarks' figures from KEY=VALUE words; see bench.h. */
#include "bench/bench.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int bench_word_text(const char *words, const char *seps, const char *key,
		    char *buf, size_t len)
{
	size_t klen = strlen(key);
	const char *p = words;

	while (*p) {
		size_t n = strcspn(p, seps);

		if (n > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			n -= klen + 1;
			if (n >= len)
				return -1;
			memcpy(buf, p + klen + 1, n);
			buf[n] = '\0';
			return 0;
		}
		p += n;
		p += strspn(p, seps);
	}
	return -1;
}

static const char *skip_digits(const char *p, size_t *n)
{
	*n = 0;
	while (isdigit((unsigned char)*p)) {
		p++;
		(*n)++;
	}
	return p;
}

int bench_is_decimal(const char *text)
{
	const char *p = text;
	size_t whole, frac = 0, exp;

	if (*p == '-' || *p == '+')
		p++;
	p = skip_digits(p, &whole);
	if (*p == '.')
		p = skip_digits(p + 1, &frac);
	if (!whole && !frac)
		return 0;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '-' || *p == '+')
			p++;
		p = skip_digits(p, &exp);
		if (!exp)
			return 0;
	}
	return *p == '\0';
}

int bench_word(const char *words, const char *seps, const char *key,
	       struct bench_value *out)
{
	struct bench_value v;

	if (bench_word_text(words, seps, key, v.text, sizeof(v.text)) ||
	    !bench_is_decimal(v.text))
		return -1;
	v.num = strtod(v.text, NULL);
	if (!isfinite(v.num))
		return -1;
	*out = v;
	return 0;
}

int bench_find(FILE *f, const char *op, const char *key,
	       struct bench_value *out)
{
	char line[BENCH_LINE_MAX], word[BENCH_VALUE_MAX + 1];
	int whole = 1;

	while (fgets(line, sizeof(line), f)) {
		int was_whole = whole;

		/* the rest of an over-long line is no line of its own */
		whole = strchr(line, '\n') != NULL || feof(f);
		if (!was_whole || !whole)
			continue;
		if (op && (bench_word_text(line, BENCH_LINE_SEPS, "op", word,
					   sizeof(word)) || strcmp(word, op)))
			continue;
		if (!bench_word(line, BENCH_LINE_SEPS, key, out))
			return 0;
	}
	return -1;
}

double bench_wall_ns_per_op(double wall_big, double n_big, double wall_small,
			    double n_small)
{
	return (wall_big - wall_small) * 1e9 / (n_big - n_small);
}

double bench_off_pct(double mbps, double kbps)
{
	return (mbps * 1000 / kbps - 1) * 100;
}

double bench_model_iops(double seek_us, double rpm, double wbw_kbps,
			double bytes)
{
	double rotation = rpm > 0 ? 30 / rpm : 0;

	return 1 / (seek_us / 1e6 + rotation + bytes / (wbw_kbps * 1000));
}

double bench_sustained_kbps(double wbw_kbps, double erase_kb, double erase_us)
{
	double block = erase_kb * 1024;

	if (block <= 0 || wbw_kbps <= 0)
		return wbw_kbps;
	return block / (block / wbw_kbps + erase_us / 1000);
}
