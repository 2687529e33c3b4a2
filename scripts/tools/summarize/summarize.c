// SPDX-License-Identifier: GPL-2.0
/*
 * A run folder into summary rows; see summarize.h.  Every file is read as
 * data the guest wrote: a line that does not parse is skipped, a value that
 * is not a number gives no row (knobs excepted, whose "absent" is text).
 */
#include "summarize/summarize.h"
#include "lib/cli.h"
#include "lib/conf.h"

#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/guest-read.h"
#include "lib/json.h"
#include "lib/run-folder.h"
#include "lib/util.h"
#include "lib/values.h"
#include "summarize/blklat.h"
#include "summarize/sysstat.h"
#include "summarize/tracestat.h"

/* metrics of a tool's result line: the first NMEAN averaged over its lines, the rest summed */
static const char *const tool_keys[] = {
	"mbps", "busy_mbps", "seconds", "first_write_s", "system_pct", "gap_s", "tail_s",
	"tail_mbps", "bytes", "bad_chunks", "tail_bytes",
};
#define NKEYS	(sizeof(tool_keys) / sizeof(tool_keys[0]))
#define NMEAN	8

#define fail cli_fail

/* the summary's rows, "METRIC<TAB>VALUE": the run is its folder's (record.h) */
struct rows {
	FILE *out;
	const char *dir;		/* the run folder */
};

static void row(struct rows *r, const char *metric, const char *value)
{
	if (value_is_number(value))
		fprintf(r->out, "%s\t%s\n", metric, value);
}

/* a computed number as awk prints it: whole, or %.6g */
static void row_num(struct rows *r, const char *metric, double v)
{
	char buf[64];

	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, sizeof(buf), "%.0f", v == 0 ? 0.0 : v);
	else
		snprintf(buf, sizeof(buf), "%.6g", v);
	row(r, metric, buf);
}

/*
 * Marks the run: input.refused NAME, a guest file that gave no rows (not
 * a regular file, over its cap, bad values), or input.cut NAME, one whose
 * values were bounded.  A text row: aggregate-rows.c keeps it out of the
 * statistics, the report lists it.
 */
static void mark_input(struct rows *r, const char *what, const char *name,
		       const char *why)
{
	fprintf(stderr, "rl-summarize: %s/%s/%s: %s\n", r->dir, RL_GUEST_DIR, name, why);
	fprintf(r->out, "input.%s\t%s\n", what,
		value_is_plain_name(name) ? name : "(a file with an unsafe name)");
}

/* why of a guest-read.h message "PATH: why" */
static const char *reason(const char *err, const char *path)
{
	size_t n = strlen(path);

	return !strncmp(err, path, n) && !strncmp(err + n, ": ", 2) ? err + n + 2 : err;
}

static char *guest_path(const struct rows *r, const char *name)
{
	size_t n = strlen(r->dir) + strlen(name) + sizeof(RL_GUEST_DIR) + 2;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/" RL_GUEST_DIR "/%s", r->dir, name);
	return p;
}

/*
 * The guest's file RUN/guest/NAME of at most max bytes, NUL-terminated;
 * its length in *len if len is not NULL.  NULL if it is absent, or
 * refused (the run marked).
 */
static char *guest_file(struct rows *r, const char *name, size_t max,
			size_t *len)
{
	char *p = guest_path(r, name), *t, err[1024];

	t = guest_read_file(p, max, len, err, sizeof(err));
	if (!t && errno != ENOENT)
		mark_input(r, "refused", name, reason(err, p));
	free(p);
	return t;
}

/*
 * workload-seconds, "T0 T1" in trace seconds: the window of the series.
 * 0 and the window, or -1 if there is none (absent, or values no run has:
 * the run marked).
 */
static int workload_window(struct rows *r, double *t0, double *t1)
{
	char *ws = guest_file(r, "workload-seconds", GUEST_MAX_SMALL, NULL), why[256];
	int ok;

	if (!ws)
		return -1;
	ok = sscanf(ws, "%lf %lf", t0, t1) == 2;
	free(ws);
	if (!ok)
		return -1;
	if (!isfinite(*t0) || !isfinite(*t1) || *t0 < 0 || *t1 < *t0 ||
	    *t1 > TRACESTAT_TS_MAX) {
		snprintf(why, sizeof(why),
			 "refused: \"%g %g\" is not a span of trace time (0 <= T0 <= T1 <= %g)",
			 *t0, *t1, TRACESTAT_TS_MAX);
		mark_input(r, "refused", "workload-seconds", why);
		return -1;
	}
	return 0;
}

static int trace_rows(struct rows *r, const char *derived, char *err,
		      size_t errlen)
{
	static struct tracestat ts;
	char *path, *ws, *line, *p, why[1024];
	double t0, t1;
	FILE *f, *tsv;
	size_t dn = strlen(derived) + 32, k;
	char *tsvbuf = NULL;
	size_t tsvlen = 0;
	int rc;

	path = guest_path(r, "trace.txt");
	f = guest_fopen(path, GUEST_MAX_TRACE, why, sizeof(why));
	if (!f) {
		if (errno != ENOENT)
			mark_input(r, "refused", "trace.txt", reason(why, path));
		free(path);
		return 0;
	}
	free(path);
	tracestat_init(&ts);
	tracestat_by_comm(&ts);
	if (!workload_window(r, &t0, &t1)) {
		char d[32];

		/* the workload's span, as the shell's %.3f of t1 - t0 gave it */
		snprintf(d, sizeof(d), "%.3f", t1 - t0);
		if (strtod(d, NULL) > 0)
			tracestat_set_duration(&ts, strtod(d, NULL));
		if (tracestat_series(&ts, t0, t1, 0.1) > 0) {
			snprintf(why, sizeof(why),
				 "a workload of %.0f s: its series are cut to the first %.0f s",
				 t1 - t0, TRACESTAT_SERIES_MAX_S);
			mark_input(r, "cut", "workload-seconds", why);
		}
	}
	rc = tracestat_feed_stream(&ts, f, NULL);
	fclose(f);
	if (rc < 0) {
		tracestat_free(&ts);
		return fail(err, errlen, "cannot read %s/%s/trace.txt", r->dir, RL_GUEST_DIR);
	}
	tracestat_finish(&ts);
	if (ts.series_dropped) {
		snprintf(why, sizeof(why),
			 "%lu waits later than %.0f s into the workload are not in its series",
			 ts.series_dropped, TRACESTAT_SERIES_MAX_S);
		mark_input(r, "cut", "trace.txt", why);
	}
	/* the trace's files beside the summary: made anew, never written through */
	path = xmalloc(dn);
	for (k = 0; k < 5 && !rc; k++) {
		static const char *const names[] = {
			"waits-hist.tsv", "waits-cdf.tsv", "waits-series.tsv",
			"completions-series.tsv", "waits-by-task.tsv",
		};

		snprintf(path, dn, "%s/%s", derived, names[k]);
		/* none this time: one of an earlier summary is not this run's */
		if ((k == 2 && !ts.want_series) ||
		    (k == 3 && !(ts.want_series && ts.completions.events))) {
			unlink(path);
			continue;
		}
		f = cli_create(path, err, errlen);
		if (!f) {
			rc = -1;
			break;
		}
		if (k == 0)
			tracestat_print_hist(f, &ts);
		else if (k == 1)
			tracestat_print_cdf(f, &ts);
		else if (k == 2)
			tracestat_print_series(f, &ts);
		else if (k == 3)
			completion_print_series(f, &ts.completions);
		else
			tracestat_print_task_waits(f, &ts);
		if (ferror(f) | fclose(f))
			rc = fail(err, errlen, "cannot write %s", path);
	}
	free(path);
	if (rc) {
		tracestat_free(&ts);
		return -1;
	}
	tsv = open_memstream(&tsvbuf, &tsvlen);
	tracestat_print_tsv(tsv, &ts);
	fclose(tsv);
	tracestat_free(&ts);
	/* waits.KEY, comm.NAME.* as waits.task.NAME.*, not the task-pid table */
	for (p = tsvbuf; (line = next_line(&p));) {
		char metric[512], *tab = strchr(line, '\t');

		if (!tab || !strncmp(line, "task.", 5))
			continue;
		*tab = '\0';
		if (!strncmp(line, "comm.", 5))
			snprintf(metric, sizeof(metric), "waits.task.%s", line + 5);
		else if (!strncmp(line, "completion.", 11) ||
			 !strncmp(line, "memcg_reclaim.", 14))
			snprintf(metric, sizeof(metric), "%s", line);
		else
			snprintf(metric, sizeof(metric), "waits.%s", line);
		row(r, metric, tab + 1);
	}
	free(tsvbuf);
	ws = guest_file(r, "trace.txt.overrun", GUEST_MAX_SMALL, NULL);
	if (ws) {
		ws[strcspn(ws, "\n")] = '\0';
		row(r, "run.trace_overrun", ws);
		free(ws);
	}
	return 0;
}

/*
 * A counter's name as the kernel spells it (/proc/vmstat, the debugfs
 * counters): 1-200 letters, digits and '_'.  The guest writes the files,
 * and a name becomes part of a metric: no tab, '.', space or quote.
 */
static int is_counter_name(const char *s, size_t n)
{
	size_t i;

	if (!n || n > 200)
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return 0;
	return 1;
}

/* "name:value" lines: the debugfs counters as grep -r . shows them */
static void counter_rows(struct rows *r, char *text)
{
	char metric[256], *p = text, *l;

	while ((l = next_line(&p))) {
		char *c = strchr(l, ':');

		if (!c || !is_counter_name(l, (size_t)(c - l)))
			continue;
		*c = '\0';
		snprintf(metric, sizeof(metric), "counter.%s", l);
		row(r, metric, c + 1);
	}
}

/*
 * The value of NAME in a counters file of "NAME<sep>VALUE" lines (debug-vm
 * "nr_x:1", /proc/vmstat "nr_x 1"), looked up without changing @text.
 */
static int counter_value(const char *text, const char *name, char sep, long long *v)
{
	size_t n = strlen(name);
	const char *q = text;

	while (q && *q) {
		if (!strncmp(q, name, n) && q[n] == sep)
			return sscanf(q + n + 1, "%lld", v) == 1;
		q = strchr(q, '\n');
		if (q)
			q++;
	}
	return 0;
}

/*
 * Each counter of @from (a file of "NAME<sep>VALUE" lines, changed here)
 * against the same counter in @to (unchanged): PREFIX.NAME = to - from.
 * @monotonic (the debug counters, "NAME:VALUE"): every counter, zeros too
 * (a check such as "> 0" must see them), none that fell (reset in
 * between, or not a counter).  Otherwise (/proc/vmstat, which has gauges
 * too): the ones that changed.
 */
static void delta_rows(struct rows *r, const char *prefix, char *from, const char *to,
		       char sep, int monotonic)
{
	char metric[256], *p = from, *l;

	while ((l = next_line(&p))) {
		char *s = strchr(l, sep);
		long long a, b;

		if (!s || !is_counter_name(l, (size_t)(s - l)))
			continue;
		*s = '\0';
		if (sscanf(s + 1, "%lld", &b) != 1 || !counter_value(to, l, sep, &a))
			continue;
		if (monotonic ? b < 0 || a < b : a == b)
			continue;
		snprintf(metric, sizeof(metric), "%s.%s", prefix, l);
		/* in double: guest text must not overflow a long long */
		row_num(r, metric, (double)a - (double)b);
	}
}

/*
 * iostat.json, sysstat's extended device report (sysstat.c):
 * iostat.intervals, the seconds it reported (0: the workload was shorter
 * than one), and per device iostat.DEV.intervals, iostat.DEV.COLUMN_mean
 * of each column that had something to average, and COLUMN_sd of the
 * columns per request.  A file that is not iostat's JSON (a guest stopped
 * before iostat closed it) gives no rows.
 */
static void iostat_rows(struct rows *r, const char *text)
{
	struct sysstat_iostat io;
	char err[128], metric[512];
	size_t i, k;

	if (sysstat_iostat_read(text, strlen(text), &io, err, sizeof(err)) == 0) {
		row_num(r, "iostat.intervals", (double)io.intervals);
		for (i = 0; i < io.ndevs; i++) {
			const struct sysstat_dev *d = &io.devs[i];

			snprintf(metric, sizeof(metric), "iostat.%s.intervals", d->name);
			row_num(r, metric, (double)d->intervals);
			for (k = 0; k < d->ncols; k++) {
				const struct sysstat_col *c = &d->cols[k];
				double mean, sd;

				if (sysstat_col_mean(c, &mean, &sd))
					continue;
				snprintf(metric, sizeof(metric), "iostat.%s.%s_mean", d->name, c->metric);
				row_num(r, metric, mean);
				if (!c->per_request)
					continue;
				snprintf(metric, sizeof(metric), "iostat.%s.%s_sd", d->name, c->metric);
				row_num(r, metric, sd);
			}
		}
	}
	sysstat_iostat_free(&io);
}

/* NAME.out: the op= result lines of one workload tool */
static void tool_rows(struct rows *r, const char *name, char *text)
{
	double sum[NKEYS] = { 0 };
	size_t n[NKEYS] = { 0 }, k;
	char metric[512], *p = text, *l;

	while ((l = next_line(&p))) {
		char *tok, *save;

		if (strncmp(l, "op=", 3))
			continue;
		for (tok = strtok_r(l, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			char *eq = strchr(tok, '=');

			if (!eq || strchr(eq + 1, '='))
				continue;
			*eq = '\0';
			for (k = 0; k < NKEYS; k++) {
				if (!strcmp(tok, tool_keys[k]) && value_is_number(eq + 1)) {
					sum[k] += strtod(eq + 1, NULL);
					n[k]++;
				}
			}
		}
	}
	for (k = 0; k < NKEYS; k++) {
		if (!n[k])
			continue;
		snprintf(metric, sizeof(metric), "tool.%s.%s", name, tool_keys[k]);
		row_num(r, metric, k < NMEAN ? sum[k] / (double)n[k] : sum[k]);
	}
}

/* fio's completion latency percentiles (clat_ns.percentile) as rows, in us */
static const struct {
	const char *key, *metric;
} fio_percentiles[] = {
	{ "50.000000", "clat_p50_us" },
	{ "99.000000", "clat_p99_us" },
	{ "99.900000", "clat_p999_us" },
};

/* job names already given rows: a name is one job's, the first file's */
struct fio_jobs {
	char **names;
	size_t n;
};

static int fio_job_seen(struct fio_jobs *seen, const char *name)
{
	size_t i;

	for (i = 0; i < seen->n; i++)
		if (!strcmp(seen->names[i], name))
			return 1;
	seen->names = realloc(seen->names, (seen->n + 1) * sizeof(*seen->names));
	if (!seen->names)
		abort();
	seen->names[seen->n++] = xstrdup(name);
	return 0;
}

/*
 * NAME.fio.json, fio --output-format=json: for each job (by its name, which
 * must be a plain word) and each direction that moved data,
 * fio.JOB.DIR.kb_s (kB/s of 1000 bytes), .iops, .clat_p50_us,
 * .clat_p99_us and .clat_p999_us; and fio.JOB.error, fio's error code.  Text
 * before the JSON (fio's notes) is skipped; a file that is not JSON gives
 * no rows.
 */
static void fio_rows(struct rows *r, const char *text, struct fio_jobs *seen)
{
	static const char *const dirs[] = { "read", "write" };
	const char *start = text[0] == '{' ? text : strstr(text, "\n{");
	const struct json *jobs;
	struct json *doc;
	char err[128], metric[512];
	size_t i, d, k;

	if (!start)
		return;
	if (start != text)
		start++;
	doc = json_parse(start, strlen(start), err, sizeof(err));
	jobs = json_get(doc, "jobs");
	for (i = 0; jobs && i < jobs->n; i++) {
		const struct json *job = json_at(jobs, i);
		const char *name = json_string(job, "jobname");
		const double *e = json_number(job, "error");

		if (!name || !value_is_plain_name(name) || strchr(name, '.') || strlen(name) > 200 ||
		    fio_job_seen(seen, name))
			continue;
		if (e) {
			snprintf(metric, sizeof(metric), "fio.%s.error", name);
			row_num(r, metric, *e);
		}
		for (d = 0; d < 2; d++) {
			const struct json *io = json_get(job, dirs[d]);
			const struct json *pct = json_get(json_get(io, "clat_ns"), "percentile");
			const double *bytes = json_number(io, "io_bytes");
			const double *bw = json_number(io, "bw_bytes");
			const double *iops = json_number(io, "iops");

			if (!bytes || *bytes <= 0)
				continue;
			if (bw) {
				snprintf(metric, sizeof(metric), "fio.%s.%s.kb_s", name, dirs[d]);
				row_num(r, metric, *bw / 1000);
			}
			if (iops) {
				snprintf(metric, sizeof(metric), "fio.%s.%s.iops", name, dirs[d]);
				row_num(r, metric, *iops);
			}
			for (k = 0; k < sizeof(fio_percentiles) / sizeof(fio_percentiles[0]); k++) {
				const double *ns = json_number(pct, fio_percentiles[k].key);

				if (!ns)
					continue;
				snprintf(metric, sizeof(metric), "fio.%s.%s.%s", name, dirs[d],
					 fio_percentiles[k].metric);
				row_num(r, metric, *ns / 1000);
			}
		}
	}
	json_free(doc);
}

/*
 * DEV.blktrace.dropped: the events the guest's blktrace reported it could
 * not take, a whole number; -1 when the file is missing (a run of a lab
 * before it was written) or not a number.
 */
static long long blk_dropped(struct rows *r, const char *dev)
{
	char name[300], *text;
	long n = -1;

	snprintf(name, sizeof(name), "%s.blktrace.dropped", dev);
	text = guest_file(r, name, GUEST_MAX_SMALL, NULL);
	if (!text)
		return -1;
	if (value_parse_decimal(text, strcspn(text, "\n"), 999999999999L, &n))
		n = -1;
	free(text);
	return n;
}

/*
 * DEV.blktrace.bin (run.sh --blktrace): per direction that completed
 * requests, blk.DEV.DIR.completions, .d2c_matched and .q2c_matched, and
 * d2c_ms_/q2c_ms_ p50, p90, p99 and max (blklat.c); blk.DEV.dropped_events
 * from DEV.blktrace.dropped.  A trace that dropped events gives no
 * latencies (a completion whose dispatch was dropped is matched to none,
 * or to a later one: its figures would be wrong, the longest waits first),
 * and a line on stderr.  A file blklat cannot read gives no rows and a
 * line on stderr.
 */
static void blk_rows(struct rows *r, const char *name)
{
	static const int pcts[] = { 50, 90, 99 };
	size_t len = 0, k;
	char *text = guest_file(r, name, GUEST_MAX_BLKTRACE, &len), *dev, metric[512], err[256];
	struct blklat lat;
	long long dropped;
	int d, which;

	if (!text)
		return;
	dev = xstrdup(name);
	dev[strlen(dev) - strlen(".blktrace.bin")] = '\0';
	if (blklat_read((const unsigned char *)text, len, &lat, err, sizeof(err)) < 0) {
		fprintf(stderr, "rl-summarize: %s/%s/%s: %s; no blk.%s rows\n", r->dir,
			RL_GUEST_DIR, name, err, dev);
		goto out;
	}
	dropped = blk_dropped(r, dev);
	if (dropped >= 0) {
		snprintf(metric, sizeof(metric), "blk.%s.dropped_events", dev);
		row_num(r, metric, (double)dropped);
	}
	if (dropped > 0)
		fprintf(stderr, "rl-summarize: %s: blktrace dropped %lld events of %s; no blk.%s latencies\n",
			r->dir, dropped, dev, dev);
	for (d = 0; d < BLKLAT_NR_DIRS; d++) {
		const struct blklat_dir_stats *st = &lat.dir[d];
		const char *dn = blklat_dir_name(d);

		if (!st->completions)
			continue;
		snprintf(metric, sizeof(metric), "blk.%s.%s.completions", dev, dn);
		row_num(r, metric, (double)st->completions);
		for (which = 0; dropped <= 0 && which < 2; which++) {
			const long *v = which ? st->q2c_ns : st->d2c_ns;
			size_t nv = which ? st->nq2c : st->nd2c;
			const char *what = which ? "q2c" : "d2c";

			snprintf(metric, sizeof(metric), "blk.%s.%s.%s_matched", dev, dn, what);
			row_num(r, metric, (double)nv);
			if (!nv)
				continue;
			for (k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
				snprintf(metric, sizeof(metric), "blk.%s.%s.%s_ms_p%d", dev, dn, what, pcts[k]);
				row_num(r, metric, value_percentile(v, nv, pcts[k]) / 1e6);
			}
			snprintf(metric, sizeof(metric), "blk.%s.%s.%s_ms_max", dev, dn, what);
			row_num(r, metric, v[nv - 1] / 1e6);
		}
	}
	blklat_free(&lat);
out:
	free(dev);
	free(text);
}

static int cmp_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/*
 * counters-PHASE.debug-vm or counters-PHASE.vmstat, a snapshot a scenario
 * took mid-workload (rl_counters_snapshot): PHASE into @phase.  PHASE is
 * a short name of lower-case letters, digits and '-', neither "before" nor
 * "after" (the run's own ends).
 */
static int is_phase_snapshot(const char *name, char *phase, size_t size)
{
	static const char *const kinds[] = { ".debug-vm", ".vmstat" };
	size_t len = strlen(name), k, n, i;

	if (strncmp(name, "counters-", 9))
		return 0;
	for (k = 0; k < 2; k++) {
		size_t kl = strlen(kinds[k]);

		if (len <= 9 + kl || strcmp(name + len - kl, kinds[k]))
			continue;
		n = len - 9 - kl;
		if (n >= size || n > 32)
			return 0;
		for (i = 0; i < n; i++) {
			char c = name[9 + i];

			if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
				return 0;
		}
		memcpy(phase, name + 9, n);
		phase[n] = '\0';
		return strcmp(phase, "before") && strcmp(phase, "after");
	}
	return 0;
}

/* at most this many snapshot files a run (usemem-swap has 2) */
#define MAX_PHASE_SNAPSHOTS 8

/*
 * The rows of one phase snapshot against the run's end (counters-after.*):
 * counter.since_PHASE.NAME and vmstat.since_PHASE.NAME.
 */
static void phase_rows(struct rows *r, const char *name, const char *phase,
		       const char *after_debug, const char *after_vmstat)
{
	int debug = strstr(name, ".debug-vm") != NULL;
	const char *after = debug ? after_debug : after_vmstat;
	char prefix[64], *at;

	if (!after || !(at = guest_file(r, name, GUEST_MAX_COUNTERS, NULL)))
		return;
	snprintf(prefix, sizeof(prefix), "%s.since_%s", debug ? "counter" : "vmstat", phase);
	delta_rows(r, prefix, at, after, debug ? ':' : ' ', debug);
	free(at);
}

int summarize_run(const char *dir, const char *derived, FILE *out, char *err,
		  size_t errlen)
{
	static const char *const keys[] = { "scenario", "fs", "profile", "mode", "repeat" };
	struct rows r = { out, dir };
	struct fio_jobs fio_seen = { NULL, 0 };
	char *conf = read_file_in(dir, "run.conf"), *t, *gdir;
	char *after_debug, *after_vmstat;
	struct dirent **list;
	char phase[40];
	size_t k, nphase = 0;
	int i, n;

	if (!conf) {
		fail(err, errlen, "'%s' is not a run folder (no run.conf)", dir);
		return SUMMARIZE_NOT_A_RUN;
	}
	for (k = 0; k < 5; k++) {
		char *v = conf_value(conf, keys[k]);

		if (!v || !*v || strpbrk(v, "\t\n")) {
			free(v);
			free(conf);
			fail(err, errlen,
			     "'%s' did not run a scenario (its run.conf has no %s: run.sh --scenario)",
			     dir, keys[k]);
			return SUMMARIZE_NOT_A_RUN;
		}
		free(v);
	}
	free(conf);
	/* what the guest wrote: RUN/guest, every file read as guest-read.h says */
	if (trace_rows(&r, derived, err, errlen) < 0)
		return -1;
	/* the run's end, read once: its own rows and every snapshot's deltas */
	after_debug = guest_file(&r, "counters-after.debug-vm", GUEST_MAX_COUNTERS, NULL);
	after_vmstat = guest_file(&r, "counters-after.vmstat", GUEST_MAX_COUNTERS, NULL);
	if (after_debug && (t = strdup(after_debug))) {
		counter_rows(&r, t);
		free(t);
	}
	t = guest_file(&r, "counters-before.vmstat", GUEST_MAX_COUNTERS, NULL);
	if (t && after_vmstat)
		delta_rows(&r, "vmstat", t, after_vmstat, ' ', 0);
	free(t);
	if ((t = guest_file(&r, "iostat.json", GUEST_MAX_IOSTAT, NULL))) {
		iostat_rows(&r, t);
		free(t);
	}
	gdir = guest_path(&r, "");
	n = scandir(gdir, &list, NULL, cmp_name);
	free(gdir);
	for (i = 0; i < n; i++) {
		const char *name = list[i]->d_name;
		size_t len = strlen(name);

		if (len > 4 && !strcmp(name + len - 4, ".out") &&
		    (t = guest_file(&r, name, GUEST_MAX_TOOL_OUT, NULL))) {
			list[i]->d_name[len - 4] = '\0';
			if (value_is_plain_name(name))
				tool_rows(&r, name, t);
			free(t);
		} else if (len > 9 && !strcmp(name + len - 9, ".fio.json") &&
			   (t = guest_file(&r, name, GUEST_MAX_FIO, NULL))) {
			fio_rows(&r, t, &fio_seen);
			free(t);
		} else if (nphase < MAX_PHASE_SNAPSHOTS &&
			   is_phase_snapshot(name, phase, sizeof(phase))) {
			/* a guest's many snapshots must not cost the host much */
			nphase++;
			phase_rows(&r, name, phase, after_debug, after_vmstat);
		} else if (len > 13 && !strcmp(name + len - 13, ".blktrace.bin") &&
			   value_is_plain_name(name) && !memchr(name, '.', len - 13)) {
			blk_rows(&r, name);
		}
		free(list[i]);
	}
	if (n >= 0)
		free(list);
	for (k = 0; k < fio_seen.n; k++)
		free(fio_seen.names[k]);
	free(fio_seen.names);
	free(after_debug);
	free(after_vmstat);
	return ferror(out) ? fail(err, errlen, "cannot write the summary rows") : 0;
}
