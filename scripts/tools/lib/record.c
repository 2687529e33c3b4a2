// SPDX-License-Identifier: GPL-2.0
/* One run's record, joined from run.conf, status and its summary; see record.h. */
#include "lib/record.h"
#include "lib/cli.h"
#include "lib/conf.h"
#include "lib/guest-read.h"
#include "lib/run-folder.h"
#include "lib/util.h"
#include "lib/values.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * dir/status's text, NULL if there is none: read as a guest file is
 * (a regular file, no link followed, at most RECORD_STATUS_MAX bytes).
 * The host writes it; a link or a fifo planted in its place is refused,
 * and a refused status is one the record has not got.
 */
static char *status_text(const char *dir)
{
	size_t n = strlen(dir) + sizeof("/status");
	char *p = xmalloc(n), *text = NULL;
	char err[256];
	int tries;

	snprintf(p, n, "%s/status", dir);
	/*
	 * guest_read_file() refuses a file replaced between its lstat() and
	 * its open(): record_write_status()'s rename() may land there while
	 * a reader (a matrix, gdb-attach, the native sweep) asks, so a
	 * refusal is asked again before it counts as no status.
	 */
	for (tries = 0; tries < 3; tries++) {
		text = guest_read_file(p, RECORD_STATUS_MAX, NULL, err, sizeof(err));
		if (text || errno == ENOENT)
			break;
	}
	free(p);
	return text;
}

/* the first line of text (malloc'ed), "unknown" if it is empty */
static char *first_word(const char *text)
{
	size_t n = strcspn(text, "\n");
	char *w;

	if (!n)
		return xstrdup("unknown");
	w = xmalloc(n + 1);
	memcpy(w, text, n);
	w[n] = '\0';
	return w;
}

int record_load(struct record *rec, const char *dir, const char *name)
{
	char *v, *at;
	struct stat sb;

	memset(rec, 0, sizeof(*rec));
	rec->status_text = status_text(dir);
	if (!rec->status_text)
		return -1;
	rec->status = first_word(rec->status_text);
	rec->name = xstrdup(name);
	rec->dir = xstrdup(dir);
	rec->conf = read_file_in(dir, "run.conf");
	if (!rec->conf)
		rec->conf = xstrdup("");
	rec->scenario = conf_value_or_empty(rec->conf, "scenario");
	rec->fs = conf_value_or_empty(rec->conf, "fs");
	rec->profile = conf_value_or_empty(rec->conf, "profile");
	rec->mode = conf_value_or_empty(rec->conf, "mode");
	rec->kernel = conf_value_or_empty(rec->conf, "kernel_name");
	/*
	 * A folder written before 2026-12-07 has the kernel in its mode too,
	 * mode=MODE@KERNEL: the one place it is taken apart
	 */
	at = strchr(rec->mode, '@');
	if (at) {
		*at = '\0';
		if (!*rec->kernel) {
			free(rec->kernel);
			rec->kernel = xstrdup(at + 1);
		}
	}
	v = conf_value_or_empty(rec->conf, "repeat");
	rec->repeat = strtol(v, NULL, 10);
	free(v);
	v = xmalloc(strlen(dir) + sizeof("/" RL_DERIVED_DIR "/summary.tsv"));
	sprintf(v, "%s/" RL_DERIVED_DIR "/summary.tsv", dir);
	rec->summarized = !stat(v, &sb);
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
	free(rec->kernel);
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

/* "run scenario fs profile mode kernel repeat metric value" into buf */
static int join(const struct record *rec, const char *metric, const char *value,
		char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s\t%s\t%s\t%s\t%s\t%s\t%ld\t%s\t%s", rec->name,
			 rec->scenario, rec->fs, rec->profile, rec->mode,
			 *rec->kernel ? rec->kernel : RECORD_NO_KERNEL, rec->repeat,
			 metric, value);

	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/*
 * The metric and value of a summary line "METRIC VALUE", or of one
 * "RUN METRIC VALUE" (summaries written before 2026-12-07 named the run
 * in each row; the name is the folder's, so it is skipped); 1 if it is
 * neither.
 */
static int split_row(char *line, char **metric, char **value)
{
	char *t1 = strchr(line, '\t'), *t2;

	if (!t1)
		return 1;
	t2 = strchr(t1 + 1, '\t');
	if (!t2) {
		*t1 = '\0';
		*metric = line;
		*value = t1 + 1;
		return !*line;
	}
	if (strchr(t2 + 1, '\t'))
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

int record_rows(const struct record *rec, record_row_fn fn, void *arg,
		char *err, size_t errlen)
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
	if (!rc && !join(rec, "run.status", rec->status, row, sizeof(row)))
		rc = fn(arg, row, "run.status", rec->status, 0);
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

const char *record_state(const struct record *rec)
{
	return !rec->summarized && !strcmp(rec->status, "ok") ? RECORD_UNSUMMARIZED : rec->status;
}

char *record_mode_label(const char *mode, const char *kernel)
{
	size_t n = strlen(mode) + strlen(kernel) + 2;
	char *label = xmalloc(n);

	if (!*kernel || !strcmp(kernel, RECORD_NO_KERNEL))
		snprintf(label, n, "%s", mode);
	else
		snprintf(label, n, "%s@%s", mode, kernel);
	return label;
}

char *record_fact(const struct record *rec, const char *key)
{
	return conf_value(rec->status_text, key);
}

char *record_status_word(const char *dir)
{
	char *text = status_text(dir), *w;

	if (!text)
		return NULL;
	w = first_word(text);
	free(text);
	return w;
}

char *record_status_fact(const char *dir, const char *key)
{
	char *text = status_text(dir), *v;

	if (!text)
		return NULL;
	v = conf_value(text, key);
	free(text);
	return v;
}

/* word and facts over the old dir/status, in place: its blocks first */
static int rewrite_in_place(const char *path, const char *word, const char *facts)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
	FILE *f;

	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -1;
	}
	fprintf(f, "%s\n%s", word, facts);
	return ferror(f) | fclose(f) ? -1 : 0;
}

int record_write_status(const char *dir, const char *word, const char *facts,
			const char *short_facts, char *err, size_t errlen)
{
	size_t n = strlen(dir) + sizeof("/status.tmp");
	char *tmp = xmalloc(n), *final = xmalloc(n), msg[1024] = "";
	FILE *out;
	int rc = 0;

	snprintf(tmp, n, "%s/status.tmp", dir);
	snprintf(final, n, "%s/status", dir);
	out = cli_create(tmp, msg, sizeof(msg));
	if (out) {
		fprintf(out, "%s\n%s", word, facts);
		if (ferror(out) | fclose(out)) {
			snprintf(msg, sizeof(msg), "cannot write %s: %s", tmp, strerror(errno));
			unlink(tmp);
		} else if (rename(tmp, final)) {
			snprintf(msg, sizeof(msg), "cannot rename %s to %s: %s", tmp, final,
				 strerror(errno));
			unlink(tmp);
		} else {
			msg[0] = '\0';
		}
	}
	if (msg[0]) {
		if (short_facts && !rewrite_in_place(final, word, short_facts))
			rc = 1;
		else
			rc = cli_fail(err, errlen, "%s", msg);
	}
	free(tmp);
	free(final);
	return rc;
}

/* the fields of a tab-separated line, at most max; how many */
static size_t split_fields(char *line, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return line ? max + 1 : n;
}

/* Is key=... a line of the status file after its first? */
static int status_has_key(const char *status, const char *key)
{
	char *v = conf_value(status, key);

	free(v);
	return v != NULL;
}

/* derived/summary.tsv of the layout before 2026-12 as "metric value" rows */
static int convert_summary(const char *dir, const char *conf, const char *status,
			   char *err, size_t errlen)
{
	static const char *const keys[] = { "scenario", "fs", "profile", "mode", "repeat" };
	char *text = read_file_in(dir, RL_DERIVED_DIR "/summary.tsv"), *p, *line;
	char *path, *tmp, *f[9];
	unsigned long lineno = 0;
	size_t k, n;
	FILE *out;
	int rc = 0;

	if (!text)
		return 1;
	/* converted already, or never of that layout: its first row says */
	n = strcspn(text, "\n");
	line = xmalloc(n + 1);
	memcpy(line, text, n);
	line[n] = '\0';
	k = old_layout(line);
	free(line);
	if (!k) {
		free(text);
		return 1;
	}
	n = strlen(dir) + sizeof("/" RL_DERIVED_DIR "/summary.tsv.tmp");
	path = xmalloc(n);
	tmp = xmalloc(n);
	snprintf(path, n, "%s/" RL_DERIVED_DIR "/summary.tsv", dir);
	snprintf(tmp, n, "%s.tmp", path);
	out = cli_create(tmp, err, errlen);
	if (!out) {
		free(text);
		free(path);
		free(tmp);
		return -1;
	}
	for (p = text; !rc && (line = next_line(&p));) {
		lineno++;
		if (split_fields(line, f, 8) != 8) {
			rc = cli_fail(err, errlen, "%s line %lu: not 8 fields", path, lineno);
			break;
		}
		for (k = 0; k < 5; k++) {
			char *want = conf_value(conf, keys[k]);
			int same = want && !strcmp(want, f[1 + k]);

			if (!same)
				rc = cli_fail(err, errlen, "%s line %lu: %s %s, but run.conf says %s",
					      path, lineno, keys[k], f[1 + k], want ? want : "nothing");
			free(want);
			if (rc)
				break;
		}
		if (rc)
			break;
		/* the copies of the status and of the knobs go */
		if (!strcmp(f[6], "run.status") || !strcmp(f[6], "workload.oom_kills") ||
		    !strncmp(f[6], "knob.", 5) ||
		    (!strncmp(f[6], "run.", 4) && status_has_key(status, f[6] + 4)))
			continue;
		fprintf(out, "%s\t%s\n", f[6], f[7]);
	}
	if ((ferror(out) | fclose(out)) && !rc)
		rc = cli_fail(err, errlen, "cannot write %s", tmp);
	if (!rc && rename(tmp, path))
		rc = cli_fail(err, errlen, "cannot rename %s: %s", tmp, strerror(errno));
	if (rc)
		unlink(tmp);
	free(text);
	free(path);
	free(tmp);
	return rc;
}

/* the status without clock= and with knobs_absent= from the guest's knobs */
static int convert_status(const char *dir, const char *status, char *err, size_t errlen)
{
	char *copy, *p, *line, *knobs, *path, absent[4096] = "", msg[1024];
	size_t used = 0, n = strlen(dir) + sizeof("/" RL_GUEST_DIR "/knobs");
	char *facts = NULL;
	size_t factslen = 0;
	FILE *out;
	int first = 1, rc;

	if (status_has_key(status, "knobs_absent"))
		return 1;
	path = xmalloc(n);
	snprintf(path, n, "%s/" RL_GUEST_DIR "/knobs", dir);
	knobs = guest_read_file(path, GUEST_MAX_SMALL, NULL, msg, sizeof(msg));
	free(path);
	for (p = knobs; p && (line = next_line(&p));) {
		size_t len = strlen(line), kl = len - 7;

		if (len > 7 && kl <= 200 && !strcmp(line + kl, "=absent") &&
		    strspn(line, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.") == kl &&
		    used + kl + 2 < sizeof(absent))
			used += (size_t)snprintf(absent + used, sizeof(absent) - used, "%s%.*s",
						 used ? "," : "", (int)kl, line);
	}
	free(knobs);
	out = open_memstream(&facts, &factslen);
	if (!out) {
		fprintf(stderr, "%s: out of memory\n", program_invocation_short_name);
		exit(1);
	}
	copy = xstrdup(status);
	for (p = copy; (line = next_line(&p)); first = 0) {
		if (first || !strncmp(line, "clock=", 6))
			continue;
		fprintf(out, "%s\n", line);
		if (!strncmp(line, "oom_kills=", 10))
			fprintf(out, "knobs_absent=%s\n", absent);
	}
	fclose(out);
	line = first_word(status);
	rc = record_write_status(dir, line, facts, NULL, err, errlen);
	free(line);
	free(copy);
	free(facts);
	return rc;
}

int record_convert(const char *dir, char *err, size_t errlen)
{
	char *status = status_text(dir);
	char *conf = read_file_in(dir, "run.conf");
	int a, b;

	if (!status) {
		free(conf);
		return cli_fail(err, errlen, "'%s' is not a run folder (no status file)", dir);
	}
	if (!conf)
		conf = xstrdup("");
	a = convert_summary(dir, conf, status, err, errlen);
	b = a < 0 ? -1 : convert_status(dir, status, err, errlen);
	free(status);
	free(conf);
	if (a < 0 || b < 0)
		return -1;
	return a == 1 && b == 1 ? 1 : 0;
}
