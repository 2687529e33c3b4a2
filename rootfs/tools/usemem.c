// SPDX-License-Identifier: GPL-2.0
/*
 * rl-usemem logic; see usemem.h.
 */
#include "usemem.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char um_usage[] =
	"usage: rl-usemem SIZE [--touch seq|random|once] [--passes N] [--hold SECONDS]\n"
	"                 [--step SIZE] [--seed N] [--progress FILE] [--forks N]\n"
	"                 [--pause SECONDS]\n"
	"  SIZE, --step    bytes, or a number with suffix k, M, G (powers of 1024)\n"
	"  --touch         page order: seq (default), random (permutation from --seed,\n"
	"                  default 1), once (one sequential pass, then hold)\n"
	"  --passes N      touch every page N times (default 1, 0 = until SIGTERM)\n"
	"  --hold SECONDS  keep the memory this long after touching (default 0;\n"
	"                  -1 = until SIGTERM/SIGINT, the default for --touch once)\n"
	"  --pause SECONDS sleep this long after each pass but the last (default 0):\n"
	"                  under a clock that charges no user-space work (UML\n"
	"                  time-travel) passes over resident pages cost no time\n"
	"  --step SIZE     grow the mapping SIZE at a time, touching each step\n"
	"  --progress FILE append \"time_s<TAB>bytes_touched_total\" about every 0.5 s\n"
	"  --forks N       after the first pass, fork N children that exit at once:\n"
	"                  each fork must copy the mapping (fork under pressure)\n"
	"Prints one line, also when stopped by SIGTERM/SIGINT:\n"
	"  op=usemem bytes= passes= touched= seconds= mbps= majflt= minflt=\n"
	"  and with --forks: forks= fork_failed= fork_errno=\n"
	"Exit status: 0 done, 1 runtime error, 2 bad usage.\n";

/* a finite number of seconds, the whole string, no leading space */
static bool parse_number(const char *s, double *out)
{
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return false;
	errno = 0;
	*out = strtod(s, &end);
	return !*end && !errno && isfinite(*out);
}

static bool parse_seconds(const char *s, double *out)
{
	double v;

	if (!parse_number(s, &v) || v < 0 || v > UM_PAUSE_MAX)
		return false;
	*out = v;
	return true;
}

static bool parse_hold(const char *s, double *out)
{
	double v;

	if (!parse_number(s, &v) || (v < 0 && v != UM_HOLD_FOREVER))
		return false;
	*out = v;
	return true;
}

static bool set_size(const char *what, const char *val, uint64_t *out,
		     char *err, size_t errlen)
{
	enum rl_size_err e = rl_parse_size(val, out);

	if (e == RL_SIZE_OK)
		return true;
	snprintf(err, errlen, "bad %s '%s': %s (valid: " RL_SIZE_FORMS ")",
		 what, val, rl_size_strerror(e));
	return false;
}

struct um_parse_state {
	bool have_size, have_step, have_passes, have_hold;
	const char *size_arg, *step_arg;	/* as typed, for messages */
};

#define UM_OPTIONS "--touch --passes --hold --pause --step --seed --progress --forks --help"
#define UM_UNKNOWN "unknown option '%s' (valid: " UM_OPTIONS ")"

static bool known_option(const char *name)
{
	static const char *const names[] = {
		"--touch", "--passes", "--hold", "--pause", "--step", "--seed",
		"--progress", "--forks",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* Apply one "--name value" pair; false with err set on bad input. */
static bool apply_opt(const char *name, const char *val, struct um_opts *o,
		      struct um_parse_state *st, char *err, size_t errlen)
{
	if (!strcmp(name, "--touch")) {
		if (!strcmp(val, "seq"))
			o->touch = UM_TOUCH_SEQ;
		else if (!strcmp(val, "random"))
			o->touch = UM_TOUCH_RANDOM;
		else if (!strcmp(val, "once"))
			o->touch = UM_TOUCH_ONCE;
		else {
			snprintf(err, errlen,
				 "bad --touch '%s' (valid: seq, random, once)", val);
			return false;
		}
	} else if (!strcmp(name, "--passes")) {
		if (!rl_parse_u64(val, &o->passes)) {
			snprintf(err, errlen,
				 "bad --passes '%s' (valid: integer >= 0, 0 = until SIGTERM)",
				 val);
			return false;
		}
		st->have_passes = true;
	} else if (!strcmp(name, "--hold")) {
		if (!parse_hold(val, &o->hold)) {
			snprintf(err, errlen,
				 "bad --hold '%s' (valid: seconds >= 0, or -1 = until signalled)",
				 val);
			return false;
		}
		st->have_hold = true;
	} else if (!strcmp(name, "--pause")) {
		if (!parse_seconds(val, &o->pause)) {
			snprintf(err, errlen,
				 "bad --pause '%s' (valid: seconds, 0 to %d)",
				 val, UM_PAUSE_MAX);
			return false;
		}
	} else if (!strcmp(name, "--step")) {
		if (!set_size("--step", val, &o->step, err, errlen))
			return false;
		st->have_step = true;
		st->step_arg = val;
	} else if (!strcmp(name, "--seed")) {
		if (!rl_parse_u64(val, &o->seed)) {
			snprintf(err, errlen,
				 "bad --seed '%s' (valid: unsigned 64-bit integer)", val);
			return false;
		}
	} else if (!strcmp(name, "--forks")) {
		if (!rl_parse_u64(val, &o->forks) || o->forks > 1000000) {
			snprintf(err, errlen,
				 "bad --forks '%s' (valid: 0 to 1000000)", val);
			return false;
		}
	} else if (!strcmp(name, "--progress")) {
		if (!*val) {
			snprintf(err, errlen, "bad --progress '': need a file name");
			return false;
		}
		o->progress = val;
	} else {
		snprintf(err, errlen, UM_UNKNOWN, name);
		return false;
	}
	return true;
}

/* Cross-option rules, checked once everything is parsed. */
static bool validate(struct um_opts *o, const struct um_parse_state *st,
		     char *err, size_t errlen)
{
	if (!st->have_size) {
		snprintf(err, errlen, "missing SIZE (e.g. 512M; suffixes k, M, G)");
		return false;
	}
	if (!st->have_step)
		o->step = o->size;
	if (o->step > o->size) {
		snprintf(err, errlen, "bad --step '%s': larger than SIZE '%s'",
			 st->step_arg, st->size_arg);
		return false;
	}
	if (o->touch == UM_TOUCH_ONCE) {
		if (st->have_passes && o->passes != 1) {
			/* Several passes of "once" is "seq". */
			snprintf(err, errlen,
				 "bad --passes '%" PRIu64 "' with --touch once (valid: 1; for more use --touch seq)",
				 o->passes);
			return false;
		}
		o->passes = 1;
		if (!st->have_hold)
			o->hold = UM_HOLD_FOREVER;
	}
	return true;
}

/* Handle argv[*i], an option; may consume the next argument as its value. */
static bool parse_opt(int argc, char *const argv[], int *i, struct um_opts *o,
		      struct um_parse_state *st, char *err, size_t errlen)
{
	const char *a = argv[*i], *eq = strchr(a, '='), *val;
	size_t nlen = eq ? (size_t)(eq - a) : strlen(a);
	char name[32];

	if (strncmp(a, "--", 2) || nlen >= sizeof(name)) {
		snprintf(err, errlen, UM_UNKNOWN, a);
		return false;
	}
	/* Accept both "--opt value" and "--opt=value". */
	memcpy(name, a, nlen);
	name[nlen] = '\0';
	if (eq) {
		val = eq + 1;
	} else if (*i + 1 < argc) {
		val = argv[++*i];
	} else {
		if (known_option(name))
			snprintf(err, errlen, "option %s needs a value", name);
		else
			snprintf(err, errlen, UM_UNKNOWN, name);
		return false;
	}
	return apply_opt(name, val, o, st, err, errlen);
}

enum um_parse_ret um_parse_args(int argc, char *const argv[],
				struct um_opts *o, char *err, size_t errlen)
{
	struct um_parse_state st = { 0 };
	int i;

	*o = (struct um_opts){ .touch = UM_TOUCH_SEQ, .passes = 1, .seed = 1 };
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return UM_PARSE_HELP;
		if (a[0] == '-' && a[1]) {
			if (!parse_opt(argc, argv, &i, o, &st, err, errlen))
				return UM_PARSE_ERR;
			continue;
		}
		if (st.have_size) {
			snprintf(err, errlen,
				 "unexpected argument '%s' (SIZE given already)", a);
			return UM_PARSE_ERR;
		}
		if (!set_size("SIZE", a, &o->size, err, errlen))
			return UM_PARSE_ERR;
		st.have_size = true;
		st.size_arg = a;
	}
	return validate(o, &st, err, errlen) ? UM_PARSE_OK : UM_PARSE_ERR;
}

/* splitmix64's output function: a good 64-bit mixer. */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void um_perm_init(struct um_perm *p, uint64_t n, uint64_t seed)
{
	unsigned int bits = 1;
	int r;

	while (bits < 64 && (1ULL << bits) < n)
		bits++;
	p->n = n;
	p->mask = bits == 64 ? UINT64_MAX : (1ULL << bits) - 1;
	p->shift = (bits + 1) / 2;
	for (r = 0; r < 3; r++) {
		p->key[r] = mix64(seed + 0x9e3779b97f4a7c15ULL * (2 * r + 1));
		/* Odd multipliers are invertible modulo 2^bits. */
		p->mul[r] = mix64(seed + 0x9e3779b97f4a7c15ULL * (2 * r + 2)) | 1;
	}
}

/* One bijective round on [0, mask]: xor key, multiply by odd, xorshift. */
static uint64_t perm_round(const struct um_perm *p, uint64_t x, int r)
{
	x = (x ^ p->key[r]) & p->mask;
	x = (x * p->mul[r]) & p->mask;
	return x ^ (x >> p->shift);
}

uint64_t um_perm_at(const struct um_perm *p, uint64_t i)
{
	uint64_t x = i;

	/*
	 * Cycle-walking: the rounds permute [0, mask]; applying them until the
	 * value lands in [0, n) permutes [0, n).  mask < 2n, so this takes
	 * fewer than two walks on average.
	 */
	do {
		x = perm_round(p, x, 0);
		x = perm_round(p, x, 1);
		x = perm_round(p, x, 2);
	} while (x >= p->n);
	return x;
}

uint64_t um_perm_seed(uint64_t seed, uint64_t pass, uint64_t step)
{
	return mix64(seed ^ mix64(pass * 0x100000001b3ULL + step));
}

uint64_t um_touch_range(struct um_touch_ctl *c, uint64_t first, uint64_t n)
{
	struct um_perm perm;
	uint64_t i, since_cb = 0;
	bool random = c->order == UM_TOUCH_RANDOM;

	if (random)
		um_perm_init(&perm, n, c->seed);
	for (i = 0; i < n && !*c->stop; i++) {
		uint64_t idx = first + (random ? um_perm_at(&perm, i) : i);
		/* volatile: the store is the whole point, keep it. */
		volatile uint64_t *w = (volatile uint64_t *)(void *)
				       (c->base + idx * c->pagesz);

		*w = c->stamp ^ idx;
		if (++since_cb >= c->cb_every && c->cb) {
			c->cb(c->arg, since_cb);
			since_cb = 0;
		}
	}
	if (c->cb)
		c->cb(c->arg, since_cb);
	return i;
}

#define UM_TICK_MAX (1ULL << 16)

uint64_t um_tick_adjust(uint64_t every, double dt)
{
	/* Aim for one clock read every 10-50 ms of the tool's clock. */
	if (dt < 0.010 && every < UM_TICK_MAX)
		return every * 2;
	if (dt > 0.050 && every > 1)
		return every / 2;
	return every;
}

int um_format_result(char *buf, size_t len, const struct um_result *r)
{
	double mbps = r->seconds > 0 ? (double)r->touched / r->seconds / 1e6 : 0;

	int n = snprintf(buf, len,
			 "op=usemem bytes=%" PRIu64 " passes=%" PRIu64
			 " touched=%" PRIu64 " seconds=%.3f mbps=%.2f"
			 " majflt=%ld minflt=%ld",
			 r->bytes, r->passes, r->touched, r->seconds, mbps,
			 r->majflt, r->minflt);

	if (r->forks && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n,
			      " forks=%" PRIu64 " fork_failed=%" PRIu64,
			      r->forks, r->fork_failed);
	return n;
}
