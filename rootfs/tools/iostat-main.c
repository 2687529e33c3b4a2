// SPDX-License-Identifier: GPL-2.0
/*
 * rl-iostat: `iostat -kx` for the reclaimlab guest, read from /proc/diskstats.
 *
 * Busybox has no iostat, and the sysstat one is not static, so this samples
 * /proc/diskstats itself.  Time comes from CLOCK_MONOTONIC, which under UML
 * time-travel is simulated time: rates are per simulated second.
 */
#include "iostat.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PROG "rl-iostat"
#define EXIT_BAD 2

static const char usage_text[] =
	"usage: rl-iostat [-i SECONDS] [-c COUNT] [-d DEV[,DEV...]] [--diskstats PATH]\n"
	"                 [--tsv FILE] [--summary FILE]\n"
	"       rl-iostat --between BEFORE AFTER --elapsed SECONDS [-d DEV[,DEV...]]\n"
	"\n"
	"Print iostat -kx rows computed from /proc/diskstats.\n"
	"\n"
	"  -i SECONDS        sampling interval, may be fractional (default 1)\n"
	"  -c COUNT          report COUNT intervals, then exit\n"
	"                    (default: until SIGINT or SIGTERM)\n"
	"  -d DEV[,DEV...]   devices to report (default: whole ubd disks)\n"
	"  --diskstats PATH  sample PATH instead of /proc/diskstats\n"
	"  --tsv FILE        append one tab-separated row per device and interval\n"
	"  --summary FILE    write whole-run key=value lines per device\n"
	"  --between BEFORE AFTER\n"
	"                    print one row between two saved diskstats files\n"
	"  --elapsed SECONDS time between BEFORE and AFTER (with --between)\n"
	"  -h, --help        show this help\n"
	"\n"
	"Exit status: 0 on success, 2 on bad usage or an unreadable file.\n";

struct opts {
	double interval_s;
	unsigned long count;		/* 0: until a signal */
	char **devs;
	size_t ndevs;
	const char *path;
	const char *tsv;
	const char *summary;
	const char *before, *after;
	double elapsed_s;
	bool set_interval, set_count, set_path, set_elapsed;
};

/* Samples, reused across intervals so the loop does not allocate. */
struct sampler {
	const char *path;
	char *buf;
	size_t cap;
	size_t last_rejected;
	bool warned;
};

static volatile sig_atomic_t stop_requested;

static void err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void err(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* Seconds > 0; the floor keeps the deadline arithmetic meaningful. */
static int parse_seconds(const char *s, const char *opt, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno || !isfinite(v) ||
	    v < 0.001 || v > 1e6) {
		err("bad number of seconds '%s' for %s (want 0.001 to 1000000)",
		    s, opt);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_count(const char *s, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end != '\0' || errno || v == 0) {
		err("bad count '%s' for -c (want a whole number > 0)", s);
		return -1;
	}
	*out = v;
	return 0;
}

static bool have_dev(const struct opts *o, const char *name)
{
	size_t i;

	for (i = 0; i < o->ndevs; i++)
		if (strcmp(o->devs[i], name) == 0)
			return true;
	return false;
}

static int add_dev(struct opts *o, const char *name, size_t len)
{
	char **devs;

	if (len == 0 || len >= IOSTAT_NAME_MAX) {
		err("bad device name '%.*s' for -d", (int)len, name);
		return -1;
	}
	devs = realloc(o->devs, (o->ndevs + 1) * sizeof(*devs));
	if (!devs)
		goto oom;
	o->devs = devs;
	o->devs[o->ndevs] = strndup(name, len);
	if (!o->devs[o->ndevs])
		goto oom;
	/* Naming a device twice reports it once. */
	if (have_dev(o, o->devs[o->ndevs])) {
		free(o->devs[o->ndevs]);
		return 0;
	}
	o->ndevs++;
	return 0;
oom:
	err("out of memory");
	return -1;
}

/* -d takes a comma-separated list and may be repeated. */
static int parse_devs(struct opts *o, const char *arg)
{
	const char *s = arg;

	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);

		if (len == 0) {
			err("bad device list '%s' for -d (empty name)", arg);
			return -1;
		}
		if (add_dev(o, s, len))
			return -1;
		if (!comma)
			return 0;
		s = comma + 1;
	}
}

static void free_opts(struct opts *o)
{
	size_t i;

	for (i = 0; i < o->ndevs; i++)
		free(o->devs[i]);
	free(o->devs);
}

enum { OPT_DISKSTATS = 256, OPT_TSV, OPT_SUMMARY, OPT_BETWEEN, OPT_ELAPSED };

static const struct option long_opts[] = {
	{ "diskstats", required_argument, NULL, OPT_DISKSTATS },
	{ "tsv", required_argument, NULL, OPT_TSV },
	{ "summary", required_argument, NULL, OPT_SUMMARY },
	{ "between", required_argument, NULL, OPT_BETWEEN },
	{ "elapsed", required_argument, NULL, OPT_ELAPSED },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* getopt is quiet (opterr = 0) so every complaint has the same shape. */
static int bad_option(int c, char **argv)
{
	const char *arg = argv[optind - 1];

	if (c == ':')
		err("option '%s' needs an argument", arg);
	else if (optopt)
		err("unknown option '-%c'", optopt);
	else
		err("unknown option '%s'", arg);
	return -1;
}

static int handle_opt(struct opts *o, int c, char **argv)
{
	switch (c) {
	case 'i':
		o->set_interval = true;
		return parse_seconds(optarg, "-i", &o->interval_s);
	case 'c':
		o->set_count = true;
		return parse_count(optarg, &o->count);
	case 'd':
		return parse_devs(o, optarg);
	case OPT_DISKSTATS:
		o->set_path = true;
		o->path = optarg;
		return 0;
	case OPT_TSV:
		o->tsv = optarg;
		return 0;
	case OPT_SUMMARY:
		o->summary = optarg;
		return 0;
	case OPT_BETWEEN:
		o->before = optarg;
		return 0;
	case OPT_ELAPSED:
		o->set_elapsed = true;
		return parse_seconds(optarg, "--elapsed", &o->elapsed_s);
	default:
		return bad_option(c, argv);
	}
}

/* --between names AFTER as the one positional argument. */
static int check_modes(struct opts *o, int argc, char **argv)
{
	int rest = argc - optind;

	if (!o->before) {
		if (rest > 0) {
			err("unexpected argument '%s'", argv[optind]);
			return -1;
		}
		if (o->set_elapsed) {
			err("--elapsed only goes with --between");
			return -1;
		}
		return 0;
	}
	if (rest == 0) {
		err("--between needs BEFORE and AFTER");
		return -1;
	}
	if (rest > 1) {
		err("unexpected argument '%s' after --between BEFORE AFTER",
		    argv[optind + 1]);
		return -1;
	}
	o->after = argv[optind];
	if (!o->set_elapsed) {
		err("--between needs --elapsed SECONDS");
		return -1;
	}
	if (o->set_interval || o->set_count || o->set_path || o->tsv || o->summary) {
		err("--between takes only --elapsed and -d");
		return -1;
	}
	return 0;
}

/* 0 to run, 1 after --help, -1 on bad usage. */
static int parse_args(struct opts *o, int argc, char **argv)
{
	int c;

	o->interval_s = 1.0;
	o->path = "/proc/diskstats";
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:c:d:h", long_opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_text, stdout);
			return 1;
		}
		if (handle_opt(o, c, argv))
			return -1;
	}
	return check_modes(o, argc, argv);
}

/* Whole file into s->buf; /proc files report size 0, so read to EOF. */
static int read_file(struct sampler *s, size_t *len)
{
	int fd = open(s->path, O_RDONLY | O_CLOEXEC);
	size_t n = 0;

	if (fd < 0)
		goto fail;
	for (;;) {
		ssize_t r;

		if (s->cap - n < 4096) {
			size_t cap = s->cap ? s->cap * 2 : 16384;
			char *buf = realloc(s->buf, cap);

			if (!buf) {
				errno = ENOMEM;
				goto fail_close;
			}
			s->buf = buf;
			s->cap = cap;
		}
		r = read(fd, s->buf + n, s->cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail_close;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return 0;
fail_close:
	{
		int e = errno;

		close(fd);
		errno = e;
	}
fail:
	err("cannot read '%s': %s", s->path, strerror(errno));
	return -1;
}

/* Warn about malformed lines once, and again only if their number changes. */
static void note_rejected(struct sampler *s, const struct iostat_snap *snap)
{
	if (snap->rejected == s->last_rejected && s->warned)
		return;
	if (snap->rejected)
		err("warning: '%s': skipped %zu malformed line%s", s->path,
		    snap->rejected, snap->rejected == 1 ? "" : "s");
	s->last_rejected = snap->rejected;
	s->warned = true;
}

static int take_sample(struct sampler *s, struct iostat_snap *snap)
{
	size_t len;

	if (read_file(s, &len))
		return -1;
	if (iostat_parse(snap, s->buf, len)) {
		err("out of memory parsing '%s'", s->path);
		return -1;
	}
	note_rejected(s, snap);
	return 0;
}

/* With no -d, every whole ubd disk present in the first snapshot. */
static int select_devs(struct opts *o, const struct iostat_snap *snap,
		       const char *src)
{
	size_t i;

	if (o->ndevs) {
		for (i = 0; i < o->ndevs; i++) {
			if (!iostat_find(snap, o->devs[i])) {
				err("unknown device '%s' (not in '%s')",
				    o->devs[i], src);
				return -1;
			}
		}
		return 0;
	}
	for (i = 0; i < snap->ndevs; i++) {
		const char *name = snap->devs[i].name;

		if (iostat_is_whole_ubd(name) && add_dev(o, name, strlen(name)))
			return -1;
	}
	if (!o->ndevs) {
		err("no whole ubd disk in '%s'; name devices with -d", src);
		return -1;
	}
	return 0;
}

static void print_row(const char *name, const struct iostat_row *row)
{
	char line[256];

	iostat_format_row(line, sizeof(line), name, row);
	fputs(line, stdout);
}

static int run_between(struct opts *o)
{
	struct sampler sb = { .path = o->before }, sa = { .path = o->after };
	struct iostat_snap before, after;
	int rc = -1;
	size_t i;

	iostat_snap_init(&before);
	iostat_snap_init(&after);
	if (take_sample(&sb, &before) || take_sample(&sa, &after))
		goto out;
	if (select_devs(o, &before, o->before) || select_devs(o, &after, o->after))
		goto out;
	fputs(iostat_table_header, stdout);
	for (i = 0; i < o->ndevs; i++) {
		struct iostat_row row;

		iostat_row(iostat_find(&before, o->devs[i]),
			   iostat_find(&after, o->devs[i]),
			   o->elapsed_s * 1000.0, &row);
		print_row(o->devs[i], &row);
	}
	rc = 0;
out:
	free(sb.buf);
	free(sa.buf);
	iostat_snap_free(&before);
	iostat_snap_free(&after);
	return rc;
}

static double ts_ms(const struct timespec *t)
{
	return (double)t->tv_sec * 1e3 + (double)t->tv_nsec / 1e6;
}

static void ts_add_ns(struct timespec *t, long long ns)
{
	long long sum = (long long)t->tv_nsec + ns % 1000000000LL;

	t->tv_sec += (time_t)(ns / 1000000000LL + sum / 1000000000LL);
	t->tv_nsec = (long)(sum % 1000000000LL);
}

static bool ts_after(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec > b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec > b->tv_nsec);
}

/*
 * Sleep to an absolute deadline so the time spent sampling does not add up
 * to drift.  A signal landing just before the sleep starts is seen only at
 * the deadline: at most one interval late, and no extra sample is taken.
 */
static void sleep_until(const struct timespec *deadline)
{
	while (!stop_requested &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, deadline,
			       NULL) == EINTR)
		;
}

/* Deadlines missed while sampling are skipped, not caught up in a burst. */
static void next_deadline(struct timespec *deadline, long long step_ns)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	do
		ts_add_ns(deadline, step_ns);
	while (!ts_after(deadline, &now));
}

static int install_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: the sleep must return so the run can end. */
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL)) {
		err("sigaction: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static FILE *open_tsv(const char *path)
{
	FILE *f = fopen(path, "a");

	if (!f) {
		err("cannot open '%s' for --tsv: %s", path, strerror(errno));
		return NULL;
	}
	/* Appending to an earlier run's file must not repeat the header. */
	if (fseek(f, 0, SEEK_END) == 0 && ftell(f) == 0)
		fputs(iostat_tsv_header, f);
	return f;
}

struct run {
	struct opts *o;
	struct sampler smp;
	struct iostat_snap first, slot[2];
	const struct iostat_snap *prev;
	struct iostat_snap *cur;
	struct iostat_acc *acc;
	FILE *tsv;
	unsigned long intervals;
	double t0_ms, prev_ms;
};

/* Print, accumulate and log every chosen device for one interval. */
static void report_interval(struct run *r, double now_ms)
{
	struct opts *o = r->o;
	size_t i;

	fputs(iostat_table_header, stdout);
	for (i = 0; i < o->ndevs; i++) {
		const struct iostat_dev *b = iostat_find(r->prev, o->devs[i]);
		const struct iostat_dev *a = iostat_find(r->cur, o->devs[i]);
		struct iostat_row row;
		char line[512];

		/* A line lost to a bad read gives no basis for this interval. */
		if (!a || !b)
			continue;
		iostat_row(b, a, now_ms - r->prev_ms, &row);
		print_row(o->devs[i], &row);
		iostat_acc_add(&r->acc[i], &row);
		if (r->tsv) {
			iostat_format_tsv(line, sizeof(line),
					  (now_ms - r->t0_ms) / 1000.0,
					  o->devs[i], &row);
			fputs(line, r->tsv);
		}
	}
	fputc('\n', stdout);
	fflush(stdout);
	if (r->tsv)
		fflush(r->tsv);
}

/* Whole run of device i, from the first snapshot to the last one reported. */
static bool run_summary(const struct run *r, size_t i,
			struct iostat_summary *sum)
{
	const struct iostat_dev *a = iostat_find(&r->first, r->o->devs[i]);
	const struct iostat_dev *b = iostat_find(r->prev, r->o->devs[i]);

	if (!a || !b)
		return false;
	iostat_summary(a, b, r->prev_ms - r->t0_ms, sum);
	return true;
}

static int write_summary_file(const struct run *r, const char *path)
{
	FILE *f = fopen(path, "w");
	bool first = true;
	size_t i;

	if (!f) {
		err("cannot open '%s' for --summary: %s", path, strerror(errno));
		return -1;
	}
	for (i = 0; i < r->o->ndevs; i++) {
		struct iostat_summary sum;
		struct iostat_acc_result res;
		char text[1024];

		if (!run_summary(r, i, &sum))
			continue;
		iostat_acc_result(&r->acc[i], &res);
		iostat_format_summary(text, sizeof(text), r->o->devs[i], &sum, &res);
		/* A blank line between devices; each block starts device=. */
		fprintf(f, "%s%s", first ? "" : "\n", text);
		first = false;
	}
	if (fclose(f)) {
		err("cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Whole-run table on stdout, and key=value lines if --summary was given. */
static int finish_run(const struct run *r)
{
	size_t i;

	printf("Summary: %lu interval%s, %.3f s\n", r->intervals,
	       r->intervals == 1 ? "" : "s", (r->prev_ms - r->t0_ms) / 1000.0);
	fputs(iostat_table_header, stdout);
	for (i = 0; i < r->o->ndevs; i++) {
		struct iostat_summary sum;

		if (run_summary(r, i, &sum))
			print_row(r->o->devs[i], &sum.row);
	}
	fflush(stdout);
	return r->o->summary ? write_summary_file(r, r->o->summary) : 0;
}

static int sample_loop(struct run *r)
{
	long long step_ns = llround(r->o->interval_s * 1e9);
	struct timespec deadline, now;
	unsigned long k;

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	r->t0_ms = r->prev_ms = ts_ms(&deadline);
	if (take_sample(&r->smp, &r->first) ||
	    select_devs(r->o, &r->first, r->o->path))
		return -1;
	r->acc = calloc(r->o->ndevs, sizeof(*r->acc));
	if (!r->acc) {
		err("out of memory");
		return -1;
	}
	if (r->o->tsv && !(r->tsv = open_tsv(r->o->tsv)))
		return -1;
	ts_add_ns(&deadline, step_ns);
	for (k = 0; !r->o->count || k < r->o->count; k++) {
		sleep_until(&deadline);
		if (stop_requested)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (take_sample(&r->smp, r->cur))
			return -1;
		report_interval(r, ts_ms(&now));
		r->intervals++;
		r->prev = r->cur;
		r->prev_ms = ts_ms(&now);
		r->cur = r->cur == &r->slot[0] ? &r->slot[1] : &r->slot[0];
		next_deadline(&deadline, step_ns);
	}
	return finish_run(r);
}

static int run_sampling(struct opts *o)
{
	struct run r = { .o = o, .smp = { .path = o->path } };
	int rc;

	iostat_snap_init(&r.first);
	iostat_snap_init(&r.slot[0]);
	iostat_snap_init(&r.slot[1]);
	r.prev = &r.first;
	r.cur = &r.slot[0];
	rc = install_handlers() ? -1 : sample_loop(&r);
	if (r.tsv && fclose(r.tsv) && !rc) {
		err("cannot write '%s': %s", o->tsv, strerror(errno));
		rc = -1;
	}
	free(r.acc);
	free(r.smp.buf);
	iostat_snap_free(&r.first);
	iostat_snap_free(&r.slot[0]);
	iostat_snap_free(&r.slot[1]);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	int rc = parse_args(&o, argc, argv);

	if (rc == 0)
		rc = o.before ? run_between(&o) : run_sampling(&o);
	free_opts(&o);
	if (rc < 0)
		return EXIT_BAD;
	return 0;
}
