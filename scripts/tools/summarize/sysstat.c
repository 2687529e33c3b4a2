// SPDX-License-Identifier: GPL-2.0
/*
 * sysstat's iostat JSON into per-device means; see sysstat.h.  The text is
 * data a guest wrote: it is parsed by json.c and only numbers are taken.
 */
#include "summarize/sysstat.h"
#include "lib/cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"

/*
 * The columns per request and the requests that weight them: a merge
 * share (%rrqm, "rrqm" in the JSON) by the requests that came in, merged
 * or not; the derived avgrq-sz by reads and writes.
 */
static const struct {
	const char *key, *weight[2];
} per_request[] = {
	{ "r_await", { "r/s" } },	{ "rareq-sz", { "r/s" } },
	{ "w_await", { "w/s" } },	{ "wareq-sz", { "w/s" } },
	{ "d_await", { "d/s" } },	{ "dareq-sz", { "d/s" } },
	{ "f_await", { "f/s" } },
	{ "rrqm", { "r/s", "rrqm/s" } },
	{ "wrqm", { "w/s", "wrqm/s" } },
	{ "drqm", { "d/s", "drqm/s" } },
	{ "avgrq-sz", { "r/s", "w/s" } },
};
#define NPER	(sizeof(per_request) / sizeof(per_request[0]))

/* w/s -> w_s; 0 when key is empty or too long */
static int metric_name(const char *key, char *out)
{
	size_t i, n = strlen(key);

	if (!n || n >= SYSSTAT_NAME_MAX)
		return 0;
	for (i = 0; i <= n; i++) {
		char c = key[i];

		out[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '_' || !c ? c : '_';
	}
	return 1;
}

static int device_name_ok(const char *name)
{
	size_t n = strlen(name);

	return n && n < SYSSTAT_NAME_MAX &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		abort();
	return p;
}

static struct sysstat_dev *device(struct sysstat_iostat *io, const char *name)
{
	size_t i;

	for (i = 0; i < io->ndevs; i++)
		if (!strcmp(io->devs[i].name, name))
			return &io->devs[i];
	io->devs = xrealloc(io->devs, (io->ndevs + 1) * sizeof(*io->devs));
	memset(&io->devs[io->ndevs], 0, sizeof(*io->devs));
	snprintf(io->devs[io->ndevs].name, SYSSTAT_NAME_MAX, "%s", name);
	return &io->devs[io->ndevs++];
}

/* the column of key (sysstat's name), added at the end if new */
static struct sysstat_col *column(struct sysstat_dev *d, const char *key)
{
	char metric[SYSSTAT_NAME_MAX];
	struct sysstat_col *c;
	size_t i;

	if (!metric_name(key, metric))
		return NULL;
	for (i = 0; i < d->ncols; i++)
		if (!strcmp(d->cols[i].metric, metric))
			return &d->cols[i];
	d->cols = xrealloc(d->cols, (d->ncols + 1) * sizeof(*d->cols));
	c = &d->cols[d->ncols++];
	memset(c, 0, sizeof(*c));
	memcpy(c->metric, metric, sizeof(metric));
	for (i = 0; i < NPER; i++)
		if (!strcmp(per_request[i].key, key))
			c->per_request = 1;
	return c;
}

/* West (1979): weighted mean and sum of squares in one pass */
static void add(struct sysstat_col *c, double x, double w)
{
	double d;

	if (!(w > 0))
		return;
	c->weight += w;
	d = x - c->mean;
	c->mean += d * w / c->weight;
	c->m2 += w * d * (x - c->mean);
}

/* the requests that weight key in one interval: 1 for a rate */
static double weight_of(const struct json *disk, const char *key)
{
	double w = 0;
	size_t i, k;

	for (i = 0; i < NPER; i++) {
		if (strcmp(per_request[i].key, key))
			continue;
		for (k = 0; k < 2 && per_request[i].weight[k]; k++) {
			const double *v = json_number(disk, per_request[i].weight[k]);

			w += v && *v > 0 ? *v : 0;
		}
		return w;
	}
	return 1;
}

/* 2012's avgrq-sz, in sectors, where sysstat did not print it */
static void add_avgrq_sz(struct sysstat_dev *d, const struct json *disk)
{
	const double *r = json_number(disk, "r/s"), *w = json_number(disk, "w/s");
	const double *rkb = json_number(disk, "rkB/s"), *wkb = json_number(disk, "wkB/s");
	struct sysstat_col *c;

	if (json_get(disk, "avgrq-sz") || !r || !w || !rkb || !wkb)
		return;
	c = column(d, "avgrq-sz");
	if (c && *r + *w > 0)
		add(c, (*rkb + *wkb) * 2 / (*r + *w), *r + *w);
}

static void add_disk(struct sysstat_iostat *io, const struct json *disk)
{
	const char *name = json_string(disk, "disk_device");
	struct sysstat_dev *d;
	size_t i;

	if (!disk || disk->type != JSON_OBJECT || !name || !device_name_ok(name))
		return;
	d = device(io, name);
	d->intervals++;
	for (i = 0; i < disk->n; i++) {
		struct sysstat_col *c;

		if (disk->items[i]->type != JSON_NUMBER || !(c = column(d, disk->keys[i])))
			continue;
		add(c, disk->items[i]->number, weight_of(disk, disk->keys[i]));
	}
	add_avgrq_sz(d, disk);
}

int sysstat_iostat_read(const char *text, size_t len, struct sysstat_iostat *io,
			char *err, size_t errlen)
{
	const struct json *stats;
	struct json *doc;
	size_t i, k;

	memset(io, 0, sizeof(*io));
	doc = json_parse(text, len, err, errlen);
	if (!doc)
		return -1;
	stats = json_get(json_at(json_get(json_get(doc, "sysstat"), "hosts"), 0), "statistics");
	if (!stats || stats->type != JSON_ARRAY) {
		json_free(doc);
		return cli_fail(err, errlen, "not iostat's JSON (no sysstat.hosts[0].statistics)");
	}
	io->intervals = stats->n;
	for (i = 0; i < stats->n; i++) {
		const struct json *disks = json_get(json_at(stats, i), "disk");

		for (k = 0; disks && disks->type == JSON_ARRAY && k < disks->n; k++)
			add_disk(io, json_at(disks, k));
	}
	json_free(doc);
	return 0;
}

void sysstat_iostat_free(struct sysstat_iostat *io)
{
	size_t i;

	for (i = 0; i < io->ndevs; i++)
		free(io->devs[i].cols);
	free(io->devs);
	memset(io, 0, sizeof(*io));
}

int sysstat_col_mean(const struct sysstat_col *c, double *mean, double *sd)
{
	if (!(c->weight > 0))
		return -1;
	*mean = c->mean;
	/* rounding can leave m2 a hair below 0 for equal values */
	*sd = c->m2 > 0 ? sqrt(c->m2 / c->weight) : 0;
	return 0;
}

const struct sysstat_col *sysstat_col(const struct sysstat_dev *d, const char *metric)
{
	size_t i;

	for (i = 0; i < d->ncols; i++)
		if (!strcmp(d->cols[i].metric, metric))
			return &d->cols[i];
	return NULL;
}
