// SPDX-License-Identifier: GPL-2.0
/*
 * rl-report: the report of a comparison matrix into a new folder (see
 * report/model.h); scripts/report.sh moves it into the matrix.
 *
 * Exit status: 0 ok, 1 runtime error, 2 bad usage or a matrix that cannot
 * be reported.
 */
#include "lib/cli.h"
#include "report/html.h"
#include "report/markdown.h"
#include "report/model.h"

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

#define OPTIONS_VALID "--matrix --scenarios --out --fs-order --mode-order --png-term --no-plots --help"

enum {
	OPT_MATRIX = 256, OPT_SCENARIOS, OPT_OUT, OPT_FS_ORDER, OPT_MODE_ORDER,
	OPT_PNG_TERM, OPT_NO_PLOTS, OPT_HELP,
};

static const struct option long_options[] = {
	{ "matrix", required_argument, NULL, OPT_MATRIX },
	{ "scenarios", required_argument, NULL, OPT_SCENARIOS },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "fs-order", required_argument, NULL, OPT_FS_ORDER },
	{ "mode-order", required_argument, NULL, OPT_MODE_ORDER },
	{ "png-term", required_argument, NULL, OPT_PNG_TERM },
	{ "no-plots", no_argument, NULL, OPT_NO_PLOTS },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static void __attribute__((noreturn)) usage_fail(const char *what)
{
	fprintf(stderr, "%s" PROG ": %s\n", usage_text, what);
	exit(2);
}

int main(int argc, char **argv)
{
	struct report_opts o = { .fs_order = "", .mode_order = "", .png_term = "pngcairo" };
	static struct report_model r;
	const char *out = NULL, *base;
	char err[1024], bad[8], *md = NULL, *path;
	size_t mdlen = 0, n;
	FILE *f, *mf;
	int c, rc = 0;

	while ((c = getopt_long(argc, argv, "-:", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_HELP:
			fputs(usage_text, stdout);
			return 0;
		case OPT_NO_PLOTS:
			o.png_term = NULL;
			break;
		case OPT_MATRIX:
			o.matrix = optarg;
			break;
		case OPT_SCENARIOS:
			o.scenarios = optarg;
			break;
		case OPT_OUT:
			out = optarg;
			break;
		case OPT_FS_ORDER:
			o.fs_order = optarg;
			break;
		case OPT_MODE_ORDER:
			o.mode_order = optarg;
			break;
		case OPT_PNG_TERM:
			if (strcmp(optarg, "pngcairo") && strcmp(optarg, "png")) {
				snprintf(err, sizeof(err), "bad --png-term '%s' (valid: pngcairo, png)",
					 optarg);
				usage_fail(err);
			}
			o.png_term = optarg;
			break;
		case ':':
			snprintf(err, sizeof(err), "option '%s' needs its value", argv[optind - 1]);
			usage_fail(err);
			break;
		default:	/* an unknown option, or an argument that is none */
			snprintf(err, sizeof(err), "unknown option '%s' (valid: " OPTIONS_VALID ")",
				 c == 1 ? optarg : cli_refused_option(argv, bad, sizeof(bad)));
			usage_fail(err);
		}
	}
	if (optind < argc) {	/* after "--" */
		snprintf(err, sizeof(err), "unknown option '%s' (valid: " OPTIONS_VALID ")",
			 argv[optind]);
		usage_fail(err);
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
