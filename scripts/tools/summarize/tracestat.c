// SPDX-License-Identifier: GPL-2.0
/*
 * tracestat: statistics of page-reclaim waits in an ftrace text trace.
 *
 * A trace line is "TASK-PID [(TGID)] [CPU] [FLAGS] TS: EVENT: FIELDS".
 * TASK may hold '-', spaces and even brackets, so the line is anchored on
 * the "[CPU]" column: the first " [digits]" followed by an optional flags
 * word and a "digits.digits:" timestamp.  Everything before it is the task,
 * whose pid follows the last '-'.
 */
#include "summarize/tracestat.h"
#include "lib/values.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

const int tracestat_pct[TRACESTAT_NPCT] = { 10, 25, 50, 75, 90, 99 };

const long tracestat_hist_edges_ms[TRACESTAT_NBUCKETS] = {
	0, 1, 2, 5, 10, 15, 20, 30, 50, 75, 99, 100,
};

const char *const tracestat_reasons[] = {
	"writeback", "isolated", "noprogress", "congested", "dirty",
	"wait_writeback", "migrate_writeback", NULL,
};

const char *const tracestat_classes[] = {
	"clean", "kswapd", "recent_write", "write", NULL,
};

/* Upstream's reason words and the names reclaimlab uses for them. */
static const char *const upstream_reasons[][2] = {
	{ "VMSCAN_THROTTLE_WRITEBACK", "writeback" },
	{ "VMSCAN_THROTTLE_ISOLATED", "isolated" },
	{ "VMSCAN_THROTTLE_NOPROGRESS", "noprogress" },
	{ "VMSCAN_THROTTLE_CONGESTED", "congested" },
};

#define EV_RECLAIMLAB	"mm_vmscan_reclaim_wait"
#define EV_UPSTREAM	"mm_vmscan_throttled"

/* ------------------------------------------------------------------ */
/* Line parsing                                                       */

static int is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static const char *skip_ws(const char *s)
{
	while (is_ws(*s))
		s++;
	return s;
}

static const char *skip_word(const char *s)
{
	while (*s && !is_ws(*s))
		s++;
	return s;
}

/*
 * The kernel prints the wait fields with %d; a sign or anything past
 * INT_MAX means the line is damaged.
 */
static int parse_uint(const char *s, size_t len, long *out)
{
	return value_parse_decimal(s, len, INT_MAX, out);
}

/*
 * "SECONDS[.FRACTION]:" at s.  On success *end points past the ':'.  The
 * digits are checked by hand because strtod would also take "1e3" or "inf".
 */
static int parse_ts(const char *s, double *ts, const char **end)
{
	const char *p = s;
	char buf[32];

	while (is_digit(*p))
		p++;
	if (p == s)
		return -1;
	if (*p == '.') {
		p++;
		if (!is_digit(*p))
			return -1;
		while (is_digit(*p))
			p++;
	}
	if (*p != ':' || (size_t)(p - s) >= sizeof(buf))
		return -1;
	memcpy(buf, s, p - s);
	buf[p - s] = '\0';
	*ts = strtod(buf, NULL);
	if (!(*ts <= TRACESTAT_TS_MAX))
		return -1;
	*end = p + 1;
	return 0;
}

/*
 * Parses "[CPU] [FLAGS] TS: [EVENT:]" starting at the '[' in p.  Sets *ts,
 * the event name (empty for lines such as the function tracer's, which have
 * none) and the start of the fields.
 */
static int parse_after_task(const char *p, double *ts, const char **name,
			    size_t *namelen, const char **fields)
{
	const char *q;

	if (*p++ != '[' || !is_digit(*p))
		return -1;
	while (is_digit(*p))
		p++;
	if (*p++ != ']' || !is_ws(*p))
		return -1;
	p = skip_ws(p);
	/* The flags column is absent when the irq-info option is off. */
	if (parse_ts(p, ts, &q) < 0 || !is_ws(*q)) {
		p = skip_ws(skip_word(p));
		if (parse_ts(p, ts, &q) < 0)
			return -1;
	}
	p = skip_ws(q);
	q = p;
	while (*q == '_' || is_digit(*q) || (*q >= 'a' && *q <= 'z') ||
	       (*q >= 'A' && *q <= 'Z'))
		q++;
	if (q > p && *q == ':') {
		*name = p;
		*namelen = q - p;
		*fields = q + 1;
	} else {
		*name = p;
		*namelen = 0;
		*fields = p;
	}
	return 0;
}

/* Strips a trailing "(TGID)" column: "(  1234)" or "(-------)". */
static const char *strip_tgid(const char *start, const char *end)
{
	const char *open;
	int digits = 0;

	if (end == start || end[-1] != ')')
		return end;
	for (open = end - 1; open > start && open[-1] != '('; open--) {
		if (is_digit(open[-1]) || open[-1] == '-')
			digits++;
		else if (open[-1] != ' ')
			return NULL;
	}
	if (open == start || !digits)
		return NULL;
	open--;			/* at the '(' */
	if (open == start || !is_ws(open[-1]))
		return NULL;
	while (open > start && is_ws(open[-1]))
		open--;
	return open;
}

/* "COMM-PID" in [start, end): the pid follows the last '-'. */
static int parse_task(const char *start, const char *end,
		      struct tracestat_event *ev)
{
	const char *dash = NULL, *p;
	long pid;
	size_t i, len;

	for (p = start; p < end; p++)
		if (*p == '-')
			dash = p;
	if (!dash || parse_uint(dash + 1, end - dash - 1, &pid) < 0)
		return -1;
	len = dash - start;
	if (len == 0 || len > TRACESTAT_COMM_MAX)
		return -1;
	/* Control bytes in a comm would break the one-line-per-key output. */
	for (i = 0; i < len; i++) {
		unsigned char c = start[i];

		ev->comm[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	ev->comm[len] = '\0';
	ev->pid = (int)pid;
	return 0;
}

/* Finds the "[CPU]" column and parses the common part of the line. */
static int parse_prefix(const char *line, struct tracestat_event *ev,
			const char **name, size_t *namelen,
			const char **fields)
{
	const char *start = skip_ws(line), *p, *end;

	for (p = strchr(start, '['); p; p = strchr(p + 1, '[')) {
		if (p == start || !is_ws(p[-1]))
			continue;
		if (parse_after_task(p, &ev->ts, name, namelen, fields) < 0)
			continue;
		end = p;
		while (end > start && is_ws(end[-1]))
			end--;
		end = strip_tgid(start, end);
		if (!end)
			return -1;
		return parse_task(start, end, ev);
	}
	return -1;
}

/* Value of "KEY=VALUE" among the whitespace-separated fields. */
static int field_get(const char *fields, const char *key,
		     const char **val, size_t *len)
{
	size_t klen = strlen(key);
	const char *p = fields, *tok;

	for (;;) {
		tok = skip_ws(p);
		if (!*tok)
			return -1;
		p = skip_word(tok);
		if ((size_t)(p - tok) > klen && !strncmp(tok, key, klen) &&
		    tok[klen] == '=') {
			*val = tok + klen + 1;
			*len = p - *val;
			return 0;
		}
	}
}

static int field_uint(const char *fields, const char *key, long *out)
{
	const char *val;
	size_t len;

	if (field_get(fields, key, &val, &len) < 0)
		return -1;
	return parse_uint(val, len, out);
}

static int field_word(const char *fields, const char *key, char *buf)
{
	const char *val;
	size_t len;

	if (field_get(fields, key, &val, &len) < 0)
		return -1;
	if (len == 0 || len > TRACESTAT_WORD_MAX)
		return -1;
	memcpy(buf, val, len);
	buf[len] = '\0';
	return 0;
}

/*
 * Canonical name of a known reason, also given as upstream's
 * VMSCAN_THROTTLE_X; NULL for any other word.
 */
static const char *tracestat_reason_name(const char *word)
{
	size_t i;

	for (i = 0; tracestat_reasons[i]; i++)
		if (!strcmp(word, tracestat_reasons[i]))
			return tracestat_reasons[i];
	for (i = 0; i < sizeof(upstream_reasons) / sizeof(*upstream_reasons);
	     i++)
		if (!strcmp(word, upstream_reasons[i][0]))
			return upstream_reasons[i][1];
	return NULL;
}

static int parse_fields(const char *fields, struct tracestat_event *ev)
{
	const char *known;

	if (field_uint(fields, "usec_timeout", &ev->usec_timeout) < 0 ||
	    field_word(fields, "reason", ev->reason) < 0)
		return -1;
	if (ev->format == TRACESTAT_FMT_RECLAIMLAB) {
		if (field_uint(fields, "usec_delayed", &ev->usec_delayed) < 0 ||
		    field_word(fields, "class", ev->cls) < 0)
			return -1;
	} else {
		/* 6.12 spells it "usect_delayed"; accept a fixed kernel too. */
		if (field_uint(fields, "usect_delayed", &ev->usec_delayed) < 0 &&
		    field_uint(fields, "usec_delayed", &ev->usec_delayed) < 0)
			return -1;
		strcpy(ev->cls, TRACESTAT_NO_CLASS);
	}
	known = tracestat_reason_name(ev->reason);
	if (known)
		strcpy(ev->reason, known);
	return 0;
}

static int name_is(const char *name, size_t len, const char *want)
{
	return strlen(want) == len && !strncmp(name, want, len);
}

enum tracestat_kind tracestat_parse_line(const char *line,
					 struct tracestat_event *ev)
{
	const char *name, *fields, *start;
	size_t len, namelen;

	memset(ev, 0, sizeof(*ev));
	len = strnlen(line, TRACESTAT_LINE_MAX + 3);
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (len > TRACESTAT_LINE_MAX)
		return TRACESTAT_MALFORMED;
	start = skip_ws(line);
	if (!*start || *start == '#')
		return TRACESTAT_IGNORED;
	if (parse_prefix(line, ev, &name, &namelen, &fields) < 0)
		return TRACESTAT_MALFORMED;
	if (name_is(name, namelen, COMPLETION_EVENT))
		return completion_parse(fields, &ev->completion) < 0 ?
			TRACESTAT_MALFORMED : TRACESTAT_COMPLETION;
	if (name_is(name, namelen, MEMCG_RECLAIM_EVENT))
		return memcg_reclaim_parse(fields, &ev->memcg_reclaimed) < 0 ?
			TRACESTAT_MALFORMED : TRACESTAT_MEMCG_RECLAIM;
	if (name_is(name, namelen, EV_RECLAIMLAB))
		ev->format = TRACESTAT_FMT_RECLAIMLAB;
	else if (name_is(name, namelen, EV_UPSTREAM))
		ev->format = TRACESTAT_FMT_UPSTREAM;
	else
		return TRACESTAT_OTHER;
	if (parse_fields(fields, ev) < 0)
		return TRACESTAT_MALFORMED;
	return TRACESTAT_WAIT;
}

/* ------------------------------------------------------------------ */
/* Accumulator                                                        */

static void table_init(struct tracestat_table *t, size_t limit,
		       const char *const *seed)
{
	memset(t, 0, sizeof(*t));
	t->limit = limit;
	strcpy(t->other.name, TRACESTAT_OTHER_NAME);
	/* Known names are always reported, in a fixed order. */
	for (; seed && *seed && t->n < limit; seed++)
		strcpy(t->v[t->n++].name, *seed);
}

static void table_add(struct tracestat_table *t, const char *name,
		      long usec)
{
	struct tracestat_entry *e = NULL;
	size_t i;

	for (i = 0; i < t->n && !e; i++)
		if (!strcmp(t->v[i].name, name))
			e = &t->v[i];
	if (!e && t->n < t->limit) {
		e = &t->v[t->n++];
		snprintf(e->name, sizeof(e->name), "%s", name);
	}
	if (!e)
		e = &t->other;
	e->count++;
	e->usec += usec;
}

void tracestat_init(struct tracestat *ts)
{
	memset(ts, 0, sizeof(*ts));
	table_init(&ts->reasons, TRACESTAT_MAX_REASONS, tracestat_reasons);
	table_init(&ts->classes, TRACESTAT_MAX_CLASSES, tracestat_classes);
	table_init(&ts->tasks, TRACESTAT_MAX_TASKS, NULL);
	memcg_reclaim_init(&ts->memcg_reclaim);
}

int tracestat_filter_reason(struct tracestat *ts, const char *reason)
{
	const char *known = tracestat_reason_name(reason);

	if (!known)
		return -1;
	strcpy(ts->want_reason, known);
	return 0;
}

int tracestat_filter_task(struct tracestat *ts, const char *task)
{
	size_t len = strlen(task);

	if (len == 0 || len >= sizeof(ts->want_task))
		return -1;
	memcpy(ts->want_task, task, len + 1);
	return 0;
}

void tracestat_set_duration(struct tracestat *ts, double seconds)
{
	ts->duration_opt = seconds;
}

void tracestat_by_comm(struct tracestat *ts)
{
	ts->want_by_comm = 1;
}

/* bins of a series at most: the max span, and one for what ends on it */
static double series_max_bins(const struct tracestat *ts)
{
	return ceil(TRACESTAT_SERIES_MAX_S / ts->series_bin) + 1;
}

int tracestat_series(struct tracestat *ts, double start, double end,
		     double bin)
{
	if (!(bin >= 0.01) || !isfinite(bin) || !isfinite(start) ||
	    !isfinite(end) || start < 0 || end < start)
		return -1;
	ts->want_series = 1;
	ts->series_start = start;
	ts->series_bin = bin;
	ts->series_cut = end - start > TRACESTAT_SERIES_MAX_S;
	ts->series_end = ts->series_cut ? start + TRACESTAT_SERIES_MAX_S : end;
	return completion_series(&ts->completions, start, end) < 0 ? -1 :
	       ts->series_cut;
}

static void note_ts(struct tracestat *ts, double t)
{
	/* min/max, as trace_pipe may interleave CPUs slightly out of order */
	if (!ts->have_ts || t < ts->first_ts)
		ts->first_ts = t;
	if (!ts->have_ts || t > ts->last_ts)
		ts->last_ts = t;
	ts->have_ts = 1;
}

static int wanted(const struct tracestat *ts, const struct tracestat_event *ev,
		  const char *task)
{
	if (ts->want_reason[0] && strcmp(ts->want_reason, ev->reason))
		return 0;
	if (ts->want_task[0] && strcmp(ts->want_task, ev->comm) &&
	    strcmp(ts->want_task, task))
		return 0;
	return 1;
}

static int add_sample(struct tracestat *ts, long usec)
{
	if (ts->nsamples == ts->cap) {
		size_t cap = ts->cap ? ts->cap * 2 : 1024;
		long *v = realloc(ts->samples, cap * sizeof(*v));

		if (!v) {
			errno = ENOMEM;
			return -1;
		}
		ts->samples = v;
		ts->cap = cap;
	}
	ts->samples[ts->nsamples++] = usec;
	return 0;
}

static int count_kept(struct tracestat *ts, const struct tracestat_event *ev,
		      const char *task);

/* The accumulator of ev's task name, made on first sight; NULL on ENOMEM. */
static struct tracestat *comm_of(struct tracestat *ts,
				 const struct tracestat_event *ev)
{
	const char *name = ev->comm;
	struct tracestat *c;
	size_t i;

	if (ts->ncomms >= TRACESTAT_MAX_TASKS)
		name = TRACESTAT_OTHER_NAME;
	for (i = 0; i < ts->ncomms; i++)
		if (!strcmp(ts->comms[i].want_task, name))
			return &ts->comms[i];
	if (ts->ncomms == ts->comms_cap) {
		size_t cap = ts->comms_cap ? ts->comms_cap * 2 : 8;

		c = realloc(ts->comms, cap * sizeof(*c));
		if (!c) {
			errno = ENOMEM;
			return NULL;
		}
		ts->comms = c;
		ts->comms_cap = cap;
	}
	c = &ts->comms[ts->ncomms++];
	tracestat_init(c);
	/* the name only: counted through count_kept(), no filter applies */
	snprintf(c->want_task, sizeof(c->want_task), "%s", name);
	c->duration_opt = ts->duration_opt;
	c->want_by_reason = 1;
	return c;
}

/*
 * The accumulator of ev's reason within a comm's, made on first sight;
 * NULL on ENOMEM.  Reasons are few (known ones and upstream's); a word
 * beyond TRACESTAT_MAX_REASONS folds into "(other)".
 */
static struct tracestat *reason_of(struct tracestat *ts,
				   const struct tracestat_event *ev)
{
	const char *name = ev->reason;
	struct tracestat *c;
	size_t i;

	if (ts->nby_reason >= TRACESTAT_MAX_REASONS)
		name = TRACESTAT_OTHER_NAME;
	for (i = 0; i < ts->nby_reason; i++)
		if (!strcmp(ts->by_reason[i].want_reason, name))
			return &ts->by_reason[i];
	if (ts->nby_reason == ts->by_reason_cap) {
		size_t cap = ts->by_reason_cap ? ts->by_reason_cap * 2 : 4;

		c = realloc(ts->by_reason, cap * sizeof(*c));
		if (!c) {
			errno = ENOMEM;
			return NULL;
		}
		ts->by_reason = c;
		ts->by_reason_cap = cap;
	}
	c = &ts->by_reason[ts->nby_reason++];
	tracestat_init(c);
	/* the name only: counted through count_kept(), no filter applies */
	snprintf(c->want_reason, sizeof(c->want_reason), "%s", name);
	c->duration_opt = ts->duration_opt;
	return c;
}

static int count_in_bin(struct tracestat *ts, const struct tracestat_event *ev)
{
	double at = (ev->ts - ts->series_start) / ts->series_bin;
	size_t b;

	/* past the longest series: not binned, and (size_t)at stays defined */
	if (!(at < series_max_bins(ts))) {
		ts->series_dropped++;
		return 0;
	}
	b = at > 0 ? (size_t)at : 0;
	if (b >= ts->nbins) {
		size_t n = b + 64;
		unsigned long *e = realloc(ts->series_events, n * sizeof(*e));
		unsigned long long *u;

		if (!e)
			goto nomem;
		ts->series_events = e;
		u = realloc(ts->series_usec, n * sizeof(*u));
		if (!u)
			goto nomem;
		ts->series_usec = u;
		memset(e + ts->nbins, 0, (n - ts->nbins) * sizeof(*e));
		memset(u + ts->nbins, 0, (n - ts->nbins) * sizeof(*u));
		ts->nbins = n;
	}
	ts->series_events[b]++;
	ts->series_usec[b] += ev->usec_delayed;
	return 0;
nomem:
	errno = ENOMEM;
	return -1;
}

static int count_kept(struct tracestat *ts, const struct tracestat_event *ev,
		      const char *task);

static int count_wait(struct tracestat *ts, const struct tracestat_event *ev)
{
	char task[TRACESTAT_NAME_MAX];

	snprintf(task, sizeof(task), "%s-%d", ev->comm, ev->pid);
	if (!wanted(ts, ev, task)) {
		ts->filtered++;
		return 0;
	}
	return count_kept(ts, ev, task);
}

/*
 * Counts a wait that passed ts's filters.  The per-comm and per-reason
 * accumulators are fed here directly: their name is a key, not a filter
 * (the "(other)" fold-over takes waits of any name).
 */
static int count_kept(struct tracestat *ts, const struct tracestat_event *ev,
		      const char *task)
{
	if (add_sample(ts, ev->usec_delayed) < 0)
		return -1;
	ts->events++;
	ts->usec_total += ev->usec_delayed;
	/* a wait without a timeout cannot run the whole of one */
	if (ev->usec_timeout == 0)
		ts->no_timeout++;
	else if (ev->usec_delayed >= ev->usec_timeout)
		ts->full_timeout++;
	table_add(&ts->reasons, ev->reason, ev->usec_delayed);
	table_add(&ts->classes, ev->cls, ev->usec_delayed);
	table_add(&ts->tasks, task, ev->usec_delayed);
	if (ts->want_series && count_in_bin(ts, ev) < 0)
		return -1;
	if (ts->want_by_comm) {
		struct tracestat *c = comm_of(ts, ev);

		if (!c || count_kept(c, ev, task) < 0)
			return -1;
	}
	if (ts->want_by_reason) {
		struct tracestat *c = reason_of(ts, ev);

		if (!c || count_kept(c, ev, task) < 0)
			return -1;
	}
	return 0;
}

int tracestat_feed_line(struct tracestat *ts, const char *line)
{
	struct tracestat_event ev;
	enum tracestat_kind kind = tracestat_parse_line(line, &ev);

	switch (kind) {
	case TRACESTAT_IGNORED:
		break;
	case TRACESTAT_MALFORMED:
		ts->malformed++;
		break;
	case TRACESTAT_OTHER:
		ts->other++;
		note_ts(ts, ev.ts);
		break;
	case TRACESTAT_WAIT:
		note_ts(ts, ev.ts);
		if (count_wait(ts, &ev) < 0)
			return -1;
		break;
	case TRACESTAT_COMPLETION:
		note_ts(ts, ev.ts);
		if (completion_add(&ts->completions, ev.ts, &ev.completion) < 0)
			return -1;
		break;
	case TRACESTAT_MEMCG_RECLAIM:
		note_ts(ts, ev.ts);
		memcg_reclaim_add(&ts->memcg_reclaim, ev.pid, ev.memcg_reclaimed);
		break;
	}
	return kind;
}

/* Discards the rest of an overlong line so its tail is not read as a line. */
static int skip_rest_of_line(FILE *f)
{
	int c;

	do
		c = getc(f);
	while (c != EOF && c != '\n');
	return ferror(f) ? -1 : 0;
}

int tracestat_feed_stream(struct tracestat *ts, FILE *f,
			  volatile sig_atomic_t *stop)
{
	char buf[TRACESTAT_LINE_MAX + 2];
	size_t len;

	while (!(stop && *stop) && fgets(buf, sizeof(buf), f)) {
		len = strlen(buf);
		if (len == sizeof(buf) - 1 && buf[len - 1] != '\n') {
			ts->malformed++;
			if (skip_rest_of_line(f) < 0)
				return -1;
			continue;
		}
		if (tracestat_feed_line(ts, buf) < 0)
			return -1;
	}
	return ferror(f) ? -1 : 0;
}

/* Busiest tasks first; ties by name so the output is stable. */
static int cmp_entry(const void *a, const void *b)
{
	const struct tracestat_entry *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->usec != y->usec)
		return x->usec < y->usec ? 1 : -1;
	return strcmp(x->name, y->name);
}

static size_t bucket_of(long usec)
{
	size_t i = TRACESTAT_NBUCKETS - 1;

	while (i > 0 && usec < tracestat_hist_edges_ms[i] * 1000)
		i--;
	return i;
}

/* Reason accumulators by name, so the rows come in a stable order. */
static int cmp_reason(const void *a, const void *b)
{
	const struct tracestat *x = a, *y = b;

	return strcmp(x->want_reason, y->want_reason);
}

static void finish_duration(struct tracestat *ts)
{
	ts->duration_s = 0;
	ts->dur_source = TRACESTAT_DUR_NONE;
	if (ts->duration_opt > 0) {
		ts->duration_s = ts->duration_opt;
		ts->dur_source = TRACESTAT_DUR_OPTION;
	} else if (ts->have_ts && ts->last_ts > ts->first_ts) {
		ts->duration_s = ts->last_ts - ts->first_ts;
		ts->dur_source = TRACESTAT_DUR_TRACE;
	}
	ts->stalled_ms_per_s = 0;
	if (ts->duration_s > 0)
		ts->stalled_ms_per_s = ts->usec_total / 1000.0 / ts->duration_s;
}

void tracestat_finish(struct tracestat *ts)
{
	size_t i, n = ts->nsamples;

	/* qsort() wants a non-NULL base even for 0 elements */
	if (n)
		qsort(ts->samples, n, sizeof(*ts->samples), value_cmp_long);
	if (ts->tasks.n)
		qsort(ts->tasks.v, ts->tasks.n, sizeof(*ts->tasks.v),
		      cmp_entry);
	for (i = 0; i < TRACESTAT_NPCT; i++)
		ts->pct_usec[i] = value_percentile(ts->samples, n, tracestat_pct[i]);
	ts->max_usec = n ? ts->samples[n - 1] : 0;
	/* of the waits that had a timeout to run out */
	ts->full_timeout_share = n > ts->no_timeout ?
		(double)ts->full_timeout / (n - ts->no_timeout) : 0;
	memset(ts->hist, 0, sizeof(ts->hist));
	for (i = 0; i < n; i++)
		ts->hist[bucket_of(ts->samples[i])]++;
	finish_duration(ts);
	completion_finish(&ts->completions, ts->duration_s);
	for (i = 0; i < ts->ncomms; i++) {
		struct tracestat *c = &ts->comms[i];

		/* a task's stalled time is over the whole trace's span */
		c->have_ts = ts->have_ts;
		c->first_ts = ts->first_ts;
		c->last_ts = ts->last_ts;
		tracestat_finish(c);
	}
	if (ts->nby_reason)
		qsort(ts->by_reason, ts->nby_reason, sizeof(*ts->by_reason),
		      cmp_reason);
	for (i = 0; i < ts->nby_reason; i++) {
		struct tracestat *c = &ts->by_reason[i];

		c->have_ts = ts->have_ts;
		c->first_ts = ts->first_ts;
		c->last_ts = ts->last_ts;
		tracestat_finish(c);
	}
}

void tracestat_free(struct tracestat *ts)
{
	size_t i;

	for (i = 0; i < ts->ncomms; i++)
		tracestat_free(&ts->comms[i]);
	free(ts->comms);
	for (i = 0; i < ts->nby_reason; i++)
		tracestat_free(&ts->by_reason[i]);
	free(ts->by_reason);
	ts->by_reason = NULL;
	ts->nby_reason = ts->by_reason_cap = 0;
	free(ts->series_events);
	free(ts->series_usec);
	free(ts->samples);
	completion_free(&ts->completions);
	ts->comms = NULL;
	ts->series_events = NULL;
	ts->series_usec = NULL;
	ts->samples = NULL;
	ts->ncomms = ts->comms_cap = ts->nbins = 0;
	ts->nsamples = ts->cap = 0;
}

int tracestat_cdf_point(const struct tracestat *ts, size_t *pos,
			long *usec, double *fraction)
{
	size_t i = *pos;

	if (i >= ts->nsamples)
		return 0;
	*usec = ts->samples[i];
	while (i < ts->nsamples && ts->samples[i] == *usec)
		i++;
	*fraction = (double)i / ts->nsamples;
	*pos = i;
	return 1;
}

/* ------------------------------------------------------------------ */
/* Output: text is "key value [(note)]", TSV is "key\tvalue".          */

static void kv(FILE *f, int tsv, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void kv(FILE *f, int tsv, const char *key, const char *fmt, ...)
{
	va_list ap;

	fprintf(f, "%s%c", key, tsv ? '\t' : ' ');
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
}

static void print_entry(FILE *f, int tsv, const char *kind,
			const struct tracestat_entry *e)
{
	if (tsv) {
		fprintf(f, "%s.%s.count\t%lu\n", kind, e->name, e->count);
		fprintf(f, "%s.%s.usec\t%llu\n", kind, e->name, e->usec);
	} else {
		fprintf(f, "%s %s %lu (usec %llu)\n", kind, e->name, e->count,
			e->usec);
	}
}

static void print_table(FILE *f, int tsv, const char *kind,
			const struct tracestat_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		print_entry(f, tsv, kind, &t->v[i]);
	if (t->other.count)
		print_entry(f, tsv, kind, &t->other);
}

static const char *dur_note(const struct tracestat *ts)
{
	switch (ts->dur_source) {
	case TRACESTAT_DUR_OPTION:
		return "option";
	case TRACESTAT_DUR_TRACE:
		return "trace";
	case TRACESTAT_DUR_NONE:
		break;
	}
	return "none";
}

static void print_stats(FILE *f, int tsv, const struct tracestat *ts)
{
	char key[16];
	size_t i;

	kv(f, tsv, "events", "%lu\n", ts->events);
	kv(f, tsv, "malformed", "%lu\n", ts->malformed);
	kv(f, tsv, "other_events", "%lu\n", ts->other);
	kv(f, tsv, "filtered", "%lu\n", ts->filtered);
	kv(f, tsv, "first_ts", "%.6f\n", ts->first_ts);
	kv(f, tsv, "last_ts", "%.6f\n", ts->last_ts);
	if (tsv) {
		kv(f, tsv, "duration_s", "%.6f\n", ts->duration_s);
		kv(f, tsv, "duration_source", "%s\n", dur_note(ts));
	} else {
		kv(f, tsv, "duration_s", "%.6f (from %s)\n", ts->duration_s,
		   dur_note(ts));
	}
	kv(f, tsv, "usec_total", "%llu\n", ts->usec_total);
	for (i = 0; i < TRACESTAT_NPCT; i++) {
		snprintf(key, sizeof(key), "p%d_usec", tracestat_pct[i]);
		kv(f, tsv, key, "%ld\n", ts->pct_usec[i]);
	}
	kv(f, tsv, "max_usec", "%ld\n", ts->max_usec);
	kv(f, tsv, "full_timeout_share", "%.4f", ts->full_timeout_share);
	if (!tsv)
		fprintf(f, " (%lu of %lu waits with a timeout)", ts->full_timeout,
			ts->events - ts->no_timeout);
	fputc('\n', f);
	kv(f, tsv, "no_timeout_events", "%lu", ts->no_timeout);
	if (!tsv)
		fprintf(f, " (usec_timeout=0, a folio writeback wait: not in full_timeout_share)");
	fputc('\n', f);
	kv(f, tsv, "stalled_ms_per_s", "%.3f", ts->stalled_ms_per_s);
	if (!tsv && ts->dur_source == TRACESTAT_DUR_NONE)
		fprintf(f, " (duration is 0; pass --duration SECONDS)");
	fputc('\n', f);
	print_table(f, tsv, "reason", &ts->reasons);
	print_table(f, tsv, "class", &ts->classes);
	print_table(f, tsv, "task", &ts->tasks);
	completion_print(f, tsv, &ts->completions);
	memcg_reclaim_print(f, tsv, &ts->memcg_reclaim);
}

void tracestat_print_text(FILE *f, const struct tracestat *ts,
			  const char *source)
{
	fprintf(f, "# rl-tracestat: page-reclaim waits in %s",
		strcmp(source, "-") ? source : "stdin");
	if (ts->want_reason[0])
		fprintf(f, ", reason %s", ts->want_reason);
	if (ts->want_task[0])
		fprintf(f, ", task %s", ts->want_task);
	fputc('\n', f);
	print_stats(f, 0, ts);
}

static int cmp_comm(const void *a, const void *b)
{
	const struct tracestat *const *x = a, *const *y = b;

	return strcmp((*x)->want_task, (*y)->want_task);
}

/* The rows of one task name, or of one reason of its waits. */
static void print_comm_rows(FILE *f, const char *key, const struct tracestat *c)
{
	fprintf(f, "%s.events\t%lu\n", key, c->events);
	fprintf(f, "%s.no_timeout_events\t%lu\n", key, c->no_timeout);
	fprintf(f, "%s.p50_usec\t%ld\n", key, c->pct_usec[2]);
	fprintf(f, "%s.p90_usec\t%ld\n", key, c->pct_usec[4]);
	fprintf(f, "%s.full_timeout_share\t%.4f\n", key, c->full_timeout_share);
	fprintf(f, "%s.stalled_ms_per_s\t%.3f\n", key, c->stalled_ms_per_s);
}

/* The per-task stats sorted by name (malloc'ed), or NULL if none. */
static const struct tracestat **comms_by_name(const struct tracestat *ts)
{
	const struct tracestat **v;
	size_t i;

	if (!ts->ncomms)
		return NULL;
	v = malloc(ts->ncomms * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < ts->ncomms; i++)
		v[i] = &ts->comms[i];
	qsort(v, ts->ncomms, sizeof(*v), cmp_comm);
	return v;
}

/*
 * comm.NAME.* rows, by name: what a later stage needs of each task name;
 * then comm.NAME.reason.REASON.* for each reason it waited for, by reason.
 */
static void print_comms(FILE *f, const struct tracestat *ts)
{
	const struct tracestat **v = comms_by_name(ts);
	size_t i;

	if (!v)
		return;
	for (i = 0; i < ts->ncomms; i++) {
		const struct tracestat *c = v[i];
		char key[TRACESTAT_NAME_MAX + TRACESTAT_WORD_MAX + 32];
		size_t j;

		snprintf(key, sizeof(key), "comm.%s", c->want_task);
		print_comm_rows(f, key, c);
		for (j = 0; j < c->nby_reason; j++) {
			snprintf(key, sizeof(key), "comm.%s.reason.%s", c->want_task,
				 c->by_reason[j].want_reason);
			print_comm_rows(f, key, &c->by_reason[j]);
		}
	}
	free(v);
}

void tracestat_print_task_waits(FILE *f, const struct tracestat *ts)
{
	const struct tracestat **v;
	size_t i, j, k, n;

	fprintf(f, "task\treason\tusec_delayed\twaits\n");
	v = comms_by_name(ts);
	if (!v)
		return;
	for (i = 0; i < ts->ncomms; i++) {
		for (j = 0; j < v[i]->nby_reason; j++) {
			const struct tracestat *r = &v[i]->by_reason[j];

			/* the samples are sorted: a run of equal values is one row */
			for (k = 0; k < r->nsamples; k += n) {
				for (n = 1; k + n < r->nsamples && r->samples[k + n] == r->samples[k]; n++)
					;
				fprintf(f, "%s\t%s\t%ld\t%zu\n", v[i]->want_task, r->want_reason,
					r->samples[k], n);
			}
		}
	}
	free(v);
}

void tracestat_print_tsv(FILE *f, const struct tracestat *ts)
{
	print_stats(f, 1, ts);
	print_comms(f, ts);
}

void tracestat_print_series(FILE *f, const struct tracestat *ts)
{
	double span = (ts->series_end - ts->series_start) / ts->series_bin;
	size_t b, n = 0;

	/* NaN, negative or past the max: the conversion must be in range */
	if (span > series_max_bins(ts))
		span = series_max_bins(ts);
	if (span > 0)
		n = (size_t)ceil(span - 1e-9);

	/* every bin of the window, and any wait after its end */
	for (b = ts->nbins; b > n; b--)
		if (ts->series_events[b - 1]) {
			n = b;
			break;
		}
	fprintf(f, "start_s\tevents\tusec\n");
	for (b = 0; b < n; b++)
		fprintf(f, "%.3f\t%lu\t%llu\n", b * ts->series_bin,
			b < ts->nbins ? ts->series_events[b] : 0,
			b < ts->nbins ? ts->series_usec[b] : 0);
}

void tracestat_print_hist(FILE *f, const struct tracestat *ts)
{
	size_t i;
	double frac;

	fprintf(f, "bucket_lo_ms\tbucket_hi_ms\tcount\tfraction\n");
	for (i = 0; i < TRACESTAT_NBUCKETS; i++) {
		frac = ts->events ? (double)ts->hist[i] / ts->events : 0;
		fprintf(f, "%ld\t", tracestat_hist_edges_ms[i]);
		if (i + 1 < TRACESTAT_NBUCKETS)
			fprintf(f, "%ld", tracestat_hist_edges_ms[i + 1]);
		else
			fprintf(f, "inf");
		fprintf(f, "\t%lu\t%.6f\n", ts->hist[i], frac);
	}
}

void tracestat_print_cdf(FILE *f, const struct tracestat *ts)
{
	size_t pos = 0;
	long usec;
	double frac;

	fprintf(f, "usec_delayed\tcumulative_fraction\n");
	while (tracestat_cdf_point(ts, &pos, &usec, &frac))
		fprintf(f, "%ld\t%.6f\n", usec, frac);
}
