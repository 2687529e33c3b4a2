// SPDX-License-Identifier: GPL-2.0
/*
 * Size parsing shared by the tools; see size.h.
 */
#include "size.h"

#include <ctype.h>

enum rl_size_err rl_parse_size(const char *s, uint64_t *out)
{
	uint64_t v = 0, mult = 1;
	const char *p = s;

	/* strtoull would accept spaces and a minus sign; we do not. */
	if (!s || !isdigit((unsigned char)*p))
		return RL_SIZE_GARBAGE;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (v > ((uint64_t)INT64_MAX - d) / 10)
			return RL_SIZE_OVERFLOW;
		v = v * 10 + d;
	}
	switch (*p) {
	case 'k': case 'K':
		mult = 1ULL << 10;
		p++;
		break;
	case 'm': case 'M':
		mult = 1ULL << 20;
		p++;
		break;
	case 'g': case 'G':
		mult = 1ULL << 30;
		p++;
		break;
	}
	if (*p)
		return RL_SIZE_GARBAGE;
	if (v > (uint64_t)INT64_MAX / mult)
		return RL_SIZE_OVERFLOW;
	if (!v)
		return RL_SIZE_ZERO;
	*out = v * mult;
	return RL_SIZE_OK;
}

const char *rl_size_strerror(enum rl_size_err e)
{
	switch (e) {
	case RL_SIZE_OK:
		return "ok";
	case RL_SIZE_OVERFLOW:
		return "too large";
	case RL_SIZE_ZERO:
		return "must not be zero";
	case RL_SIZE_GARBAGE:
		break;
	}
	return "not a size";
}

bool rl_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!isdigit((unsigned char)*s))
		return false;
	for (; isdigit((unsigned char)*s); s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (*s)
		return false;
	*out = v;
	return true;
}
