// SPDX-License-Identifier: GPL-2.0
/*
 * splats: kernel problem reports in a guest console log (see splats.h).
 */
#include "collect/splats.h"

#include <stdlib.h>
#include <string.h>

static const char *const kind_names[NR_SPLAT_KINDS] = {
	[SPLAT_OOPS]		= "oops",
	[SPLAT_BUG]		= "bug",
	[SPLAT_WARNING]		= "warning",
	[SPLAT_KASAN]		= "kasan",
	[SPLAT_UBSAN]		= "ubsan",
	[SPLAT_LOCKDEP]		= "lockdep",
	[SPLAT_HUNG_TASK]	= "hung_task",
	[SPLAT_RCU_STALL]	= "rcu_stall",
	[SPLAT_SOFT_LOCKUP]	= "soft_lockup",
	[SPLAT_GPF]		= "gpf",
	[SPLAT_PANIC]		= "panic",
	[SPLAT_HOST_MEMORY]	= "host_memory",
};

const char *splat_kind_name(enum splat_kind kind)
{
	if (kind < 0 || kind >= NR_SPLAT_KINDS)
		return "unknown";
	return kind_names[kind];
}

/* The text after a printk timestamp "[   12.345678] ", if there is one. */
static const char *skip_timestamp(const char *line)
{
	const char *p = line;

	if (*p != '[')
		return line;
	for (p++; *p == ' ' || *p == '.' || (*p >= '0' && *p <= '9'); p++)
		;
	if (*p != ']')
		return line;
	p++;
	return *p == ' ' ? p + 1 : p;
}

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int is_cut_here(const char *text)
{
	return strstr(text, "[ cut here ]") != NULL;
}

/* "==========" closes KASAN and UBSAN reports. */
static int is_rule(const char *text)
{
	size_t n = strspn(text, "=");

	return n >= 20 && (text[n] == '\0' || text[n] == '\n');
}

static int is_end_marker(const char *text)
{
	return starts(text, "---[ end trace") || starts(text, "---[ end Kernel panic");
}

/* WARNING: lines of lockdep and RCU-lockdep, as opposed to WARN_ON(). */
static int is_lockdep_warning(const char *what)
{
	return strstr(what, "lock") || strstr(what, "RCU usage") ||
	       strstr(what, "lock order");
}

enum splat_kind splat_line_kind(const char *line)
{
	const char *t = skip_timestamp(line);

	if (starts(t, "BUG: KASAN:"))
		return SPLAT_KASAN;
	if (starts(t, "UBSAN:"))
		return SPLAT_UBSAN;
	if (strstr(t, "BUG: soft lockup"))
		return SPLAT_SOFT_LOCKUP;
	if (starts(t, "Oops") || starts(t, "Kernel mode fault at addr"))
		return SPLAT_OOPS;
	if (starts(t, "general protection fault"))
		return SPLAT_GPF;
	if (starts(t, "kernel BUG at") || starts(t, "BUG: "))
		return SPLAT_BUG;
	if (starts(t, "WARNING: "))
		return is_lockdep_warning(t + 9) && !starts(t + 9, "CPU:") ?
		       SPLAT_LOCKDEP : SPLAT_WARNING;
	if (starts(t, "INFO: task ") && strstr(t, " blocked for more than "))
		return SPLAT_HUNG_TASK;
	if (strstr(t, "rcu: INFO:") && strstr(t, "detected stall"))
		return SPLAT_RCU_STALL;
	if (starts(t, "Kernel panic"))
		return SPLAT_PANIC;
	/*
	 * UML could not map a page into a guest process's host twin (host
	 * memory, or the host's vm.max_map_count mappings a process): the
	 * guest process dies of SIGSEGV, so the workload did not run as asked.
	 */
	if (starts(t, "UML ran out of memory on the host side"))
		return SPLAT_HOST_MEMORY;
	return SPLAT_NONE;
}

void splat_scanner_init(struct splat_scanner *sc, splat_cb cb, void *arg)
{
	memset(sc, 0, sizeof(*sc));
	sc->cb = cb;
	sc->arg = arg;
}

static int append(struct splat_scanner *sc, const char *line)
{
	size_t n = strcspn(line, "\n");
	char *p;

	if (n > SPLATS_LINE_MAX)
		n = SPLATS_LINE_MAX;
	if (sc->cur.nlines >= SPLATS_MAX_LINES) {
		sc->cur.dropped++;
		return 0;
	}
	if (sc->cur.len + n + 2 > sc->cap) {
		size_t cap = sc->cap ? sc->cap * 2 : 4096;

		while (cap < sc->cur.len + n + 2)
			cap *= 2;
		p = realloc(sc->cur.text, cap);
		if (!p)
			return -1;
		sc->cur.text = p;
		sc->cap = cap;
	}
	memcpy(sc->cur.text + sc->cur.len, line, n);
	sc->cur.len += n;
	sc->cur.text[sc->cur.len++] = '\n';
	sc->cur.text[sc->cur.len] = '\0';
	sc->cur.nlines++;
	return 0;
}

static void set_title(struct splat *s, enum splat_kind kind, const char *line)
{
	const char *t = skip_timestamp(line);
	size_t n = strcspn(t, "\n");

	if (n >= sizeof(s->title))
		n = sizeof(s->title) - 1;
	memcpy(s->title, t, n);
	s->title[n] = '\0';
	s->kind = kind;
}

/* Opened at "[ cut here ]", and the line naming the problem not seen yet. */
static int pending(const struct splat_scanner *sc)
{
	return sc->open && sc->cur.kind == SPLAT_NONE;
}

/* Hand the open splat to the callback and start afresh. */
static int close_splat(struct splat_scanner *sc, int complete)
{
	int rc = 0;

	if (!sc->open)
		return 0;
	/* a "cut here" never followed by a report is not a splat */
	if (!pending(sc)) {
		sc->cur.complete = complete;
		sc->count[sc->cur.kind]++;
		sc->total++;
		if (sc->cb)
			rc = sc->cb(&sc->cur, sc->arg);
	}
	sc->open = 0;
	sc->cur.len = sc->cur.nlines = sc->cur.dropped = 0;
	sc->cur.title[0] = '\0';
	if (sc->cur.text)
		sc->cur.text[0] = '\0';
	return rc;
}

static int open_splat(struct splat_scanner *sc, enum splat_kind kind,
		      const char *line)
{
	sc->open = 1;
	sc->cur.kind = kind;
	if (kind != SPLAT_NONE)
		set_title(&sc->cur, kind, line);
	return append(sc, line);
}

int splat_scanner_line(struct splat_scanner *sc, const char *line)
{
	const char *t = skip_timestamp(line);
	enum splat_kind kind = splat_line_kind(line);
	int rc;

	if (pending(sc)) {
		/* the line after "cut here" names the problem */
		if (kind != SPLAT_NONE) {
			set_title(&sc->cur, kind, line);
			return append(sc, line);
		}
		if (sc->cur.nlines >= 3)	/* a stray "cut here" */
			close_splat(sc, 0);
	}
	if (is_cut_here(t)) {
		rc = close_splat(sc, 0);
		if (rc)
			return rc;
		return open_splat(sc, SPLAT_NONE, line);
	}
	/*
	 * One report, not two: "kernel BUG at" followed by its "Oops:" line
	 * (x86), and UML's BUG(), which prints "BUG: failure at" and panics.
	 */
	if ((kind == SPLAT_OOPS || kind == SPLAT_PANIC) && sc->open &&
	    sc->cur.kind == SPLAT_BUG && sc->cur.nlines <= 3)
		kind = SPLAT_NONE;
	if (kind != SPLAT_NONE) {
		rc = close_splat(sc, 0);
		if (rc)
			return rc;
		return open_splat(sc, kind, line);
	}
	if (!sc->open)
		return 0;
	rc = append(sc, line);
	if (rc)
		return rc;
	if (is_end_marker(t) ||
	    ((sc->cur.kind == SPLAT_KASAN || sc->cur.kind == SPLAT_UBSAN) &&
	     is_rule(t)))
		return close_splat(sc, 1);
	return 0;
}

int splat_scanner_finish(struct splat_scanner *sc)
{
	int rc = close_splat(sc, 0);

	free(sc->cur.text);
	sc->cur.text = NULL;
	sc->cap = 0;
	return rc;
}
