// SPDX-License-Identifier: GPL-2.0
/*
 * rl-collect RUNDIR WALL_SECONDS ended|hung|interactive: the collect step
 * of one run, once its guest is gone (collect.h): the console log read
 * once for the kernel's splats (RUNDIR/derived/splats, one "KIND: TITLE"
 * line each, and derived/splats.txt, each whole report), its OOM kills
 * and refused disk models; the guest's files read as data; and the run's
 * outcome written into RUNDIR/status (status.tmp, then renamed: a status
 * that is there is whole).  Grown from rl-splats, which read the console
 * for the splats alone.
 *
 * Prints "STATUS EXIT WRITTEN DISK_FULL STEP" even when the status file
 * could not be written, so that collect-run.sh need not read it back:
 * the status word, the exit status the run stands for (the guest
 * command's, 124 hung, 125 crashed), how the status file was written
 * (whole, short: only the short status of a full disk, none), 1 when
 * the host disk filled up (else 0), and the host step that failed (the
 * native backend's) or "-".
 * Exit status: 0 ok, 1 the status file could not be written, 2 bad usage
 * or not a run folder.
 */
#include "lib/cli.h"
#include "collect/collect.h"
#include "lib/conf.h"
#include "lib/guest-read.h"
#include "lib/record.h"
#include "lib/run-folder.h"
#include "lib/util.h"
#include "lib/values.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define PROG "rl-collect"

#define die_usage(...) cli_die_usage(PROG, __VA_ARGS__)

static const char usage_text[] =
	"usage: " PROG " RUNDIR WALL_SECONDS ended|hung|interactive\n"
	"       " PROG " --mark running|interrupted|not-measured RUNDIR [KEY=VALUE]...\n"
	"Reads RUNDIR/console.log once (splats, OOM kills, refused disk models)\n"
	"and the guest's exit-status, guest-uptime, time-travel-cpu,\n"
	"failure-reason, knobs-absent and workloads-killed, as data, and the\n"
	"host's RUNDIR/host-failure (a step that failed, a full disk); writes\n"
	"RUNDIR/derived/splats,\n"
	"derived/splats.txt and RUNDIR/status, the run's outcome; prints\n"
	"\"STATUS EXIT WRITTEN DISK_FULL STEP\" (written: whole, short, none).\n"
	"--mark writes the status of a run that is not collected: one starting\n"
	"(running), one stopped by a signal (interrupted), one the host could not\n"
	"measure (not-measured, with exit_status=N and reason=TEXT); its facts\n"
	"exit_status=N, failed_step=STEP, reason=TEXT.\n"
	"Exit status: 0 ok, 1 status not written, 2 bad usage or not a run folder.\n";

static char *path_of(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* the guest's RUN/guest/NAME, or NULL (absent; refused: said on stderr) */
static char *guest_file(const char *dir, const char *name, int *there)
{
	char *p, *t, err[1024], rel[300];
	struct stat sb;

	snprintf(rel, sizeof(rel), RL_GUEST_DIR "/%s", name);
	p = path_of(dir, rel);
	if (there)
		*there = !lstat(p, &sb);
	t = guest_read_file(p, GUEST_MAX_SMALL, NULL, err, sizeof(err));
	if (!t && errno != ENOENT)
		fprintf(stderr, PROG ": %s\n", err);
	free(p);
	return t;
}

/* the exit status in the guest's file: 0 to 255, else -1 */
static int exit_code(const char *text)
{
	size_t n = text ? strlen(text) : 0;

	while (n && text[n - 1] == '\n')
		n--;
	if (!n || n > 3 || strspn(text, "0123456789") != n)
		return -1;
	return atoi(text) <= 255 ? atoi(text) : -1;
}

/* "stalled_ticks N" of time-travel-cpu (patch 0011), else "unknown" */
static void stalled_ticks(const char *text, char *buf, size_t size)
{
	const char *p = text;

	snprintf(buf, size, "unknown");
	while (p && *p) {
		size_t len = strcspn(p, "\n"), d = len - 14;

		if (len > 14 && len <= 14 + 18 && !strncmp(p, "stalled_ticks ", 14) &&
		    strspn(p + 14, "0123456789") == d) {
			snprintf(buf, size, "%.*s", (int)d, p + 14);
			return;
		}
		p += len + (p[len] == '\n');
	}
}

/* knobs-absent: the knobs the guest's kernel lacks, a name a line */
static void knobs_absent(const char *text, char *buf, size_t size)
{
	const char *p = text;
	size_t used = 0;

	buf[0] = '\0';
	while (p && *p) {
		size_t len = strcspn(p, "\n");

		if (len && len <= 200 &&
		    strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == len &&
		    used + len + 2 < size)
			used += (size_t)snprintf(buf + used, size - used, "%s%.*s", used ? "," : "",
						 (int)len, p);
		p += len + (p[len] == '\n');
	}
}

/* one printable line of at most max bytes: a value cannot add keys */
static void one_line(const char *v, char *buf, size_t size)
{
	size_t i;

	snprintf(buf, size, "%s", v);
	for (i = 0; buf[i]; i++)
		if ((unsigned char)buf[i] < ' ' || buf[i] == 0x7f)
			buf[i] = ' ';
}

/*
 * --mark WORD RUNDIR [KEY=VALUE]...: the status of a run that is not
 * collected, which run.sh and native.sh observed, written by the one
 * writer of status files; its facts exit_status, failed_step and reason
 */
static int mark(int argc, char **argv)
{
	static const char *const keys[] = { "exit_status", "failed_step", "reason" };
	const char *word = argv[2], *dir = argv[3];
	char facts[2048] = "", value[600], err[1024], *conf;
	size_t used = 0, k;
	int i, have_exit = 0, have_reason = 0;

	if (strcmp(word, "running") && strcmp(word, "interrupted") && strcmp(word, "not-measured"))
		die_usage("bad --mark '%s' (valid: running interrupted not-measured)", word);
	for (i = 4; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');

		for (k = 0; eq && k < sizeof(keys) / sizeof(keys[0]); k++)
			if ((size_t)(eq - argv[i]) == strlen(keys[k]) &&
			    !strncmp(argv[i], keys[k], strlen(keys[k])))
				break;
		if (!eq || k == sizeof(keys) / sizeof(keys[0]))
			die_usage("bad fact '%s' (valid: exit_status=N failed_step=STEP reason=TEXT)",
				  argv[i]);
		if (k == 0 && exit_code(eq + 1) < 0)
			die_usage("bad exit_status '%s' (valid: 0 to 255)", eq + 1);
		if (k == 1 && (!eq[1] || strspn(eq + 1, "abcdefghijklmnopqrstuvwxyz-") != strlen(eq + 1)))
			die_usage("bad failed_step '%s' (valid: a step's name, a-z and -)", eq + 1);
		have_exit |= k == 0;
		have_reason |= k == 2;
		one_line(eq + 1, value, sizeof(value));
		used += (size_t)snprintf(facts + used, sizeof(facts) - used, "%s=%s\n", keys[k], value);
		if (used >= sizeof(facts))
			die_usage("facts too long (valid: at most %zu bytes)", sizeof(facts) - 1);
	}
	if (!strcmp(word, "not-measured") && (!have_exit || !have_reason))
		die_usage("--mark not-measured needs exit_status=N and reason=TEXT");
	conf = read_file_in(dir, "run.conf");
	if (!conf)
		die_usage("'%s' is not a run folder (no run.conf)", dir);
	free(conf);
	if (record_write_status(dir, word, facts, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct collect_console con;
	struct collect_host_failure host;
	enum collect_end end;
	const char *dir, *status;
	char *conf, *clock, *p, *t, *facts = NULL, err[1024], kinds[512], buf[1024], killed[128];
	size_t factslen = 0;
	FILE *in, *list, *excerpts, *out;
	struct statvfs vfs;
	int have_exit, host_failed, rc, ok = 1, disk_full = 0;
	const char *written = "whole";

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (argc >= 4 && !strcmp(argv[1], "--mark"))
		return mark(argc, argv);
	if (argc != 4)
		die_usage("usage: " PROG " RUNDIR WALL_SECONDS ended|hung|interactive");
	dir = argv[1];
	if (!strcmp(argv[3], "ended"))
		end = COLLECT_ENDED;
	else if (!strcmp(argv[3], "hung"))
		end = COLLECT_HUNG;
	else if (!strcmp(argv[3], "interactive"))
		end = COLLECT_INTERACTIVE;
	else
		die_usage("bad end '%s' (valid: ended hung interactive)", argv[3]);
	if (!value_is_number(argv[2]))
		die_usage("bad WALL_SECONDS '%s' (valid: a number of seconds)", argv[2]);
	p = path_of(dir, "run.conf");
	conf = read_whole_file(p, NULL);
	free(p);
	if (!conf)
		die_usage("'%s' is not a run folder (no run.conf)", dir);
	clock = conf_value(conf, "clock");
	free(conf);

	/* the console, once: splats, OOM kills, refused disk models */
	p = path_of(dir, RL_DERIVED_DIR);
	if (mkdir(p, 0755) && errno != EEXIST)
		die_usage("cannot create %s: %s", p, strerror(errno));
	free(p);
	p = path_of(dir, RL_DERIVED_DIR "/splats");
	list = cli_create(p, err, sizeof(err));
	free(p);
	p = path_of(dir, RL_DERIVED_DIR "/splats.txt");
	excerpts = list ? cli_create(p, err, sizeof(err)) : NULL;
	if (!excerpts) {
		fprintf(stderr, PROG ": %s\n", err);
		ok = 0;
	}
	t = path_of(dir, "console.log");
	/* host-written, but every byte of it is the guest's */
	in = guest_fopen(t, GUEST_MAX_CONSOLE, err, sizeof(err));
	free(t);
	memset(&con, 0, sizeof(con));
	if (!in) {
		fprintf(stderr, PROG ": could not scan the console log: %s\n", err);
	} else {
		if (collect_console(in, list, excerpts, &con) < 0) {
			fprintf(stderr, PROG ": could not write the splats\n");
			ok = 0;
		}
		fclose(in);
	}
	if (list && fclose(list))
		ok = 0;
	if (excerpts) {
		long size = ftell(excerpts);

		if (fclose(excerpts))
			ok = 0;
		if (!size)
			unlink(p);
	}
	free(p);

	/* the guest's word on how it ended; a workload SIGKILL ended is a
	 * result only if the kernel OOM-killed a process */
	t = guest_file(dir, "workloads-killed", NULL);
	collect_guest_line(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ._:()-",
			   100, killed, sizeof(killed));
	free(t);
	/* the host's word: a step of its own that failed before or after the
	 * job (the native backend), a run folder's filesystem that filled up */
	p = path_of(dir, "host-failure");
	t = guest_read_file(p, GUEST_MAX_SMALL, NULL, err, sizeof(err));
	if (!t && errno != ENOENT)
		fprintf(stderr, PROG ": %s\n", err);
	host_failed = collect_host_failure(t, &host);
	free(t);
	free(p);
	t = guest_file(dir, "exit-status", &have_exit);
	/* a step of the host's failed before the job could say how it ended */
	status = collect_status(end, have_exit || host.step[0], have_exit ? exit_code(t) : -1,
				killed[0] != '\0', &con, &rc);
	/* ... or the run folder's filesystem filled up under the run's disks:
	 * whatever the job said, the run did not measure what it meant to */
	if (host_failed && !strcmp(status, "ok")) {
		status = "failed";
		rc = 125;
	}
	free(t);
	/* the facts, then the status written whole through the record */
	out = open_memstream(&facts, &factslen);
	if (!out) {
		fprintf(stderr, PROG ": out of memory\n");
		exit(1);
	}
	fprintf(out, "exit_status=%d\nwall_seconds=%s\n", rc, argv[2]);
	t = guest_file(dir, "guest-uptime", NULL);
	/* one number: a guest's newline must not add keys to the status file */
	collect_guest_line(t, "0123456789.", 20, buf, sizeof(buf));
	fprintf(out, "simulated_seconds=%s\n", buf[0] ? buf : "unknown");
	free(t);
	/* host timer ticks that moved a stalled cpu clock (patch 0011): a run
	 * with any is not a function of its inputs alone */
	if (clock && !strcmp(clock, "cpu")) {
		t = guest_file(dir, "time-travel-cpu", NULL);
		stalled_ticks(t, buf, sizeof(buf));
		fprintf(out, "clock_stalled_ticks=%s\n", buf);
		free(t);
	}
	collect_splat_kinds(&con, kinds, sizeof(kinds));
	fprintf(out, "splats=%zu\nsplat_kinds=%s\noom_kills=%zu\nmodel_errors=%zu\n", con.nsplats,
		kinds, con.oom_kills, con.model_errors);
	t = guest_file(dir, "knobs-absent", NULL);
	knobs_absent(t, buf, sizeof(buf));
	fprintf(out, "knobs_absent=%s\n", buf);
	free(t);
	if (host.step[0])
		fprintf(out, "failed_step=%s\n", host.step);
	/* the guest's own words, read as data: first line, printable, bounded;
	 * the host's first, where it has any */
	t = guest_file(dir, "failure-reason", NULL);
	collect_guest_line(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ._:=/,()+-",
			   200, buf, sizeof(buf));
	if (host.reason[0])
		fprintf(out, "reason=%s%s%s\n", host.reason, buf[0] ? "; the job: " : "", buf);
	else if (buf[0])
		fprintf(out, "reason=%s\n", buf);
	else if (killed[0] && !con.oom_kills)
		fprintf(out, "reason=%s was killed (SIGKILL) without an OOM kill\n", killed);
	free(t);
	/* a host disk that filled up during the run: the results are cut
	 * (a native run's disks were files there, removed before collect) */
	if (host.disk_full ||
	    (!statvfs(dir, &vfs) && (unsigned long long)vfs.f_bavail * vfs.f_frsize < (1ULL << 20))) {
		fprintf(out, "host_disk_full=1\n");
		disk_full = 1;
	}
	if (ferror(out) | fclose(out)) {
		fprintf(stderr, PROG ": out of memory\n");
		exit(1);
	}
	snprintf(buf, sizeof(buf), "exit_status=%d\nhost_disk_full=1\n", rc);
	switch (record_write_status(dir, status, facts, buf, err, sizeof(err))) {
	case 0:
		break;
	case 1:
		/* a full disk: the short status in place of the old one */
		fprintf(stderr, PROG ": %s/status: only the short status could be written (host disk full)\n",
			dir);
		written = "short";
		disk_full = 1;
		break;
	default:
		fprintf(stderr, PROG ": %s\n", err);
		written = "none";
		ok = -1;
	}
	free(facts);
	free(clock);
	/* last: the status file is in place (or could not be written) */
	printf("%s %d %s %d %s\n", status, rc, written, disk_full, host.step[0] ? host.step : "-");
	return ok < 0 ? 1 : 0;
}
