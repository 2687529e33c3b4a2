// SPDX-License-Identifier: GPL-2.0
/*
 * blklat: latencies of a device's requests from its blktrace (blklat.h).
 * The record layout and action codes are the kernel's
 * include/uapi/linux/blktrace_api.h (struct blk_io_trace), in the byte
 * order of the machine that traced: a UML guest runs on this host's CPU.
 */
#include "summarize/blklat.h"
#include "lib/cli.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/values.h"

#define REC_SIZE	48		/* struct blk_io_trace */
#define REC_MAGIC	0x65617400u	/* magic << 8; the low byte: version */
#define REC_VERSION	0x07u
#define ACT_MASK	0xffu		/* __BLK_TA_*, without __BLK_TA_CGROUP */
#define ACT_QUEUE	1u
#define ACT_ISSUE	7u
#define ACT_COMPLETE	8u
#define CAT(bit)	((uint32_t)(bit) << 16)
#define CAT_READ	CAT(1u << 0)
#define CAT_WRITE	CAT(1u << 1)
#define CAT_NOTIFY	CAT(1u << 10)
#define CAT_DISCARD	CAT(1u << 13)
/* beyond any disk: a record this far is not one to match (no wraps) */
#define SECTOR_LIMIT	(UINT64_C(1) << 56)

struct rec {
	uint64_t time;		/* ns */
	uint64_t sector;	/* 512-byte sectors */
	uint64_t end;		/* past its last sector */
	size_t seq;		/* its place in the trace */
	int dir;
	int taken;		/* a dispatch some completion matched */
};

struct recs {
	struct rec *v;
	size_t n, cap;
};

static void push(struct recs *rs, const struct rec *r)
{
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 256;
		rs->v = realloc(rs->v, rs->cap * sizeof(*rs->v));
		if (!rs->v)
			abort();
	}
	rs->v[rs->n++] = *r;
}

/* order: direction, first sector, time */
static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->dir != y->dir)
		return x->dir < y->dir ? -1 : 1;
	if (x->sector != y->sector)
		return x->sector < y->sector ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return 0;
}

/* order: time, then place in the trace */
static int cmp_time(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* index of the first record of rs (sorted) at or past (dir, sector) */
static size_t lower_bound(const struct recs *rs, int dir, uint64_t sector)
{
	size_t lo = 0, hi = rs->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct rec *m = &rs->v[mid];

		if (m->dir < dir || (m->dir == dir && m->sector < sector))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * the earliest dispatch of c's direction and sector before c that no
 * completion took: a device completes one sector's requests in order
 */
static struct rec *dispatch_of(struct recs *ds, const struct rec *c)
{
	size_t i = lower_bound(ds, c->dir, c->sector);

	for (; i < ds->n && ds->v[i].dir == c->dir && ds->v[i].sector == c->sector &&
	       ds->v[i].time <= c->time; i++)
		if (!ds->v[i].taken)
			return &ds->v[i];
	return NULL;
}

/*
 * the latest queue event of c's direction before c whose range holds c's
 * first sector: scan back from the last queue event starting at or
 * before it, as far as the longest queued range reaches
 */
static const struct rec *queue_of(const struct recs *qs, uint64_t longest,
				  const struct rec *c)
{
	size_t i = lower_bound(qs, c->dir, c->sector + 1);
	const struct rec *best = NULL;

	while (i-- > 0) {
		const struct rec *q = &qs->v[i];

		if (q->dir != c->dir || q->sector + longest <= c->sector)
			break;
		if (q->end > c->sector && q->time <= c->time &&
		    (!best || q->time > best->time))
			best = q;
	}
	return best;
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int blklat_read(const unsigned char *buf, size_t len, struct blklat *lat,
		char *err, size_t errlen)
{
	struct recs qs = { 0 }, ds = { 0 }, cs = { 0 };
	uint64_t longest = 0;
	size_t off = 0, i;
	int d, rc = -1;

	memset(lat, 0, sizeof(*lat));
	while (off < len) {
		const unsigned char *p = buf + off;
		uint32_t magic, action, act, bytes;
		uint16_t pdu;
		struct rec r = { 0 };

		if (len - off < REC_SIZE) {
			cli_fail(err, errlen, "record %zu at byte %zu is cut short (%zu of %d bytes)",
				 lat->records + 1, off, len - off, REC_SIZE);
			goto out;
		}
		magic = get32(p);
		if ((magic & ~0xffu) != REC_MAGIC || (magic & 0xffu) != REC_VERSION) {
			cli_fail(err, errlen,
				 "record %zu at byte %zu: magic 0x%08x is not blktrace's version 7 (0x%08x)",
				 lat->records + 1, off, magic, REC_MAGIC | REC_VERSION);
			goto out;
		}
		memcpy(&pdu, p + 46, sizeof(pdu));
		if (len - off - REC_SIZE < pdu) {
			cli_fail(err, errlen, "record %zu at byte %zu: its %u bytes of data are cut short",
				 lat->records + 1, off, pdu);
			goto out;
		}
		off += REC_SIZE + pdu;
		lat->records++;
		action = get32(p + 28);
		act = action & ACT_MASK;
		bytes = get32(p + 24);
		r.time = get64(p + 8);
		r.sector = get64(p + 16);
		r.end = r.sector + bytes / 512;
		r.seq = lat->records;
		/* notes, flushes, discards (one may span the disk), bogus sectors */
		if ((action & (CAT_NOTIFY | CAT_DISCARD)) || !bytes ||
		    !(action & (CAT_READ | CAT_WRITE)) || r.sector >= SECTOR_LIMIT)
			continue;
		r.dir = action & CAT_WRITE ? BLKLAT_WRITE : BLKLAT_READ;
		if (act == ACT_QUEUE) {
			push(&qs, &r);
			if (r.end - r.sector > longest)
				longest = r.end - r.sector;
		} else if (act == ACT_ISSUE) {
			push(&ds, &r);
			lat->dir[r.dir].dispatched++;
		} else if (act == ACT_COMPLETE) {
			push(&cs, &r);
		}
	}
	rc = 0;
	/* qsort() wants a non-NULL base even for 0 elements */
	if (qs.n)
		qsort(qs.v, qs.n, sizeof(*qs.v), cmp_rec);
	if (ds.n)
		qsort(ds.v, ds.n, sizeof(*ds.v), cmp_rec);
	if (cs.n)
		qsort(cs.v, cs.n, sizeof(*cs.v), cmp_time);
	for (d = 0; d < BLKLAT_NR_DIRS; d++) {
		lat->dir[d].d2c_ns = calloc(cs.n + 1, sizeof(long));
		lat->dir[d].q2c_ns = calloc(cs.n + 1, sizeof(long));
		if (!lat->dir[d].d2c_ns || !lat->dir[d].q2c_ns)
			abort();
	}
	for (i = 0; i < cs.n; i++) {
		const struct rec *c = &cs.v[i];
		struct blklat_dir_stats *s = &lat->dir[c->dir];
		struct rec *dp = dispatch_of(&ds, c);
		const struct rec *q = queue_of(&qs, longest, c);

		s->completions++;
		if (dp) {
			dp->taken = 1;
			s->d2c_ns[s->nd2c++] = (long)(c->time - dp->time);
		}
		if (q)
			s->q2c_ns[s->nq2c++] = (long)(c->time - q->time);
	}
	for (d = 0; d < BLKLAT_NR_DIRS; d++) {
		struct blklat_dir_stats *s = &lat->dir[d];

		if (s->nd2c)
			qsort(s->d2c_ns, s->nd2c, sizeof(long), value_cmp_long);
		if (s->nq2c)
			qsort(s->q2c_ns, s->nq2c, sizeof(long), value_cmp_long);
	}
out:
	free(qs.v);
	free(ds.v);
	free(cs.v);
	if (rc)
		memset(lat, 0, sizeof(*lat));
	return rc;
}

void blklat_free(struct blklat *lat)
{
	int d;

	for (d = 0; d < BLKLAT_NR_DIRS; d++) {
		free(lat->dir[d].d2c_ns);
		free(lat->dir[d].q2c_ns);
	}
	memset(lat, 0, sizeof(*lat));
}

const char *blklat_dir_name(enum blklat_dir d)
{
	return d == BLKLAT_WRITE ? "write" : "read";
}
