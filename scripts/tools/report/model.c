// SPDX-License-Identifier: GPL-2.0
/*
 * Loading a matrix into the report's model, and the questions the report
 * asks of it.  See model.h.
 */
#include "report/model.h"
#include "lib/conf.h"
#include "lib/run-folder.h"
#include "lib/cli.h"
#include "lib/guest-read.h"
#include "lib/values.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


static char *path_of(const char *a, const char *b, const char *c)
{
	size_t n = strlen(a) + strlen(b) + (c ? strlen(c) : 0) + 3;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/%s%s%s", a, b, c ? "/" : "", c ? c : "");
	return p;
}

char *model_run_file(const struct model_run *run, const char *name)
{
	char *p = path_of(run->dir, name, NULL), *t = read_whole_file(p, NULL);

	free(p);
	return t;
}

char *model_guest_file(const struct model_run *run, const char *name, size_t max)
{
	char *p = path_of(run->dir, RL_GUEST_DIR, name), *t, err[1024], note[1200];

	t = guest_read_file(p, max, NULL, err, sizeof(err));
	if (!t && errno != ENOENT) {
		/* err is "PATH: why"; the report names the file by its run */
		snprintf(note, sizeof(note), "%s/%s/%s: %s", run->name, RL_GUEST_DIR, name,
			 !strncmp(err, p, strlen(p)) && err[strlen(p)] == ':' ? err + strlen(p) + 2 : err);
		strv_add_unique(run->refused, note);
		fprintf(stderr, "rl-report: %s\n", err);
	}
	free(p);
	return t;
}

#define fail cli_fail

/* --- loading ------------------------------------------------------------- */

static char *first_line(const char *text)
{
	size_t n = strcspn(text, "\n");
	char *s = xmalloc(n + 1);

	memcpy(s, text, n);
	s[n] = '\0';
	return s;
}

/* the stall count of a status file: clock_stalled_ticks=N with N > 0 */
static void note_stall(struct report_model *r, const char *name, const char *status)
{
	char *v = conf_value(status, "clock_stalled_ticks");
	char buf[512];

	if (v && v[0] >= '1' && v[0] <= '9' && strspn(v, "0123456789") == strlen(v) &&
	    strlen(v) <= 18) {
		snprintf(buf, sizeof(buf), "%s (%s ticks)", name, v);
		strv_push(&r->stalls, buf);
	}
	free(v);
}

static int load_runs(struct report_model *r, char *err, size_t errlen)
{
	char *runs = path_of(r->matrix, "runs", NULL);
	struct strv names = { 0 };
	struct dirent *e;
	size_t i;
	DIR *d = opendir(runs);

	if (d) {
		while ((e = readdir(d)))
			if (e->d_name[0] != '.')
				strv_push(&names, e->d_name);
		closedir(d);
	}
	strv_sort(&names);
	r->runs = xmalloc((names.n ? names.n : 1) * sizeof(*r->runs));
	for (i = 0; i < names.n; i++) {
		char *dir = path_of(runs, names.v[i], NULL);
		struct model_run *run;
		struct record rec;
		char *v;
		int have = !record_load(&rec, dir, names.v[i]);

		free(dir);
		if (have)
			note_stall(r, names.v[i], rec.status_text);
		if (strstr(names.v[i], ".interrupted.")) {
			r->interrupted++;
			if (have)
				record_free(&rec);
			continue;
		}
		if (!have)
			continue;
		run = &r->runs[r->nruns++];
		memset(run, 0, sizeof(*run));
		run->rec = rec;
		run->name = run->rec.name;
		run->dir = run->rec.dir;
		run->refused = r->refused;
		run->status_text = run->rec.status_text;
		run->status = xstrdup(record_state(&run->rec));
		run->conf = run->rec.conf;
		run->scenario = run->rec.scenario;
		run->fs = run->rec.fs;
		run->mode = record_mode_label(run->rec.mode, run->rec.kernel);
		run->repeat = run->rec.repeat;
		v = model_guest_file(run, "kernel-release", GUEST_MAX_SMALL);
		if (v) {
			run->kernel = first_line(v);
			free(v);
		}
		run->summarized = run->rec.summarized;
	}
	strv_free(&names);
	free(runs);
	if (!r->nruns)
		return fail(err, errlen,
			    "'%s' has no runs (valid: a folder with runs/SCENARIO.FS.MODE.rN/status, as scripts/compare.sh writes)",
			    r->matrix);
	return 0;
}

/* known values in their order, then the others in name order */
static void ordered(struct strv *out, const char *known, const struct strv *seen)
{
	struct strv k = { 0 }, rest = { 0 };
	size_t i;

	strv_split(&k, known);
	for (i = 0; i < k.n; i++)
		if (strv_has(seen, k.v[i]))
			strv_add_unique(out, k.v[i]);
	for (i = 0; i < seen->n; i++)
		if (!strv_has(&k, seen->v[i]))
			strv_add_unique(&rest, seen->v[i]);
	strv_sort(&rest);
	for (i = 0; i < rest.n; i++)
		strv_add_unique(out, rest.v[i]);
	strv_free(&k);
	strv_free(&rest);
}

struct feed {
	struct agg_set *s;
	const struct model_run *run;
	char *note;
	size_t notelen;
};

static int feed_row(void *arg, const char *row, const char *metric,
		    const char *value, unsigned long line)
{
	struct feed *fd = arg;
	unsigned long bad = fd->s->malformed;
	/* rl-summarize's marks: a guest file refused, or its values cut */
	if (!strcmp(metric, "input.refused") || !strcmp(metric, "input.cut")) {
		int cut = metric[6] == 'c';
		char mark[700];

		snprintf(mark, sizeof(mark), "%s/%s/%s: %s", fd->run->name, RL_GUEST_DIR, value,
			 cut ? "its values were cut when summarized (the series stops at its limit)" :
			 "refused when summarized (not a regular file, or larger than its limit): its rows are missing");
		strv_add_unique(fd->run->refused, mark);
		return 0;
	}
	if (agg_feed_line(fd->s, row) < 0) {
		fprintf(stderr, "rl-report: out of memory\n");
		exit(1);
	}
	if (!bad && fd->s->malformed && fd->note && !fd->note[0])
		snprintf(fd->note, fd->notelen, "%s/%s/summary.tsv line %lu: %s",
			 fd->run->name, RL_DERIVED_DIR, line, fd->s->first_error);
	return 0;
}

/* The run's record as rows (record.h: the status file's facts, the summary rows, run.status). */
static int feed_run(struct agg_set *s, const struct model_run *run, char *note,
		    size_t notelen, char *err, size_t errlen)
{
	struct feed fd = { s, run, note, notelen };

	return record_rows(&run->rec, feed_row, &fd, err, errlen);
}

int model_mode_is(const char *mode, const char *m, const char *k)
{
	size_t n = strlen(m);

	if (!strcmp(k, RECORD_NO_KERNEL))
		return !strcmp(mode, m);
	return !strncmp(mode, m, n) && mode[n] == '@' && !strcmp(mode + n + 1, k);
}

int model_mode_parts(const struct report_model *r, const char *mode, const char **m,
		     const char **k)
{
	size_t i;

	for (i = 0; i < r->nruns; i++)
		if (!strcmp(r->runs[i].mode, mode)) {
			*m = r->runs[i].rec.mode;
			*k = *r->runs[i].rec.kernel ? r->runs[i].rec.kernel : RECORD_NO_KERNEL;
			return 0;
		}
	return -1;
}

/* The pairs of s's groups of the column mode against the reference column's. */
static size_t mode_pairs(const struct report_model *r, const struct model_scenario *s,
			 const char *mode, struct agg_pair **p)
{
	static const enum agg_dim dims[] = { AGG_MODE, AGG_KERNEL };
	const char *a[2], *b[2];

	*p = NULL;
	if (model_mode_parts(r, mode, &a[0], &a[1]) || model_mode_parts(r, r->ref_mode, &b[0], &b[1]))
		return 0;
	return agg_pairs_by(s->groups, s->ngroups, dims, 2, a, b, p);
}

static int load_scenario(struct report_model *r, struct model_scenario *s, const char *name,
			 char *err, size_t errlen)
{
	char *path = xmalloc(strlen(r->o->scenarios) + strlen(name) + 6);
	char msg[1024], note[700] = "";
	struct agg_pair *p;
	size_t i, j, n;
	struct stat sb;

	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	sprintf(path, "%s/%s.scn", r->o->scenarios, name);
	if (!stat(path, &sb)) {
		if (scn_load(path, &s->file, msg, sizeof(msg)) < 0) {
			free(path);
			return fail(err, errlen, "%s", msg);
		}
		s->have_file = 1;
		n = agg_scenario_checks(&s->file, &s->checks, msg, sizeof(msg));
		if (n == (size_t)-1) {
			free(path);
			return fail(err, errlen, "%s.scn %s", name, msg);
		}
		s->nchecks = n;
	}
	free(path);
	agg_init(&s->set);
	if (agg_only_scenario(&s->set, name) < 0)
		return fail(err, errlen, "scenario name '%s' too long", name);
	for (i = 0; i < s->nchecks; i++) {
		agg_want_metric(&s->set, s->checks[i].left.metric);
		if (!s->checks[i].right.is_number)
			agg_want_metric(&s->set, s->checks[i].right.metric);
	}
	for (i = 0; i < r->nruns; i++)
		if (feed_run(&s->set, &r->runs[i], note, sizeof(note), err, errlen))
			return -1;
	if (note[0] && !r->malformed_note[0])
		snprintf(r->malformed_note, sizeof(r->malformed_note),
			 "skipped %lu malformed rows (the first: %s)", s->set.malformed, note);
	if (agg_finish(&s->set) < 0)
		return fail(err, errlen, "out of memory");
	s->ngroups = agg_groups(&s->set, &s->groups);
	if (s->ngroups == (size_t)-1)
		return fail(err, errlen, "out of memory");
	for (i = 0; i < r->modes.n; i++) {
		if (!strcmp(r->modes.v[i], r->ref_mode))
			continue;
		n = mode_pairs(r, s, r->modes.v[i], &p);
		if (n == (size_t)-1)
			return fail(err, errlen, "out of memory");
		s->pairs = realloc(s->pairs, (s->npairs + n + 1) * sizeof(*s->pairs));
		if (!s->pairs)
			return fail(err, errlen, "out of memory");
		memcpy(s->pairs + s->npairs, p, n * sizeof(*p));
		s->npairs += n;
		free(p);
	}
	for (i = 0; i < s->nchecks; i++) {
		struct agg_verdict *v;

		n = agg_eval_check(&s->set, name, &s->checks[i], &v);
		if (n == (size_t)-1)
			return fail(err, errlen, "out of memory");
		s->verdicts = realloc(s->verdicts, (s->nverdicts + n + 1) * sizeof(*s->verdicts));
		if (!s->verdicts)
			return fail(err, errlen, "out of memory");
		agg_mark_native(&s->checks[i], v, n, (const char *const *)r->native_kernels.v,
				r->native_kernels.n);
		for (j = 0; j < n; j++) {
			s->verdicts[s->nverdicts].check = &s->checks[i];
			s->verdicts[s->nverdicts++].v = v[j];
		}
		free(v);
	}
	return 0;
}

int model_load(struct report_model *r, const struct report_opts *o, const char *out_dir,
	     char *err, size_t errlen)
{
	static const char *const keys[] = {
		"repeat", "profile", "mem", "timeout", "sets", "scenarios",
	};
	struct strv seen_s = { 0 }, seen_f = { 0 }, seen_m = { 0 };
	char *conf;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->refused = xmalloc(sizeof(*r->refused));
	memset(r->refused, 0, sizeof(*r->refused));
	r->o = o;
	r->matrix = o->matrix;
	r->out_dir = out_dir;
	if (load_runs(r, err, errlen) < 0)
		return -1;
	conf = path_of(r->matrix, "matrix.conf", NULL);
	r->conf_text = read_whole_file(conf, NULL);
	free(conf);
	for (i = 0; i < 6; i++)
		r->conf_values[i] = conf_value_or_empty(r->conf_text, keys[i]);
	r->conf_repeat = r->conf_values[0];
	r->conf_profile = r->conf_values[1];
	r->conf_mem = r->conf_values[2];
	r->conf_timeout = r->conf_values[3];
	r->conf_sets = r->conf_values[4];
	for (i = 0; i < r->nruns; i++) {
		char *backend = conf_value_or_empty(r->runs[i].conf, "backend");

		if (*r->runs[i].rec.kernel && !strcmp(backend, "native"))
			strv_add_unique(&r->native_kernels, r->runs[i].rec.kernel);
		free(backend);
		strv_add_unique(&seen_s, r->runs[i].scenario);
		strv_add_unique(&seen_f, r->runs[i].fs);
		strv_add_unique(&seen_m, r->runs[i].mode);
	}
	ordered(&r->scenarios, r->conf_values[5], &seen_s);
	ordered(&r->fs, o->fs_order, &seen_f);
	ordered(&r->modes, o->mode_order, &seen_m);
	strv_free(&seen_s);
	strv_free(&seen_f);
	strv_free(&seen_m);
	r->ref_mode = strv_has(&r->modes, "vanilla") ? "vanilla" :
		      (r->modes.n ? r->modes.v[0] : "");
	r->scn = xmalloc((r->scenarios.n ? r->scenarios.n : 1) * sizeof(*r->scn));
	for (i = 0; i < r->scenarios.n; i++) {
		if (load_scenario(r, &r->scn[i], r->scenarios.v[i], err, errlen) < 0) {
			r->nscn = i + 1;
			return -1;
		}
		r->nscn = i + 1;
	}
	return 0;
}

void model_free(struct report_model *r)
{
	size_t i;

	for (i = 0; i < r->nruns; i++) {
		struct model_run *run = &r->runs[i];

		record_free(&run->rec);
		free(run->status);
		free(run->mode);
		free(run->kernel);
	}
	free(r->runs);
	for (i = 0; i < r->nscn; i++) {
		struct model_scenario *s = &r->scn[i];

		free(s->name);
		free(s->groups);
		free(s->pairs);
		free(s->checks);
		free(s->verdicts);
		agg_free(&s->set);
	}
	free(r->scn);
	for (i = 0; i < 6; i++)
		free(r->conf_values[i]);
	free(r->conf_text);
	strv_free(&r->stalls);
	if (r->refused)
		strv_free(r->refused);
	free(r->refused);
	strv_free(&r->scenarios);
	strv_free(&r->fs);
	strv_free(&r->modes);
	strv_free(&r->native_kernels);
}

/* --- questions ------------------------------------------------------------ */

size_t model_count_status(const struct report_model *r, const char *status)
{
	size_t i, n = 0;

	for (i = 0; i < r->nruns; i++)
		n += !strcmp(r->runs[i].status, status);
	return n;
}

size_t model_count_runs(const struct report_model *r, const char *scn, const char *fs,
		      const char *mode, int ok)
{
	size_t i, n = 0;

	for (i = 0; i < r->nruns; i++) {
		const struct model_run *run = &r->runs[i];

		if (strcmp(run->scenario, scn) || strcmp(run->fs, fs) ||
		    strcmp(run->mode, mode))
			continue;
		n += !strcmp(run->status, "ok") == !!ok;
	}
	return n;
}

const struct model_run *model_first_run(const struct report_model *r, const char *scn)
{
	const struct model_run *first = NULL;
	size_t i;

	/* the tables show ok runs: describe one of them if there is one */
	for (i = 0; i < r->nruns; i++) {
		if (strcmp(r->runs[i].scenario, scn))
			continue;
		if (!strcmp(r->runs[i].status, "ok"))
			return &r->runs[i];
		if (!first)
			first = &r->runs[i];
	}
	return first;
}

const struct agg_group *model_group(const struct model_scenario *s, const char *fs,
				  const char *mode, const char *metric)
{
	const struct agg_group *found = NULL;
	size_t i;

	for (i = 0; i < s->ngroups; i++) {
		const struct agg_group *g = &s->groups[i];

		if (!strcmp(g->dim[AGG_FS], fs) && model_mode_is(mode, g->dim[AGG_MODE], g->dim[AGG_KERNEL]) &&
		    !strcmp(g->metric, metric))
			found = g;
	}
	return found;
}

int differ_as_printed(double a, double b)
{
	char x[32], y[32];

	agg_format(x, sizeof(x), a);
	agg_format(y, sizeof(y), b);
	return strtod(x, NULL) != strtod(y, NULL);
}

int model_not_significant(const struct report_model *r, const struct model_scenario *s,
			const char *fs, const char *mode, const char *metric)
{
	size_t i;

	for (i = 0; i < s->npairs; i++) {
		const struct agg_pair *p = &s->pairs[i];

		if (!strcmp(p->a->dim[AGG_FS], fs) &&
		    model_mode_is(mode, p->a->dim[AGG_MODE], p->a->dim[AGG_KERNEL]) &&
		    model_mode_is(r->ref_mode, p->b->dim[AGG_MODE], p->b->dim[AGG_KERNEL]) &&
		    !strcmp(p->a->metric, metric) && p->sig == AGG_NOT_SIGNIFICANT)
			return 1;
	}
	return 0;
}

static int ends_with(const char *s, const char *suffix, size_t min)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= min + k && !strcmp(s + n - k, suffix);
}

void model_metrics_like(const struct model_scenario *s, struct strv *out,
		      const char *prefix, const char *suffix,
		      const char *suffix2)
{
	struct strv found = { 0 };
	size_t i, pl = strlen(prefix);

	for (i = 0; i < s->ngroups; i++) {
		const char *m = s->groups[i].metric;

		if (strncmp(m, prefix, pl))
			continue;
		if (ends_with(m, suffix, pl) || (suffix2 && ends_with(m, suffix2, pl)))
			strv_add_unique(&found, m);
	}
	strv_sort(&found);
	for (i = 0; i < found.n; i++)
		strv_add_unique(out, found.v[i]);
	strv_free(&found);
}

void model_check_metrics(const struct model_scenario *s, struct strv *out,
		       const char *prefix, int with)
{
	size_t i;

	for (i = 0; i < s->nverdicts; i++) {
		const char *m = s->verdicts[i].check->left.metric;

		if (!strncmp(m, prefix, strlen(prefix)) == !!with)
			strv_add_unique(out, m);
	}
}

int model_any_group_max_above(const struct model_scenario *s, const char *metric,
			    double v)
{
	size_t i;

	for (i = 0; i < s->ngroups; i++)
		if (!strcmp(s->groups[i].metric, metric) && s->groups[i].max > v)
			return 1;
	return 0;
}

/*
 * A run's knobs as they took effect, "KNOB=VALUE" lines: each of run.conf's
 * knobs= (the mode's, recorded by run.sh before boot) with its value, or
 * "absent" where the guest's kernel lacked it (the status's
 * knobs_absent=, rl-collect's), or "n/a" for a remount option of another
 * filesystem (mount.FS= on a run of another fs).
 */
static void run_knobs(const struct model_run *run, struct strv *lines)
{
	char *knobs = conf_value(run->conf, "knobs");
	char *absent = conf_value(run->status_text, "knobs_absent");
	struct strv words = { 0 }, gone = { 0 };
	char line[600];
	size_t i;

	strv_split(&words, knobs);
	strv_split(&gone, absent);
	for (i = 0; i < words.n; i++) {
		char *eq = strchr(words.v[i], '=');
		const char *val;

		if (!eq || eq == words.v[i])
			continue;
		*eq = '\0';
		val = eq + 1;
		if (!strncmp(words.v[i], "mount.", 6) && strcmp(words.v[i] + 6, run->fs))
			val = "n/a";
		else if (strv_has(&gone, words.v[i]))
			val = "absent";
		snprintf(line, sizeof(line), "%s=%s", words.v[i], val);
		strv_push(lines, line);
	}
	strv_free(&words);
	strv_free(&gone);
	free(knobs);
	free(absent);
}

void model_knob_lines(const struct report_model *r, const char *scn, const char *mode,
		      struct strv *lines, int *any_file)
{
	size_t i;

	for (i = 0; i < r->nruns; i++) {
		const struct model_run *run = &r->runs[i];

		if (strcmp(run->mode, mode) || (scn && strcmp(run->scenario, scn)))
			continue;
		*any_file = 1;
		run_knobs(run, lines);
	}
}

int model_mode_all_absent(const struct report_model *r, const char *mode)
{
	struct strv lines = { 0 };
	int any = 0, all = 1;
	size_t i;

	model_knob_lines(r, NULL, mode, &lines, &any);
	for (i = 0; i < lines.n; i++)
		if (!ends_with(lines.v[i], "=absent", 0))
			all = 0;
	all = all && lines.n;
	strv_free(&lines);
	return all;
}

void strip_error_line(char *line)
{
	char *semi, *slash;

	if (!strncmp(line, "reclaimlab: ", 12))
		memmove(line, line + 12, strlen(line + 12) + 1);
	semi = strrchr(line, ';');
	if (!semi)
		return;
	slash = strrchr(semi, '/');
	if (slash && !strpbrk(slash, " ;"))
		*semi = '\0';
}

char *model_run_error(const struct report_model *r, const struct model_run *run)
{
	size_t n = strlen(r->matrix) + strlen(run->name) + 8;
	char *path = xmalloc(n), *text, *last, *end;

	snprintf(path, n, "%s/%s.err", r->matrix, run->name);
	text = read_whole_file(path, NULL);
	free(path);
	if (!text || !*text) {
		free(text);
		return NULL;
	}
	end = text + strlen(text);
	while (end > text && end[-1] == '\n')
		*--end = '\0';
	last = strrchr(text, '\n');
	last = xstrdup(last ? last + 1 : text);
	free(text);
	strip_error_line(last);
	return last;
}

double model_run_metric(const struct model_run *run, const char *metric)
{
	return record_metric(&run->rec, metric);
}

/* --- the thread's picture ------------------------------------------------- */

const char *picture_class(double share)
{
	if (share <= PICTURE_FLUENT_MAX)
		return "fluent";
	if (share >= PICTURE_BATCHED_MIN)
		return "batched";
	return "between";
}

static const struct agg_run *set_run(const struct agg_set *set, const char *name)
{
	size_t i;

	for (i = 0; i < set->nruns; i++)
		if (!strcmp(set->runs[i].name, name))
			return &set->runs[i];
	return NULL;
}

/* The waits the thread quotes: how many ran the whole timeout, their p50. */
static void picture_thread(struct picture_fs *pf)
{
	long v[SCN_THREAD_WAITS_MAX];
	size_t i, n = pf->thread->n;

	memcpy(v, pf->thread->usec, n * sizeof(*v));
	qsort(v, n, sizeof(*v), value_cmp_long);
	for (i = 0; i < n; i++)
		pf->thread_full += v[i] >= PICTURE_TIMEOUT_USEC;
	/* the nearest rank, as rl-tracestat's p50_usec of the lab's waits */
	pf->thread_p50_usec = value_percentile(v, n, 50);
	pf->thread_share = n ? (double)pf->thread_full / n : 0;
}

/* The lab's runs of the picture's mode on pf->fs, counted as the checks do. */
static void picture_lab(const struct report_model *r, const struct model_scenario *s,
			const struct scn_picture *p, const char *mode, struct picture_fs *pf)
{
	char share_m[SCN_VALUE_MAX + 32], events_m[SCN_VALUE_MAX + 32], p50_m[SCN_VALUE_MAX + 32];
	double *events = xmalloc((r->nruns + 1) * sizeof(*events));
	double *p50 = xmalloc((r->nruns + 1) * sizeof(*p50));
	double *share = xmalloc((r->nruns + 1) * sizeof(*share));
	size_t i, n = 0;

	snprintf(share_m, sizeof(share_m), "%s.full_timeout_share", p->metric);
	snprintf(events_m, sizeof(events_m), "%s.events", p->metric);
	snprintf(p50_m, sizeof(p50_m), "%s.p50_usec", p->metric);
	for (i = 0; i < r->nruns; i++) {
		const struct model_run *run = &r->runs[i];
		const struct agg_run *ar;
		double waits = 0;
		char line[1024];
		char *err;

		if (strcmp(run->scenario, s->name) || strcmp(run->fs, pf->fs) ||
		    strcmp(run->mode, mode))
			continue;
		pf->runs++;
		if (strcmp(run->status, "ok")) {
			err = model_run_error(r, run);
			snprintf(line, sizeof(line), "%s %s%s%s", run->name, run->status,
				 err && *err ? ": " : "", err ? err : "");
			strv_push(&pf->missing, line);
			free(err);
			continue;
		}
		pf->ok++;
		ar = set_run(&s->set, run->name);
		switch (ar ? agg_run_counted(&s->set, ar, share_m, &waits) : AGG_LEFT_FEW) {
		case AGG_LEFT_OOM:
			pf->left_oom++;
			continue;
		case AGG_LEFT_FEW:
			break;
		case AGG_COUNTED:
			/* no such waits recorded at all: as few as none */
			if (agg_run_value(&s->set, ar, share_m, &share[n]) < 0 ||
			    agg_run_value(&s->set, ar, events_m, &events[n]) < 0 ||
			    agg_run_value(&s->set, ar, p50_m, &p50[n]) < 0)
				break;
			strv_push(&pf->counted, run->name);
			n++;
			continue;
		}
		if (!pf->left_few++)
			pf->few_min = pf->few_max = waits;
		pf->few_min = waits < pf->few_min ? waits : pf->few_min;
		pf->few_max = waits > pf->few_max ? waits : pf->few_max;
	}
	pf->events = agg_median(events, n);
	pf->p50_usec = agg_median(p50, n);
	pf->share = agg_median(share, n);	/* sorts share */
	pf->share_min = n ? share[0] : NAN;
	pf->share_max = n ? share[n - 1] : NAN;
	free(events);
	free(p50);
	free(share);
}

void model_picture(const struct report_model *r, const struct model_scenario *s,
		   struct picture *out)
{
	const struct scenario *scn = &s->file;
	struct strv fs = { 0 };
	size_t i;

	memset(out, 0, sizeof(*out));
	out->s = s;
	out->p = &scn->picture;
	out->mode = scn->picture.mode;
	for (i = 0; i < r->modes.n; i++) {
		const char *m, *k;

		if (!model_mode_parts(r, r->modes.v[i], &m, &k) && !strcmp(m, scn->picture.mode)) {
			out->mode = r->modes.v[i];
			break;
		}
	}
	/* the matrix's filesystems, then those only the thread has */
	for (i = 0; i < r->fs.n; i++)
		strv_add_unique(&fs, r->fs.v[i]);
	for (i = 0; i < scn->nthread_waits; i++)
		strv_add_unique(&fs, scn->thread_waits[i].fs);
	out->fs = xmalloc((fs.n + 1) * sizeof(*out->fs));
	memset(out->fs, 0, (fs.n + 1) * sizeof(*out->fs));
	for (i = 0; i < fs.n; i++) {
		struct picture_fs *pf = &out->fs[out->nfs++];

		/* the matrix's string or the scenario's: fs is freed below */
		pf->fs = i < r->fs.n ? r->fs.v[i] : scn_thread_waits(scn, fs.v[i])->fs;
		pf->thread = scn_thread_waits(scn, pf->fs);
		if (pf->thread)
			picture_thread(pf);
		pf->lacks = scn_lacks(scn, pf->fs);
		picture_lab(r, s, out->p, out->mode, pf);
	}
	strv_free(&fs);
}

void model_picture_free(struct picture *p)
{
	size_t i;

	for (i = 0; i < p->nfs; i++) {
		strv_free(&p->fs[i].missing);
		strv_free(&p->fs[i].counted);
	}
	free(p->fs);
	memset(p, 0, sizeof(*p));
}
