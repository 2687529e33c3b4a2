// SPDX-License-Identifier: GPL-2.0
/*
 * iostat: /proc/diskstats parsing and iostat -kx arithmetic for rl-iostat.
 *
 * The columns follow sysstat's extended report of the 2.6/3.x era:
 *   avgrq-sz = sectors / requests, in 512-byte sectors
 *   avgqu-sz = weighted ms in queue / elapsed ms
 *   await    = (read ms + write ms) / requests
 *   svctm    = busy ms / requests
 *   %util    = busy ms / elapsed ms
 * Discards and flushes are parsed but, as in that report, not counted.
 */
#include "iostat.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IOSTAT_MAX_FIELDS 17	/* statistics used from one line */

void iostat_snap_init(struct iostat_snap *snap)
{
	memset(snap, 0, sizeof(*snap));
}

void iostat_snap_free(struct iostat_snap *snap)
{
	free(snap->devs);
	iostat_snap_init(snap);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Next blank-separated token of [*pos, end); false once the line is used up. */
static bool next_token(const char **pos, const char *end,
		       const char **tok, size_t *toklen)
{
	const char *s = *pos, *e;

	while (s < end && is_blank(*s))
		s++;
	if (s == end) {
		*pos = s;
		return false;
	}
	for (e = s; e < end && !is_blank(*e); e++)
		;
	*tok = s;
	*toklen = (size_t)(e - s);
	*pos = e;
	return true;
}

/* Strict unsigned decimal: digits only, no sign, no overflow. */
static bool parse_u64(const char *tok, size_t len, unsigned long long *out)
{
	unsigned long long v = 0;
	size_t i;

	if (len == 0)
		return false;
	for (i = 0; i < len; i++) {
		unsigned int d;

		if (tok[i] < '0' || tok[i] > '9')
			return false;
		d = (unsigned int)(tok[i] - '0');
		if (v > (ULLONG_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static bool parse_name(const char *tok, size_t len, char *name)
{
	size_t i;

	if (len == 0 || len >= IOSTAT_NAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!isgraph((unsigned char)tok[i]))
			return false;
	memcpy(name, tok, len);
	name[len] = '\0';
	return true;
}

/*
 * 11, 15 and 17 statistics are the layouts kernels have shipped.  More than
 * 17 is taken as a newer kernel appending fields (Documentation/admin-guide/
 * iostats.rst promises additions go at the end), so the extra ones are
 * checked for being numbers and otherwise ignored.
 */
static bool nfields_ok(size_t n)
{
	return n == 11 || n == 15 || n >= IOSTAT_MAX_FIELDS;
}

static void fill_dev(struct iostat_dev *dev, const unsigned long long *v)
{
	dev->rd_ios = v[0];
	dev->rd_merges = v[1];
	dev->rd_sectors = v[2];
	dev->rd_ticks = v[3];
	dev->wr_ios = v[4];
	dev->wr_merges = v[5];
	dev->wr_sectors = v[6];
	dev->wr_ticks = v[7];
	dev->in_flight = v[8];
	dev->io_ticks = v[9];
	dev->time_in_queue = v[10];
	dev->dc_ios = v[11];
	dev->dc_merges = v[12];
	dev->dc_sectors = v[13];
	dev->dc_ticks = v[14];
	dev->fl_ios = v[15];
	dev->fl_ticks = v[16];
}

/* Parse one line [s, end) into dev; false if it is not a diskstats line. */
static bool parse_line(const char *s, const char *end, struct iostat_dev *dev)
{
	unsigned long long v[IOSTAT_MAX_FIELDS] = { 0 };
	unsigned long long major, minor, extra;
	const char *tok;
	size_t len, n = 0;

	if (!next_token(&s, end, &tok, &len) || !parse_u64(tok, len, &major) ||
	    major > UINT_MAX)
		return false;
	if (!next_token(&s, end, &tok, &len) || !parse_u64(tok, len, &minor) ||
	    minor > UINT_MAX)
		return false;
	if (!next_token(&s, end, &tok, &len) || !parse_name(tok, len, dev->name))
		return false;
	while (next_token(&s, end, &tok, &len)) {
		unsigned long long *dst = n < IOSTAT_MAX_FIELDS ? &v[n] : &extra;

		if (!parse_u64(tok, len, dst))
			return false;
		n++;
	}
	if (!nfields_ok(n))
		return false;
	dev->major = (unsigned int)major;
	dev->minor = (unsigned int)minor;
	dev->nfields = n < IOSTAT_MAX_FIELDS ? (int)n : IOSTAT_MAX_FIELDS;
	fill_dev(dev, v);
	return true;
}

/* Room for one more device; NULL if memory ran out. */
static struct iostat_dev *snap_slot(struct iostat_snap *snap)
{
	if (snap->ndevs == snap->cap) {
		size_t cap = snap->cap ? snap->cap * 2 : 16;
		struct iostat_dev *devs = realloc(snap->devs, cap * sizeof(*devs));

		if (!devs)
			return NULL;
		snap->devs = devs;
		snap->cap = cap;
	}
	return &snap->devs[snap->ndevs];
}

static bool line_is_blank(const char *s, const char *end)
{
	const char *tok;
	size_t len;

	return !next_token(&s, end, &tok, &len);
}

int iostat_parse(struct iostat_snap *snap, const char *buf, size_t len)
{
	const char *s = buf, *end = buf + len;

	snap->ndevs = 0;
	snap->rejected = 0;
	while (s < end) {
		const char *eol = memchr(s, '\n', (size_t)(end - s));
		struct iostat_dev *dev;

		if (!eol)
			eol = end;
		if (!line_is_blank(s, eol)) {
			dev = snap_slot(snap);
			if (!dev)
				return -1;
			if (parse_line(s, eol, dev))
				snap->ndevs++;
			else
				snap->rejected++;
		}
		s = eol + 1;
	}
	return 0;
}

const struct iostat_dev *iostat_find(const struct iostat_snap *snap,
				     const char *name)
{
	size_t i;

	for (i = 0; i < snap->ndevs; i++)
		if (strcmp(snap->devs[i].name, name) == 0)
			return &snap->devs[i];
	return NULL;
}

bool iostat_is_whole_ubd(const char *name)
{
	const char *p;

	if (strncmp(name, "ubd", 3) != 0 || name[3] == '\0')
		return false;
	for (p = name + 3; *p; p++)
		if (*p < 'a' || *p > 'z')
			return false;
	return true;
}

/*
 * A counter that went backwards was reset (device re-registered, or a 32-bit
 * value wrapped): count from zero rather than report a negative rate.
 */
static unsigned long long delta(unsigned long long before,
				unsigned long long after)
{
	return after >= before ? after - before : after;
}

void iostat_row(const struct iostat_dev *before, const struct iostat_dev *after,
		double elapsed_ms, struct iostat_row *row)
{
	unsigned long long rd_merges, wr_merges, rd_ticks, wr_ticks;
	unsigned long long io_ticks, queue, ios;

	memset(row, 0, sizeof(*row));
	row->elapsed_ms = elapsed_ms;
	row->rd_ios = delta(before->rd_ios, after->rd_ios);
	row->wr_ios = delta(before->wr_ios, after->wr_ios);
	row->rd_sectors = delta(before->rd_sectors, after->rd_sectors);
	row->wr_sectors = delta(before->wr_sectors, after->wr_sectors);
	rd_merges = delta(before->rd_merges, after->rd_merges);
	wr_merges = delta(before->wr_merges, after->wr_merges);
	rd_ticks = delta(before->rd_ticks, after->rd_ticks);
	wr_ticks = delta(before->wr_ticks, after->wr_ticks);
	io_ticks = delta(before->io_ticks, after->io_ticks);
	queue = delta(before->time_in_queue, after->time_in_queue);

	/* Written as a test that is false for NaN too. */
	if (elapsed_ms > 0) {
		double per_s = 1000.0 / elapsed_ms;

		row->rrqm_s = (double)rd_merges * per_s;
		row->wrqm_s = (double)wr_merges * per_s;
		row->r_s = (double)row->rd_ios * per_s;
		row->w_s = (double)row->wr_ios * per_s;
		row->rkb_s = (double)row->rd_sectors / 2.0 * per_s;
		row->wkb_s = (double)row->wr_sectors / 2.0 * per_s;
		row->avgqu_sz = (double)queue / elapsed_ms;
		row->util = (double)io_ticks * 100.0 / elapsed_ms;
		/*
		 * io_ticks moves in whole jiffies, so a short interval can
		 * see more busy time than elapsed time; a disk cannot be
		 * more than fully busy (later sysstat clamps the same way).
		 */
		if (row->util > 100.0)
			row->util = 100.0;
	}

	ios = row->rd_ios + row->wr_ios;
	if (ios) {
		row->avgrq_sz = (double)(row->rd_sectors + row->wr_sectors) /
				(double)ios;
		row->await = (double)(rd_ticks + wr_ticks) / (double)ios;
		row->svctm = (double)io_ticks / (double)ios;
	}
	if (row->wr_ios)
		row->wareq_sz = (double)row->wr_sectors / 2.0 / (double)row->wr_ios;
}

void iostat_summary(const struct iostat_dev *first,
		    const struct iostat_dev *last, double elapsed_ms,
		    struct iostat_summary *sum)
{
	iostat_row(first, last, elapsed_ms, &sum->row);
	/* MB as iostat -m means it: 2048 sectors of 512 bytes. */
	sum->read_mb = (double)sum->row.rd_sectors / 2048.0;
	sum->written_mb = (double)sum->row.wr_sectors / 2048.0;
}

void iostat_acc_init(struct iostat_acc *acc)
{
	memset(acc, 0, sizeof(*acc));
}

static void sum_columns(struct iostat_row *sum, const struct iostat_row *row)
{
	sum->elapsed_ms += row->elapsed_ms;
	sum->rd_ios += row->rd_ios;
	sum->wr_ios += row->wr_ios;
	sum->rd_sectors += row->rd_sectors;
	sum->wr_sectors += row->wr_sectors;
	sum->rrqm_s += row->rrqm_s;
	sum->wrqm_s += row->wrqm_s;
	sum->r_s += row->r_s;
	sum->w_s += row->w_s;
	sum->rkb_s += row->rkb_s;
	sum->wkb_s += row->wkb_s;
	sum->avgqu_sz += row->avgqu_sz;
	sum->util += row->util;
}

void iostat_acc_add(struct iostat_acc *acc, const struct iostat_row *row)
{
	double w = (double)(row->rd_ios + row->wr_ios);
	double d;

	acc->intervals++;
	sum_columns(&acc->sum, row);
	if (w <= 0)
		return;

	acc->io_intervals++;
	acc->sum.await += row->await;
	acc->sum.svctm += row->svctm;

	/* West (1979): weighted mean and sum of squares in one pass. */
	acc->rq_weight += w;
	d = row->avgrq_sz - acc->rq_mean;
	acc->rq_mean += d * w / acc->rq_weight;
	acc->rq_m2 += w * d * (row->avgrq_sz - acc->rq_mean);
	if (!row->wr_ios)
		return;
	w = (double)row->wr_ios;
	acc->wrq_weight += w;
	d = row->wareq_sz - acc->wrq_mean;
	acc->wrq_mean += d * w / acc->wrq_weight;
	acc->wrq_m2 += w * d * (row->wareq_sz - acc->wrq_mean);
}

void iostat_acc_result(const struct iostat_acc *acc,
		       struct iostat_acc_result *res)
{
	const struct iostat_row *s = &acc->sum;
	struct iostat_row *m = &res->mean;

	memset(res, 0, sizeof(*res));
	res->intervals = acc->intervals;
	res->ios = s->rd_ios + s->wr_ios;
	if (acc->intervals) {
		double n = (double)acc->intervals;

		m->elapsed_ms = s->elapsed_ms / n;
		m->rrqm_s = s->rrqm_s / n;
		m->wrqm_s = s->wrqm_s / n;
		m->r_s = s->r_s / n;
		m->w_s = s->w_s / n;
		m->rkb_s = s->rkb_s / n;
		m->wkb_s = s->wkb_s / n;
		m->avgqu_sz = s->avgqu_sz / n;
		m->util = s->util / n;
	}
	if (acc->io_intervals) {
		double n = (double)acc->io_intervals;

		m->await = s->await / n;
		m->svctm = s->svctm / n;
		m->avgrq_sz = acc->rq_mean;
		/* Rounding can leave m2 a hair below zero for equal values. */
		res->avgrq_sz_sd = acc->rq_m2 > 0 ?
				   sqrt(acc->rq_m2 / acc->rq_weight) : 0.0;
	}
	if (acc->wrq_weight > 0) {
		res->wareq_sz_mean = acc->wrq_mean;
		res->wareq_sz_sd = acc->wrq_m2 > 0 ?
				   sqrt(acc->wrq_m2 / acc->wrq_weight) : 0.0;
	}
}

const char iostat_table_header[] =
	"Device:         rrqm/s   wrqm/s     r/s     w/s    rkB/s    wkB/s"
	" avgrq-sz avgqu-sz   await  svctm  %util\n";

const char iostat_tsv_header[] =
	"time_s\tdevice\trrqm_s\twrqm_s\tr_s\tw_s\trkB_s\twkB_s"
	"\tavgrq_sz\tavgqu_sz\tawait\tsvctm\tutil\n";

/* Column widths line up under iostat_table_header. */
int iostat_format_row(char *buf, size_t len, const char *name,
		      const struct iostat_row *r)
{
	return snprintf(buf, len,
			"%-13s %8.2f %8.2f %7.2f %7.2f %8.2f %8.2f %8.2f %8.2f %7.2f %6.2f %6.2f\n",
			name, r->rrqm_s, r->wrqm_s, r->r_s, r->w_s,
			r->rkb_s, r->wkb_s, r->avgrq_sz, r->avgqu_sz,
			r->await, r->svctm, r->util);
}

int iostat_format_tsv(char *buf, size_t len, double time_s, const char *name,
		      const struct iostat_row *r)
{
	return snprintf(buf, len,
			"%.3f\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\n",
			time_s, name, r->rrqm_s, r->wrqm_s, r->r_s, r->w_s,
			r->rkb_s, r->wkb_s, r->avgrq_sz, r->avgqu_sz,
			r->await, r->svctm, r->util);
}

int iostat_format_summary(char *buf, size_t len, const char *name,
			  const struct iostat_summary *sum,
			  const struct iostat_acc_result *res)
{
	return snprintf(buf, len,
			"device=%s\n"
			"reads=%llu\n"
			"writes=%llu\n"
			"read_mb=%.3f\n"
			"written_mb=%.3f\n"
			"avgrq_sz_mean=%.3f\n"
			"avgrq_sz_sd=%.3f\n"
			"wareq_sz_mean=%.3f\n"
			"wareq_sz_sd=%.3f\n"
			"avgqu_sz_mean=%.3f\n"
			"await_mean=%.3f\n"
			"util_mean=%.3f\n"
			"seconds=%.3f\n"
			"intervals=%lu\n",
			name, sum->row.rd_ios, sum->row.wr_ios,
			sum->read_mb, sum->written_mb,
			res->mean.avgrq_sz, res->avgrq_sz_sd,
			res->wareq_sz_mean, res->wareq_sz_sd,
			res->mean.avgqu_sz, res->mean.await, res->mean.util,
			sum->row.elapsed_ms / 1000.0, res->intervals);
}
