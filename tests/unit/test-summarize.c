// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of scripts/tools/summarize/summarize.c on a run folder made here: the
 * host's files in RUN/, the guest's in RUN/guest/.
 */
#include "check.h"
#include "lib/cli.h"
#include "lib/run-folder.h"
#include "lib/util.h"
#include "summarize/summarize.h"
#include "summarize/tracestat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
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

/* a file the guest wrote: RUN/guest/NAME */
/* summarize_run() of dir into a string (malloc'ed); its return in *rc */
static char *summarize(const char *dir, const char *derived, int *rc,
		       char *err, size_t errlen)
{
	char *rows = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&rows, &len);

	if (!out)
		abort();
	*rc = summarize_run(dir, derived, out, err, errlen);
	fclose(out);
	return rows;
}

static void gput(const char *dir, const char *name, const char *text)
{
	char guest[512];

	snprintf(guest, sizeof(guest), "%s/" RL_GUEST_DIR, dir);
	mkdir(guest, 0700);
	put(guest, name, text);
}

static int has(const char *rows, const char *line)
{
	char want[512];
	int found;

	/* a whole row "METRIC<TAB>VALUE" */
	snprintf(want, sizeof(want), "\n%s\n", line);
	found = strstr(rows, want) || !strncmp(rows, want + 1, strlen(want + 1));
	if (!found)
		fprintf(stderr, "  missing row: %s\n", line);
	return found;
}

TEST(test_run_folder_into_rows)
{
	char top[] = "/tmp/rl-test-summarize.XXXXXX", dir[256], derived[300], err[512];
	char *rows = NULL;
	int rc;

	CHECK(mkdtemp(top) != NULL);
	snprintf(dir, sizeof(dir), "%s/r1", top);
	snprintf(derived, sizeof(derived), "%s/derived", dir);
	mkdir(dir, 0755);
	mkdir(derived, 0755);
	put(dir, "run.conf", "run=r1\nscenario=memcg-dd\nfs=ext4\nprofile=hdd\nmode=patched\nrepeat=2\n");
	put(dir, "status", "ok\nrun=r1\nexit_status=0\nsimulated_seconds=3.5\nclock=cpu\noom_kills=1\n");
	gput(dir, "trace.txt",
	    "rl-dd-7 [000] ..... 1.100000: mm_vmscan_reclaim_wait: usec_timeout=1000 usec_delayed=1000 memcg=1 node=0 zone=1 reason=writeback class=write\n"
	    "kswapd0-3 [000] ..... 1.200000: mm_vmscan_reclaim_wait: usec_timeout=1000 usec_delayed=500 memcg=0 node=0 zone=1 reason=congested class=kswapd\n");
	gput(dir, "workload-seconds", "1.0 3.0\n");
	/* a name the kernel would not write: no row (tab, '.', space) */
	gput(dir, "counters-after.debug-vm",
	     "nr_throttle_writeback:3\nbad line\nnr_reset:1\nnr_same:4\nnr\tforged:5\nnr.dot:6\nnr sp:7\n:8\n");
	gput(dir, "counters-before.vmstat", "nr_dirty 10\npgscan_direct 5\nnr_free 7\npg\tforged 1\n");
	gput(dir, "counters-after.vmstat", "pgscan_direct 9\nnr_dirty 10\nnr_free 2\npgbig 9223372036854775807\npg\tforged 9\n");
	/* snapshots mid-workload (usemem-swap's at swapon), one of a bad name */
	gput(dir, "counters-swapon.debug-vm", "nr_throttle_writeback:1\nnr_reset:7\nnr_same:4\nnr_gone:2\nnr\tforged:1\n");
	gput(dir, "counters-swapon.vmstat", "pgscan_direct 6\nnr_dirty 10\npgbig -9223372036854775807\n");
	gput(dir, "counters-Bad.debug-vm", "nr_throttle_writeback:0\n");
	gput(dir, "iostat.json",
	    "{\"sysstat\": {\"hosts\": [{\"statistics\": [{\"disk\": [{\"disk_device\": \"ubda\","
	    " \"w/s\": 10.00, \"wkB/s\": 5120.00, \"r/s\": 0.00, \"rkB/s\": 0.00,"
	    " \"wareq-sz\": 512.00, \"util\": 55.50}]}]}]}}\n");
	gput(dir, "writer1.out", "op=write file=/mnt/x bytes=100 seconds=2 mbps=10\nop=write bytes=50 seconds=1 mbps=20\n");
	gput(dir, "knobs", "vm.pageout_work=1\nvm.reclaim_plug=absent\n");
	rows = summarize(dir, derived, &rc, err, sizeof(err));
	CHECK_EQ_INT(rc, 0);
	/* what the run is and how it ended stay in run.conf and status (record.h) */
	CHECK(strstr(rows, "memcg-dd") == NULL);
	CHECK(strstr(rows, "run.status") == NULL);
	CHECK(strstr(rows, "run.exit_status") == NULL);
	CHECK(strstr(rows, "oom_kills") == NULL);
	CHECK(has(rows, "waits.events\t2"));
	CHECK(has(rows, "waits.duration_s\t2.000000"));
	CHECK(has(rows, "waits.task.rl-dd.events\t1"));
	CHECK(has(rows, "waits.task.kswapd0.p50_usec\t500"));
	CHECK(strstr(rows, "waits.task.rl-dd-7") == NULL);
	CHECK(has(rows, "counter.nr_throttle_writeback\t3"));
	CHECK(strstr(rows, "forged") == NULL && strstr(rows, "nr.dot") == NULL &&
	      strstr(rows, "nr sp") == NULL && strstr(rows, "counter.\t") == NULL);
	CHECK(has(rows, "counter.since_swapon.nr_throttle_writeback\t2"));
	CHECK(has(rows, "counter.since_swapon.nr_same\t0"));	/* zeros count */
	CHECK(strstr(rows, "since_swapon.nr_reset") == NULL);	/* reset in between */
	CHECK(strstr(rows, "since_swapon.nr_gone") == NULL);	/* not at the end */
	CHECK(has(rows, "vmstat.since_swapon.pgscan_direct\t3"));
	CHECK(strstr(rows, "vmstat.since_swapon.nr_dirty") == NULL);
	CHECK(strstr(rows, "since_Bad") == NULL && strstr(rows, "since_after") == NULL &&
	      strstr(rows, "since_before") == NULL);
	/* no long long overflow on guest text: the difference in double */
	CHECK(has(rows, "vmstat.since_swapon.pgbig\t1.84467e+19"));
	CHECK(has(rows, "vmstat.pgscan_direct\t4"));
	CHECK(has(rows, "vmstat.nr_free\t-5"));
	CHECK(strstr(rows, "vmstat.nr_dirty") == NULL);	/* no change: no row */
	CHECK(has(rows, "iostat.intervals\t1"));
	CHECK(has(rows, "iostat.ubda.intervals\t1"));
	CHECK(has(rows, "iostat.ubda.util_mean\t55.5"));
	CHECK(has(rows, "iostat.ubda.wkB_s_mean\t5120"));
	CHECK(has(rows, "iostat.ubda.wareq_sz_mean\t512"));
	CHECK(has(rows, "iostat.ubda.wareq_sz_sd\t0"));
	CHECK(has(rows, "iostat.ubda.avgrq_sz_mean\t1024"));
	CHECK(strstr(rows, "iostat.ubda.util_sd") == NULL);	/* a rate: no spread */
	CHECK(has(rows, "tool.writer1.bytes\t150"));
	CHECK(has(rows, "tool.writer1.mbps\t15"));
	CHECK(strstr(rows, "knob.") == NULL);	/* the knobs are run.conf's */
	snprintf(err, sizeof(err), "%s/waits-series.tsv", derived);
	CHECK(access(err, R_OK) == 0);
	free(rows);
	snprintf(err, sizeof(err), "rm -rf '%s'", top);
	CHECK(system(err) == 0);
}

/*
 * fio's JSON (a real one, of fio 3.33 in a guest: tests/fixtures/fio/),
 * after the notes fio writes before it; a job's name gives rows once; a
 * file that is not JSON gives none.
 */
TEST(test_fio_json_into_rows)
{
	char top[] = "/tmp/rl-test-summarize.XXXXXX", dir[256], path[4096], err[512];
	const char *fixtures = getenv("RL_FIXTURES");
	char *rows = NULL, *json, *text;
	size_t n;
	int rc;

	CHECK(fixtures != NULL);
	CHECK(mkdtemp(top) != NULL);
	if (!fixtures)
		return;
	snprintf(path, sizeof(path), "%s/fio/rl-small.fio.json", fixtures);
	json = read_whole_file(path, NULL);
	CHECK(json != NULL);
	if (!json)
		return;
	snprintf(dir, sizeof(dir), "%s/r1", top);
	mkdir(dir, 0755);
	put(dir, "run.conf", "run=r1\nscenario=memcg-dd\nfs=ext4\nprofile=hdd\nmode=patched\nrepeat=2\n");
	put(dir, "status", "ok\nrun=r1\n");
	n = strlen(json) + 200;
	text = malloc(n);
	CHECK(text != NULL);
	if (!text)
		return;
	snprintf(text, n, "note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be capped at 1\n%s", json);
	gput(dir, "a-writer.fio.json", text);
	/* the same job name again (a later file): no second set of rows */
	gput(dir, "b-again.fio.json", json);
	gput(dir, "c-reader.fio.json",
	    "{\"jobs\": [{\"jobname\": \"reader\", \"error\": 5,"
	    " \"read\": {\"io_bytes\": 4096, \"bw_bytes\": 2000000, \"iops\": 10,"
	    " \"clat_ns\": {\"percentile\": {\"50.000000\": 1500, \"99.900000\": 3000000}}},"
	    " \"write\": {\"io_bytes\": 0, \"bw_bytes\": 0, \"iops\": 0}},"
	    " {\"jobname\": \"bad.name\", \"error\": 0}, {\"jobname\": \"$(x)\", \"error\": 0}]}\n");
	gput(dir, "d-broken.fio.json", "{\"jobs\": [{\"jobname\": \"broken\", \"error\": 0,\n");
	rows = summarize(dir, top, &rc, err, sizeof(err));
	CHECK_EQ_INT(rc, 0);
	CHECK(has(rows, "fio.rl-small.error\t0"));
	CHECK(has(rows, "fio.rl-small.write.kb_s\t645278"));
	CHECK(has(rows, "fio.rl-small.write.iops\t9846.15"));
	CHECK(has(rows, "fio.rl-small.write.clat_p50_us\t42.752"));
	CHECK(has(rows, "fio.rl-small.write.clat_p99_us\t158.72"));
	CHECK(has(rows, "fio.rl-small.write.clat_p999_us\t197.632"));
	/* no read rows for a job that did not read, and each row once */
	CHECK(strstr(rows, "fio.rl-small.read.") == NULL);
	CHECK(strstr(strstr(rows, "fio.rl-small.write.iops") + 1, "fio.rl-small.write.iops") == NULL);
	CHECK(has(rows, "fio.reader.error\t5"));
	CHECK(has(rows, "fio.reader.read.kb_s\t2000"));
	CHECK(has(rows, "fio.reader.read.iops\t10"));
	CHECK(has(rows, "fio.reader.read.clat_p50_us\t1.5"));
	CHECK(has(rows, "fio.reader.read.clat_p999_us\t3000"));
	CHECK(strstr(rows, "fio.reader.read.clat_p99_us") == NULL);
	CHECK(strstr(rows, "fio.reader.write.") == NULL);
	CHECK(strstr(rows, "bad.name") == NULL);
	CHECK(strstr(rows, "$(x)") == NULL);
	CHECK(strstr(rows, "broken") == NULL);
	free(rows);
	free(text);
	free(json);
	snprintf(err, sizeof(err), "rm -rf '%s'", top);
	CHECK(system(err) == 0);
}

TEST(test_not_a_scenario_run)
{
	char top[] = "/tmp/rl-test-summarize.XXXXXX", err[512];
	FILE *out = fopen("/dev/null", "w");

	CHECK(mkdtemp(top) != NULL);
	CHECK(out != NULL);
	if (!out)
		return;
	CHECK_EQ_INT(summarize_run(top, top, out, err, sizeof(err)), SUMMARIZE_NOT_A_RUN);
	CHECK(strstr(err, "is not a run folder (no run.conf)") != NULL);
	put(top, "run.conf", "run=x\nmem=1G\n");
	CHECK_EQ_INT(summarize_run(top, top, out, err, sizeof(err)), SUMMARIZE_NOT_A_RUN);
	CHECK(strstr(err, "did not run a scenario (its run.conf has no scenario") != NULL);
	fclose(out);
	snprintf(err, sizeof(err), "rm -rf '%s'", top);
	CHECK(system(err) == 0);
}

/* --- what a guest may leave instead of its files -------------------------- */

#define WAIT_AT(ts) \
	"rl-dd-7 [000] ..... " ts ": mm_vmscan_reclaim_wait: usec_timeout=1000 usec_delayed=1000 memcg=1 node=0 zone=1 reason=writeback class=write\n"
#define END_AT(ts) \
	"kworker/u8:2-41 [001] ..s1. " ts ": writeback_end_batch: bdi 98:0: ino=12 unit=io_end folios=4 bytes=16384 reclaim=0 gap_us=10\n"

/* A run folder TOP/r1 with its host files; its path in dir. */
static void make_run(char *top, char *dir, size_t dirlen, char *derived,
		     size_t dlen)
{
	CHECK(mkdtemp(top) != NULL);
	snprintf(dir, dirlen, "%s/r1", top);
	snprintf(derived, dlen, "%s/derived", dir);
	mkdir(dir, 0755);
	mkdir(derived, 0755);
	put(dir, "run.conf", "run=r1\nscenario=memcg-dd\nfs=ext4\nprofile=hdd\nmode=patched\nrepeat=2\n");
	put(dir, "status", "ok\nrun=r1\nexit_status=0\n");
}

static long file_size(const char *dir, const char *name)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) ? -1 : (long)st.st_size;
}

static void remove_tree(const char *top)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	CHECK(system(cmd) == 0);
}

/*
 * A fifo for trace.txt (nothing ever writes it: a reader that opened it
 * plainly would wait forever), a symlink for a vmstat snapshot, a sparse terabyte for
 * iostat.json: each is marked input.refused, the other files still give
 * their rows, and it is quick.
 */
TEST(test_refused_guest_files_marked_not_fatal)
{
	char top[] = "/tmp/rl-test-summarize.XXXXXX", dir[256], derived[300], err[512];
	char path[512];
	time_t t0 = time(NULL);
	char *rows;
	int rc, fd;

	make_run(top, dir, sizeof(dir), derived, sizeof(derived));
	gput(dir, "counters-after.debug-vm", "nr_throttle_writeback:3\n");
	snprintf(path, sizeof(path), "%s/" RL_GUEST_DIR "/trace.txt", dir);
	CHECK_EQ_INT(mkfifo(path, 0600), 0);
	snprintf(path, sizeof(path), "%s/" RL_GUEST_DIR "/counters-before.vmstat", dir);
	CHECK_EQ_INT(symlink("../run.conf", path), 0);
	snprintf(path, sizeof(path), "%s/" RL_GUEST_DIR "/iostat.json", dir);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	CHECK(fd >= 0);
	CHECK_EQ_INT(ftruncate(fd, 1LL << 40), 0);
	close(fd);
	rows = summarize(dir, derived, &rc, err, sizeof(err));
	CHECK_EQ_INT(rc, 0);
	CHECK(has(rows, "input.refused\ttrace.txt"));
	CHECK(has(rows, "input.refused\tcounters-before.vmstat"));
	CHECK(has(rows, "input.refused\tiostat.json"));
	CHECK(has(rows, "counter.nr_throttle_writeback\t3"));
	CHECK(strstr(rows, "vmstat.") == NULL);	/* run.conf not read as vmstat */
	CHECK(strstr(rows, "waits.events") == NULL);
	CHECK(time(NULL) - t0 < 5);
	free(rows);
	remove_tree(top);
}

/*
 * workload-seconds "0 1000000" (a guest's, not a run's: 11 days) made
 * series of 10^7 and 10^8 bins, 149 MB and more than 1 GB of files: the
 * series stop at TRACESTAT_SERIES_MAX_S and the run is marked.
 */
TEST(test_huge_workload_seconds_marked_and_bounded)
{
	char top[] = "/tmp/rl-test-summarize.XXXXXX", dir[256], derived[300], err[512];
	long max_lines = (long)(TRACESTAT_SERIES_MAX_S / 0.1) + 2;
	char *rows;
	int rc;

	make_run(top, dir, sizeof(dir), derived, sizeof(derived));
	gput(dir, "workload-seconds", "0 1000000\n");
	gput(dir, "trace.txt", WAIT_AT("1.000000") END_AT("1.500000") WAIT_AT("999999.000000"));
	rows = summarize(dir, derived, &rc, err, sizeof(err));
	CHECK_EQ_INT(rc, 0);
	CHECK(has(rows, "input.cut\tworkload-seconds"));
	CHECK(has(rows, "input.cut\ttrace.txt"));	/* the wait at 999999 s */
	CHECK(has(rows, "waits.events\t2"));		/* still counted */
	CHECK(has(rows, "completion.events\t1"));
	/* "%.3f\t%lu\t%llu\n" of 0 waits: at most ~16 bytes a bin */
	CHECK(file_size(derived, "waits-series.tsv") > 0);
	CHECK(file_size(derived, "waits-series.tsv") < max_lines * 16);
	CHECK(file_size(derived, "completions-series.tsv") > 0);
	CHECK(file_size(derived, "completions-series.tsv") <
	      (long)(COMPLETION_SERIES_MAX_S / COMPLETION_SERIES_BIN_S + 2) * 16);
	free(rows);
	remove_tree(top);
}

/*
 * A trace timestamp of 20000000 (7 months of uptime) asked for 2*10^8
 * bins, 3.1 GB; one of 2e11 made the conversion to a bin index undefined
 * and the summary was lost.  Now: not binned, the run is still summarized.
 */
TEST(test_absurd_trace_timestamps_keep_the_summary)
{
	char top[] = "/tmp/rl-test-summarize.XXXXXX", dir[256], derived[300], err[512];
	char *rows;
	int rc;

	make_run(top, dir, sizeof(dir), derived, sizeof(derived));
	gput(dir, "workload-seconds", "1.0 3.0\n");
	gput(dir, "trace.txt", WAIT_AT("1.100000") WAIT_AT("20000000.000000")
	     WAIT_AT("200000000000.000000") END_AT("1.200000") END_AT("200000000000.000000"));
	rows = summarize(dir, derived, &rc, err, sizeof(err));
	CHECK_EQ_INT(rc, 0);
	CHECK(has(rows, "waits.events\t2"));
	CHECK(has(rows, "waits.malformed\t2"));	/* the lines of 2e11 */
	CHECK(has(rows, "input.cut\ttrace.txt"));
	CHECK(has(rows, "completion.events\t1"));
	CHECK(file_size(derived, "waits-series.tsv") < 1000);
	free(rows);
	remove_tree(top);
}

/* Values no workload has: no series, no duration from them, marked. */
TEST(test_bad_workload_seconds_refused)
{
	static const char *const bad[] = { "nan 3\n", "1 inf\n", "-5 3\n", "4 2\n", "0 1e300\n" };
	char top[] = "/tmp/rl-test-summarize.XXXXXX", dir[256], derived[300], err[512];
	size_t i;
	char *rows;
	int rc;

	make_run(top, dir, sizeof(dir), derived, sizeof(derived));
	gput(dir, "trace.txt", WAIT_AT("1.100000"));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		gput(dir, "workload-seconds", bad[i]);
		unlink(strcat(strcpy(err, derived), "/waits-series.tsv"));
		rows = summarize(dir, derived, &rc, err, sizeof(err));
		CHECK_EQ_INT(rc, 0);
		if (!has(rows, "input.refused\tworkload-seconds"))
			fprintf(stderr, "  with workload-seconds %s", bad[i]);
		CHECK(has(rows, "waits.events\t1"));
		CHECK(file_size(derived, "waits-series.tsv") == -1);
		free(rows);
	}
	remove_tree(top);
}

/*
 * derived/ files are made anew: a symlink planted at one is not written
 * through (the summary fails, naming it), a stale file of ours is replaced.
 */
TEST(test_derived_symlink_not_written_through)
{
	char top[] = "/tmp/rl-test-summarize.XXXXXX", dir[256], derived[300], err[512];
	char path[512], target[512];
	char *rows, *t;
	int rc;

	make_run(top, dir, sizeof(dir), derived, sizeof(derived));
	gput(dir, "trace.txt", WAIT_AT("1.100000"));
	snprintf(target, sizeof(target), "%s/precious", top);
	put(top, "precious", "keep me\n");
	snprintf(path, sizeof(path), "%s/waits-cdf.tsv", derived);
	put(derived, "waits-hist.tsv", "stale\n");
	CHECK_EQ_INT(symlink(target, path), 0);
	rows = summarize(dir, derived, &rc, err, sizeof(err));
	CHECK_EQ_INT(rc, -1);
	CHECK(strstr(err, "waits-cdf.tsv: refusing to replace a symbolic link") != NULL);
	t = read_whole_file(target, NULL);
	CHECK_STR(t, "keep me\n");
	free(t);
	free(rows);
	/* the same with the link gone: the stale file is replaced */
	unlink(path);
	rows = summarize(dir, derived, &rc, err, sizeof(err));
	CHECK_EQ_INT(rc, 0);
	snprintf(path, sizeof(path), "%s/waits-hist.tsv", derived);
	t = read_whole_file(path, NULL);
	CHECK(t && !strncmp(t, "bucket_lo_ms\t", 13));
	free(t);
	/* the writer's one wait, by task and reason */
	snprintf(path, sizeof(path), "%s/waits-by-task.tsv", derived);
	t = read_whole_file(path, NULL);
	CHECK_STR(t, "task\treason\tusec_delayed\twaits\nrl-dd\twriteback\t1000\t1\n");
	free(t);
	free(rows);
	/* cli_create() itself: a link to a missing file is not followed either */
	snprintf(path, sizeof(path), "%s/summary.tsv.tmp", derived);
	snprintf(target, sizeof(target), "%s/made-through-the-link", top);
	CHECK_EQ_INT(symlink(target, path), 0);
	CHECK(cli_create(path, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "summary.tsv.tmp: refusing to replace a symbolic link") != NULL);
	CHECK(access(target, F_OK) != 0);
	remove_tree(top);
}

/*
 * blk rows of a real blktrace (tests/fixtures/blktrace/) beside the
 * guest's count of dropped events: latencies only from a trace without
 * holes; a count that is not a number is no count (the latencies stay, as
 * for a run of a lab that wrote none).
 */
TEST(test_blktrace_dropped_events)
{
	static const char *counts[] = { "0\n", "12\n", "12x\n" };
	const char *fixtures = getenv("RL_FIXTURES");
	char top[] = "/tmp/rl-test-summarize.XXXXXX", dir[256], path[4096], err[512];
	char *bin, *rows = NULL;
	size_t binlen = 0, i;
	int rc;
	FILE *f;

	CHECK(fixtures != NULL);
	CHECK(mkdtemp(top) != NULL);
	if (!fixtures)
		return;
	snprintf(path, sizeof(path), "%s/blktrace/ubda.blktrace.bin", fixtures);
	bin = read_whole_file(path, &binlen);
	CHECK(bin != NULL && binlen > 0);
	if (!bin)
		return;
	snprintf(dir, sizeof(dir), "%s/r1", top);
	mkdir(dir, 0755);
	put(dir, "run.conf", "run=r1\nscenario=fs-completion\nfs=ext4\nprofile=hdd\nmode=patched\nrepeat=1\n");
	put(dir, "status", "ok\nrun=r1\n");
	gput(dir, "workload-seconds", "1.0 3.0\n");
	snprintf(path, sizeof(path), "%s/" RL_GUEST_DIR "/ubda.blktrace.bin", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK(fwrite(bin, 1, binlen, f) == binlen);
	fclose(f);
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		gput(dir, "ubda.blktrace.dropped", counts[i]);
		rows = summarize(dir, top, &rc, err, sizeof(err));
		CHECK_EQ_INT(rc, 0);
		CHECK(has(rows, "blk.ubda.write.completions\t48"));
		if (i == 1) {
			CHECK(has(rows, "blk.ubda.dropped_events\t12"));
			CHECK(strstr(rows, "blk.ubda.write.q2c") == NULL);
			CHECK(strstr(rows, "blk.ubda.write.d2c") == NULL);
		} else {
			CHECK(has(rows, "blk.ubda.write.q2c_matched\t48"));
			CHECK(strstr(rows, "blk.ubda.write.q2c_ms_max\t") != NULL);
			CHECK((strstr(rows, "blk.ubda.dropped_events\t0\n") != NULL) == (i == 0));
			CHECK(i == 0 || strstr(rows, "dropped_events") == NULL);
		}
		free(rows);
		rows = NULL;
	}
	free(bin);
	snprintf(err, sizeof(err), "rm -rf '%s'", top);
	CHECK(system(err) == 0);
}
