// SPDX-License-Identifier: GPL-2.0
/*
 * rl-dd logic; see dd.h.
 */
#include "dd.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char dd_usage[] =
	"usage: rl-dd write FILE --size SIZE [--bs SIZE] [--rate MBPS] [--seed N]\n"
	"                        [--fsync] [--direct] [--progress FILE]\n"
	"       rl-dd read FILE [--size SIZE] [--bs SIZE] [--rate MBPS] [--direct]\n"
	"                       [--progress FILE]\n"
	"       rl-dd verify FILE --size SIZE [--seed N] [--bs SIZE] [--direct]\n"
	"                         [--progress FILE]\n"
	"       rl-dd sparse FILE --size SIZE\n"
	"  SIZE            bytes, or a number with suffix k, M, G (powers of 1024)\n"
	"  --bs SIZE       block size (default 64k, at most 1G and SIZE)\n"
	"  --rate MBPS     at most MBPS megabytes (10^6 bytes) per second\n"
	"  --seed N        content seed (default 1); verify must use the write's\n"
	"  --fsync         fsync before stopping the clock\n"
	"  --direct        O_DIRECT; SIZE and --bs must be multiples of 4096\n"
	"  --progress FILE append \"time_s<TAB>bytes_done\" about every 0.5 s\n"
	"Prints one line, also when stopped by SIGTERM/SIGINT:\n"
	"  op= file= bytes= bs= seconds= mbps= [seed=] [bad_chunks= first_bad_offset=]\n"
	"Exit status: 0 done, 1 runtime error (or verify interrupted), 2 bad usage,\n"
	"3 verify found bad chunks.\n";

/* ---- option parsing ---- */

#define OP_W (1u << DD_WRITE)
#define OP_R (1u << DD_READ)
#define OP_V (1u << DD_VERIFY)
#define OP_S (1u << DD_SPARSE)

static const struct dd_optdef {
	const char *name;
	bool has_val;
	unsigned int ops;	/* commands that accept it */
} optdefs[] = {
	{ "--size",	true,	OP_W | OP_R | OP_V | OP_S },
	{ "--bs",	true,	OP_W | OP_R | OP_V },
	{ "--rate",	true,	OP_W | OP_R },
	{ "--seed",	true,	OP_W | OP_V },
	{ "--fsync",	false,	OP_W },
	{ "--direct",	false,	OP_W | OP_R | OP_V },
	{ "--progress",	true,	OP_W | OP_R | OP_V },
};

#define N_OPTDEFS (sizeof(optdefs) / sizeof(optdefs[0]))

static const char *const op_names[] = { "write", "read", "verify", "sparse" };

struct dd_parse_state {
	bool have_size, have_bs;
	const char *size_arg, *bs_arg;
	char *err;
	size_t errlen;
};

static bool fail(struct dd_parse_state *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool fail(struct dd_parse_state *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->err, st->errlen, fmt, ap);
	va_end(ap);
	return false;
}

/* "--size --bs ..." for the options op accepts. */
static void valid_opts(enum dd_op op, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < N_OPTDEFS && used < len; i++) {
		if (!(optdefs[i].ops & (1u << op)))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 used ? " " : "", optdefs[i].name);
	}
}

static const struct dd_optdef *find_opt(const char *name, enum dd_op op,
					struct dd_parse_state *st)
{
	char valid[128];
	size_t i;

	for (i = 0; i < N_OPTDEFS; i++)
		if (!strcmp(name, optdefs[i].name) && (optdefs[i].ops & (1u << op)))
			return &optdefs[i];
	valid_opts(op, valid, sizeof(valid));
	fail(st, "unknown option '%s' for %s (valid: %s)", name, op_names[op],
	     valid);
	return NULL;
}

static bool parse_size_opt(struct dd_parse_state *st, const char *what,
			   const char *val, uint64_t *out)
{
	enum rl_size_err e = rl_parse_size(val, out);

	if (e == RL_SIZE_OK)
		return true;
	return fail(st, "bad %s '%s': %s (valid: " RL_SIZE_FORMS ")",
		    what, val, rl_size_strerror(e));
}

static bool parse_rate(const char *s, double *out)
{
	char *end;
	double v;

	if (!isdigit((unsigned char)*s) && *s != '.')
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (*end || errno || !isfinite(v) || v <= 0)
		return false;
	*out = v;
	return true;
}

static bool apply_opt(const struct dd_optdef *d, const char *val,
		      struct dd_opts *o, struct dd_parse_state *st)
{
	const char *n = d->name;

	if (!strcmp(n, "--size")) {
		st->have_size = true;
		st->size_arg = val;
		return parse_size_opt(st, "--size", val, &o->size);
	}
	if (!strcmp(n, "--bs")) {
		st->have_bs = true;
		st->bs_arg = val;
		return parse_size_opt(st, "--bs", val, &o->bs);
	}
	if (!strcmp(n, "--rate")) {
		if (!parse_rate(val, &o->rate))
			return fail(st, "bad --rate '%s' (valid: MB/s > 0, 1 MB = 10^6 bytes)", val);
		return true;
	}
	if (!strcmp(n, "--seed")) {
		if (!rl_parse_u64(val, &o->seed))
			return fail(st, "bad --seed '%s' (valid: unsigned 64-bit integer)", val);
		return true;
	}
	if (!strcmp(n, "--fsync")) {
		o->fsync = true;
		return true;
	}
	if (!strcmp(n, "--direct")) {
		o->direct = true;
		return true;
	}
	if (!*val)
		return fail(st, "bad --progress '': need a file name");
	o->progress = val;
	return true;
}

/* Cross-option rules, checked once everything is parsed. */
static bool validate(struct dd_opts *o, struct dd_parse_state *st)
{
	if (!o->file)
		return fail(st, "missing FILE after '%s'", op_names[o->op]);
	if (!st->have_size && o->op != DD_READ)
		return fail(st, "%s needs --size SIZE (e.g. --size 256M)",
			    op_names[o->op]);
	if (!st->have_bs) {
		o->bs = DD_DEFAULT_BS;
		/* The default shrinks to fit; only an explicit --bs is an error. */
		if (st->have_size && o->size < o->bs)
			o->bs = o->size;
	}
	if (o->bs > DD_MAX_BS)
		return fail(st, "bad --bs '%s': larger than the 1G maximum", st->bs_arg);
	if (st->have_size && o->bs > o->size)
		return fail(st, "bad --bs '%s': larger than --size '%s'",
			    st->bs_arg, st->size_arg);
	if (o->direct && o->bs % DD_CHUNK)
		return fail(st, "bad --bs '%s' for --direct (valid: a multiple of 4096)",
			    st->have_bs ? st->bs_arg : st->size_arg);
	if (o->direct && st->have_size && o->size % DD_CHUNK)
		return fail(st, "bad --size '%s' for --direct (valid: a multiple of 4096)",
			    st->size_arg);
	return true;
}

static bool parse_op(const char *s, struct dd_opts *o, struct dd_parse_state *st)
{
	size_t i;

	for (i = 0; i < sizeof(op_names) / sizeof(op_names[0]); i++) {
		if (!strcmp(s, op_names[i])) {
			o->op = (enum dd_op)i;
			return true;
		}
	}
	return fail(st, "unknown command '%s' (valid: write, read, verify, sparse)", s);
}

/* Handle argv[*i], an option; may consume the next argument as its value. */
static bool parse_opt(int argc, char *const argv[], int *i, struct dd_opts *o,
		      struct dd_parse_state *st)
{
	const char *a = argv[*i], *eq = strchr(a, '='), *val = NULL;
	const struct dd_optdef *d;
	char name[32];
	size_t nlen = eq ? (size_t)(eq - a) : strlen(a);

	if (strncmp(a, "--", 2) || nlen >= sizeof(name)) {
		find_opt(a, o->op, st);
		return false;
	}
	memcpy(name, a, nlen);
	name[nlen] = '\0';
	d = find_opt(name, o->op, st);
	if (!d)
		return false;
	if (!d->has_val) {
		if (eq)
			return fail(st, "option %s takes no value (got '%s')", name, eq + 1);
		return apply_opt(d, NULL, o, st);
	}
	if (eq) {
		val = eq + 1;
	} else {
		if (*i + 1 >= argc)
			return fail(st, "option %s needs a value", name);
		val = argv[++*i];
	}
	return apply_opt(d, val, o, st);
}

enum dd_parse_ret dd_parse_args(int argc, char *const argv[],
				struct dd_opts *o, char *err, size_t errlen)
{
	struct dd_parse_state st = { .err = err, .errlen = errlen,
				     .size_arg = "", .bs_arg = "64k" };
	int i;

	*o = (struct dd_opts){ .seed = 1 };
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return DD_PARSE_HELP;
	if (argc < 2) {
		fail(&st, "missing command (valid: write, read, verify, sparse)");
		return DD_PARSE_ERR;
	}
	if (!parse_op(argv[1], o, &st))
		return DD_PARSE_ERR;
	for (i = 2; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] == '-' && a[1]) {
			if (!parse_opt(argc, argv, &i, o, &st))
				return DD_PARSE_ERR;
		} else if (o->file) {
			fail(&st, "unexpected argument '%s' (FILE is '%s')", a, o->file);
			return DD_PARSE_ERR;
		} else {
			o->file = a;
		}
	}
	return validate(o, &st) ? DD_PARSE_OK : DD_PARSE_ERR;
}

/* ---- content pattern ---- */

#define GOLDEN 0x9e3779b97f4a7c15ULL

/* splitmix64's output function: a good 64-bit mixer. */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void store_le64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/*
 * Bytes [in, in + n) of the chunk with stream key `key`.  Word w of a chunk
 * is splitmix64's output at counter w + 1, so any word can be produced
 * without the ones before it and an unaligned range costs nothing extra.
 */
static void fill_chunk(uint64_t key, size_t in, unsigned char *p, size_t n)
{
	size_t w = in / 8, b = in % 8;

	for (; n; w++, b = 0) {
		uint64_t v = mix64(key + (w + 1) * GOLDEN);

		if (!b && n >= 8) {
			store_le64(p, v);
			p += 8;
			n -= 8;
			continue;
		}
		for (; b < 8 && n; b++, n--)
			*p++ = (unsigned char)(v >> (8 * b));
	}
}

void dd_pattern_fill(uint64_t seed, uint64_t off, void *buf, size_t len)
{
	unsigned char *p = buf;
	uint64_t sk = mix64(seed + GOLDEN);

	while (len) {
		size_t in = off % DD_CHUNK;
		size_t n = len < DD_CHUNK - in ? len : DD_CHUNK - in;

		/* Mix again so neighbouring chunks' streams are unrelated. */
		fill_chunk(mix64(sk ^ (off / DD_CHUNK)), in, p, n);
		p += n;
		off += n;
		len -= n;
	}
}

/* ---- verify bookkeeping ---- */

void dd_verify_init(struct dd_verify *v)
{
	*v = (struct dd_verify){ .first_bad = -1 };
}

/* Count chunks [first, last] bad, minus any already counted. */
static void mark_bad(struct dd_verify *v, uint64_t first, uint64_t last)
{
	if (v->last_bad > first)
		first = v->last_bad;
	if (first > last)
		return;
	if (v->first_bad < 0)
		v->first_bad = (int64_t)(first * DD_CHUNK);
	v->bad_chunks += last - first + 1;
	v->last_bad = last + 1;
}

void dd_verify_buf(struct dd_verify *v, uint64_t seed, uint64_t off,
		   const void *buf, size_t len)
{
	const unsigned char *p = buf;
	unsigned char want[DD_CHUNK];

	while (len) {
		size_t in = off % DD_CHUNK;
		size_t n = len < DD_CHUNK - in ? len : DD_CHUNK - in;

		dd_pattern_fill(seed, off, want, n);
		if (memcmp(want, p, n))
			mark_bad(v, off / DD_CHUNK, off / DD_CHUNK);
		p += n;
		off += n;
		len -= n;
	}
}

void dd_verify_missing(struct dd_verify *v, uint64_t off, uint64_t end)
{
	if (end > off)
		mark_bad(v, off / DD_CHUNK, (end - 1) / DD_CHUNK);
}

/* ---- time ---- */

uint64_t dd_pace_ns(uint64_t bytes, double mbps)
{
	/* bytes / (mbps * 10^6) seconds, i.e. bytes * 1000 / mbps ns. */
	return (uint64_t)llround((double)bytes * 1000.0 / mbps);
}

struct timespec dd_ts_add_ns(struct timespec t, uint64_t ns)
{
	t.tv_sec += (time_t)(ns / 1000000000ULL);
	t.tv_nsec += (long)(ns % 1000000000ULL);
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

double dd_ts_diff(struct timespec a, struct timespec b)
{
	return (double)(a.tv_sec - b.tv_sec) +
	       (double)(a.tv_nsec - b.tv_nsec) / 1e9;
}

#define DD_TICK_MAX 4096

uint64_t dd_tick_adjust(uint64_t every, double dt)
{
	/*
	 * A clock read is a host round trip in UML; aim for one every
	 * 10-50 ms rather than one per block.
	 */
	if (dt < 0.010 && every < DD_TICK_MAX)
		return every * 2;
	if (dt > 0.050 && every > 1)
		return every / 2;
	return every;
}

/* ---- transfer loops ---- */

static double xfer_now(const struct dd_xfer *x)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return dd_ts_diff(now, x->t0);
}

static void xfer_start(struct dd_xfer *x)
{
	x->done = 0;
	x->err = 0;
	x->failed = NULL;
	x->stopped = false;
	x->tick_every = 1;
	x->tick_count = 0;
	x->last_tick = 0;
	x->next_sample = 0.5;
	dd_verify_init(&x->v);
	clock_gettime(CLOCK_MONOTONIC, &x->t0);
}

/* After each block: maybe read the clock and write a progress sample. */
static void xfer_tick(struct dd_xfer *x)
{
	double now;

	if (!x->progress || ++x->tick_count < x->tick_every)
		return;
	x->tick_count = 0;
	now = xfer_now(x);
	x->tick_every = dd_tick_adjust(x->tick_every, now - x->last_tick);
	x->last_tick = now;
	if (now >= x->next_sample) {
		x->progress(x->arg, now, x->done);
		while (x->next_sample <= now)
			x->next_sample += 0.5;
	}
}

/* Sleep until the deadline of the bytes done so far (absolute, no drift). */
static void xfer_pace(struct dd_xfer *x)
{
	struct timespec due;

	if (x->rate <= 0)
		return;
	due = dd_ts_add_ns(x->t0, dd_pace_ns(x->done, x->rate));
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL) == EINTR)
		if (x->stop && *x->stop)
			break;
}

static bool xfer_stopping(struct dd_xfer *x)
{
	if (x->stop && *x->stop)
		x->stopped = true;
	return x->stopped;
}

static int xfer_fail(struct dd_xfer *x, const char *what, int err)
{
	x->failed = what;
	x->err = err;
	return -1;
}

static void xfer_finish(struct dd_xfer *x)
{
	x->seconds = xfer_now(x);
	if (x->progress)
		x->progress(x->arg, x->seconds, x->done);
}

/* write(2) all of buf; short writes happen near ENOSPC. */
static int write_all(struct dd_xfer *x, const unsigned char *p, size_t len)
{
	while (len) {
		ssize_t n = write(x->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return xfer_fail(x, "write", errno);
		if (n == 0)
			return xfer_fail(x, "write", ENOSPC);
		p += n;
		len -= (size_t)n;
		x->done += (uint64_t)n;
	}
	return 0;
}

int dd_write_fd(struct dd_xfer *x)
{
	xfer_start(x);
	while (x->done < x->size && !xfer_stopping(x)) {
		uint64_t left = x->size - x->done;
		size_t len = left < x->bs ? (size_t)left : x->bs;

		dd_pattern_fill(x->seed, x->done, x->buf, len);
		if (write_all(x, x->buf, len))
			break;
		xfer_tick(x);
		xfer_pace(x);
	}
	if (!x->err && x->fsync && fsync(x->fd))
		xfer_fail(x, "fsync", errno);
	xfer_finish(x);
	return x->err ? -1 : 0;
}

int dd_read_fd(struct dd_xfer *x)
{
	xfer_start(x);
	while ((!x->size || x->done < x->size) && !xfer_stopping(x)) {
		uint64_t left = x->size ? x->size - x->done : x->bs;
		size_t len = left < x->bs ? (size_t)left : x->bs;
		ssize_t n = read(x->fd, x->buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			xfer_fail(x, "read", errno);
			break;
		}
		if (n == 0)
			break;
		if (x->verify)
			dd_verify_buf(&x->v, x->seed, x->done, x->buf, (size_t)n);
		x->done += (uint64_t)n;
		xfer_tick(x);
		xfer_pace(x);
	}
	/* A file that ends early lost everything after its end. */
	if (x->verify && !x->err && !x->stopped && x->done < x->size)
		dd_verify_missing(&x->v, x->done, x->size);
	xfer_finish(x);
	return x->err ? -1 : 0;
}

/* ---- result line ---- */

int dd_format_result(char *buf, size_t len, const struct dd_opts *o,
		     const struct dd_xfer *x)
{
	double mbps = x->seconds > 0 ? (double)x->done / x->seconds / 1e6 : 0;
	int n;

	if (o->op == DD_SPARSE)
		return snprintf(buf, len, "op=sparse file=%s bytes=%" PRIu64,
				o->file, o->size);
	n = snprintf(buf, len,
		     "op=%s file=%s bytes=%" PRIu64 " bs=%" PRIu64
		     " seconds=%.3f mbps=%.2f",
		     op_names[o->op], o->file, x->done, o->bs, x->seconds, mbps);
	if (n < 0 || (size_t)n >= len || o->op == DD_READ)
		return n;
	if (o->op == DD_WRITE)
		return n + snprintf(buf + n, len - (size_t)n, " seed=%" PRIu64,
				    o->seed);
	return n + snprintf(buf + n, len - (size_t)n,
			    " seed=%" PRIu64 " bad_chunks=%" PRIu64
			    " first_bad_offset=%" PRId64,
			    o->seed, x->v.bad_chunks, x->v.first_bad);
}
