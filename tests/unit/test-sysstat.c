// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of scripts/tools/summarize/sysstat.c: sysstat's iostat JSON into
 * per-device means.  tests/fixtures/sysstat/ holds real output of sysstat
 * 12.6.1 in a guest (see its README); the rest is written here.
 */
#include "check.h"
#include "lib/util.h"
#include "summarize/sysstat.h"

static double mean_of(const struct sysstat_dev *d, const char *metric)
{
	const struct sysstat_col *c = d ? sysstat_col(d, metric) : NULL;
	double mean, sd;

	if (!c || sysstat_col_mean(c, &mean, &sd)) {
		fprintf(stderr, "  no mean of %s\n", metric);
		return NAN;
	}
	return mean;
}

static double sd_of(const struct sysstat_dev *d, const char *metric)
{
	const struct sysstat_col *c = d ? sysstat_col(d, metric) : NULL;
	double mean, sd;

	if (!c || sysstat_col_mean(c, &mean, &sd))
		return NAN;
	return sd;
}

static int read_text(const char *text, struct sysstat_iostat *io, char *err, size_t errlen)
{
	return sysstat_iostat_read(text, strlen(text), io, err, errlen);
}

/* Two intervals, the second idle: rates over both, per request columns over the first. */
TEST(test_rates_and_requests_weighted_apart)
{
	static const char text[] =
		"{\"sysstat\": {\"hosts\": [{\"nodename\": \"g\", \"statistics\": [\n"
		"{\"disk\": [{\"disk_device\": \"ubda\", \"r/s\": 2.00, \"w/s\": 6.00,"
		" \"rkB/s\": 8.00, \"wkB/s\": 3072.00, \"rrqm/s\": 0.00, \"rrqm\": 0.00,"
		" \"wareq-sz\": 512.00, \"w_await\": 30.00, \"aqu-sz\": 3.00, \"util\": 90.00}]},\n"
		"{\"disk\": [{\"disk_device\": \"ubda\", \"r/s\": 0.00, \"w/s\": 0.00,"
		" \"rkB/s\": 0.00, \"wkB/s\": 0.00, \"rrqm/s\": 0.00, \"rrqm\": 0.00,"
		" \"wareq-sz\": 0.00, \"w_await\": 0.00, \"aqu-sz\": 0.00, \"util\": 0.00}]}\n"
		"]}]}}\n";
	struct sysstat_iostat io;
	const struct sysstat_dev *d;
	char err[128];

	CHECK_EQ_INT(read_text(text, &io, err, sizeof(err)), 0);
	CHECK_EQ_INT(io.intervals, 2);
	CHECK_EQ_INT(io.ndevs, 1);
	d = io.ndevs ? &io.devs[0] : NULL;
	CHECK_STR(d ? d->name : NULL, "ubda");
	CHECK_EQ_INT(d ? d->intervals : 0, 2);
	/* rates: the mean over every interval, no spread kept */
	CHECK_NEAR(mean_of(d, "w_s"), 3, 1e-12);
	CHECK_NEAR(mean_of(d, "wkB_s"), 1536, 1e-12);
	CHECK_NEAR(mean_of(d, "aqu_sz"), 1.5, 1e-12);
	CHECK_NEAR(mean_of(d, "util"), 45, 1e-12);
	CHECK(d && !sysstat_col(d, "util")->per_request);
	/* per write request: the idle interval had none */
	CHECK_NEAR(mean_of(d, "wareq_sz"), 512, 1e-12);
	CHECK_NEAR(mean_of(d, "w_await"), 30, 1e-12);
	CHECK(d && sysstat_col(d, "wareq_sz")->per_request);
	/* 2012's avgrq-sz: (8 + 3072) * 2 / (2 + 6) sectors, weighted by 8 requests */
	CHECK_NEAR(mean_of(d, "avgrq_sz"), 770, 1e-12);
	CHECK_NEAR(sd_of(d, "avgrq_sz"), 0, 1e-12);
	/* no read was merged and none came in unmerged in the idle second: a mean of 0 */
	CHECK_NEAR(mean_of(d, "rrqm"), 0, 1e-12);
	CHECK(d && sysstat_col(d, "r_await") == NULL);
	sysstat_iostat_free(&io);
}

/* A per request column's spread: the writes weight each interval's value. */
TEST(test_spread_weighted_by_requests)
{
	static const char text[] =
		"{\"sysstat\": {\"hosts\": [{\"statistics\": [\n"
		"{\"disk\": [{\"disk_device\": \"ubdb\", \"w/s\": 3.00, \"wareq-sz\": 8.00}]},\n"
		"{\"disk\": [{\"disk_device\": \"ubdb\", \"w/s\": 1.00, \"wareq-sz\": 24.00}]}\n"
		"]}]}}";
	struct sysstat_iostat io;
	char err[128];

	CHECK_EQ_INT(read_text(text, &io, err, sizeof(err)), 0);
	/* mean (3*8 + 24) / 4 = 12; variance (3*16 + 144) / 4 = 48 */
	CHECK_NEAR(mean_of(io.ndevs ? &io.devs[0] : NULL, "wareq_sz"), 12, 1e-12);
	CHECK_NEAR(sd_of(io.ndevs ? &io.devs[0] : NULL, "wareq_sz"), sqrt(48), 1e-12);
	/* no r/s, rkB/s: no avgrq-sz */
	CHECK(io.ndevs && sysstat_col(&io.devs[0], "avgrq_sz") == NULL);
	sysstat_iostat_free(&io);
}

/* Two devices, names as metric words, what is not a number or a plain name skipped. */
TEST(test_devices_and_names)
{
	static const char text[] =
		"{\"sysstat\": {\"hosts\": [{\"statistics\": [{\"disk\": [\n"
		"{\"disk_device\": \"ubda\", \"wkB/s\": 1.00, \"note\": \"text\", \"x\": null},\n"
		"{\"disk_device\": \"ubdb\", \"r/s\": 4.00},\n"
		"{\"disk_device\": \"../etc\", \"r/s\": 4.00},\n"
		"{\"disk_device\": \"a.b\", \"r/s\": 4.00},\n"
		"{\"r/s\": 4.00}, 7\n"
		"]}]}]}}";
	struct sysstat_iostat io;
	char err[128];

	CHECK_EQ_INT(read_text(text, &io, err, sizeof(err)), 0);
	CHECK_EQ_INT(io.ndevs, 2);
	if (io.ndevs == 2) {
		CHECK_STR(io.devs[0].name, "ubda");
		CHECK_STR(io.devs[1].name, "ubdb");
		CHECK_EQ_INT(io.devs[0].ncols, 1);
		CHECK_STR(io.devs[0].cols[0].metric, "wkB_s");
		CHECK_NEAR(mean_of(&io.devs[1], "r_s"), 4, 1e-12);
	}
	sysstat_iostat_free(&io);
	/* reports without the device: seconds sampled, no device */
	CHECK_EQ_INT(read_text("{\"sysstat\": {\"hosts\": [{\"statistics\": ["
			       "{\"disk\": []}, {}]}]}}", &io, err, sizeof(err)), 0);
	CHECK_EQ_INT(io.intervals, 2);
	CHECK_EQ_INT(io.ndevs, 0);
	sysstat_iostat_free(&io);
	/* a workload shorter than a second: iostat closed a document with none */
	CHECK_EQ_INT(read_text("{\"sysstat\": {\"hosts\": [{\"statistics\": [\n\n]}]}}",
			       &io, err, sizeof(err)), 0);
	CHECK_EQ_INT(io.intervals, 0);
	CHECK_EQ_INT(io.ndevs, 0);
	sysstat_iostat_free(&io);
}

/* What is not iostat's JSON: refused with a reason, nothing kept. */
TEST(test_not_iostat_json)
{
	struct sysstat_iostat io;
	char err[128];

	/* iostat killed before it closed the document */
	CHECK_EQ_INT(read_text("{\"sysstat\": {\"hosts\": [{\"statistics\": [{\"disk\": [", &io, err, sizeof(err)), -1);
	CHECK_EQ_INT(io.ndevs, 0);
	CHECK(err[0] != '\0');
	sysstat_iostat_free(&io);
	CHECK_EQ_INT(read_text("{\"jobs\": []}", &io, err, sizeof(err)), -1);
	CHECK_STR(err, "not iostat's JSON (no sysstat.hosts[0].statistics)");
	sysstat_iostat_free(&io);
	CHECK_EQ_INT(read_text("", &io, err, sizeof(err)), -1);
	sysstat_iostat_free(&io);
}

/*
 * The real thing: sysstat 12.6.1's JSON of an fs-completion run (one
 * writer of 512M, ext4 on the hdd profile; tests/fixtures/sysstat/README.md).
 * The means are those python's json module gives for the same file; the
 * derived avgrq-sz is 2012's (rkB/s + wkB/s) * 2 / (r/s + w/s) of them.
 */
TEST(test_guest_iostat_json)
{
	const char *fixtures = getenv("RL_FIXTURES");
	struct sysstat_iostat io;
	const struct sysstat_dev *d;
	char path[4096], err[128], *text;
	double r, w, rkb, wkb;

	CHECK(fixtures != NULL);
	if (!fixtures)
		return;
	snprintf(path, sizeof(path), "%s/sysstat/fs-completion.iostat.json", fixtures);
	text = read_whole_file(path, NULL);
	CHECK(text != NULL);
	if (!text)
		return;
	CHECK_EQ_INT(sysstat_iostat_read(text, strlen(text), &io, err, sizeof(err)), 0);
	CHECK_EQ_INT(io.intervals, 5);
	CHECK_EQ_INT(io.ndevs, 1);
	d = io.ndevs ? &io.devs[0] : NULL;
	CHECK_STR(d ? d->name : NULL, "ubda");
	CHECK_EQ_INT(d ? d->intervals : 0, 5);
	r = mean_of(d, "r_s");
	w = mean_of(d, "w_s");
	rkb = mean_of(d, "rkB_s");
	wkb = mean_of(d, "wkB_s");
	CHECK_NEAR(w, 177.8, 1e-9);
	CHECK_NEAR(wkb, 90931.2, 1e-9);
	CHECK_NEAR(mean_of(d, "util"), 98.86, 1e-9);
	CHECK_NEAR(mean_of(d, "aqu_sz"), 46.554, 1e-9);
	/* weighted by the writes: the workload's kB per write, up to the
	 * JSON's two decimals */
	CHECK_NEAR(mean_of(d, "wareq_sz"), wkb / w, 0.01);
	CHECK_NEAR(mean_of(d, "wareq_sz"), 511.42463442069743, 1e-9);
	CHECK_NEAR(mean_of(d, "w_await"), 261.7972215973004, 1e-9);
	CHECK_NEAR(mean_of(d, "avgrq_sz"), (rkb + wkb) * 2 / (r + w), 1e-9);
	CHECK(sd_of(d, "wareq_sz") >= 0);
	sysstat_iostat_free(&io);
	free(text);
}
