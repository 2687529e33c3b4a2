// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of scripts/tools/collect/splats.c on inline lines and on the console
 * logs in tests/fixtures/splats/ (found through $RL_FIXTURES).
 */
#include "check.h"
#include "collect/splats.h"

#include <stdlib.h>
#include <string.h>

#define MAX_SEEN 16

/* What the callback saw, for the checks. */
struct seen {
	int n;
	enum splat_kind kind[MAX_SEEN];
	char title[MAX_SEEN][SPLATS_LINE_MAX];
	size_t nlines[MAX_SEEN], dropped[MAX_SEEN];
	int complete[MAX_SEEN];
	char last_text[8192];
};

static int record(const struct splat *s, void *arg)
{
	struct seen *seen = arg;

	if (seen->n < MAX_SEEN) {
		seen->kind[seen->n] = s->kind;
		snprintf(seen->title[seen->n], SPLATS_LINE_MAX, "%s", s->title);
		seen->nlines[seen->n] = s->nlines;
		seen->dropped[seen->n] = s->dropped;
		seen->complete[seen->n] = s->complete;
		snprintf(seen->last_text, sizeof(seen->last_text), "%s", s->text);
	}
	seen->n++;
	return 0;
}

static int scan_fixture(const char *name, struct seen *seen)
{
	const char *dir = getenv("RL_FIXTURES");
	struct splat_scanner sc;
	char path[4096], line[4096];
	FILE *f;
	int rc = 0;

	memset(seen, 0, sizeof(*seen));
	if (!dir) {
		fprintf(stderr, "  RL_FIXTURES is not set\n");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/splats/%s", dir, name);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "  cannot open %s\n", path);
		return -1;
	}
	splat_scanner_init(&sc, record, seen);
	while (!rc && fgets(line, sizeof(line), f))
		rc = splat_scanner_line(&sc, line);
	if (!rc)
		rc = splat_scanner_finish(&sc);
	fclose(f);
	return rc;
}

TEST(test_line_kinds)
{
	CHECK_EQ_INT(splat_line_kind("[    1.1] WARNING: CPU: 0 PID: 1 at mm/x.c:1 f"), SPLAT_WARNING);
	CHECK_EQ_INT(splat_line_kind("WARNING: possible recursive locking detected"), SPLAT_LOCKDEP);
	CHECK_EQ_INT(splat_line_kind("[ 2.0] WARNING: suspicious RCU usage"), SPLAT_LOCKDEP);
	CHECK_EQ_INT(splat_line_kind("[ 2.0] BUG: KASAN: use-after-free in f+0x1/0x2"), SPLAT_KASAN);
	CHECK_EQ_INT(splat_line_kind("[ 2.0] UBSAN: shift-out-of-bounds in mm/x.c:3:4"), SPLAT_UBSAN);
	CHECK_EQ_INT(splat_line_kind("[ 2.0] BUG: sleeping function called from invalid context"), SPLAT_BUG);
	CHECK_EQ_INT(splat_line_kind("[ 2.0] kernel BUG at mm/filemap.c:1600!"), SPLAT_BUG);
	CHECK_EQ_INT(splat_line_kind("[ 2.0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s!"), SPLAT_SOFT_LOCKUP);
	CHECK_EQ_INT(splat_line_kind("[ 2.0] Oops: 0000 [#1] PREEMPT"), SPLAT_OOPS);
	CHECK_EQ_INT(splat_line_kind("[ 2.0] Kernel mode fault at addr 0x0, ip 0x6001"), SPLAT_OOPS);
	CHECK_EQ_INT(splat_line_kind("[ 2.0] general protection fault, probably for non-canonical address"), SPLAT_GPF);
	CHECK_EQ_INT(splat_line_kind("[ 9.0] INFO: task dd:9 blocked for more than 30 seconds."), SPLAT_HUNG_TASK);
	CHECK_EQ_INT(splat_line_kind("[ 9.0] rcu: INFO: rcu_preempt self-detected stall on CPU"), SPLAT_RCU_STALL);
	CHECK_EQ_INT(splat_line_kind("Kernel panic - not syncing: Attempted to kill init!"), SPLAT_PANIC);
	CHECK_EQ_INT(splat_line_kind("[    0.938000] UML ran out of memory on the host side! This can happen due to a memory limitation or vm.max_map_count has been reached."),
		     SPLAT_HOST_MEMORY);
	CHECK(!strcmp(splat_kind_name(SPLAT_HOST_MEMORY), "host_memory"));
	/* ordinary lines, also ones that mention the words */
	CHECK_EQ_INT(splat_line_kind("[ 1.0] reclaimlab: job starting"), SPLAT_NONE);
	CHECK_EQ_INT(splat_line_kind("[ 1.0] rl-dd: no WARNING: here, BUG: neither"), SPLAT_NONE);
	CHECK_EQ_INT(splat_line_kind(""), SPLAT_NONE);
	CHECK_EQ_INT(splat_line_kind("[ unterminated timestamp"), SPLAT_NONE);
}

TEST(test_kind_names)
{
	CHECK(!strcmp(splat_kind_name(SPLAT_OOPS), "oops"));
	CHECK(!strcmp(splat_kind_name(SPLAT_HUNG_TASK), "hung_task"));
	CHECK(!strcmp(splat_kind_name(SPLAT_NONE), "unknown"));
	CHECK(!strcmp(splat_kind_name(NR_SPLAT_KINDS), "unknown"));
}

/* "cut here", the WARNING, its trace up to the end marker; then a panic. */
TEST(test_warning_then_panic)
{
	struct seen s;

	CHECK_EQ_INT(scan_fixture("warning-and-panic.log", &s), 0);
	CHECK_EQ_INT(s.n, 2);
	CHECK_EQ_INT(s.kind[0], SPLAT_WARNING);
	CHECK(!strcmp(s.title[0], "WARNING: CPU: 0 PID: 1 at mm/vmscan.c:1 reclaimlab_test_splat"));
	CHECK_EQ_INT(s.nlines[0], 9);	/* cut here .. end trace */
	CHECK_EQ_INT(s.complete[0], 1);
	CHECK_EQ_INT(s.kind[1], SPLAT_PANIC);
	CHECK_EQ_INT(s.nlines[1], 4);	/* to EOF */
	CHECK_EQ_INT(s.complete[1], 0);
	CHECK(strstr(s.last_text, "Segfault with no mm") != NULL);
}

/* KASAN reports close at their "=====" rule; the opening rule is not in. */
TEST(test_kasan)
{
	struct seen s;

	CHECK_EQ_INT(scan_fixture("kasan.log", &s), 0);
	CHECK_EQ_INT(s.n, 1);
	CHECK_EQ_INT(s.kind[0], SPLAT_KASAN);
	CHECK(!strcmp(s.title[0], "BUG: KASAN: stack-out-of-bounds in to_irq_stack+0x53/0x140"));
	CHECK_EQ_INT(s.nlines[0], 7);
	CHECK_EQ_INT(s.complete[0], 1);
	CHECK(strstr(s.last_text, "after the report") == NULL);
}

/* A lockdep report with no end marker ends where the hung task starts. */
TEST(test_lockdep_then_hung_task)
{
	struct seen s;

	CHECK_EQ_INT(scan_fixture("lockdep-hung.log", &s), 0);
	CHECK_EQ_INT(s.n, 2);
	CHECK_EQ_INT(s.kind[0], SPLAT_LOCKDEP);
	CHECK_EQ_INT(s.nlines[0], 5);
	CHECK_EQ_INT(s.kind[1], SPLAT_HUNG_TASK);
	CHECK(!strcmp(s.title[1], "INFO: task rl-dd:99 blocked for more than 30 seconds."));
	CHECK_EQ_INT(s.nlines[1], 4);
}

/* "kernel BUG at" and the "Oops:" right after it are one report. */
TEST(test_bug_with_oops_line)
{
	struct seen s;

	CHECK_EQ_INT(scan_fixture("bug-oops.log", &s), 0);
	CHECK_EQ_INT(s.n, 1);
	CHECK_EQ_INT(s.kind[0], SPLAT_BUG);
	CHECK(!strcmp(s.title[0], "kernel BUG at drivers/misc/lkdtm/bugs.c:76!"));
	CHECK_EQ_INT(s.nlines[0], 6);
	CHECK_EQ_INT(s.complete[0], 1);
}

/*
 * UML's BUG() (a real console, LKDTM's BUG): "BUG: failure at" and the
 * panic it causes, with the backtrace, are one report.
 */
TEST(test_uml_bug_and_its_panic)
{
	struct seen s;

	CHECK_EQ_INT(scan_fixture("uml-bug.log", &s), 0);
	CHECK_EQ_INT(s.n, 1);
	CHECK_EQ_INT(s.kind[0], SPLAT_BUG);
	CHECK(!strcmp(s.title[0], "BUG: failure at drivers/misc/lkdtm/bugs.c:105/lkdtm_BUG()!"));
	CHECK_EQ_INT(s.nlines[0], 31);	/* BUG .. the last frame, to EOF */
	CHECK_EQ_INT(s.complete[0], 0);
	CHECK(strstr(s.last_text, "Kernel panic - not syncing: BUG!") != NULL);
	CHECK(strstr(s.last_text, "lkdtm_do_action") != NULL);
}

/* Long reports keep SPLATS_MAX_LINES lines and count the rest. */
TEST(test_line_cap)
{
	struct splat_scanner sc;
	struct seen s;
	char line[64];
	int i;

	memset(&s, 0, sizeof(s));
	splat_scanner_init(&sc, record, &s);
	CHECK_EQ_INT(splat_scanner_line(&sc, "Oops: 0000 [#1]\n"), 0);
	for (i = 0; i < SPLATS_MAX_LINES + 20; i++) {
		snprintf(line, sizeof(line), " [<%08x>] f%d+0x1/0x2\n", i, i);
		CHECK_EQ_INT(splat_scanner_line(&sc, line), 0);
	}
	CHECK_EQ_INT(splat_scanner_line(&sc, "---[ end trace 0 ]---\n"), 0);
	CHECK_EQ_INT(s.n, 1);
	CHECK_EQ_INT(s.nlines[0], SPLATS_MAX_LINES);
	CHECK_EQ_INT(s.dropped[0], 22);	/* 1 + 100 + 1 lines read */
	CHECK_EQ_INT(s.complete[0], 1);
	CHECK_EQ_INT(sc.count[SPLAT_OOPS], 1);
	CHECK_EQ_INT(splat_scanner_finish(&sc), 0);
}

/* No splat: nothing reported; a "cut here" with no report is not one. */
TEST(test_quiet_log)
{
	struct splat_scanner sc;
	struct seen s;

	memset(&s, 0, sizeof(s));
	splat_scanner_init(&sc, record, &s);
	splat_scanner_line(&sc, "[ 1.0] ext4 mounted\n");
	splat_scanner_line(&sc, "[ 1.0] ------------[ cut here ]------------\n");
	splat_scanner_line(&sc, "[ 1.0] a\n");
	splat_scanner_line(&sc, "[ 1.0] b\n");
	splat_scanner_line(&sc, "[ 1.0] c\n");
	splat_scanner_line(&sc, "[ 1.0] d\n");
	CHECK_EQ_INT(splat_scanner_finish(&sc), 0);
	CHECK_EQ_INT(s.n, 0);
	CHECK_EQ_INT(sc.total, 0);
}

/* Over-long lines are cut, not overflowed. */
TEST(test_long_line)
{
	struct splat_scanner sc;
	struct seen s;
	char *line = malloc(3 * SPLATS_LINE_MAX);

	CHECK(line != NULL);
	if (!line)
		return;
	memset(&s, 0, sizeof(s));
	strcpy(line, "WARNING: CPU: 0 PID: 1 at ");
	memset(line + strlen(line), 'x', 2 * SPLATS_LINE_MAX);
	line[3 * SPLATS_LINE_MAX - 1] = '\0';
	splat_scanner_init(&sc, record, &s);
	CHECK_EQ_INT(splat_scanner_line(&sc, line), 0);
	CHECK_EQ_INT(splat_scanner_finish(&sc), 0);
	CHECK_EQ_INT(s.n, 1);
	CHECK_EQ_INT(strlen(s.title[0]), SPLATS_LINE_MAX - 1);
	free(line);
}

static int stop_at_first(const struct splat *s, void *arg)
{
	(void)s;
	(*(int *)arg)++;
	return 7;
}

/* A callback's error stops the scan and comes back to the caller. */
TEST(test_callback_error)
{
	struct splat_scanner sc;
	int calls = 0;

	splat_scanner_init(&sc, stop_at_first, &calls);
	CHECK_EQ_INT(splat_scanner_line(&sc, "BUG: x\n"), 0);
	CHECK_EQ_INT(splat_scanner_line(&sc, "WARNING: CPU: 0 PID: 1 at y\n"), 7);
	CHECK_EQ_INT(calls, 1);
	splat_scanner_finish(&sc);
}
