/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rl-usemem logic: option parsing, the page-order permutation and the
 * page-touching loop.  Nothing here makes a syscall, so the host unit test
 * can drive all of it on a malloc'd buffer.
 */
#ifndef RECLAIMLAB_USEMEM_H
#define RECLAIMLAB_USEMEM_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "size.h"

enum um_touch {
	UM_TOUCH_SEQ,
	UM_TOUCH_RANDOM,
	UM_TOUCH_ONCE,		/* one sequential pass, then hold */
};

#define UM_HOLD_FOREVER (-1.0)
#define UM_PAUSE_MAX 3600	/* seconds */

struct um_opts {
	uint64_t size;		/* bytes asked for */
	uint64_t step;		/* growth step in bytes; == size if no --step */
	enum um_touch touch;
	uint64_t passes;	/* 0 = until signalled */
	double hold;		/* seconds, or UM_HOLD_FOREVER */
	double pause;		/* seconds slept after each pass but the last */
	uint64_t seed;
	const char *progress;	/* NULL = no progress file */
	uint64_t forks;		/* children forked after the first pass */
};

enum um_parse_ret {
	UM_PARSE_OK = 0,
	UM_PARSE_HELP,		/* --help: print usage, exit 0 */
	UM_PARSE_ERR,		/* err holds a one-line message, exit 2 */
};

extern const char um_usage[];

/* Parse argv (argv[0] is the program name).  Strings are borrowed. */
enum um_parse_ret um_parse_args(int argc, char *const argv[],
				struct um_opts *o, char *err, size_t errlen);

/*
 * A keyed bijection on [0, n): a small invertible mixer on the enclosing
 * power-of-two domain, cycle-walked until the value falls below n.  It costs
 * no memory, which matters: a table for 6G of pages would itself be 12M of
 * anon memory competing with what we are measuring.
 */
struct um_perm {
	uint64_t n;
	uint64_t mask;
	unsigned int shift;
	uint64_t key[3];
	uint64_t mul[3];
};

void um_perm_init(struct um_perm *p, uint64_t n, uint64_t seed);
uint64_t um_perm_at(const struct um_perm *p, uint64_t i);

/* Seed for the permutation of one step of one pass, so passes differ. */
uint64_t um_perm_seed(uint64_t seed, uint64_t pass, uint64_t step);

/*
 * Touch pages [first, first + n) of base: write one word per page.
 * Every cb_every pages (and once at the end) cb(arg, touched) is called so
 * the caller can read its clock and write progress; cb may change
 * *cb_every.  The loop stops early once *stop is set.
 * Returns the number of pages touched.
 */
struct um_touch_ctl {
	char *base;
	size_t pagesz;
	enum um_touch order;
	uint64_t seed;		/* for UM_TOUCH_RANDOM */
	uint64_t stamp;		/* value written, xor'd with the page index */
	volatile sig_atomic_t *stop;
	void (*cb)(void *arg, uint64_t touched);
	void *arg;
	uint64_t cb_every;
};

uint64_t um_touch_range(struct um_touch_ctl *c, uint64_t first, uint64_t n);

/*
 * How often to read the clock.  A clock read is a host round trip in UML
 * while touching an already-faulted page costs nanoseconds, so the interval
 * (in pages) doubles while reads come too close together and halves when
 * they drift too far apart.
 */
uint64_t um_tick_adjust(uint64_t every, double dt);

struct um_result {
	uint64_t bytes;		/* size of the mapping */
	uint64_t passes;	/* completed passes */
	uint64_t touched;	/* bytes touched over all passes */
	double seconds;		/* allocate + touch, hold and pauses excluded */
	long majflt;
	long minflt;
	uint64_t forks;		/* forks tried (--forks) */
	uint64_t fork_failed;	/* of which fork() failed */
};

/* Format the result line (no newline); returns snprintf's value. */
int um_format_result(char *buf, size_t len, const struct um_result *r);

#endif
