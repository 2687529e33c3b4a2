// SPDX-License-Identifier: GPL-2.0
/*
 * rl-bench: one line of a benchmark's table (scripts/bench-clock.sh,
 * scripts/bench-disks.sh) from the files its runs left, so that the
 * scripts do no arithmetic on what a guest wrote.
 *
 * Exit status: 0 ok, 1 write error, 2 bad usage, unreadable input or a
 * figure missing from it.
 */
#include "aggregate/aggregate.h"
#include "bench/bench.h"
#include "lib/record.h"
#include "lib/cli.h"
#include "lib/guest-read.h"
#include "lib/run-folder.h"
#include "lib/values.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define PROG "rl-bench"

static const char usage_text[] =
	"usage: " PROG " ops-row CLOCK OP NATIVE RUN_BIG RUN_SMALL\n"
	"       " PROG " scenario-row CLOCK LABEL RUN\n"
	"       " PROG " disk-row PROFILE_VALUES WRITE_OUT READ_OUT\n"
	"       " PROG " random-iops PROFILE_VALUES RAND_OUT\n"
	"       " PROG " value FILE KEY\n"
	"  ops-row       clock, op, native ns (NATIVE: rl-opbench's output), the\n"
	"                guest's ns (RUN_BIG/guest/guest.log) and wall ns per op: the\n"
	"                wall_seconds of RUN_BIG over those of RUN_SMALL, a boot\n"
	"                that ran fewer ops (n= of each guest/guest.log)\n"
	"  scenario-row  clock, label, status, each writer's MB/s, waits,\n"
	"                simulated and wall seconds of a memcg-dd run folder (its\n"
	"                record: run.conf, status and summary joined, record.h)\n"
	"  disk-row      Markdown row: configured (ubd.model values, as\n"
	"                scripts/lib/catalogue.sh's disk_model prints them) and\n"
	"                achieved (rl-dd's mbps=) write / read bandwidth, error\n"
	"  random-iops   4 KiB random write IOPS (RAND_OUT: ios= seconds=)\n"
	"                against 1/(seek + 4K/bw) of the profile\n"
	"  value         the number KEY=NUMBER of FILE's first line with one\n"
	"Exit status: 0 ok, 1 write error, 2 bad usage or input.\n";

#define COMMANDS_VALID "ops-row scenario-row disk-row random-iops value"

#define die_usage(...) cli_die_usage(PROG, __VA_ARGS__)

/* KEY=NUMBER of the first line of file that has it (and op=OP) */
static struct bench_value file_value(const char *file, const char *op,
				     const char *key)
{
	struct bench_value v;
	char err[1024];
	/* a file a guest wrote: read as one (guest-read.h) */
	FILE *f = guest_fopen(file, GUEST_MAX_TOOL_OUT, err, sizeof(err));
	int rc;

	if (!f)
		die_usage("cannot read %s", err);
	rc = bench_find(f, op, key, &v);
	fclose(f);
	if (rc)
		die_usage("no number %s= in '%s'%s%s", key, file,
			  op ? " for op=" : "", op ? op : "");
	return v;
}

static struct bench_value run_value(const char *run, const char *file,
				    const char *op, const char *key)
{
	char path[4096];

	if (snprintf(path, sizeof(path), "%s/%s", run, file) >= (int)sizeof(path))
		die_usage("run folder name too long: '%s'", run);
	return file_value(path, op, key);
}

/* a number among the run's status facts, read through its record */
static struct bench_value status_value(const char *run, const char *key)
{
	char *text = record_status_fact(run, key);
	struct bench_value v;

	if (!text || !value_is_number(text))
		die_usage("'%s' has no number %s in its status (valid: a run folder with a final status)",
			  run, key);
	v.num = strtod(text, NULL);
	snprintf(v.text, sizeof(v.text), "%s", text);
	free(text);
	return v;
}

static struct bench_value list_value(const char *list, const char *key)
{
	struct bench_value v;

	if (bench_word(list, BENCH_LIST_SEPS, key, &v))
		die_usage("no number %s= in the profile values '%s'", key, list);
	return v;
}

/* a profile value that older profiles lack: 0 if absent */
static double list_value_or_0(const char *list, const char *key)
{
	struct bench_value v;

	return bench_word(list, BENCH_LIST_SEPS, key, &v) ? 0 : v.num;
}

static void ops_row(char **a)
{
	struct bench_value native = file_value(a[2], a[1], "ns_per_op");
	struct bench_value guest = run_value(a[3], RL_GUEST_DIR "/guest.log", a[1], "ns_per_op");
	struct bench_value n_big = run_value(a[3], RL_GUEST_DIR "/guest.log", a[1], "n");
	struct bench_value n_small = run_value(a[4], RL_GUEST_DIR "/guest.log", a[1], "n");
	struct bench_value big = status_value(a[3], "wall_seconds");
	struct bench_value small = status_value(a[4], "wall_seconds");

	if (n_big.num <= n_small.num)
		die_usage("'%s' ran %s ops, no more than '%s' (%s)", a[3], n_big.text,
			  a[4], n_small.text);
	printf("%-8s %-15s %12.0f %13.0f %12.0f\n", a[0], a[1], native.num,
	       guest.num, bench_wall_ns_per_op(big.num, n_big.num, small.num,
					       n_small.num));
}

/* The value of metric in the one run of s, as the rows print it, or "" */
static const char *metric_text(const struct agg_set *s, const char *metric,
			       char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < s->nrows; i++)
		if (!strcmp(s->rows[i].metric, metric)) {
			agg_format(buf, len, s->rows[i].value);
			return buf;
		}
	return "";
}

static double metric_num(const struct agg_set *s, const char *metric)
{
	size_t i;

	for (i = 0; i < s->nrows; i++)
		if (!strcmp(s->rows[i].metric, metric))
			return s->rows[i].value;
	return 0;
}

static int feed_row(void *arg, const char *row, const char *metric,
		    const char *value, unsigned long line)
{
	(void)metric;
	(void)value;
	(void)line;
	return agg_feed_line(arg, row) < 0 ? -1 : 0;
}

static void scenario_row(char **a)
{
	char w1[32], w2[32], waits[32], sim[32], err[1024];
	struct agg_set s;
	struct record rec;
	const char *status = "", *base = strrchr(a[2], '/');

	if (record_load(&rec, a[2], base ? base + 1 : a[2]) < 0)
		die_usage("'%s' is not a run folder (no status file)", a[2]);
	agg_init(&s);
	if (record_rows(&rec, feed_row, &s, err, sizeof(err)) || agg_finish(&s)) {
		fprintf(stderr, PROG ": cannot read '%s': %s\n", a[2], err[0] ? err : strerror(errno));
		exit(2);
	}
	record_free(&rec);
	if (s.nruns && s.runs[0].status)
		status = s.runs[0].status;
	printf("%-8s %-8s %-7s %7s %7s %7s %7s %7.1f\n", a[0], a[1], status,
	       metric_text(&s, "tool.v1-writer1.mbps", w1, sizeof(w1)),
	       metric_text(&s, "tool.v1-writer2.mbps", w2, sizeof(w2)),
	       *metric_text(&s, "waits.events", waits, sizeof(waits)) ? waits : "0",
	       metric_text(&s, "run.simulated_seconds", sim, sizeof(sim)),
	       metric_num(&s, "run.wall_seconds"));
	agg_free(&s);
}

static void disk_row(char **a)
{
	char name[BENCH_VALUE_MAX + 1];
	struct bench_value cw = list_value(a[0], "wbw"), cr = list_value(a[0], "rbw");
	struct bench_value w = file_value(a[1], NULL, "mbps");
	struct bench_value r = file_value(a[2], NULL, "mbps");
	/* the write figure of a device with erase stalls is what it sustains */
	double sw = bench_sustained_kbps(cw.num, list_value_or_0(a[0], "erase_kb"),
					 list_value_or_0(a[0], "erase_us"));

	if (bench_word_text(a[0], BENCH_LIST_SEPS, "name", name, sizeof(name)))
		die_usage("no name= in the profile values '%s'", a[0]);
	printf("| %s | %.1f / %.1f MB/s | %s / %s MB/s | %+.1f%% / %+.1f%% |\n",
	       name, sw / 1000, cr.num / 1000, w.text, r.text,
	       bench_off_pct(w.num, sw), bench_off_pct(r.num, cr.num));
}

static void random_iops(char **a)
{
	char name[BENCH_VALUE_MAX + 1];
	struct bench_value seek = list_value(a[0], "seek"), wbw = list_value(a[0], "wbw");
	struct bench_value ios = file_value(a[1], NULL, "ios");
	struct bench_value secs = file_value(a[1], NULL, "seconds");
	double want = bench_model_iops(seek.num, list_value_or_0(a[0], "rpm"),
					wbw.num, 4096);
	double got = ios.num / secs.num;

	if (bench_word_text(a[0], BENCH_LIST_SEPS, "name", name, sizeof(name)))
		die_usage("no name= in the profile values '%s'", a[0]);
	printf("%s 4 KiB random writes: %.1f IOPS, model 1/(seek + 30/rpm + 4K/bw) = %.1f IOPS (%+.1f%%)\n",
	       name, got, want, (got / want - 1) * 100);
}

static void value(char **a)
{
	printf("%s\n", file_value(a[0], NULL, a[1]).text);
}

static const struct command {
	const char *name;
	int nargs;
	void (*run)(char **args);
} commands[] = {
	{ "ops-row", 5, ops_row },
	{ "scenario-row", 3, scenario_row },
	{ "disk-row", 3, disk_row },
	{ "random-iops", 2, random_iops },
	{ "value", 2, value },
};

int main(int argc, char **argv)
{
	size_t i;

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (argc < 2)
		die_usage("give a command (valid: " COMMANDS_VALID "; see --help)");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (argc - 2 != commands[i].nargs)
			die_usage("%s takes %d arguments, got %d (see --help)",
				  argv[1], commands[i].nargs, argc - 2);
		commands[i].run(argv + 2);
		if (fflush(stdout) || ferror(stdout)) {
			fprintf(stderr, PROG ": write error\n");
			return 1;
		}
		return 0;
	}
	die_usage("unknown command '%s' (valid: " COMMANDS_VALID ")", argv[1]);
}
