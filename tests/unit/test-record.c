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
#include <unistd.h>

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
	CHECK_STR(rec.kernel, "");
	CHECK_STR(record_state(&rec), "failed");
	CHECK_EQ_INT(record_rows(&rec, collect, &rows, err, sizeof(err)), 0);
	/* the status's numbers first (no row of text), its OOM kills as the workload's */
	CHECK_STR(rows.text,
		  "0:s.ext4.patched.r2\ts\text4\thdd\tpatched\t-\t2\trun.exit_status\t1\n"
		  "0:s.ext4.patched.r2\ts\text4\thdd\tpatched\t-\t2\tworkload.oom_kills\t2\n"
		  "1:s.ext4.patched.r2\ts\text4\thdd\tpatched\t-\t2\twaits.events\t7\n"
		  "2:s.ext4.patched.r2\ts\text4\thdd\tpatched\t-\t2\tinput.refused\tknobs\n"
		  "0:s.ext4.patched.r2\ts\text4\thdd\tpatched\t-\t2\trun.status\tfailed\n");
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
	CHECK_EQ_INT(rec.summarized, 0);
	CHECK_EQ_INT(record_rows(&rec, collect, &rows, err, sizeof(err)), 0);
	CHECK_EQ_INT((int)rows.n, 0);
	CHECK_STR(record_state(&rec), "failed");
	record_free(&rec);
	/* an ok run without a summary is the record's own state */
	put(dir, "status", "ok\nexit_status=0\n");
	CHECK_EQ_INT(record_load(&rec, dir, "s.ext4.patched.r2"), 0);
	CHECK_STR(record_state(&rec), RECORD_UNSUMMARIZED);
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
	CHECK(record_rows(&rec, collect, &rows, err, sizeof(err)) != 0);
	CHECK(strstr(err, "layout before 2026-12") != NULL);
	CHECK(strstr(err, "scripts/convert-matrix.sh") != NULL);
	record_free(&rec);
	cleanup(top);
}

TEST(test_record_kernel_is_its_own_field)
{
	char top[] = "/tmp/rl-test-record.XXXXXX", dir[256], err[512];
	struct rows rows = { "", 0 };
	struct record rec;
	char *label;

	make_run(top, dir, sizeof(dir));
	put(dir, "run.conf", "scenario=s\nfs=ext4\nprofile=hdd\nmode=patched\nkernel_name=6.1\nrepeat=1\n");
	/* today's summary: METRIC VALUE, the run named by its folder */
	put(dir, RL_DERIVED_DIR "/summary.tsv", "waits.events\t3\n");
	CHECK_EQ_INT(record_load(&rec, dir, "s.ext4.patched@6.1.r1"), 0);
	CHECK_STR(rec.mode, "patched");
	CHECK_STR(rec.kernel, "6.1");
	CHECK_EQ_INT(record_rows(&rec, collect, &rows, err, sizeof(err)), 0);
	CHECK(strstr(rows.text, "1:s.ext4.patched@6.1.r1\ts\text4\thdd\tpatched\t6.1\t1\twaits.events\t3\n") != NULL);
	label = record_mode_label(rec.mode, rec.kernel);
	CHECK_STR(label, "patched@6.1");
	free(label);
	label = record_mode_label("patched", RECORD_NO_KERNEL);
	CHECK_STR(label, "patched");
	free(label);
	record_free(&rec);
	/* a folder from before 2026-12-07: the kernel in its mode too */
	put(dir, "run.conf", "scenario=s\nfs=ext4\nprofile=hdd\nmode=2012-patched@6.1\nrepeat=1\n");
	CHECK_EQ_INT(record_load(&rec, dir, "s.ext4.2012-patched@6.1.r1"), 0);
	CHECK_STR(rec.mode, "2012-patched");
	CHECK_STR(rec.kernel, "6.1");
	record_free(&rec);
	cleanup(top);
}

TEST(test_record_status_written_whole_and_read_bounded)
{
	char top[] = "/tmp/rl-test-record.XXXXXX", dir[256], err[512], path[512];
	char *v;

	make_run(top, dir, sizeof(dir));
	CHECK_EQ_INT(record_write_status(dir, "interrupted", "", NULL, err, sizeof(err)), 0);
	v = record_status_word(dir);
	CHECK_STR(v, "interrupted");
	free(v);
	CHECK_EQ_INT(record_write_status(dir, "ok", "exit_status=0\nclock_stalled_ticks=0\n", NULL,
					 err, sizeof(err)), 0);
	v = record_status_fact(dir, "clock_stalled_ticks");
	CHECK_STR(v, "0");
	free(v);
	CHECK(record_status_fact(dir, "reason") == NULL);
	snprintf(path, sizeof(path), "%s/status.tmp", dir);
	CHECK(access(path, F_OK) != 0);
	/* a link in the status's place is not read through */
	snprintf(path, sizeof(path), "%s/status", dir);
	CHECK(unlink(path) == 0);
	CHECK(symlink("run.conf", path) == 0);
	CHECK(record_status_word(dir) == NULL);
	/* nor is anything written through a link planted at status.tmp */
	snprintf(path, sizeof(path), "%s/status.tmp", dir);
	CHECK(symlink("run.conf", path) == 0);
	CHECK(record_write_status(dir, "ok", "", NULL, err, sizeof(err)) < 0);
	CHECK(strstr(err, "symbolic link") != NULL);
	cleanup(top);
}
