// SPDX-License-Identifier: GPL-2.0
/*
 * completion: statistics of writeback_end_batch events (see completion.h).
 *
 * An event's fields read "bdi NAME: ino=N unit=WORD folios=N bytes=N
 * reclaim=N gap_us=N"; NAME is a device number ("98:0") or a name
 * ("btrfs-1") and ends at the first ": ".
 */
#include "summarize/completion.h"
#include "lib/values.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int copy_word(char *dst, const char *src, size_t len)
{
	if (!len || len > COMPLETION_WORD_MAX)
		return -1;
	memcpy(dst, src, len);
	dst[len] = '\0';
	return 0;
}

int completion_parse(const char *fields, struct completion_event *ev)
{
	static const char *const keys[] = {
		"ino", "unit", "folios", "bytes", "reclaim", "gap_us",
	};
	long *nums[] = { &ev->ino, NULL, &ev->folios, &ev->bytes,
			 &ev->reclaim, &ev->gap_us };
	unsigned int seen = 0;
	const char *p, *end;
	size_t k;

	memset(ev, 0, sizeof(*ev));
	p = fields + strspn(fields, " ");
	if (strncmp(p, "bdi ", 4))
		return -1;
	p += 4;
	end = strstr(p, ": ");
	if (!end || copy_word(ev->bdi, p, end - p) < 0)
		return -1;
	for (p = end + 2; *p; p = end) {
		const char *eq;

		p += strspn(p, " ");
		if (!*p || *p == '\n')
			break;
		end = p + strcspn(p, " \n");
		eq = memchr(p, '=', end - p);
		if (!eq)
			return -1;
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (strlen(keys[k]) == (size_t)(eq - p) &&
			    !strncmp(p, keys[k], eq - p))
				break;
		if (k == sizeof(keys) / sizeof(keys[0]))
			continue;	/* a field a later kernel added */
		if (nums[k] ? value_parse_decimal(eq + 1, end - eq - 1, LONG_MAX, nums[k]) < 0 :
			      copy_word(ev->unit, eq + 1, end - eq - 1) < 0)
			return -1;
		seen |= 1u << k;
	}
	return seen == (1u << (sizeof(keys) / sizeof(keys[0]))) - 1 ? 0 : -1;
}

void completion_init(struct completion_stats *c)
{
	memset(c, 0, sizeof(*c));
}

int completion_series(struct completion_stats *c, double start, double end)
{
	if (!isfinite(start) || !isfinite(end) || start < 0 || end < start)
		return -1;
	c->want_series = 1;
	c->series_start = start;
	c->series_cut = end - start > COMPLETION_SERIES_MAX_S;
	c->series_end = c->series_cut ? start + COMPLETION_SERIES_MAX_S : end;
	return c->series_cut;
}

static int push(long **v, size_t *n, size_t *cap, long x)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 256;
		long *nv = realloc(*v, nc * sizeof(*nv));

		if (!nv) {
			errno = ENOMEM;
			return -1;
		}
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = x;
	return 0;
}

/* 1 if this is the first event seen on bdi (its gap_us means nothing) */
static int first_on_bdi(struct completion_stats *c, const char *bdi)
{
	size_t i;

	for (i = 0; i < c->nbdis; i++)
		if (!strcmp(c->bdis[i], bdi))
			return 0;
	if (c->nbdis < COMPLETION_MAX_BDIS)
		strcpy(c->bdis[c->nbdis++], bdi);
	return 1;
}

static void count_unit(struct completion_stats *c,
		       const struct completion_event *ev)
{
	size_t i;

	for (i = 0; i < c->nunits; i++)
		if (!strcmp(c->units[i].name, ev->unit))
			break;
	if (i == c->nunits) {
		if (c->nunits == COMPLETION_MAX_UNITS) {
			c->other_units++;
			return;
		}
		strcpy(c->units[c->nunits++].name, ev->unit);
	}
	c->units[i].events++;
	c->units[i].folios += ev->folios;
}

static int count_in_bin(struct completion_stats *c, double ts, long folios)
{
	double at = (ts - c->series_start) / COMPLETION_SERIES_BIN_S;
	size_t b;

	/* also what no window holds: the conversion below must be in range */
	if (!(at >= 0) || !(ts <= c->series_end) ||
	    at >= COMPLETION_SERIES_MAX_S / COMPLETION_SERIES_BIN_S + 1)
		return 0;
	b = (size_t)at;
	if (b >= c->nbins) {
		size_t n = b + 256;
		unsigned long long *nv = realloc(c->series, n * sizeof(*nv));

		if (!nv) {
			errno = ENOMEM;
			return -1;
		}
		memset(nv + c->nbins, 0, (n - c->nbins) * sizeof(*nv));
		c->series = nv;
		c->nbins = n;
	}
	c->series[b] += folios;
	return 0;
}

int completion_add(struct completion_stats *c, double ts,
		   const struct completion_event *ev)
{
	c->events++;
	c->folios += ev->folios;
	c->bytes += ev->bytes;
	c->reclaim_folios += ev->reclaim;
	count_unit(c, ev);
	if (push(&c->folio_samples, &c->nfolio, &c->capfolio, ev->folios) < 0)
		return -1;
	if (!first_on_bdi(c, ev->bdi) &&
	    push(&c->gap_samples, &c->ngap, &c->capgap, ev->gap_us) < 0)
		return -1;
	if (c->want_series && count_in_bin(c, ts, ev->folios) < 0)
		return -1;
	return 0;
}

void completion_finish(struct completion_stats *c, double duration_s)
{
	if (c->nfolio)
		qsort(c->folio_samples, c->nfolio, sizeof(long),
		      value_cmp_long);
	if (c->ngap)
		qsort(c->gap_samples, c->ngap, sizeof(long),
		      value_cmp_long);
	c->duration_s = duration_s > 0 ? duration_s : 0;
	c->events_per_s = c->reclaim_folios_per_s = c->mb_per_s = 0;
	if (c->duration_s > 0) {
		c->events_per_s = c->events / c->duration_s;
		c->reclaim_folios_per_s = c->reclaim_folios / c->duration_s;
		c->mb_per_s = c->bytes / 1e6 / c->duration_s;
	}
	c->folios_p50 = value_percentile(c->folio_samples, c->nfolio, 50);
	c->folios_p90 = value_percentile(c->folio_samples, c->nfolio, 90);
	c->folios_max = c->nfolio ? c->folio_samples[c->nfolio - 1] : 0;
	c->gap_ms_p50 = value_percentile(c->gap_samples, c->ngap, 50) / 1000.0;
	c->gap_ms_p90 = value_percentile(c->gap_samples, c->ngap, 90) / 1000.0;
}

void completion_free(struct completion_stats *c)
{
	free(c->folio_samples);
	free(c->gap_samples);
	free(c->series);
	completion_init(c);
}

void completion_print(FILE *f, int tsv, const struct completion_stats *c)
{
	const char sep = tsv ? '\t' : ' ';
	size_t i;

	if (!c->events)
		return;
	fprintf(f, "completion.events%c%lu\n", sep, c->events);
	fprintf(f, "completion.events_per_s%c%.3f\n", sep, c->events_per_s);
	fprintf(f, "completion.folios%c%llu\n", sep, c->folios);
	fprintf(f, "completion.folios_p50%c%ld\n", sep, c->folios_p50);
	fprintf(f, "completion.folios_p90%c%ld\n", sep, c->folios_p90);
	fprintf(f, "completion.folios_max%c%ld\n", sep, c->folios_max);
	fprintf(f, "completion.gap_ms_p50%c%.3f\n", sep, c->gap_ms_p50);
	fprintf(f, "completion.gap_ms_p90%c%.3f\n", sep, c->gap_ms_p90);
	fprintf(f, "completion.reclaim_folios%c%llu\n", sep, c->reclaim_folios);
	fprintf(f, "completion.reclaim_folios_per_s%c%.3f\n", sep,
		c->reclaim_folios_per_s);
	fprintf(f, "completion.mb_per_s%c%.3f\n", sep, c->mb_per_s);
	for (i = 0; i < c->nunits; i++)
		fprintf(f, "completion.unit.%s.events%c%lu\n", c->units[i].name,
			sep, c->units[i].events);
}

void completion_print_series(FILE *f, const struct completion_stats *c)
{
	double span = (c->series_end - c->series_start) / COMPLETION_SERIES_BIN_S;
	size_t b, n = 0;

	if (span > COMPLETION_SERIES_MAX_S / COMPLETION_SERIES_BIN_S)
		span = COMPLETION_SERIES_MAX_S / COMPLETION_SERIES_BIN_S;
	if (span > 0)
		n = (size_t)ceil(span - 1e-9);

	fprintf(f, "start_s\tfolios\n");
	for (b = 0; b < n; b++)
		fprintf(f, "%.2f\t%llu\n", b * COMPLETION_SERIES_BIN_S,
			b < c->nbins ? c->series[b] : 0);
}
