// SPDX-License-Identifier: GPL-2.0
/* A run's outcome from what its guest left; see collect.h. */
#include "collect/collect.h"
#include "lib/conf.h"

#include <stdlib.h>
#include <string.h>

struct scan {
	FILE *list, *excerpts;
	struct collect_console *c;
};

static int one_splat(const struct splat *s, void *arg)
{
	struct scan *sc = arg;

	sc->c->splats[s->kind]++;
	sc->c->nsplats++;
	if (sc->list && fprintf(sc->list, "%s: %s\n", splat_kind_name(s->kind), s->title) < 0)
		return -1;
	if (!sc->excerpts)
		return 0;
	fprintf(sc->excerpts, "=== %s: %s\n%s", splat_kind_name(s->kind), s->title, s->text);
	if (s->dropped)
		fprintf(sc->excerpts, "... %zu more lines in the console log\n", s->dropped);
	if (!s->complete)
		fprintf(sc->excerpts, "(no end marker: the report was cut short or ended here)\n");
	return fputc('\n', sc->excerpts) == EOF ? -1 : 0;
}

/* "Killed process " and a digit: one line per process the OOM killer killed */
static int oom_kill_line(const char *line)
{
	const char *p = strstr(line, "Killed process ");

	return p && p[15] >= '0' && p[15] <= '9';
}

int collect_console(FILE *in, FILE *list, FILE *excerpts,
		    struct collect_console *c)
{
	struct scan scan = { list, excerpts, c };
	struct splat_scanner sc;
	char line[SPLATS_LINE_MAX * 8];
	int rc = 0;

	memset(c, 0, sizeof(*c));
	splat_scanner_init(&sc, one_splat, &scan);
	while (!rc && fgets(line, sizeof(line), in)) {
		size_t n = strlen(line);

		c->oom_kills += oom_kill_line(line);
		c->model_errors += strstr(line, "ubd: bad ubd.model=") != NULL;
		rc = splat_scanner_line(&sc, line);
		/* the rest of an over-long line is not a line of its own */
		while (n && line[n - 1] != '\n' && fgets(line, sizeof(line), in))
			n = strlen(line);
	}
	if (!rc)
		rc = splat_scanner_finish(&sc);
	else
		splat_scanner_finish(&sc);
	return rc ? -1 : 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(splat_kind_name(*(const enum splat_kind *)a),
		      splat_kind_name(*(const enum splat_kind *)b));
}

void collect_splat_kinds(const struct collect_console *c, char *buf,
			 size_t size)
{
	enum splat_kind kinds[NR_SPLAT_KINDS];
	size_t used = 0;
	int k, n = 0;

	for (k = 0; k < NR_SPLAT_KINDS; k++)
		kinds[k] = (enum splat_kind)k;
	qsort(kinds, NR_SPLAT_KINDS, sizeof(kinds[0]), by_name);
	buf[0] = '\0';
	for (k = 0; k < NR_SPLAT_KINDS && used < size; k++) {
		if (!c->splats[kinds[k]])
			continue;
		used += (size_t)snprintf(buf + used, size - used, "%s%s:%zu", n++ ? "," : "",
					 splat_kind_name(kinds[k]), c->splats[kinds[k]]);
	}
}

const char *collect_status(enum collect_end end, int have_exit, int exit_rc,
			   int killed, const struct collect_console *c, int *rc)
{
	if (end == COLLECT_HUNG) {
		*rc = 124;
		return "hung";
	}
	if (have_exit) {
		*rc = exit_rc < 0 || exit_rc > 255 ? 125 : exit_rc;
		if (c->model_errors || c->nsplats || (killed && !c->oom_kills)) {
			if (!*rc)
				*rc = 1;
			return c->nsplats && !c->model_errors ? "splat" : "failed";
		}
		return *rc ? "failed" : "ok";
	}
	if (end == COLLECT_INTERACTIVE && !c->nsplats) {
		/* the user ended the shell (poweroff -f leaves no exit status) */
		*rc = 0;
		return "ok";
	}
	*rc = 125;
	return "crashed";
}

void collect_guest_line(const char *text, const char *keep, size_t max,
			char *buf, size_t size)
{
	size_t n = 0;

	for (; text && *text && *text != '\n' && n < max && n + 1 < size; text++)
		if (strchr(keep, *text))
			buf[n++] = *text;
	buf[n] = '\0';
}

int collect_host_failure(const char *text, struct collect_host_failure *h)
{
	static const char words[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ._:=/,()+-'*%@;";
	char *v, full[4];

	memset(h, 0, sizeof(*h));
	if (!text)
		return 0;
	v = conf_value(text, "step");
	collect_guest_line(v, "abcdefghijklmnopqrstuvwxyz0123456789_-", sizeof(h->step) - 1, h->step,
			   sizeof(h->step));
	free(v);
	v = conf_value(text, "reason");
	collect_guest_line(v, words, sizeof(h->reason) - 1, h->reason, sizeof(h->reason));
	free(v);
	v = conf_value(text, "disk_full");
	collect_guest_line(v, "01", 2, full, sizeof(full));
	free(v);
	h->disk_full = !strcmp(full, "1");
	return h->step[0] || h->disk_full;
}
