// SPDX-License-Identifier: GPL-2.0
/*
 * The report of a matrix; see model.h.  report.md is written section by
 * section from a model of the matrix (runs, groups, pairs, verdicts per
 * scenario); plots.c draws the figures and html.c renders the same
 * markdown as a self-contained page.
 */
#include "report/markdown.h"
#include "report/model.h"
#include "report/plots.h"
#include "lib/conf.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --- small helpers ----------------------------------------------------- */

void format_readable(char *buf, size_t size, double v)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(buf, size, "-");
	else if (a >= 1000 || a == floor(a))
		snprintf(buf, size, "%.0f", v == 0 ? 0.0 : v);
	else if (a >= 100)
		snprintf(buf, size, "%.1f", v);
	else
		snprintf(buf, size, "%.3g", v);
}

/* format_readable of a value as the aggregate tables print it (rounded first) */
static const char *fmt(char *buf, size_t size, double v)
{
	char s[32];

	if (isnan(v)) {
		snprintf(buf, size, "-");
		return buf;
	}
	agg_format(s, sizeof(s), v);
	format_readable(buf, size, strtod(s, NULL));
	return buf;
}

/* A group's median, then its min–max when its runs differ. */
static void median_range(FILE *f, const struct agg_group *g)
{
	char a[32], b[32], c[32];

	fprintf(f, "%s", fmt(a, sizeof(a), g->median));
	if (g->n > 1 && differ_as_printed(g->min, g->max))
		fprintf(f, " (%s–%s)", fmt(b, sizeof(b), g->min), fmt(c, sizeof(c), g->max));
}

void md_text(FILE *f, const char *s)
{
	/*
	 * What a guest wrote, as plain text in report.md: no link, code or
	 * bold markup (html.c would render it), no table cell break, no
	 * control character; the rest as it is.
	 */
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		fputc(c < 0x20 || c == 0x7f || strchr("[]`*|<>", c) ? '_' : c, f);
	}
}

/* "- MODE: knob=value, ...": the knobs of scenario scn's runs of mode */
static void knob_line(const struct report_model *r, const char *scn, const char *mode,
		      FILE *f)
{
	struct strv lines = { 0 }, order = { 0 }, value = { 0 };
	size_t i, j, absent = 0, nruns = 0;
	int any = 0, mglru = 0, mglru_off = 0;

	for (i = 0; i < r->nruns; i++)
		nruns += !strcmp(r->runs[i].scenario, scn) && !strcmp(r->runs[i].mode, mode);
	if (!nruns)
		return;
	model_knob_lines(r, scn, mode, &lines, &any);
	for (i = 0; i < lines.n; i++) {
		char *eq = strchr(lines.v[i], '='), *eq2;
		const char *val = "";

		if (eq) {
			*eq = '\0';
			val = eq + 1;
			eq2 = strchr(eq + 1, '=');
			if (eq2)
				*eq2 = '\0';
		}
		/* on in every run, whatever mask each read back */
		if (!strcmp(lines.v[i], "sys.kernel.mm.lru_gen.enabled")) {
			mglru = 1;
			/* y, or a mask of the features on */
			mglru_off |= strcmp(val, "y") && strtoul(val, NULL, 0) == 0;
		}
		for (j = 0; j < order.n && strcmp(order.v[j], lines.v[i]); j++)
			;
		if (j == order.n) {
			strv_push(&order, lines.v[i]);
			strv_push(&value, val);
		} else if (strcmp(value.v[j], val)) {
			free(value.v[j]);
			value.v[j] = xstrdup("varies");
		}
	}
	if (!order.n) {
		fprintf(f, "- %s: no knobs recorded\n", mode);
		goto out;
	}
	fprintf(f, "- %s: ", mode);
	for (i = 0; i < order.n; i++) {
		fprintf(f, "%s", i ? ", " : "");
		md_text(f, order.v[i]);
		fputc('=', f);
		md_text(f, value.v[i]);
		absent += !strcmp(value.v[i], "absent");
	}
	if (absent == order.n) {
		/* a mode on a kernel (a matrix of kernels) is vanilla on it */
		const char *m = mode, *k = RECORD_NO_KERNEL;
		char *vanilla;

		model_mode_parts(r, mode, &m, &k);
		vanilla = record_mode_label("vanilla", k);
		if (strcmp(mode, vanilla))
			fprintf(f, " — **all absent: this kernel has none of these knobs, so the %s runs ran the kernel's default behaviour (%s == %s)**",
				mode, mode, vanilla);
		else
			fprintf(f, " — **all absent: this kernel has none of these knobs, so the %s runs ran the kernel's default behaviour**",
				mode);
		free(vanilla);
	}
	/*
	 * Which knobs act under MGLRU depends on the series a kernel
	 * carries, which the run folders do not list: say it per patch.
	 */
	if (mglru && !mglru_off)
		fprintf(f, " — **the multi-gen LRU is on: the pageout works, vm.reclaim_plug and vm.reclaim_throttle_writeback apply to both LRUs; vm.reclaim_wait_dirty has no effect under it without patch 0020 (mm: vmscan: take the series' reclaim waits under the multi-gen LRU), which the lab's series carries**");
	fprintf(f, "\n");
out:
	strv_free(&lines);
	strv_free(&order);
	strv_free(&value);
}

/* every parameter of run, "(--set)" after those the matrix set */
static void print_params(const struct report_model *r, const struct model_run *run, FILE *f)
{
	struct strv sets = { 0 }, params = { 0 };
	/* every parameter, resolved: run.conf's params= (run.sh, before boot) */
	char *text = run ? conf_value(run->conf, "params") : NULL;
	size_t i;
	int n = 0;

	strv_split(&sets, r->conf_sets);
	strv_split(&params, text);
	for (i = 0; i < params.n; i++) {
		const char *kv = params.v[i];

		if (!strncmp(kv, "SCN_", 4))
			continue;
		fprintf(f, "%s", n++ ? ", " : "");
		md_text(f, kv);
		fprintf(f, "%s", strv_has(&sets, kv) ? " (--set)" : "");
	}
	if (!n)
		fprintf(f, "none recorded");
	free(text);
	strv_free(&sets);
	strv_free(&params);
}

/* --- the markdown ------------------------------------------------------ */

struct status_count {
	const char *status;
	size_t n;
};

static int by_count(const void *a, const void *b)
{
	const struct status_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->status, y->status);
}

/*
 * A matrix of kernels (compare.sh --kernel NAME=SPEC): each kernel by name,
 * with what its first run recorded of it; its runs' mode is MODE@NAME.
 */
static void kernels_line(struct report_model *r, FILE *f)
{
	static const char *const keys[] = { "kernel_source", "series" };
	struct strv names = { 0 };
	size_t i, k;

	for (i = 0; i < r->nruns; i++) {
		char *name = conf_value(r->runs[i].conf ? r->runs[i].conf : "", "kernel_name");

		if (name && *name && !strv_has(&names, name)) {
			const struct model_run *run = &r->runs[i];

			fprintf(f, "%s`%s`: ", names.n ? "; " : "- Kernels (a mode MODE@NAME ran on kernel NAME): ",
				name);
			md_text(f, run->kernel ? run->kernel : "release unknown");
			for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
				char *v = conf_value(run->conf, keys[k]);

				fprintf(f, "%s%s %s", k ? ", " : " (", keys[k],
					v && *v ? v : "unknown");
				free(v);
			}
			fprintf(f, ")");
			strv_push(&names, name);
		}
		free(name);
	}
	if (names.n)
		fprintf(f, "\n");
	strv_free(&names);
}

/*
 * How much the repeats varied: the cells (scenario, fs, profile, mode)
 * with two or more ok runs, and how many of them differed in a figure
 * other than the host's wall time.  While the seed moves nothing a
 * scenario uses, every cell's repeats are identical, and the report says
 * so before any verdict.
 */
static void variation_line(struct report_model *r, FILE *f)
{
	struct strv cells = { 0 }, varied = { 0 };
	char key[1024];
	size_t i, j;

	for (i = 0; i < r->nscn; i++)
		for (j = 0; j < r->scn[i].ngroups; j++) {
			const struct agg_group *g = &r->scn[i].groups[j];

			if (g->n < 2)
				continue;
			snprintf(key, sizeof(key), "%s %s %s %s %s", g->dim[AGG_SCENARIO],
				 g->dim[AGG_FS], g->dim[AGG_PROFILE], g->dim[AGG_MODE],
				 g->dim[AGG_KERNEL]);
			strv_add_unique(&cells, key);
			if (g->spread > 0 && strcmp(g->metric, "run.wall_seconds"))
				strv_add_unique(&varied, key);
		}
	if (cells.n && !varied.n)
		fprintf(f, "- Variation between repeats: none; each of the %zu scenario/fs/mode cells with two or more ok runs gave the same figures in every repeat (the host's run.wall_seconds aside): the seeds moved nothing these runs measure\n",
			cells.n);
	else if (cells.n)
		fprintf(f, "- Variation between repeats: of %zu scenario/fs/mode cells with two or more ok runs, %zu varied in some figure and %zu gave the same figures in every repeat (the host's run.wall_seconds aside)\n",
			cells.n, varied.n, cells.n - varied.n);
	strv_free(&cells);
	strv_free(&varied);
}

static void header(struct report_model *r, FILE *f)
{
	struct status_count *counts;
	const char *base = strrchr(r->matrix, '/');
	struct strv kernels = { 0 }, started = { 0 }, status = { 0 }, clocks = { 0 };
	size_t i;
	char *v;

	base = base && base[1] ? base + 1 : r->matrix;
	for (i = 0; i < r->nruns; i++) {
		struct model_run *run = &r->runs[i];

		if (run->kernel)
			strv_add_unique(&kernels, run->kernel);
		v = conf_value(run->conf ? run->conf : "", "started");
		if (v)
			strv_push(&started, v);
		free(v);
	}
	strv_sort(&kernels);
	strv_sort(&started);
	fprintf(f, "# reclaimlab report: %s\n\n", base);
	fprintf(f, "- Kernel: ");
	if (!kernels.n)
		fprintf(f, "unknown");
	for (i = 0; i < kernels.n; i++) {
		fprintf(f, "%s", i ? ", " : "");
		md_text(f, kernels.v[i]);
	}
	fprintf(f, "\n");
	kernels_line(r, f);
	if (!started.n)
		fprintf(f, "- Runs started: unknown\n");
	else if (!strcmp(started.v[0], started.v[started.n - 1]))
		fprintf(f, "- Runs started: %s\n", started.v[0]);
	else
		fprintf(f, "- Runs started: %s to %s\n", started.v[0], started.v[started.n - 1]);
	fprintf(f, "- Matrix: scenarios ");
	strv_print(f, &r->scenarios, " ");
	fprintf(f, "; filesystems ");
	strv_print(f, &r->fs, " ");
	fprintf(f, "; modes ");
	strv_print(f, &r->modes, " ");
	fprintf(f, "; repeat %s; profile %s; memory %s; timeout %s; --set %s\n",
		*r->conf_repeat ? r->conf_repeat : "?",
		*r->conf_profile ? r->conf_profile : "each scenario's own",
		*r->conf_mem ? r->conf_mem : "each scenario's own",
		*r->conf_timeout ? r->conf_timeout : "each scenario's own",
		*r->conf_sets ? r->conf_sets : "none");
	/* each run's clock, as run.sh recorded it in its run.conf */
	for (i = 0; i < r->nruns; i++) {
		v = conf_value(r->runs[i].conf, "clock");
		if (v && *v)
			strv_add_unique(&clocks, v);
		free(v);
	}
	strv_sort(&clocks);
	fprintf(f, "- Guest clock: ");
	if (clocks.n)
		strv_print(f, &clocks, ", ");
	else
		fprintf(f, "basic (not recorded: a matrix from before the clock option)");
	fprintf(f, " (scripts/run.sh --help, --time-travel)\n");
	strv_free(&clocks);
	if (r->stalls.n) {
		fprintf(f, "- Clock stalls: the cpu clock of ");
		strv_print(f, &r->stalls, ", ");
		fprintf(f, " stalled and was moved with host time (a host timer of 10 ms): those runs are not a function of their inputs alone\n");
	}
	/* statuses by count, most first, then by name */
	for (i = 0; i < r->nruns; i++)
		strv_add_unique(&status, r->runs[i].status);
	strv_sort(&status);
	counts = xmalloc((status.n + 1) * sizeof(*counts));
	for (i = 0; i < status.n; i++) {
		counts[i].status = status.v[i];
		counts[i].n = model_count_status(r, status.v[i]);
	}
	if (status.n)
		qsort(counts, status.n, sizeof(*counts), by_count);
	fprintf(f, "- Runs: %zu (", r->nruns);
	for (i = 0; i < status.n; i++)
		fprintf(f, "%s%zu %s", i ? ", " : "", counts[i].n, counts[i].status);
	free(counts);
	fprintf(f, ")");
	if (r->interrupted)
		fprintf(f, "; %zu interrupted attempts that a resume redid are not counted",
			r->interrupted);
	fprintf(f, "\n");
	variation_line(r, f);
	if (*r->malformed_note)
		fprintf(f, "- Summary rows: %s\n", r->malformed_note);
	fprintf(f, "- Regenerate with `scripts/report.sh THIS-FOLDER` or `make report RESULTS=THIS-FOLDER`: it reads the saved run folders only.\n\n");
	strv_free(&kernels);
	strv_free(&started);
	strv_free(&status);
}

static void absent_knobs(struct report_model *r, FILE *f)
{
	struct strv absent = { 0 };
	size_t i;

	for (i = 0; i < r->modes.n; i++)
		if (model_mode_all_absent(r, r->modes.v[i]))
			strv_push(&absent, r->modes.v[i]);
	if (!absent.n)
		return;
	if (absent.n == r->modes.n) {
		fprintf(f, "> **Every knob is absent** in every mode (");
		strv_print(f, &absent, " ");
		fprintf(f, "): this kernel has none of the patched knobs, so all runs ran the same kernel behaviour. **patched == vanilla**: any difference between the modes is run-to-run noise.\n");
	} else {
		fprintf(f, "> **Knobs absent** in mode(s) ");
		strv_print(f, &absent, " ");
		fprintf(f, ": those runs ran their kernel's default behaviour, the same as vanilla on that kernel.\n");
	}
	fprintf(f, "\n");
	strv_free(&absent);
}

static void checks_at_a_glance(struct report_model *r, FILE *f)
{
	size_t i, j, k, c[AGG_NVERDICTS];

	fprintf(f, "## Checks at a glance\n\n");
	fprintf(f, "A verdict needs %d runs on each side. A count outcome (a count metric against a number: OOM kills, zero waits) is the share of seeds in which the check held, with its Wilson score 95%% interval: reproduced when the whole interval is above %g (the check holds in most seeds), not reproduced when it is below, inconclusive when it contains %g. Any other check rests on a bootstrap 95%% interval of the difference of medians (%d resamples): reproduced when the whole interval is on the check's side, not reproduced when all of it is on the other, inconclusive when it spans both; when every run of each side gave the same value, the interval has no width and the verdict is \"%s\".\n\n",
		AGG_MIN_RUNS, AGG_SHARE_MAJORITY, AGG_SHARE_MAJORITY, AGG_BOOTSTRAP,
		agg_verdict_name(AGG_NO_VARIATION));
	fprintf(f, "| scenario |");
	for (k = 0; k < AGG_NVERDICTS; k++)
		fprintf(f, " %s |", agg_verdict_name(k));
	fprintf(f, "\n|---|");
	for (k = 0; k < AGG_NVERDICTS; k++)
		fprintf(f, "---|");
	fprintf(f, "\n");
	for (i = 0; i < r->nscn; i++) {
		struct model_scenario *s = &r->scn[i];

		memset(c, 0, sizeof(c));
		for (j = 0; j < s->nverdicts; j++)
			c[s->verdicts[j].v.kind]++;
		fprintf(f, "| %s |", s->name);
		for (k = 0; k < AGG_NVERDICTS; k++)
			fprintf(f, " %zu |", c[k]);
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
}

static void runs_not_ok(struct report_model *r, FILE *f)
{
	static const char *const keys[] = {
		"exit_status", "oom_kills", "splats", "splat_kinds", "simulated_seconds",
	};
	size_t i, k, nok = 0;

	for (i = 0; i < r->nruns; i++)
		nok += !strcmp(r->runs[i].status, "ok");
	if (nok == r->nruns)
		return;
	fprintf(f, "## Runs not ok (left out of every table and plot)\n\n");
	fprintf(f, "| run | status | details |\n|---|---|---|\n");
	for (i = 0; i < r->nruns; i++) {
		struct model_run *run = &r->runs[i];
		char *err = NULL;
		const char *line;
		int any = 0;

		if (!strcmp(run->status, "ok"))
			continue;
		fprintf(f, "| %s | %s | ", run->name, run->status);
		/* the status file's facts, in its order */
		for (line = run->status_text; line && *line;) {
			const char *nl = strchr(line, '\n');
			size_t len = nl ? (size_t)(nl - line) : strlen(line);

			for (k = 0; line != run->status_text && k < sizeof(keys) / sizeof(keys[0]); k++) {
				size_t kl = strlen(keys[k]);

				if (len > kl && !strncmp(line, keys[k], kl) && line[kl] == '=') {
					fprintf(f, "%s%.*s", any ? " " : "", (int)len, line);
					any = 1;
				}
			}
			line = nl ? nl + 1 : NULL;
		}
		if (!any)
			fprintf(f, "-");
		err = model_run_error(r, run);
		if (!strcmp(run->status, RECORD_UNSUMMARIZED)) {
			free(err);
			err = strdup("no summary.tsv: run scripts/summarize-run.sh on it");
		}
		if (err && *err)
			fprintf(f, "; %s", err);
		fprintf(f, " |\n");
		free(err);
	}
	fprintf(f, "\n");
}

/* a metric table: fs | mode | runs | one column per metric */
static void metric_table(struct report_model *r, struct model_scenario *s, FILE *f,
			 const struct strv *metrics, const struct strv *titles)
{
	size_t i, j, k;

	fprintf(f, "| fs | mode | runs |");
	for (k = 0; k < metrics->n; k++)
		fprintf(f, " %s |", titles ? titles->v[k] : metrics->v[k]);
	fprintf(f, "\n|---|---|---|");
	for (k = 0; k < metrics->n; k++)
		fprintf(f, "---|");
	fprintf(f, "\n");
	for (i = 0; i < r->fs.n; i++) {
		for (j = 0; j < r->modes.n; j++) {
			const char *fs = r->fs.v[i], *m = r->modes.v[j];
			size_t ok = model_count_runs(r, s->name, fs, m, 1);
			size_t bad = model_count_runs(r, s->name, fs, m, 0);

			if (!ok && !bad)
				continue;
			fprintf(f, "| %s | %s | %zu", fs, m, ok);
			if (bad)
				fprintf(f, " (+%zu not ok)", bad);
			fprintf(f, " |");
			for (k = 0; k < metrics->n; k++) {
				const struct agg_group *g = model_group(s, fs, m, metrics->v[k]);

				if (!g) {
					fprintf(f, " - |");
					continue;
				}
				fprintf(f, " ");
				median_range(f, g);
				if (model_not_significant(r, s, fs, m, metrics->v[k]))
					fprintf(f, " n.s.");
				fprintf(f, " |");
			}
			fprintf(f, "\n");
		}
	}
}

static void side_text(FILE *f, const struct agg_side *side, const struct agg_value *v)
{
	char a[32], b[32];

	if (side->is_number)
		fprintf(f, "%s", fmt(a, sizeof(a), side->number));
	else if (!v->n)
		fprintf(f, "no data");
	else
		fprintf(f, "%s (n=%zu, spread %s)", fmt(a, sizeof(a), v->median), v->n,
			fmt(b, sizeof(b), v->spread));
}

/* A verdict's two sides as measured, and what the verdict rests on. */
static void measured_text(FILE *f, const struct model_verdict *v)
{
	char note[320];

	agg_verdict_note(v->check, &v->v, note, sizeof(note));
	side_text(f, &v->check->left, &v->v.left);
	fprintf(f, " %s ", agg_op_name(v->check->op));
	side_text(f, &v->check->right, &v->v.right);
	if (strcmp(note, "-"))
		fprintf(f, "; %s", note);
}

/*
 * A verdict's word, and where a native kernel decided the same check the
 * other way, that verdict: a lab figure a real kernel does not share.
 */
static void verdict_text(FILE *f, const struct agg_verdict *v)
{
	fprintf(f, "%s", agg_verdict_name(v->kind));
	if (v->native_differs && v->native_kind == AGG_NO_VARIATION)
		fprintf(f, "; **native (%s): %s in every run**", v->native_kernel,
			v->native_outcome == AGG_REPRODUCED ? "holds" : "fails");
	else if (v->native_differs)
		fprintf(f, "; **native (%s): %s**", v->native_kernel,
			agg_verdict_name(v->native_kind));
}

/* The value of KEY= in a verdict's "fs=ext4 mode=vanilla", or NULL. */
static const char *where_value(const char *where, const char *key, char *buf, size_t size)
{
	size_t kl = strlen(key);
	const char *p;

	for (p = where; (p = strstr(p, key)); p += kl)
		if ((p == where || p[-1] == ' ') && p[kl] == '=') {
			snprintf(buf, size, "%.*s", (int)strcspn(p + kl + 1, " "), p + kl + 1);
			return buf;
		}
	return NULL;
}

/*
 * How the filesystems completed IO in the runs a verdict compares: the
 * median folios one completion ended and the median gap between two, for
 * each filesystem a side selects (or the verdict's), in its mode.
 */
static void mechanism_cell(struct report_model *r, const struct model_scenario *s, const struct model_verdict *v,
			   FILE *f)
{
	const struct agg_side *sides[] = { &v->check->left, &v->check->right };
	char wfs[64], wmode[64];
	const char *fs_where = where_value(v->v.where, "fs", wfs, sizeof(wfs));
	const char *mode_where = where_value(v->v.where, "mode", wmode, sizeof(wmode));
	char wkernel[64], side_mode[160];
	const char *kernel_where = where_value(v->v.where, "kernel", wkernel, sizeof(wkernel));
	struct strv seen = { 0 };
	size_t k, i;
	int any = 0;

	for (k = 0; k < 2; k++) {
		const char *fs = sides[k]->fs[0] ? sides[k]->fs : fs_where;
		const char *mode = sides[k]->mode[0] ? sides[k]->mode : mode_where;

		/* on a matrix of kernels a side's mode=M is M@KERNEL there */
		if (sides[k]->mode[0] && kernel_where) {
			snprintf(side_mode, sizeof(side_mode), "%s@%s", sides[k]->mode, kernel_where);
			mode = side_mode;
		}

		for (i = 0; i < r->fs.n; i++) {
			const struct agg_group *folios, *gap;
			char key[320];

			if (sides[k]->is_number || (fs && strcmp(fs, r->fs.v[i])))
				continue;
			snprintf(key, sizeof(key), "%s %s", r->fs.v[i], mode ? mode : r->ref_mode);
			if (strv_has(&seen, key))
				continue;
			strv_push(&seen, key);
			folios = model_group(s, r->fs.v[i], mode ? mode : r->ref_mode, "completion.folios_p50");
			gap = model_group(s, r->fs.v[i], mode ? mode : r->ref_mode, "completion.gap_ms_p50");
			if (!folios || !gap)
				continue;
			fprintf(f, "%s%s %s: ", any ? "; " : "", r->fs.v[i],
				mode ? mode : r->ref_mode);
			median_range(f, folios);
			fprintf(f, " folios a completion, every ");
			median_range(f, gap);
			fprintf(f, " ms");
			any = 1;
		}
	}
	strv_free(&seen);
	if (!any)
		fprintf(f, "-");
}

/* One scenario's rows of the threads' table: a row a verdict. */
static void thread_table_rows(struct report_model *r, struct model_scenario *s, FILE *f)
{
	const char *thread = s->have_file && s->file.field[SCN_THREAD][0] ?
		s->file.field[SCN_THREAD] : "-";
	size_t j;

	if (!s->nverdicts) {
		fprintf(f, "| %s | %s | no check | | | | |\n", s->name, thread);
		return;
	}
	for (j = 0; j < s->nverdicts; j++) {
		const struct model_verdict *v = &s->verdicts[j];

		fprintf(f, "| %s | %s | `%s` | %s | ", j ? "" : s->name, j ? "" : thread,
			v->check->text, v->v.where);
		measured_text(f, v);
		fprintf(f, " | ");
		verdict_text(f, &v->v);
		fprintf(f, " | ");
		mechanism_cell(r, s, v, f);
		fprintf(f, " |\n");
	}
}

/* the scenario of the mission's headline, whose verdicts lead the table */
#define HEADLINE_SCENARIO "fs-completion"

/*
 * The whole catalogue on one table: each check's verdict beside the
 * thread's figures (from the scenario header) and the lab's (from the
 * runs), with how the filesystems completed IO where completions were
 * traced: what differs from 2012 when a check does not reproduce.  The
 * mission's headline, how each filesystem completes IO under reclaim (the
 * 2012 thread's per-filesystem pattern), is fs-completion's: its verdicts
 * lead, the other scenarios follow in matrix order.
 */
static void thread_table(struct report_model *r, FILE *f)
{
	size_t i;

	fprintf(f, "## The threads' figures beside the lab's\n\n");
	fprintf(f, "Each check of each scenario: the thread's figures as the scenario file quotes them, the lab's as measured (median of the ok runs, their number and spread), the verdict, and how the filesystems completed writeback in those runs (median folios one completion ended and median gap between two, min–max over the runs when they differ: trace event writeback_end_batch).\n\n");
	if (r->native_kernels.n)
		fprintf(f, "Where a kernel that ran natively (compare.sh --kernel NAME=native) decided a check the other way at the same place, its verdict follows the lab's in bold (docs/calibration.md explains the disagreements measured so far; native runs beside others share the host's CPUs, so measure them with --jobs 1).\n\n");
	fprintf(f, "| experiment | the thread | check | where | the lab | verdict | writeback completions |\n|---|---|---|---|---|---|---|\n");
	for (i = 0; i < r->nscn; i++)
		if (!strcmp(r->scn[i].name, HEADLINE_SCENARIO))
			thread_table_rows(r, &r->scn[i], f);
	for (i = 0; i < r->nscn; i++)
		if (strcmp(r->scn[i].name, HEADLINE_SCENARIO))
			thread_table_rows(r, &r->scn[i], f);
	fprintf(f, "\n");
}

/* --- the thread's picture ---------------------------------------------- */

/* "12 ms", "4.8 ms": a duration in µs for people, in ms */
static const char *ms(char *buf, size_t size, double usec)
{
	char v[32];

	snprintf(buf, size, "%s ms", fmt(v, sizeof(v), usec / 1000));
	return buf;
}

/* The thread's quoted waits of a filesystem: how many, how many full, p50. */
static void picture_thread_cell(FILE *f, const struct picture_fs *pf)
{
	char timeout[48], p50[48];

	if (!pf->thread) {
		fprintf(f, "no trace in the thread");
		return;
	}
	fprintf(f, "%zu waits, %zu ran the full %s, p50 %s", pf->thread->n, pf->thread_full,
		ms(timeout, sizeof(timeout), PICTURE_TIMEOUT_USEC),
		ms(p50, sizeof(p50), (double)pf->thread_p50_usec));
}

/*
 * The runs of the picture's mode not in the lab's figures, and why; after
 * other text (after = 1), each part begins with "; ".
 */
static void picture_left_out(FILE *f, const struct picture_fs *pf, int after)
{
	const char *sep = after ? "; " : "";
	char lo[32], hi[32];
	size_t i;

	if (pf->left_oom) {
		fprintf(f, "%s%zu OOM-killed run%s left out", sep, pf->left_oom,
			pf->left_oom > 1 ? "s" : "");
		sep = "; ";
	}
	if (pf->left_few) {
		fmt(lo, sizeof(lo), pf->few_min);
		fmt(hi, sizeof(hi), pf->few_max);
		fprintf(f, "%s%zu run%s left out: ", sep, pf->left_few, pf->left_few > 1 ? "s" : "");
		if (pf->few_min != pf->few_max)
			fprintf(f, "%s to ", lo);
		fprintf(f, "%s waits < minimum %d", hi, AGG_MIN_WAITS);
		sep = "; ";
	}
	/* the runs not ok, with the error compare.sh recorded */
	for (i = 0; i < pf->missing.n; i++) {
		fprintf(f, "%s", i ? ", " : sep);
		if (!i && pf->ok)
			fprintf(f, "not ok: ");
		md_text(f, pf->missing.v[i]);
	}
}

/* The lab's figures of a filesystem in the picture's mode, or why none. */
static void picture_lab_cell(FILE *f, const struct picture *p, const struct picture_fs *pf)
{
	char a[32], b[32], c[32], d[48];

	if (!pf->runs) {
		fprintf(f, "no %s run in this matrix", p->mode);
		return;
	}
	if (!pf->ok) {
		fprintf(f, "no ok %s run: ", p->mode);
		picture_left_out(f, pf, 0);
		return;
	}
	if (!pf->counted.n) {
		fprintf(f, "%zu ok run%s, none counted: ", pf->ok, pf->ok > 1 ? "s" : "");
		picture_left_out(f, pf, 0);
		return;
	}
	fprintf(f, "%zu run%s: %s waits, p50 %s, full-timeout share %s", pf->counted.n,
		pf->counted.n > 1 ? "s" : "", fmt(a, sizeof(a), pf->events),
		ms(d, sizeof(d), pf->p50_usec), fmt(b, sizeof(b), pf->share));
	if (differ_as_printed(pf->share_min, pf->share_max))
		fprintf(f, " (%s–%s)", fmt(b, sizeof(b), pf->share_min),
			fmt(c, sizeof(c), pf->share_max));
	picture_left_out(f, pf, 1);
}

/*
 * Whether verdict v is of filesystem fs in mode: its check names them, or
 * it was evaluated for them (fs=/mode= of its where).
 */
static int verdict_of(const struct model_verdict *v, const char *fs, const char *mode)
{
	char wfs[64], wmode[64];
	const char *vfs = v->check->left.fs[0] ? v->check->left.fs :
			  where_value(v->v.where, "fs", wfs, sizeof(wfs));
	const char *vmode = v->check->left.mode[0] ? v->check->left.mode :
			    where_value(v->v.where, "mode", wmode, sizeof(wmode));

	return vfs && !strcmp(vfs, fs) && (!vmode || !strcmp(vmode, mode));
}

/*
 * The verdicts of a filesystem's checks (aggregate-checks.c's, as the
 * tables below show them), each by its statistic and threshold; then,
 * unless all reproduced, what the lab lacks for them.
 */
static void picture_verdicts_cell(FILE *f, const struct picture *p, const struct picture_fs *pf)
{
	const struct model_scenario *s = p->s;
	size_t i, plen = strlen(p->p->metric), n = 0, reproduced = 0;
	char a[32];

	for (i = 0; i < s->nverdicts; i++) {
		const struct model_verdict *v = &s->verdicts[i];
		const char *m = v->check->left.metric;

		if (!verdict_of(v, pf->fs, p->mode))
			continue;
		fprintf(f, "%s", n++ ? "; " : "");
		/* the picture's statistic by its own name, the rest as written */
		if (!strncmp(m, p->p->metric, plen) && m[plen] == '.' && v->check->right.is_number)
			fprintf(f, "`%s %s %s`: ", m + plen + 1, agg_op_name(v->check->op),
				fmt(a, sizeof(a), v->check->right.number));
		else
			fprintf(f, "`%s`: ", v->check->text);
		verdict_text(f, &v->v);
		reproduced += v->v.kind == AGG_REPRODUCED;
	}
	if (!n)
		fprintf(f, "no check");
	if (pf->lacks && reproduced < n)
		fprintf(f, "; **the lab lacks** %s", pf->lacks);
}

/*
 * The report's first section: what the thread showed, per filesystem, how
 * long the writer's reclaim waits lasted, the lab's beside the thread's
 * own, classed fluent, batched or between by the thread's thresholds,
 * with the verdicts of that filesystem's checks.
 */
static void picture_section(struct report_model *r, struct model_scenario *s, FILE *f,
			    FILE *notes)
{
	struct picture p;
	const char *plot;
	char name[512], a[48], b[32];
	size_t i;

	model_picture(r, s, &p);
	fprintf(f, "## The thread's picture: how long the writer's reclaim waits lasted, per filesystem\n\n");
	/* one line before the plot: it is to be on the first screen */
	fprintf(f, "%s, mode %s, `%s`: ", s->name, p.mode, p.p->metric);
	plot = plot_picture(r, &p, name, sizeof(name), notes);
	if (plot)
		fprintf(f, "[CDF of the wait durations per filesystem](plots/%s.svg) ([png](plots/%s.png))\n\n",
			plot, plot);
	else if (!r->o->png_term)
		fprintf(f, "no plot (gnuplot was not installed when this report was written).\n\n");
	else
		fprintf(f, "no plot (neither the lab nor the thread has such waits).\n\n");
	fprintf(f, "| filesystem | the thread | the lab (%s) | class: thread | class: lab | verdicts |\n|---|---|---|---|---|---|\n",
		p.mode);
	for (i = 0; i < p.nfs; i++) {
		const struct picture_fs *pf = &p.fs[i];

		fprintf(f, "| %s | ", pf->fs);
		picture_thread_cell(f, pf);
		fprintf(f, " | ");
		picture_lab_cell(f, &p, pf);
		fprintf(f, " | ");
		if (pf->thread)
			fprintf(f, "%s (%zu of %zu full)", picture_class(pf->thread_share),
				pf->thread_full, pf->thread->n);
		else
			fprintf(f, "-");
		fprintf(f, " | ");
		if (pf->counted.n)
			fprintf(f, "%s (share %s)", picture_class(pf->share), fmt(b, sizeof(b), pf->share));
		else
			fprintf(f, "no counted run");
		fprintf(f, " | ");
		picture_verdicts_cell(f, &p, pf);
		fprintf(f, " |\n");
	}
	fprintf(f, "\nThe plot: each wait's usec_delayed, the lab's counted runs pooled (solid) beside the waits the thread quotes (dashed, a point a wait), up to just past the %s timeout. Classes by the thread's thresholds, on the share of the waits that ran the whole timeout: fluent at most %g, batched %g or more, between otherwise. The lab's figures are medians over the ok %s runs counted as the checks count them (no OOM kill, at least %d such waits), the share's min–max beside it when the runs differ. The verdicts are those of the checks below; where they are not all reproduced, what the lab lacks follows them.\n\n",
		ms(a, sizeof(a), PICTURE_TIMEOUT_USEC), PICTURE_FLUENT_MAX, PICTURE_BATCHED_MIN,
		p.mode, AGG_MIN_WAITS);
	model_picture_free(&p);
}

static void checks_section(struct model_scenario *s, FILE *f)
{
	size_t i;

	fprintf(f, "### Checks\n\n");
	if (s->have_file && s->file.field[SCN_THREAD][0])
		fprintf(f, "**Thread's figures:** %s\n", s->file.field[SCN_THREAD]);
	fprintf(f, "\n");
	if (s->have_file && s->file.field[SCN_COMPARE][0])
		fprintf(f, "**Expected:** %s\n", s->file.field[SCN_COMPARE]);
	fprintf(f, "\n");
	if (!s->nverdicts) {
		fprintf(f, "No checks: the scenario file has no `# Check:` lines.\n\n");
		return;
	}
	fprintf(f, "| verdict | check | where | measured (median, runs, spread) |\n|---|---|---|---|\n");
	for (i = 0; i < s->nverdicts; i++) {
		const struct model_verdict *v = &s->verdicts[i];

		fprintf(f, "| ");
		verdict_text(f, &v->v);
		fprintf(f, " | `%s` | %s | ", v->check->text, v->v.where);
		measured_text(f, v);
		fprintf(f, " |\n");
	}
	fprintf(f, "\n");
}

static void waits_section(struct report_model *r, struct model_scenario *s, FILE *f)
{
	static const char *const base[] = {
		"waits.events", "waits.p50_usec", "waits.p90_usec",
		"waits.full_timeout_share", "waits.stalled_ms_per_s",
	};
	struct strv m = { 0 }, like = { 0 }, checked = { 0 };
	char events[512];
	const char *dot;
	size_t i;

	fprintf(f, "### Reclaim waits\n\n");
	fprintf(f, "Median over the ok runs (min–max when they differ); n.s.: the difference to %s is not significant (smaller than either spread).\n\n",
		r->ref_mode);
	for (i = 0; i < sizeof(base) / sizeof(base[0]); i++)
		strv_add_unique(&m, base[i]);
	/* each task's waits; those of one reason only where a check reads them */
	model_metrics_like(s, &like, "waits.task.", ".events", ".full_timeout_share");
	for (i = 0; i < like.n; i++)
		if (!strstr(like.v[i], ".reason."))
			strv_add_unique(&m, like.v[i]);
	/* a checked statistic of a task's waits of a reason, beside their count */
	model_check_metrics(s, &checked, "waits.", 1);
	for (i = 0; i < checked.n; i++) {
		dot = strrchr(checked.v[i], '.');
		if (strstr(checked.v[i], ".reason.") && dot) {
			snprintf(events, sizeof(events), "%.*s.events",
				 (int)(dot - checked.v[i]), checked.v[i]);
			strv_add_unique(&m, events);
		}
		strv_add_unique(&m, checked.v[i]);
	}
	metric_table(r, s, f, &m, NULL);
	strv_free(&like);
	strv_free(&checked);
	fprintf(f, "\n");
	strv_free(&m);
}

/* A table of the metrics PREFIX.COL, one column per COL, titled TITLES. */
static void columns_table(struct report_model *r, struct model_scenario *s, FILE *f, int plen,
			  const char *prefix, const char *const *cols,
			  const char *const *titles, size_t ncols)
{
	struct strv m = { 0 }, t = { 0 };
	char name[512];
	size_t k;

	for (k = 0; k < ncols; k++) {
		snprintf(name, sizeof(name), "%.*s.%s", plen, prefix, cols[k]);
		strv_push(&m, name);
		strv_push(&t, titles[k]);
	}
	metric_table(r, s, f, &m, &t);
	fprintf(f, "\n");
	strv_free(&m);
	strv_free(&t);
}

/* The writeback_end_batch metrics, where the kernel traced completions. */
static void completion_section(struct report_model *r, struct model_scenario *s, FILE *f)
{
	static const char *const cols[] = {
		"events_per_s", "folios_p50", "folios_p90", "folios_max",
		"gap_ms_p50", "gap_ms_p90", "reclaim_folios_per_s", "mb_per_s",
	};
	static const char *const titles[] = {
		"completions/s", "folios p50", "folios p90", "folios max",
		"gap p50 (ms)", "gap p90 (ms)", "reclaim folios/s", "MB/s",
	};

	if (!model_any_group_max_above(s, "completion.events", 0))
		return;
	fprintf(f, "### Writeback completions\n\n");
	fprintf(f, "Each completion ends writeback on a batch of folios (a bio, an ext4 io_end, a chain of merged xfs ioends: trace event writeback_end_batch); gap: the time between two completions on the device; reclaim folios: folios reclaim had tagged PG_reclaim, so reclaim was waiting for them. Median over the ok runs (min–max when they differ).\n\n");
	columns_table(r, s, f, (int)strlen("completion"), "completion", cols, titles,
		      sizeof(cols) / sizeof(cols[0]));
}

/*
 * The memcg_reclaim.* metrics, where a memory cgroup's charges reclaimed:
 * what decides whether a writer over its limit is OOM-killed.
 */
static void memcg_reclaim_section(struct report_model *r, struct model_scenario *s, FILE *f)
{
	static const char *const cols[] = {
		"rounds", "fruitless", "fruitless_share", "fruitless_run_max",
	};
	static const char *const titles[] = {
		"rounds", "fruitless", "fruitless share", "longest fruitless run",
	};

	if (!model_any_group_max_above(s, "memcg_reclaim.rounds", 0))
		return;
	fprintf(f, "### Memory cgroup reclaim rounds\n\n");
	fprintf(f, "A round is one reclaim a charge over the memory cgroup's limit ran (trace event mm_vmscan_memcg_reclaim_end); fruitless: it freed nothing. A charge retries while its rounds free something; in 6.12 it calls the OOM killer on the 17th fruitless round after its first (16 retries, MAX_RECLAIM_RETRIES): 18 in a row when none frees anything. The longest run of fruitless rounds in a row of one task shows how close its charges came. Median over the ok runs (min–max when they differ).\n\n");
	columns_table(r, s, f, (int)strlen("memcg_reclaim"), "memcg_reclaim", cols, titles,
		      sizeof(cols) / sizeof(cols[0]));
}

static void workload_section(struct report_model *r, struct model_scenario *s, FILE *f)
{
	struct strv m = { 0 };

	fprintf(f, "### Workload\n\n");
	fprintf(f, "Median over the ok runs (min–max when they differ).\n\n");
	model_metrics_like(s, &m, "tool.", ".mbps", NULL);
	strv_remove_prefix(&m, "tool.verify.");
	strv_add_unique(&m, "workload.oom_kills");
	model_metrics_like(s, &m, "tool.", ".bad_chunks", NULL);
	strv_add_unique(&m, "run.simulated_seconds");
	model_check_metrics(s, &m, "waits.", 0);
	metric_table(r, s, f, &m, NULL);
	fprintf(f, "\n");
	strv_free(&m);
}

/*
 * A table per NAME and direction of metrics PREFIX.NAME.DIR.COLUMN (PREFIX
 * of 3 letters and a dot, as fio. and blk.; NAME without a dot), one of
 * them each PREFIX.NAME.DIR.SUFFIX in found, headed "WHAT NAME, DIR:".
 */
static void name_dir_tables(struct report_model *r, struct model_scenario *s, FILE *f,
			    const struct strv *found, const char *what, const char *suffix,
			    const char *const *cols, const char *const *titles, size_t ncols)
{
	size_t i;

	for (i = 0; i < found->n; i++) {
		const char *m = found->v[i];
		/* PREFIX.NAME.DIR.SUFFIX -> PREFIX.NAME.DIR */
		int bl = (int)(strlen(m) - strlen(suffix));
		const char *dir = memchr(m + 4, '.', (size_t)bl - 4);

		if (!dir)
			continue;
		fprintf(f, "%s %.*s, %.*s:\n\n", what, (int)(dir - m - 4), m + 4,
			(int)(m + bl - dir - 1), dir + 1);
		columns_table(r, s, f, bl, m, cols, titles, ncols);
	}
}

/* fio's figures (fio.JOB.DIR.*, rl-summarize's rows of its JSON), a table
 * per job and direction */
static void fio_section(struct report_model *r, struct model_scenario *s, FILE *f)
{
	static const char *const cols[] = {
		"kb_s", "iops", "clat_p50_us", "clat_p99_us", "clat_p999_us",
	};
	static const char *const titles[] = {
		"kB/s", "IOPS", "clat p50 (us)", "clat p99 (us)", "clat p99.9 (us)",
	};
	struct strv jobs = { 0 };

	model_metrics_like(s, &jobs, "fio.", ".kb_s", NULL);
	if (!jobs.n)
		return;
	fprintf(f, "### fio\n\n");
	fprintf(f, "fio's own figures per job and direction, from its JSON output: bandwidth in kB/s of 1000 bytes, IOPS, completion latency percentiles. Median over the ok runs (min–max when they differ).\n\n");
	name_dir_tables(r, s, f, &jobs, "Job", ".kb_s", cols, titles,
			sizeof(cols) / sizeof(cols[0]));
	strv_free(&jobs);
}

static void iostat_section(struct report_model *r, struct model_scenario *s, FILE *f)
{
	/* sysstat 12's columns (sysstat.c), and 2012's avgrq-sz derived */
	static const char *const cols[] = {
		"r_s_mean", "rkB_s_mean", "w_s_mean", "wkB_s_mean", "wareq_sz_mean",
		"w_await_mean", "aqu_sz_mean", "util_mean", "avgrq_sz_mean",
	};
	static const char *const titles[] = {
		"r/s", "rkB/s", "w/s", "wkB/s", "wareq-sz (kB)",
		"w_await (ms)", "aqu-sz", "%util", "avgrq-sz (2012, sectors)",
	};
	struct strv devs = { 0 };
	size_t i;

	model_metrics_like(s, &devs, "iostat.", ".util_mean", NULL);
	/* iostat.intervals: iostat ran; a device has rows once it reported a second */
	if (!devs.n && !model_any_group_max_above(s, "iostat.intervals", -1))
		return;
	fprintf(f, "### iostat (means over the workload)\n\n");
	if (!devs.n)
		fprintf(f, "No complete iostat interval in any run (the workloads were shorter than the sampling interval).\n\n");
	else
		fprintf(f, "sysstat's `iostat -x` in the guest, each second of the workload (its kB are 1024 bytes); median over the ok runs (min–max when they differ) of each run's means over the seconds: rates are means, wareq-sz and w_await are weighted by the writes; avgrq-sz, which sysstat 12 no longer prints, is (rkB/s + wkB/s) * 2 / (r/s + w/s) in 512-byte sectors.\n\n");
	for (i = 0; i < devs.n; i++) {
		/* iostat.DEV.util_mean -> DEV */
		const char *d = devs.v[i] + strlen("iostat.");
		size_t dl = strlen(d) - strlen(".util_mean");

		if (devs.n > 1)
			fprintf(f, "Device %.*s:\n\n", (int)dl, d);
		/* iostat.DEV.util_mean -> iostat.DEV */
		columns_table(r, s, f, (int)(strlen("iostat.") + dl), devs.v[i],
			      cols, titles, sizeof(cols) / sizeof(cols[0]));
	}
	strv_free(&devs);
}

/* run.sh --blktrace: blk.DEV.DIR.* (blklat.c), a table per device and direction */
static void blktrace_section(struct report_model *r, struct model_scenario *s, FILE *f)
{
	static const char *const cols[] = {
		"completions", "d2c_ms_p50", "d2c_ms_p90", "q2c_ms_p50", "q2c_ms_p90",
		"q2c_ms_max",
	};
	static const char *const titles[] = {
		"completions", "D2C p50 (ms)", "D2C p90 (ms)", "Q2C p50 (ms)", "Q2C p90 (ms)",
		"Q2C max (ms)",
	};
	struct strv reqs = { 0 };

	model_metrics_like(s, &reqs, "blk.", ".completions", NULL);
	if (!reqs.n)
		return;
	fprintf(f, "### blktrace (requests of the workload)\n\n");
	fprintf(f, "From each run's blktrace (`--blktrace`): D2C from a request's dispatch to its completion, Q2C from the queueing of the bio it was split from. Median over the ok runs (min–max when they differ).\n\n");
	name_dir_tables(r, s, f, &reqs, "Device", ".completions", cols, titles,
			sizeof(cols) / sizeof(cols[0]));
	strv_free(&reqs);
}

static void counters_section(struct report_model *r, struct model_scenario *s, FILE *f)
{
	struct strv cells = { 0 }, counters = { 0 };
	char cell[256];
	size_t i, j;

	fprintf(f, "### Counters\n\n");
	fprintf(f, "Median over the ok runs (min–max when they differ) of the debugfs counters after the workload, as `grep -r . /debug/vm` shows them; counters that are 0 in every run are left out.\n\n");
	for (i = 0; i < r->fs.n; i++)
		for (j = 0; j < r->modes.n; j++)
			if (model_count_runs(r, s->name, r->fs.v[i], r->modes.v[j], 1)) {
				snprintf(cell, sizeof(cell), "%s/%s", r->fs.v[i], r->modes.v[j]);
				strv_push(&cells, cell);
			}
	for (i = 0; i < s->ngroups; i++) {
		const struct agg_group *g = &s->groups[i];

		if (!strncmp(g->metric, "counter.", 8) && (g->min != 0 || g->max != 0))
			strv_add_unique(&counters, g->metric);
	}
	strv_sort(&counters);
	if (!counters.n || !cells.n) {
		fprintf(f, "Every counter is 0.\n\n");
		goto out;
	}
	fprintf(f, "| counter |");
	for (i = 0; i < cells.n; i++)
		fprintf(f, " %s |", cells.v[i]);
	fprintf(f, "\n|---|");
	for (i = 0; i < cells.n; i++)
		fprintf(f, "---|");
	fprintf(f, "\n");
	for (j = 0; j < counters.n; j++) {
		fprintf(f, "| /debug/vm/%s |", counters.v[j] + strlen("counter."));
		for (i = 0; i < cells.n; i++) {
			char *slash = strchr(cells.v[i], '/');
			const struct agg_group *g;

			*slash = '\0';
			g = model_group(s, cells.v[i], slash + 1, counters.v[j]);
			*slash = '/';
			fprintf(f, " ");
			if (g)
				median_range(f, g);
			else
				fprintf(f, "-");
			fprintf(f, " |");
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
out:
	strv_free(&cells);
	strv_free(&counters);
}

static void scenario_section(struct report_model *r, struct model_scenario *s, FILE *f,
			     FILE *notes)
{
	const struct model_run *first = model_first_run(r, s->name);
	char *mem = NULL, *tmo = NULL, *prof = NULL, *model = NULL;
	size_t i;

	fprintf(f, "## %s\n\n", s->have_file ? s->file.title : s->name);
	if (!s->have_file)
		fprintf(f, "(no rootfs/scenarios/%s.scn: no description and no checks)\n", s->name);
	if (s->have_file && s->file.field[SCN_MEASURES][0])
		fprintf(f, "**Measures:** %s\n\n", s->file.field[SCN_MEASURES]);
	if (s->have_file && s->file.field[SCN_HEADLINE][0])
		fprintf(f, "**Headline:** %s\n\n", s->file.field[SCN_HEADLINE]);
	if (first && first->conf) {
		mem = conf_value(first->conf, "mem");
		tmo = conf_value(first->conf, "timeout");
		prof = conf_value(first->conf, "profile");
		model = conf_value(first->conf, "profile_values");
	}
	if (model) {
		/* "name=hdd,rbw=...,qd=32" -> "rbw=... qd=32" */
		char *p = strncmp(model, "name=", 5) ? model : strchr(model, ',');

		p = p == model ? model : (p ? p + 1 : model + strlen(model));
		memmove(model, p, strlen(p) + 1);
		for (p = model; *p; p++)
			if (*p == ',')
				*p = ' ';
	}
	fprintf(f, "**Setup:** guest memory %s, timeout %s s; device profile **%s** (%s; bandwidths in kB/s, times in µs).\n\n",
		mem && *mem ? mem : "?", tmo && *tmo ? tmo : "?", prof && *prof ? prof : "?",
		model && *model ? model : "?");
	free(mem);
	free(tmo);
	free(prof);
	free(model);
	fprintf(f, "**Parameters:** ");
	print_params(r, first, f);
	fprintf(f, "\n\n**Knobs:**\n\n");
	for (i = 0; i < r->modes.n; i++)
		knob_line(r, s->name, r->modes.v[i], f);
	fprintf(f, "\n");
	checks_section(s, f);
	waits_section(r, s, f);
	completion_section(r, s, f);
	workload_section(r, s, f);
	memcg_reclaim_section(r, s, f);
	fio_section(r, s, f);
	iostat_section(r, s, f);
	blktrace_section(r, s, f);
	counters_section(r, s, f);
	plots_section(r, s, f, notes);
}

int report_markdown(struct report_model *r, FILE *f, FILE *notes)
{
	size_t i;

	header(r, f);
	absent_knobs(r, f);
	/* first, what the thread showed: the headline scenario's, then others' */
	for (i = 0; i < r->nscn; i++)
		if (!strcmp(r->scn[i].name, HEADLINE_SCENARIO) && r->scn[i].have_file &&
		    r->scn[i].file.picture.metric[0])
			picture_section(r, &r->scn[i], f, notes);
	for (i = 0; i < r->nscn; i++)
		if (strcmp(r->scn[i].name, HEADLINE_SCENARIO) && r->scn[i].have_file &&
		    r->scn[i].file.picture.metric[0])
			picture_section(r, &r->scn[i], f, notes);
	checks_at_a_glance(r, f);
	thread_table(r, f);
	runs_not_ok(r, f);
	for (i = 0; i < r->nscn; i++)
		scenario_section(r, &r->scn[i], f, notes);
	/* last: the plots read guest files too */
	if (r->refused->n) {
		strv_sort(r->refused);
		fprintf(f, "## Guest files refused\n\n"
			"What a guest left that is not a regular file, or larger than its limit, is not read (scripts/tools/lib/guest-read.h); the tables and plots lack what it held.\n\n");
		for (i = 0; i < r->refused->n; i++) {
			fprintf(f, "- ");
			md_text(f, r->refused->v[i]);
			fprintf(f, "\n");
		}
		fprintf(f, "\n");
	}
	return ferror(f) ? -1 : 0;
}
