// SPDX-License-Identifier: GPL-2.0
/*
 * rl-tracestat: statistics of page-reclaim waits in an ftrace text trace.
 *
 * Runs on the host, on a run's saved trace.txt.  It also reads a live
 * trace_pipe (a guest or host debugging session), which never ends:
 * SIGINT/SIGTERM stop reading and the statistics are printed.
 *
 * Exit status: 0 ok, 1 out of memory or output write error, 2 bad usage or
 * unreadable input.
 */
#include "lib/cli.h"
#include "summarize/tracestat.h"
#include "lib/guest-read.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define PROG "rl-tracestat"

static const char usage_text[] =
	"usage: " PROG " [--duration SECONDS] [--tsv] [--by-comm] [--hist FILE]\n"
	"                    [--cdf FILE] [--series FILE --window T0,T1 [--bin S]]\n"
	"                    [--reason R] [--task COMM] [FILE|-]\n"
	"Statistics of page-reclaim waits (mm_vmscan_reclaim_wait and upstream\n"
	"mm_vmscan_throttled) in an ftrace text trace.  FILE defaults to - (stdin);\n"
	"on trace_pipe, stop with Ctrl-C or SIGTERM to print the statistics.  FILE\n"
	"is read as a guest's file: a regular file (trace_pipe is one), no link\n"
	"followed, at most 512 MiB read; stdin has no such limit.\n"
	"  --duration SECONDS  seconds to divide stalled time by (default: trace span)\n"
	"  --tsv               print key<TAB>value rows instead of text\n"
	"  --hist FILE         write the usec_delayed histogram in ms buckets to FILE\n"
	"  --cdf FILE          write the usec_delayed CDF to FILE\n"
	"  --by-comm           with --tsv, also comm.NAME.{events,no_timeout_events,\n"
	"                      p50_usec,p90_usec,full_timeout_share,stalled_ms_per_s}\n"
	"                      per task name, and comm.NAME.reason.REASON.* per reason\n"
	"                      of its waits\n"
	"  --series FILE       write waits and usec_delayed per time bin to FILE:\n"
	"                      start_s events usec, seconds from T0 of --window\n"
	"  --window T0,T1      the series' span in trace time (the workload's); a\n"
	"                      span over 7200 s is cut to it\n"
	"  --bin S             the series' bin in seconds (default 0.1, at least 0.01)\n"
	"  --reason R          count only waits for reason R: writeback isolated\n"
	"                      noprogress congested dirty wait_writeback migrate_writeback\n"
	"  --task COMM         count only waits of tasks named COMM (or COMM-PID)\n"
	"full_timeout_share is of the waits with a timeout: a wait with usec_timeout=0\n"
	"(a folio writeback wait) is counted in no_timeout_events instead.\n"
	"Exit status: 0 ok, 1 out of memory or write error, 2 bad usage or input.\n";

#define OPTIONS_VALID "--duration SECONDS --tsv --by-comm --hist FILE --cdf FILE " \
	"--series FILE --window T0,T1 --bin S --reason R --task COMM --help"

struct opts {
	double duration;
	int tsv, by_comm;
	const char *hist, *cdf, *reason, *task, *file, *series;
	double t0, t1, bin;
	int have_window;
};

static volatile sig_atomic_t stop_reading;

static void on_signal(int sig)
{
	(void)sig;
	stop_reading = 1;
}

#define die_usage(...) cli_die_usage(PROG, __VA_ARGS__)

static double parse_duration(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v) || v <= 0)
		die_usage("bad --duration '%s' (valid: a positive number of seconds, e.g. 10 or 2.5)",
			  s);
	return v;
}

static void parse_window(const char *s, struct opts *o)
{
	char *end, *end2;

	errno = 0;
	o->t0 = strtod(s, &end);
	if (end != s && *end == ',')
		o->t1 = strtod(end + 1, &end2);
	if (end == s || *end != ',' || end2 == end + 1 || *end2 || errno ||
	    !isfinite(o->t0) || !isfinite(o->t1) || o->t1 < o->t0)
		die_usage("bad --window '%s' (valid: T0,T1 in trace seconds with T1 >= T0, e.g. 1.5,12.25)",
			  s);
	o->have_window = 1;
}

static void reason_choices(char *buf, size_t size)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; tracestat_reasons[i] && used < size; i++)
		used += snprintf(buf + used, size - used, "%s%s", i ? " " : "",
				 tracestat_reasons[i]);
}

static void check_filters(struct tracestat *ts, const struct opts *o)
{
	char choices[256];

	if (o->reason && tracestat_filter_reason(ts, o->reason) < 0) {
		reason_choices(choices, sizeof(choices));
		die_usage("unknown --reason '%s' (valid: %s)", o->reason, choices);
	}
	if (o->task && tracestat_filter_task(ts, o->task) < 0)
		die_usage("bad --task '%s' (valid: a comm or comm-pid of 1 to %d characters)",
			  o->task, TRACESTAT_NAME_MAX - 1);
}

enum {
	OPT_DURATION = 256, OPT_TSV, OPT_BY_COMM, OPT_HIST, OPT_CDF, OPT_SERIES,
	OPT_WINDOW, OPT_BIN, OPT_REASON, OPT_TASK, OPT_HELP,
};

static const struct option long_options[] = {
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "tsv", no_argument, NULL, OPT_TSV },
	{ "by-comm", no_argument, NULL, OPT_BY_COMM },
	{ "hist", required_argument, NULL, OPT_HIST },
	{ "cdf", required_argument, NULL, OPT_CDF },
	{ "series", required_argument, NULL, OPT_SERIES },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "bin", required_argument, NULL, OPT_BIN },
	{ "reason", required_argument, NULL, OPT_REASON },
	{ "task", required_argument, NULL, OPT_TASK },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/* The long option of value opt, NULL if none. */
static const char *option_name(int opt)
{
	const struct option *l;

	for (l = long_options; l->name; l++)
		if (l->val == opt)
			return l->name;
	return NULL;
}

/* What the value of an option is called, for the message when it lacks one. */
static const char *value_name(int opt)
{
	switch (opt) {
	case OPT_DURATION:
	case OPT_BIN:
		return "SECONDS";
	case OPT_WINDOW:
		return "T0,T1";
	case OPT_REASON:
		return "R";
	case OPT_TASK:
		return "COMM";
	default:
		return "FILE";
	}
}

static void add_file(struct opts *o, const char *arg)
{
	if (o->file)
		die_usage("extra argument '%s' (valid: one FILE, or - for stdin)", arg);
	o->file = arg;
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	const char *name;
	char bad[8];
	int c;

	/* in order, files among the options; "--" ends them */
	while ((c = getopt_long(argc, argv, "-:h", long_options, NULL)) != -1) {
		switch (c) {
		case 1:
			add_file(o, optarg);
			break;
		case 'h':
		case OPT_HELP:
			fputs(usage_text, stdout);
			exit(0);
		case OPT_TSV:
			o->tsv = 1;
			break;
		case OPT_DURATION:
			o->duration = parse_duration(optarg);
			break;
		case OPT_BY_COMM:
			o->by_comm = 1;
			break;
		case OPT_SERIES:
			o->series = optarg;
			break;
		case OPT_WINDOW:
			parse_window(optarg, o);
			break;
		case OPT_BIN:
			o->bin = parse_duration(optarg);
			break;
		case OPT_HIST:
			o->hist = optarg;
			break;
		case OPT_CDF:
			o->cdf = optarg;
			break;
		case OPT_REASON:
			o->reason = optarg;
			break;
		case OPT_TASK:
			o->task = optarg;
			break;
		case ':':
			name = option_name(optopt);
			die_usage("option '--%s' needs a value (valid: --%s %s)", name, name,
				  value_name(optopt));
		default:
			/* "--tsv=1": a known option that takes no value */
			name = option_name(optopt);
			if (name)
				die_usage("option '--%s' takes no value (valid: --%s)", name, name);
			die_usage("unknown option '%s' (valid: %s)",
				  cli_refused_option(argv, bad, sizeof(bad)), OPTIONS_VALID);
		}
	}
	for (; optind < argc; optind++)
		add_file(o, argv[optind]);
	if (!o->file)
		o->file = "-";
	if (!o->series && (o->have_window || o->bin > 0))
		die_usage("--window and --bin belong to --series (valid: --series FILE --window T0,T1 [--bin S])");
	if (o->series && !o->have_window)
		die_usage("--series needs --window T0,T1 (the span the bins cover)");
	if (o->by_comm && !o->tsv)
		die_usage("--by-comm adds rows to --tsv output (valid: --tsv --by-comm)");
}

/*
 * Output files are opened before the trace is read: on trace_pipe the
 * reading can take minutes, and a typo should not cost them.
 */
static FILE *open_output(const char *opt, const char *path)
{
	FILE *f;

	if (!path)
		return NULL;
	if (!strcmp(path, "-"))
		return stdout;
	f = fopen(path, "w");
	if (!f)
		die_usage("cannot write %s '%s': %s (valid: a writable file path, or - for stdout)",
			  opt, path, strerror(errno));
	return f;
}

static FILE *open_input(const char *path)
{
	char err[1024];
	FILE *f;

	if (!strcmp(path, "-"))
		return stdin;
	/* a run's trace.txt is the guest's: read as one (guest-read.h) */
	f = guest_fopen(path, GUEST_MAX_TRACE, err, sizeof(err));
	if (!f)
		die_usage("cannot open %s (valid: a readable ftrace text file of at most %lu bytes, or - for stdin)",
			  err, GUEST_MAX_TRACE);
	return f;
}

/* Closes an output stream, reporting write errors (full disk and the like). */
static int close_output(FILE *f, const char *what)
{
	int bad;

	if (!f)
		return 0;
	bad = ferror(f);
	bad |= (f == stdout) ? fflush(f) : fclose(f);
	if (bad)
		fprintf(stderr, PROG ": error writing %s\n", what);
	return bad ? 1 : 0;
}

static void catch_stop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/*
	 * No SA_RESTART, so a read blocked on trace_pipe returns EINTR; a
	 * second signal gets the default action in case we are stuck.
	 */
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static int read_trace(struct tracestat *ts, const char *path)
{
	FILE *in = open_input(path);
	int rc = 0;

	catch_stop_signals();
	if (tracestat_feed_stream(ts, in, &stop_reading) < 0 &&
	    !(stop_reading && errno == EINTR)) {
		if (errno == ENOMEM) {
			fprintf(stderr, PROG ": out of memory reading '%s'\n",
				path);
			rc = 1;
		} else {
			fprintf(stderr, PROG ": cannot read '%s': %s (valid: a readable ftrace text file, or - for stdin)\n",
				path, strerror(errno));
			rc = 2;
		}
	}
	if (in != stdin)
		fclose(in);
	return rc;
}

int main(int argc, char **argv)
{
	static struct tracestat ts;	/* ~40 KiB of tables: keep off the stack */
	struct opts o = { 0 };
	FILE *hist, *cdf, *series;
	int rc;

	parse_args(argc, argv, &o);
	tracestat_init(&ts);
	check_filters(&ts, &o);
	if (o.duration > 0)
		tracestat_set_duration(&ts, o.duration);
	if (o.by_comm)
		tracestat_by_comm(&ts);
	if (o.series) {
		rc = tracestat_series(&ts, o.t0, o.t1, o.bin > 0 ? o.bin : 0.1);
		if (rc < 0)
			die_usage("bad --window/--bin for --series (valid: 0 <= T0 <= T1, a bin of at least 0.01 s)");
		if (rc > 0)
			fprintf(stderr, PROG ": the series is cut to its first %g seconds\n",
				TRACESTAT_SERIES_MAX_S);
	}
	hist = open_output("--hist", o.hist);
	cdf = open_output("--cdf", o.cdf);
	series = open_output("--series", o.series);

	rc = read_trace(&ts, o.file);
	if (!rc) {
		tracestat_finish(&ts);
		if (o.tsv)
			tracestat_print_tsv(stdout, &ts);
		else
			tracestat_print_text(stdout, &ts, o.file);
		if (hist)
			tracestat_print_hist(hist, &ts);
		if (cdf)
			tracestat_print_cdf(cdf, &ts);
		if (series)
			tracestat_print_series(series, &ts);
	}
	tracestat_free(&ts);
	if (close_output(hist != stdout ? hist : NULL, o.hist) |
	    close_output(cdf != stdout ? cdf : NULL, o.cdf) |
	    close_output(series != stdout ? series : NULL, o.series) |
	    close_output(stdout, "standard output"))
		rc = rc ? rc : 1;
	return rc;
}
