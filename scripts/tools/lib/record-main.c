// SPDX-License-Identifier: GPL-2.0
/*
 * rl-record: a run's record (record.h) for the shell scripts, so that they
 * read a run's status the way the C tools do and never parse the file
 * themselves (scripts/lib/run-folder.sh: run_status, run_fact).
 *
 *   rl-record status RUNDIR      the status word (running, interrupted, ok,
 *                                failed, hung, crashed, splat, not-measured)
 *   rl-record fact RUNDIR KEY    the value of a status fact (exit_status,
 *                                clock_stalled_ticks, host_disk_full, ...)
 *   rl-record metrics RUNDIR     the record's metrics, "METRIC<TAB>VALUE" a
 *                                line: the status's numbers, the summary's
 *                                rows, run.status (the rows rl-aggregate
 *                                takes, without the identity in front)
 *   rl-record convert RUNDIR     a folder saved before 2026-12 converted in
 *                                place to one record per run (record.h
 *                                record_convert(), convert-matrix.sh)
 *
 * Prints nothing when the run has no status file (or it is not a regular
 * file) or no such fact.  Exit status: 0 ok, 1 a write error or a folder
 * that could not be read or converted, 2 bad usage.
 * The writer of the status is rl-collect.
 */
#include "lib/cli.h"
#include "lib/record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "rl-record"

static const char usage_text[] =
	"usage: " PROG " status RUNDIR | fact RUNDIR KEY | metrics RUNDIR | convert RUNDIR\n"
	"Prints the run's status word, or the value of one of its status facts\n"
	"(nothing when the run has no status file or no such fact), or its\n"
	"metrics (METRIC<TAB>VALUE lines); or converts a folder saved before\n"
	"2026-12 to one record per run.\n";

static int print_metric(void *arg, const char *row, const char *metric,
			const char *value, unsigned long line)
{
	(void)arg;
	(void)row;
	(void)line;
	/* a malformed summary line has no metric: left out */
	if (!*metric)
		return 0;
	return printf("%s\t%s\n", metric, value) < 0;
}

static int metrics(const char *dir)
{
	const char *base = strrchr(dir, '/');
	struct record rec;
	char err[1024];
	int rc;

	if (record_load(&rec, dir, base && base[1] ? base + 1 : dir) < 0) {
		fprintf(stderr, PROG ": '%s' is not a run folder (no status file)\n", dir);
		return 1;
	}
	rc = record_rows(&rec, print_metric, NULL, err, sizeof(err));
	record_free(&rec);
	if (rc < 0)
		fprintf(stderr, PROG ": %s\n", err);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	char *value;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "status")) {
		value = record_status_word(argv[2]);
	} else if (argc == 4 && !strcmp(argv[1], "fact")) {
		if (!argv[3][0] || strpbrk(argv[3], "=\n"))
			cli_die_usage(PROG, "bad fact name '%s' (valid: a key of the status file, such as exit_status)",
				      argv[3]);
		value = record_status_fact(argv[2], argv[3]);
	} else if (argc == 3 && !strcmp(argv[1], "metrics")) {
		return metrics(argv[2]) || fflush(stdout) || ferror(stdout) ? 1 : 0;
	} else if (argc == 3 && !strcmp(argv[1], "convert")) {
		char err[1024];
		int rc = record_convert(argv[2], err, sizeof(err));

		if (rc < 0)
			fprintf(stderr, PROG ": %s\n", err);
		else
			printf("%s\n", rc ? "unchanged" : "converted");
		return rc < 0 ? 1 : 0;
	} else {
		cli_die_usage(PROG, "bad arguments (valid: status RUNDIR, fact RUNDIR KEY, metrics RUNDIR, convert RUNDIR)");
	}
	if (value)
		printf("%s\n", value);
	free(value);
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
