// SPDX-License-Identifier: GPL-2.0
/*
 * rl-summarize RUNDIR: the run's summary rows into RUNDIR/derived/summary.tsv
 * (see summarize.h).  A summary that fails half-way leaves nothing behind.
 *
 * Exit status: 0 ok, 1 write error, 2 bad usage or not a run folder.
 */
#include "lib/cli.h"
#include "lib/run-folder.h"
#include "lib/util.h"
#include "summarize/summarize.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROG "rl-summarize"

int main(int argc, char **argv)
{
	char err[1024], *conf, *derived, *tmp, *final;
	size_t n;
	FILE *f;
	int rc;

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("usage: " PROG " RUNDIR\n"
		       "Writes RUNDIR/derived/summary.tsv (RUN metric value rows: what the run\n"
		       "measured) and the trace's waits-hist.tsv, waits-cdf.tsv,\n"
		       "waits-series.tsv, completions-series.tsv and waits-by-task.tsv (waits\n"
		       "of each task and reason by duration) beside it, from what the guest\n"
		       "wrote, RUNDIR/guest/;\n"
		       "what the run is stays in RUNDIR/run.conf, how it ended in RUNDIR/status\n"
		       "(rl-report and rl-aggregate join the three).  A guest file that is\n"
		       "not a regular file or is larger than its limit is not read: the summary\n"
		       "has a row input.refused NAME instead of its rows.\n");
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-')
		cli_die_usage(PROG, "usage: " PROG " RUNDIR (one run folder)");
	n = strlen(argv[1]) + 32;
	conf = xmalloc(n);
	snprintf(conf, n, "%s/run.conf", argv[1]);
	if (access(conf, R_OK))
		cli_die_usage(PROG, "'%s' is not a run folder (no run.conf)", argv[1]);
	free(conf);
	derived = xmalloc(n);
	tmp = xmalloc(n);
	final = xmalloc(n);
	snprintf(derived, n, "%s/" RL_DERIVED_DIR, argv[1]);
	snprintf(tmp, n, "%s/summary.tsv.tmp", derived);
	snprintf(final, n, "%s/summary.tsv", derived);
	if (mkdir(derived, 0755) && errno != EEXIST) {
		fprintf(stderr, PROG ": cannot create %s: %s\n", derived, strerror(errno));
		return errno == ENOENT ? 2 : 1;
	}
	/* a new file: a symlink planted at the .tmp is not written through */
	f = cli_create(tmp, err, sizeof(err));
	if (!f) {
		fprintf(stderr, PROG ": %s\n", err);
		return 1;
	}
	rc = summarize_run(argv[1], derived, f, err, sizeof(err));
	if (fclose(f) && !rc) {
		snprintf(err, sizeof(err), "cannot write %s", tmp);
		rc = -1;
	}
	if (rc || rename(tmp, final)) {
		unlink(tmp);
		fprintf(stderr, PROG ": %s\n", rc ? err : "cannot rename the summary");
		rc = rc == SUMMARIZE_NOT_A_RUN ? 2 : 1;
	}
	free(derived);
	free(tmp);
	free(final);
	return rc;
}
