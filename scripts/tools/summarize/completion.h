/* SPDX-License-Identifier: GPL-2.0 */
/*
 * completion: how a filesystem completed writeback, from the kernel's
 * writeback_end_batch trace event (patch "writeback: trace and count each
 * completion's batch of folios").  One event is one completion: a bio's
 * end_io, an ext4 io_end or a chain of merged xfs ioends, with the folios
 * it ended writeback on and the time since the previous one on its bdi.
 *
 * rl-tracestat feeds the events it meets into a struct completion_stats;
 * completion_finish() turns them into the completion.* metrics.
 */
#ifndef RECLAIMLAB_COMPLETION_H
#define RECLAIMLAB_COMPLETION_H

#include <stddef.h>
#include <stdio.h>

#define COMPLETION_EVENT	"writeback_end_batch"
#define COMPLETION_WORD_MAX	31
/* bdis whose first event (gap_us=0: no previous one) is told apart */
#define COMPLETION_MAX_BDIS	16
/* completion units (bio, io_end, ioend) counted by name */
#define COMPLETION_MAX_UNITS	8
/* folios ended per bin of the series: 10 ms, the resolution */
#define COMPLETION_SERIES_BIN_S	0.01
/*
 * The longest series kept, in seconds of trace time: two hours, many
 * times the longest run (timeouts are 300-600 s).  The window comes from
 * a guest's file and the timestamps from its trace, so without a bound a
 * guest's "0 1000000" would make a series of 10^8 bins.
 */
#define COMPLETION_SERIES_MAX_S	7200.0

struct completion_event {
	char bdi[COMPLETION_WORD_MAX + 1];
	char unit[COMPLETION_WORD_MAX + 1];
	long ino;
	long folios;
	long bytes;
	long reclaim;
	long gap_us;
};

struct completion_unit {
	char name[COMPLETION_WORD_MAX + 1];
	unsigned long events;
	unsigned long long folios;
};

struct completion_stats {
	unsigned long events;
	unsigned long long folios, reclaim_folios, bytes;
	long *folio_samples;		/* folios of each event */
	size_t nfolio, capfolio;
	long *gap_samples;		/* gap_us, first event of a bdi left out */
	size_t ngap, capgap;
	char bdis[COMPLETION_MAX_BDIS][COMPLETION_WORD_MAX + 1];
	size_t nbdis;
	struct completion_unit units[COMPLETION_MAX_UNITS];
	size_t nunits;
	unsigned long other_units;	/* events of units past the table */

	/* optional series of folios ended per COMPLETION_SERIES_BIN_S */
	int want_series;
	double series_start, series_end;
	int series_cut;			/* the window was cut to the max */
	unsigned long long *series;
	size_t nbins;

	/* filled by completion_finish() */
	double duration_s;
	double events_per_s, reclaim_folios_per_s, mb_per_s;
	long folios_p50, folios_p90, folios_max;
	double gap_ms_p50, gap_ms_p90;
};

void completion_init(struct completion_stats *c);
/*
 * Also bin folios ended from start to end (trace seconds): 0, 1 if the
 * window was longer than COMPLETION_SERIES_MAX_S and is cut to it, -1 if
 * end < start or either is negative or not finite.
 */
int completion_series(struct completion_stats *c, double start, double end);
/* Parses an event's fields ("bdi 98:0: ino=12 unit=bio ..."); -1 if bad. */
int completion_parse(const char *fields, struct completion_event *ev);
/* Counts one event at trace time ts; -1 (errno ENOMEM) if it was lost. */
int completion_add(struct completion_stats *c, double ts,
		   const struct completion_event *ev);
/* Computes the metrics; duration_s is the span rates are taken over. */
void completion_finish(struct completion_stats *c, double duration_s);
void completion_free(struct completion_stats *c);

/*
 * "completion.NAME<TAB>value" rows (tsv) or "completion.NAME value" lines;
 * nothing when no event was seen.
 */
void completion_print(FILE *f, int tsv, const struct completion_stats *c);
/* "start_s<TAB>folios" per bin of the series window. */
void completion_print_series(FILE *f, const struct completion_stats *c);

#endif
