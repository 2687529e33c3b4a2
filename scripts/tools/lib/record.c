// SPDX-License-Identifier: GPL-2.0
/* One run's record, joined from run.conf, status and its summary; see record.h. */
#include "lib/record.h"
#include "lib/cli.h"
#include "lib/conf.h"
#include "lib/run-folder.h"
#include "lib/util.h"
#include "lib/values.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *conf_or_empty(const char *text, const char *key)
{
	char *v = conf_value(text, key);

	return v ? v : xstrdup("");
}

int record_load(struct record *rec, const char *dir, const char *name)
{
	size_t n;
	char *v;

	memset(rec, 0, sizeof(*rec));
	rec->status_text = read_file_in(dir, "status");
	if (!rec->status_text)
		return -1;
	n = strcspn(rec->status_text, "\n");
	rec->status = n ? xmalloc(n + 1) : xstrdup("unknown");
	if (n) {
		memcpy(rec->status, rec->status_text, n);
		rec->status[n] = '\0';
	}
	rec->name = xstrdup(name);
	rec->dir = xstrdup(dir);
	rec->conf = read_file_in(dir, "run.conf");
	if (!rec->conf)
		rec->conf = xstrdup("");
	rec->scenario = conf_or_empty(rec->conf, "scenario");
	rec->fs = conf_or_empty(rec->conf, "fs");
	rec->profile = conf_or_empty(rec->conf, "profile");
	rec->mode = conf_or_empty(rec->conf, "mode");
	v = conf_or_empty(rec->conf, "repeat");
	rec->repeat = strtol(v, NULL, 10);
	free(v);
	return 0;
}

void record_free(struct record *rec)
{
	free(rec->name);
	free(rec->dir);
	free(rec->conf);
	free(rec->status_text);
	free(rec->status);
	free(rec->scenario);
	free(rec->fs);
	free(rec->profile);
	free(rec->mode);
	memset(rec, 0, sizeof(*rec));
}

/*
 * The metric of a status fact KEY: run.KEY, but workload.oom_kills for
 * oom_kills (aggregate.h AGG_OOM_METRIC); into buf.  0, or -1 for a key
 * that is not a fact of the rows (the run name, or too long).
 */
static int record_fact_metric(const char *key, char *buf, size_t size)
{
	int n;

	if (!*key || !strcmp(key, "run"))
		return -1;
	/* the one count of OOM kills, the collector's */
	n = snprintf(buf, size, "%s.%s", strcmp(key, "oom_kills") ? "run" : "workload", key);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* "run scenario fs profile mode repeat metric value" into buf */
static int join(const struct record *rec, const char *metric, const char *value,
		char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s\t%s\t%s\t%s\t%s\t%ld\t%s\t%s", rec->name,
			 rec->scenario, rec->fs, rec->profile, rec->mode, rec->repeat,
			 metric, value);

	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* the rows of a summary line "RUN METRIC VALUE"; 1 if it is not one */
static int split_row(char *line, char **metric, char **value)
{
	char *t1 = strchr(line, '\t'), *t2;

	if (!t1)
		return 1;
	t2 = strchr(t1 + 1, '\t');
	if (!t2)
		return 1;
	*metric = t1 + 1;
	*t2 = '\0';
	*value = t2 + 1;
	return 0;
}

/* whether a summary line has the layout before 2026-12: eight fields */
static int old_layout(const char *line)
{
	size_t tabs = 0;

	for (; *line; line++)
		tabs += *line == '\t';
	return tabs == 7;
}

int record_rows(const struct record *rec, const char *status,
		record_row_fn fn, void *arg, char *err, size_t errlen)
{
	char *text = read_file_in(rec->dir, RL_DERIVED_DIR "/summary.tsv");
	char *p, *line, *st, metric[256], row[8192];
	unsigned long lineno = 0;
	int rc = 0, first = 1;

	if (!text)
		return 0;
	/* the outcome: the status file's facts, after its first line */
	st = xstrdup(rec->status_text);
	for (p = st; !rc && (line = next_line(&p));) {
		char *eq = strchr(line, '=');

		if (first) {
			first = 0;
			continue;
		}
		if (!eq || eq == line || (size_t)(eq - line) > 200)
			continue;
		*eq = '\0';
		if (!record_fact_metric(line, metric, sizeof(metric)) &&
		    value_is_number(eq + 1) && !join(rec, metric, eq + 1, row, sizeof(row)))
			rc = fn(arg, row, metric, eq + 1, 0);
	}
	free(st);
	/* what it measured */
	for (p = text; !rc && (line = next_line(&p));) {
		char *m, *v;

		lineno++;
		if (old_layout(line)) {
			rc = cli_fail(err, errlen,
				      "%s/" RL_DERIVED_DIR "/summary.tsv has rows of the layout before 2026-12 (run scenario fs profile mode repeat metric value): convert the matrix with scripts/convert-matrix.sh MATRIX, or summarize the run again (scripts/summarize-run.sh)",
				      rec->name);
			break;
		}
		if (split_row(line, &m, &v)) {
			/* malformed: aggregate-rows.c counts it */
			snprintf(row, sizeof(row), "%s", line);
			rc = fn(arg, row, "", "", lineno);
			continue;
		}
		if (join(rec, m, v, row, sizeof(row)))
			continue;
		rc = fn(arg, row, m, v, lineno);
	}
	if (!rc && !join(rec, "run.status", status ? status : rec->status, row, sizeof(row)))
		rc = fn(arg, row, "run.status", status ? status : rec->status, 0);
	free(text);
	return rc;
}

double record_metric(const struct record *rec, const char *metric)
{
	char *text = read_file_in(rec->dir, RL_DERIVED_DIR "/summary.tsv"), *line, *p = text;
	double v = NAN;

	while ((line = next_line(&p))) {
		char *m, *val;

		if (!split_row(line, &m, &val) && !strcmp(m, metric))
			v = strtod(val, NULL);
	}
	free(text);
	return v;
}
