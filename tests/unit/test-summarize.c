// SPDX-License-Identifier: GPL-2.0
/* Unit tests of scripts/tools/summarize.c on a run folder made here. */
#include "check.h"
#include "report-model.h"
#include "summarize.h"

#include <stdlib.h>
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

static int has(const char *rows, const char *line)
{
	char want[512];

	snprintf(want, sizeof(want), "r1\tmemcg-dd\text4\thdd\tpatched\t2\t%s\n", line);
	if (!strstr(rows, want))
		fprintf(stderr, "  missing row: %s\n", line);
	return strstr(rows, want) != NULL;
}

TEST(test_run_folder_into_rows)
{
	char top[] = "/tmp/rl-test-summarize.XXXXXX", dir[256], derived[300], err[512];
	char *rows = NULL;
	size_t len = 0;
	FILE *out;

	CHECK(mkdtemp(top) != NULL);
	snprintf(dir, sizeof(dir), "%s/r1", top);
	snprintf(derived, sizeof(derived), "%s/derived", dir);
	mkdir(dir, 0755);
	mkdir(derived, 0755);
	put(dir, "run.conf", "run=r1\nscenario=memcg-dd\nfs=ext4\nprofile=hdd\nmode=patched\nrepeat=2\n");
	put(dir, "status", "ok\nrun=r1\nexit_status=0\nsimulated_seconds=3.5\nclock=cpu\noom_kills=1\n");
	put(dir, "trace.txt",
	    "rl-dd-7 [000] ..... 1.100000: mm_vmscan_reclaim_wait: usec_timeout=1000 usec_delayed=1000 memcg=1 node=0 zone=1 reason=writeback class=write\n"
	    "kswapd0-3 [000] ..... 1.200000: mm_vmscan_reclaim_wait: usec_timeout=1000 usec_delayed=500 memcg=0 node=0 zone=1 reason=congested class=kswapd\n");
	put(dir, "workload-seconds", "1.0 3.0\n");
	put(dir, "counters-after.debug-vm", "nr_throttle_writeback:3\nbad line\n");
	put(dir, "counters-before.vmstat", "nr_dirty 10\npgscan_direct 5\nnr_free 7\n");
	put(dir, "counters-after.vmstat", "pgscan_direct 9\nnr_dirty 10\nnr_free 2\n");
	put(dir, "iostat.json",
	    "{\"sysstat\": {\"hosts\": [{\"statistics\": [{\"disk\": [{\"disk_device\": \"ubda\","
	    " \"w/s\": 10.00, \"wkB/s\": 5120.00, \"r/s\": 0.00, \"rkB/s\": 0.00,"
	    " \"wareq-sz\": 512.00, \"util\": 55.50}]}]}]}}\n");
	put(dir, "writer1.out", "op=write file=/mnt/x bytes=100 seconds=2 mbps=10\nop=write bytes=50 seconds=1 mbps=20\n");
	put(dir, "knobs", "vm.pageout_work=1\nvm.reclaim_plug=absent\n");
	out = open_memstream(&rows, &len);
	CHECK(out != NULL);
	if (!out)
		return;
	CHECK_EQ_INT(summarize_run(dir, derived, out, err, sizeof(err)), 0);
	fclose(out);
	CHECK(has(rows, "run.status\tok"));
	CHECK(has(rows, "run.exit_status\t0"));
	CHECK(has(rows, "run.simulated_seconds\t3.5"));
	CHECK(has(rows, "workload.oom_kills\t1"));
	CHECK(strstr(rows, "run.oom_kills") == NULL);
	CHECK(strstr(rows, "run.clock\t") == NULL);	/* text: no row */
	CHECK(has(rows, "waits.events\t2"));
	CHECK(has(rows, "waits.duration_s\t2.000000"));
	CHECK(has(rows, "waits.task.rl-dd.events\t1"));
	CHECK(has(rows, "waits.task.kswapd0.p50_usec\t500"));
	CHECK(strstr(rows, "waits.task.rl-dd-7") == NULL);
	CHECK(has(rows, "counter.nr_throttle_writeback\t3"));
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
	CHECK(has(rows, "knob.vm.reclaim_plug\tabsent"));
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
	size_t len = 0, n;
	FILE *out;

	CHECK(fixtures != NULL);
	CHECK(mkdtemp(top) != NULL);
	if (!fixtures)
		return;
	snprintf(path, sizeof(path), "%s/fio/rl-small.fio.json", fixtures);
	json = rep_read_file(path, NULL);
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
	put(dir, "a-writer.fio.json", text);
	/* the same job name again (a later file): no second set of rows */
	put(dir, "b-again.fio.json", json);
	put(dir, "c-reader.fio.json",
	    "{\"jobs\": [{\"jobname\": \"reader\", \"error\": 5,"
	    " \"read\": {\"io_bytes\": 4096, \"bw_bytes\": 2000000, \"iops\": 10,"
	    " \"clat_ns\": {\"percentile\": {\"50.000000\": 1500, \"99.900000\": 3000000}}},"
	    " \"write\": {\"io_bytes\": 0, \"bw_bytes\": 0, \"iops\": 0}},"
	    " {\"jobname\": \"bad.name\", \"error\": 0}, {\"jobname\": \"$(x)\", \"error\": 0}]}\n");
	put(dir, "d-broken.fio.json", "{\"jobs\": [{\"jobname\": \"broken\", \"error\": 0,\n");
	out = open_memstream(&rows, &len);
	CHECK(out != NULL);
	if (!out)
		return;
	CHECK_EQ_INT(summarize_run(dir, top, out, err, sizeof(err)), 0);
	fclose(out);
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

TEST(test_numbers)
{
	CHECK(summarize_is_number("12"));
	CHECK(summarize_is_number("-3.5"));
	CHECK(summarize_is_number("1e-5"));
	CHECK(summarize_is_number(".5"));
	CHECK(!summarize_is_number(""));
	CHECK(!summarize_is_number("absent"));
	CHECK(!summarize_is_number("1x"));
	CHECK(!summarize_is_number("1e"));
	CHECK(!summarize_is_number("$(x)"));
}
