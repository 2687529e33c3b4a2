// SPDX-License-Identifier: GPL-2.0
/*
 * rl-report: the report of a comparison matrix into a new folder (see
 * report.h); scripts/report.sh moves it into the matrix.
 *
 * Exit status: 0 ok, 1 runtime error, 2 bad usage or a matrix that cannot
 * be reported.
 */
#include "cli.h"
#include "report-model.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PROG "rl-report"

static const char usage_text[] =
	"usage: " PROG " --matrix DIR --scenarios DIR --out DIR\n"
	"                 [--fs-order LIST] [--mode-order LIST] [--png-term T | --no-plots]\n"
	"Writes DIR/report.md, DIR/report.html and DIR/plots/ (gnuplot scripts, data,\n"
	"SVG and PNG) for the runs of the matrix folder.  --fs-order and --mode-order\n"
	"give the order of the catalogue; --png-term the gnuplot terminal for PNGs\n"
	"(pngcairo or png).\n"
	"Exit status: 0 ok, 1 runtime error, 2 bad usage or matrix.\n";

static void usage_fail(const char *what)
{
	fprintf(stderr, "%s" PROG ": %s\n", usage_text, what);
	exit(2);
}

int main(int argc, char **argv)
{
	struct report_opts o = { .fs_order = "", .mode_order = "", .png_term = "pngcairo" };
	static struct report_model r;
	const char *out = NULL, *base;
	char err[1024], *md = NULL, *path;
	size_t mdlen = 0, n;
	FILE *f, *mf;
	int i, rc = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--help")) {
			fputs(usage_text, stdout);
			return 0;
		} else if (!strcmp(a, "--no-plots")) {
			o.png_term = NULL;
			continue;
		} else if (!v) {
			usage_fail("an option without its value");
		} else if (!strcmp(a, "--matrix")) {
			o.matrix = v;
		} else if (!strcmp(a, "--scenarios")) {
			o.scenarios = v;
		} else if (!strcmp(a, "--out")) {
			out = v;
		} else if (!strcmp(a, "--fs-order")) {
			o.fs_order = v;
		} else if (!strcmp(a, "--mode-order")) {
			o.mode_order = v;
		} else if (!strcmp(a, "--png-term")) {
			if (strcmp(v, "pngcairo") && strcmp(v, "png"))
				usage_fail("bad --png-term (valid: pngcairo, png)");
			o.png_term = v;
		} else {
			usage_fail("unknown option (valid: --matrix --scenarios --out --fs-order --mode-order --png-term --no-plots --help)");
		}
		i++;
	}
	if (!o.matrix || !o.scenarios || !out)
		usage_fail("--matrix, --scenarios and --out are needed");
	n = strlen(out) + 32;
	path = xmalloc(n);
	snprintf(path, n, "%s/plots", out);
	if (mkdir(out, 0755) && errno != EEXIST) {
		fprintf(stderr, PROG ": cannot create '%s': %s\n", out, strerror(errno));
		return 1;
	}
	if (mkdir(path, 0755) && errno != EEXIST) {
		fprintf(stderr, PROG ": cannot create '%s': %s\n", path, strerror(errno));
		return 1;
	}
	if (model_load(&r, &o, out, err, sizeof(err)) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		model_free(&r);
		free(path);
		return 2;
	}
	mf = open_memstream(&md, &mdlen);
	if (!mf || report_markdown(&r, mf, stderr) < 0 || fclose(mf)) {
		fprintf(stderr, PROG ": out of memory\n");
		return 1;
	}
	/* new files: a link planted at report.md or report.html is not followed */
	snprintf(path, n, "%s/report.md", out);
	f = cli_create(path, err, sizeof(err));
	if (!f || fputs(md, f) < 0 || fclose(f)) {
		fprintf(stderr, PROG ": %s\n", f ? "cannot write report.md" : err);
		rc = 1;
	}
	snprintf(path, n, "%s/report.html", out);
	f = cli_create(path, err, sizeof(err));
	if (!f)
		fprintf(stderr, PROG ": %s\n", err);
	base = strrchr(o.matrix, '/');
	base = base && base[1] ? base + 1 : o.matrix;
	snprintf(err, sizeof(err), "reclaimlab report: %s", base);
	snprintf(path, n, "%s/plots", out);
	if (!f || report_html(md, err, path, f) < 0 || fclose(f)) {
		fprintf(stderr, PROG ": cannot write %s/report.html\n", out);
		rc = 1;
	}
	if (!rc)
		printf("%zu of %zu runs ok\n", model_count_status(&r, "ok"), r.nruns);
	free(md);
	free(path);
	model_free(&r);
	return rc;
}
