// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of scripts/tools/lib/record.c: a run's record joined from its
 * run.conf (what it is), status (how it ended) and summary (what it
 * measured).
 */
#include "check.h"
#include "lib/record.h"
#include "lib/run-folder.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

struct rows {
	char text[4096];
	size_t n;
};

static int collect(void *arg, const char *row, const char *metric,
		   const char *value, unsigned long line)
{
	struct rows *r = arg;
	size_t used = strlen(r->text);

	(void)metric;
	(void)value;
	snprintf(r->text + used, sizeof(r->text) - used, "%lu:%s\n", line, row);
	r->n++;
	return 0;
}

static void make_run(char *top, char *dir, size_t size)
{
	char derived[400];

	CHECK(mkdtemp(top) != NULL);
	snprintf(dir, size, "%s/s.ext4.patched.r2", top);
	mkdir(dir, 0755);
	snprintf(derived, sizeof(derived), "%s/" RL_DERIVED_DIR, dir);
	mkdir(derived, 0755);
	put(dir, "run.conf", "run=s.ext4.patched.r2\nscenario=s\nfs=ext4\nprofile=hdd\nmode=patched\nrepeat=2\n");
	put(dir, "status", "failed\nrun=s.ext4.patched.r2\nexit_status=1\nsimulated_seconds=unknown\n"
			   "splat_kinds=\noom_kills=2\nreason=writer1 exited\n");
}

static void cleanup(const char *top)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	CHECK(system(cmd) == 0);
}

TEST(test_record_joins_conf_status_and_summary)
{
	char top[] = "/tmp/rl-test-record.XXXXXX", dir[256], err[512];
	struct rows rows = { "", 0 };
	struct record rec;

	make_run(top, dir, sizeof(dir));
	put(dir, RL_DERIVED_DIR "/summary.tsv", "s.ext4.patched.r2\twaits.events\t7\n"
						"s.ext4.patched.r2\tinput.refused\tknobs\n");
	CHECK_EQ_INT(record_load(&rec, dir, "s.ext4.patched.r2"), 0);
	CHECK_STR(rec.status, "failed");
	CHECK_STR(rec.fs, "ext4");
	CHECK_EQ_INT((int)rec.repeat, 2);
	CHECK_EQ_INT(record_rows(&rec, NULL, collect, &rows, err, sizeof(err)), 0);
	/* the status's numbers first (no row of text), its OOM kills as the workload's */
	CHECK_STR(rows.text,
		  "0:s.ext4.patched.r2\ts\text4\thdd\tpatched\t2\trun.exit_status\t1\n"
		  "0:s.ext4.patched.r2\ts\text4\thdd\tpatched\t2\tworkload.oom_kills\t2\n"
		  "1:s.ext4.patched.r2\ts\text4\thdd\tpatched\t2\twaits.events\t7\n"
		  "2:s.ext4.patched.r2\ts\text4\thdd\tpatched\t2\tinput.refused\tknobs\n"
		  "0:s.ext4.patched.r2\ts\text4\thdd\tpatched\t2\trun.status\tfailed\n");
	CHECK(record_metric(&rec, "waits.events") == 7);
	CHECK(isnan(record_metric(&rec, "waits.p50_usec")));
	record_free(&rec);
	cleanup(top);
}

TEST(test_record_without_summary_or_status)
{
	char top[] = "/tmp/rl-test-record.XXXXXX", dir[256], err[512];
	struct rows rows = { "", 0 };
	struct record rec;

	make_run(top, dir, sizeof(dir));
	CHECK_EQ_INT(record_load(&rec, dir, "s.ext4.patched.r2"), 0);
	/* not summarized: no rows, not even its status */
	CHECK_EQ_INT(record_rows(&rec, "ok-but-unsummarized", collect, &rows, err, sizeof(err)), 0);
	CHECK_EQ_INT((int)rows.n, 0);
	record_free(&rec);
	CHECK_EQ_INT(record_load(&rec, top, "none"), -1);	/* no status file */
	cleanup(top);
}

TEST(test_record_refuses_the_old_layout)
{
	char top[] = "/tmp/rl-test-record.XXXXXX", dir[256], err[512];
	struct rows rows = { "", 0 };
	struct record rec;

	make_run(top, dir, sizeof(dir));
	put(dir, RL_DERIVED_DIR "/summary.tsv",
	    "s.ext4.patched.r2\ts\text4\thdd\tpatched\t2\twaits.events\t7\n");
	CHECK_EQ_INT(record_load(&rec, dir, "s.ext4.patched.r2"), 0);
	CHECK(record_rows(&rec, NULL, collect, &rows, err, sizeof(err)) != 0);
	CHECK(strstr(err, "layout before 2026-12") != NULL);
	CHECK(strstr(err, "scripts/convert-matrix.sh") != NULL);
	record_free(&rec);
	cleanup(top);
}
