// SPDX-License-Identifier: GPL-2.0
/* Unit tests of scripts/tools/lib/scenario.c, the reader of scenario files. */
#include "check.h"
#include "lib/scenario.h"

#include <stdlib.h>

static const char good[] =
	"# demo: a scenario for the tests\n"
	"#\n"
	"# Measures:  one thing, and\n"
	"#            another on a second line.\n"
	"# Headline:  the figure.\n"
	"# Thread:    2012 linux-mm: 48.3 MB/s.\n"
	"# Check:     waits.events > 0\n"
	"#Check:     not a check\n"
	"# Compare:   oom_kills == 0\n"
	"\n"
	"SCN_MEM=1G\n"
	"SCN_PROFILE=hdd\n"
	"SCN_TIMEOUT=900\n"
	"SCN_DISK_USE=WRITERS*WRITE_SIZE+(2*BS)\n"
	"\n"
	"WRITERS=2        # count 1..64: writers at once\n"
	"WRITE_SIZE=64M   # size 1M..: bytes each writer writes\n"
	"BS=1k            # size 512..64M\n"
	"MEMCG_VERSION=v1 # one of v1 v2: cgroup version\n"
	"\n"
	"scenario_run() {\n"
	"\tv=$MEMCG_VERSION\n"
	"\tNOT_A_PARAM=1\n"
	"}\n";

static int parse(const char *text, struct scenario *s, char *err, size_t n)
{
	err[0] = '\0';
	return scn_parse("demo", text, s, err, n);
}

TEST(test_header_fields_and_checks)
{
	static struct scenario s;
	char err[512];

	CHECK_EQ_INT(parse(good, &s, err, sizeof(err)), 0);
	CHECK_STR(s.title, "demo: a scenario for the tests");
	CHECK_STR(s.field[SCN_MEASURES], "one thing, and another on a second line.");
	CHECK_STR(s.field[SCN_HEADLINE], "the figure.");
	CHECK_STR(s.field[SCN_THREAD], "2012 linux-mm: 48.3 MB/s.");
	CHECK_STR(s.field[SCN_COMPARE], "oom_kills == 0");
	CHECK_EQ_INT(s.nchecks, 1);
	CHECK_STR(s.checks[0].text, "waits.events > 0");
	CHECK_EQ_INT(s.checks[0].line, 7);
}

TEST(test_settings_and_params)
{
	static struct scenario s;
	char err[512];
	uint64_t v = 0;

	CHECK_EQ_INT(parse(good, &s, err, sizeof(err)), 0);
	CHECK_STR(s.mem, "1G");
	CHECK_STR(s.profile, "hdd");
	CHECK_STR(s.swap, "");
	CHECK_STR(s.timeout, "900");
	CHECK_EQ_INT(s.nparams, 4);	/* NOT_A_PARAM is code, indented */
	CHECK_STR(s.params[1].name, "WRITE_SIZE");
	CHECK_STR(s.params[1].value, "64M");
	CHECK_EQ_INT(s.params[1].type, SCN_T_SIZE);
	CHECK_STR(s.params[1].about, "bytes each writer writes");
	CHECK_EQ_INT(s.params[3].type, SCN_T_CHOICE);
	CHECK_STR(s.params[3].choices, "v1 v2");
	CHECK_EQ_INT(scn_eval_use(&s, s.disk_use, &v, err, sizeof(err)), 0);
	CHECK_EQ_INT(v, 2 * (64 << 20) + 2 * 1024);
}

TEST(test_set_checks_types)
{
	static struct scenario s;
	char err[512];

	CHECK_EQ_INT(parse(good, &s, err, sizeof(err)), 0);
	CHECK_EQ_INT(scn_set(&s, "WRITE_SIZE=1G", err, sizeof(err)), 0);
	CHECK_STR(scn_param(&s, "WRITE_SIZE")->value, "1G");
	CHECK_EQ_INT(scn_param(&s, "WRITE_SIZE")->was_set, 1);
	CHECK_EQ_INT(scn_set(&s, "MEMCG_VERSION=v2", err, sizeof(err)), 0);

	CHECK_EQ_INT(scn_set(&s, "WRITE_SIZE=abc", err, sizeof(err)), -1);
	CHECK(strstr(err, "bad value 'abc' for WRITE_SIZE (valid: a size 1M or more") != NULL);
	CHECK_EQ_INT(scn_set(&s, "BS=100", err, sizeof(err)), -1);
	CHECK(strstr(err, "valid: a size from 512 to 64M") != NULL);
	CHECK_EQ_INT(scn_set(&s, "BS=128M", err, sizeof(err)), -1);
	CHECK_EQ_INT(scn_set(&s, "WRITERS=0", err, sizeof(err)), -1);
	CHECK(strstr(err, "a whole number from 1 to 64") != NULL);
	CHECK_EQ_INT(scn_set(&s, "WRITERS=2x", err, sizeof(err)), -1);
	CHECK_EQ_INT(scn_set(&s, "MEMCG_VERSION=v3", err, sizeof(err)), -1);
	CHECK(strstr(err, "'v3' for MEMCG_VERSION (valid: one of v1 v2)") != NULL);
	CHECK_EQ_INT(scn_set(&s, "MEMCG_VERSION=v1 v2", err, sizeof(err)), -1);
	CHECK_EQ_INT(scn_set(&s, "FOO=1", err, sizeof(err)), -1);
	CHECK(strstr(err, "no parameter 'FOO' (valid: WRITERS WRITE_SIZE BS MEMCG_VERSION)") != NULL);
	CHECK_EQ_INT(scn_set(&s, "SCN_MEM=2G", err, sizeof(err)), -1);
	CHECK(strstr(err, "is a scenario setting") != NULL);
	CHECK_EQ_INT(scn_set(&s, "NOEQUALS", err, sizeof(err)), -1);
	/* a refused value leaves the last good one */
	CHECK_STR(scn_param(&s, "WRITE_SIZE")->value, "1G");
}

TEST(test_use_expressions)
{
	static struct scenario s;
	char err[512];
	uint64_t v;

	CHECK_EQ_INT(parse(good, &s, err, sizeof(err)), 0);
	CHECK_EQ_INT(scn_eval_use(&s, "( WRITERS + 1 ) * BS", &v, err, sizeof(err)), 0);
	CHECK_EQ_INT(v, 3 * 1024);
	CHECK_EQ_INT(scn_eval_use(&s, "MEMCG_VERSION*2", &v, err, sizeof(err)), -1);
	CHECK(strstr(err, "'MEMCG_VERSION' is not a size or count parameter") != NULL);
	CHECK_EQ_INT(scn_eval_use(&s, "s[$({touch,/tmp/x})]", &v, err, sizeof(err)), -1);
	CHECK(strstr(err, "valid: parameter names, whole numbers, * + ( )") != NULL);
	CHECK_EQ_INT(scn_eval_use(&s, "WRITE_SIZE-1", &v, err, sizeof(err)), -1);
	CHECK_EQ_INT(scn_eval_use(&s, "(WRITERS", &v, err, sizeof(err)), -1);
	CHECK(strstr(err, "missing ')'") != NULL);
	CHECK_EQ_INT(scn_set(&s, "WRITE_SIZE=4611686018427387904", err, sizeof(err)), 0);
	CHECK_EQ_INT(scn_eval_use(&s, "WRITERS*WRITE_SIZE", &v, err, sizeof(err)), -1);
	CHECK(strstr(err, "overflows") != NULL);
	CHECK_EQ_INT(scn_eval_use(&s, "99999999999999999999999", &v, err, sizeof(err)), -1);
}

#define BAD(text, msg)                                                  \
	do {                                                            \
		static struct scenario s_;                              \
		char e_[512];                                           \
		CHECK_EQ_INT(parse(text, &s_, e_, sizeof(e_)), -1);     \
		if (!strstr(e_, msg))                                   \
			fprintf(stderr, "  got: %s\n", e_);             \
		CHECK(strstr(e_, msg) != NULL);                         \
	} while (0)

TEST(test_bad_files)
{
	BAD("# x\nWRITE_SIZE=64M\n", "demo.scn line 2: parameter WRITE_SIZE has no type");
	BAD("# x\nN=1 # number\n", "line 2: N has type 'number' (valid: '# size");
	BAD("# x\nN=0 # count 1..9\n", "line 2: default bad value '0' for N");
	BAD("# x\nN=1 # count 9..1\n", "bad range '9..1'");
	BAD("# x\nN=1 # count\nN=2 # count\n", "line 3: parameter N given twice");
	BAD("# x\nSCN_MEM=lots\n", "bad SCN_MEM 'lots'");
	BAD("# x\nSCN_TIMEOUT=0\n", "bad SCN_TIMEOUT '0'");
	BAD("# x\nSCN_COLOUR=red\n", "unknown setting 'SCN_COLOUR' (valid: SCN_MEM");
	BAD("# x\nSCN_DISK_USE=s[$({touch,/tmp/x})]\n", "a character a scenario value may not have");
	BAD("# x\nSCN_DISK_USE=NOPE*2\n", "'NOPE' is not a size or count parameter");
	BAD("# x\nBS=$(touch /tmp/x) # size\n", "line 2: BS: value '$(touch' has a character");
	BAD("# x\nBS='1k' # size\n", "has a character a scenario value may not have");
}

static const char with_picture[] =
	"# demo: a picture\n"
	"# Picture:   waits.task.rl-dd.reason.dirty mode=2012-patched\n"
	"# Thread-waits: fs=ext4 10000 8000 0\n"
	"# Thread-waits: fs=xfs 100000\n"
	"# Lacks:     fs=xfs the writer holding the inode lock\n"
	"#            while a completion runs\n"
	"# Compare:   after the lacks\n"
	"# Lacks:     fs=vfat a stick's garbage collection\n"
	"#\n"
	"#            not a continuation: the blank line ended it\n"
	"N=1 # count\n";

TEST(test_picture_thread_waits_lacks)
{
	static struct scenario s;
	const struct scn_thread_waits *t;
	char err[512];

	CHECK_EQ_INT(parse(with_picture, &s, err, sizeof(err)), 0);
	CHECK_STR(s.picture.metric, "waits.task.rl-dd.reason.dirty");
	CHECK_STR(s.picture.task, "rl-dd");
	CHECK_STR(s.picture.reason, "dirty");
	CHECK_STR(s.picture.mode, "2012-patched");
	CHECK_EQ_INT(s.picture.line, 2);
	CHECK_EQ_INT(s.nthread_waits, 2);
	t = scn_thread_waits(&s, "ext4");
	CHECK(t != NULL);
	if (t) {
		CHECK_EQ_INT(t->n, 3);
		CHECK_EQ_INT(t->usec[0], 10000);
		CHECK_EQ_INT(t->usec[2], 0);
	}
	CHECK(scn_thread_waits(&s, "btrfs") == NULL);
	CHECK_STR(scn_lacks(&s, "xfs"), "the writer holding the inode lock while a completion runs");
	CHECK_STR(scn_lacks(&s, "vfat"), "a stick's garbage collection");
	CHECK(scn_lacks(&s, "ext4") == NULL);
	/* a field after a Lacks is its own, not the Lacks' continuation */
	CHECK_STR(s.field[SCN_COMPARE], "after the lacks");

	/* a task's waits of every reason */
	CHECK_EQ_INT(parse("# x\n# Picture: waits.task.rl-dd mode=patched\nN=1 # count\n",
			   &s, err, sizeof(err)), 0);
	CHECK_STR(s.picture.task, "rl-dd");
	CHECK_STR(s.picture.reason, "");
	/* none: no picture section */
	CHECK_EQ_INT(parse(good, &s, err, sizeof(err)), 0);
	CHECK_STR(s.picture.metric, "");
	CHECK_EQ_INT(s.nthread_waits, 0);
	CHECK_EQ_INT(s.nlacks, 0);
}

TEST(test_bad_picture_lines)
{
	BAD("# x\n# Picture: waits.events mode=patched\n",
	    "demo.scn line 2: bad Picture 'waits.events mode=patched' (valid: waits.task.COMM[.reason.REASON] mode=MODE");
	BAD("# x\n# Picture: waits.task.rl-dd\n", "bad Picture 'waits.task.rl-dd' (valid:");
	BAD("# x\n# Picture: waits.task.rl-dd mode=\n", "bad Picture 'waits.task.rl-dd mode='");
	BAD("# x\n# Picture: waits.task.rl-dd fs=ext4\n", "bad Picture 'waits.task.rl-dd fs=ext4'");
	BAD("# x\n# Picture: waits.task.rl-dd mode=a b\n", "bad Picture 'waits.task.rl-dd mode=a b'");
	BAD("# x\n# Picture: waits.task.rl-dd.reason. mode=a\n", "bad Picture 'waits.task.rl-dd.reason. mode=a'");
	BAD("# x\n# Picture: waits.task..reason.dirty mode=a\n", "bad Picture");
	BAD("# x\n# Picture: waits.task.a'b mode=a\n", "bad Picture 'waits.task.a'b mode=a'");
	BAD("# x\n# Picture: waits.task.a mode=p\n# Picture: waits.task.b mode=p\n",
	    "line 3: a second Picture line (valid: one a scenario; the first is line 2)");
	BAD("# x\n# Thread-waits: ext4 100\n",
	    "line 2: bad Thread-waits 'ext4 100' (valid: fs=FS, then the usec_delayed values");
	BAD("# x\n# Thread-waits: fs=ext4\n", "bad Thread-waits 'fs=ext4' (valid: fs=FS");
	BAD("# x\n# Thread-waits: fs= 100\n", "bad Thread-waits 'fs= 100'");
	BAD("# x\n# Thread-waits: fs=ext4 100 7ms\n",
	    "bad Thread-waits value '7ms' for fs=ext4 (valid: a whole number of microseconds, 0 to 1000000000)");
	BAD("# x\n# Thread-waits: fs=ext4 -1\n", "bad Thread-waits value '-1' for fs=ext4");
	BAD("# x\n# Thread-waits: fs=ext4 1000000001\n", "bad Thread-waits value '1000000001'");
	BAD("# x\n# Thread-waits: fs=ext4 99999999999999999999999\n", "bad Thread-waits value '99999999999999999999999'");
	BAD("# x\n# Thread-waits: fs=ext4 1\n# Thread-waits: fs=ext4 2\n",
	    "line 3: Thread-waits of fs=ext4 given twice (valid: one line a filesystem; the first is line 2)");
	BAD("# x\n# Lacks: the lock\n",
	    "line 2: bad Lacks 'the lock' (valid: fs=FS, then what the lab lacks for that filesystem's check");
	BAD("# x\n# Lacks: fs=xfs\n", "bad Lacks 'fs=xfs' (valid:");
	BAD("# x\n# Lacks: fs=xfs a\n# Lacks: fs=xfs b\n",
	    "line 3: Lacks of fs=xfs given twice (valid: one a filesystem; the first is line 2)");
}

TEST(test_thread_waits_limits)
{
	static char text[4096];
	static struct scenario s;
	char err[512];
	size_t i, n;

	/* SCN_THREAD_WAITS_MAX values fit; one more does not */
	n = (size_t)snprintf(text, sizeof(text), "# x\n# Thread-waits: fs=ext4");
	for (i = 0; i < SCN_THREAD_WAITS_MAX; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, " %zu", i);
	snprintf(text + n, sizeof(text) - n, "\nN=1 # count\n");
	CHECK_EQ_INT(parse(text, &s, err, sizeof(err)), 0);
	CHECK_EQ_INT(s.thread_waits[0].n, SCN_THREAD_WAITS_MAX);
	CHECK_EQ_INT(s.thread_waits[0].usec[SCN_THREAD_WAITS_MAX - 1], SCN_THREAD_WAITS_MAX - 1);
	snprintf(text + n, sizeof(text) - n, " 1\nN=1 # count\n");
	CHECK_EQ_INT(parse(text, &s, err, sizeof(err)), -1);
	CHECK(strstr(err, "more than 64 Thread-waits values for fs=ext4") != NULL);
	/* SCN_PICTURE_FS_MAX filesystems */
	n = (size_t)snprintf(text, sizeof(text), "# x\n");
	for (i = 0; i <= SCN_PICTURE_FS_MAX; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "# Lacks: fs=f%zu t\n", i);
	CHECK_EQ_INT(parse(text, &s, err, sizeof(err)), -1);
	CHECK(strstr(err, "line 10: more than 8 Lacks lines") != NULL);
}

static const char with_presets[] =
	"# demo: presets\n"
	"# Preset:    thread WRITE_SIZE=1G BS=1k SCN_MEM=4G SCN_TIMEOUT=3600\n"
	"# Preset:    tiny WRITE_SIZE=1M\n"
	"SCN_MEM=1G\n"
	"SCN_TIMEOUT=600\n"
	"WRITE_SIZE=64M # size 1M..\n"
	"BS=64k         # size 512..64M\n";

TEST(test_presets_apply)
{
	static struct scenario s;
	char err[512];

	CHECK_EQ_INT(parse(with_presets, &s, err, sizeof(err)), 0);
	CHECK_EQ_INT(s.npresets, 2);
	CHECK_STR(s.presets[0].name, "thread");
	CHECK_EQ_INT(scn_apply_preset(&s, "thread", err, sizeof(err)), 0);
	CHECK_STR(s.preset, "thread");
	CHECK_STR(scn_param(&s, "WRITE_SIZE")->value, "1G");
	CHECK_STR(scn_param(&s, "BS")->value, "1k");
	CHECK(scn_param(&s, "BS")->was_set);
	CHECK_STR(s.mem, "4G");
	CHECK_STR(s.timeout, "3600");
	/* a --set after the preset wins */
	CHECK_EQ_INT(scn_set(&s, "BS=4k", err, sizeof(err)), 0);
	CHECK_STR(scn_param(&s, "BS")->value, "4k");
	CHECK_EQ_INT(scn_apply_preset(&s, "huge", err, sizeof(err)), -1);
	CHECK_STR(err, "scenario demo has no preset 'huge' (valid: thread tiny)");
}

TEST(test_bad_presets)
{
	BAD("# x\n# Preset: big N=0\nN=1 # count 1..9\n",
	    "demo.scn line 2: preset big: scenario demo: bad value '0' for N");
	BAD("# x\n# Preset: big M=1\nN=1 # count 1..9\n", "preset big: scenario demo has no parameter 'M'");
	BAD("# x\n# Preset: big SCN_MEM=lots\nN=1 # count\n", "preset big: bad SCN_MEM 'lots'");
	BAD("# x\n# Preset: big SCN_DISK_USE=N\nN=1 # count\n",
	    "'SCN_DISK_USE' is not a setting a preset may give");
	BAD("# x\n# Preset: big N\nN=1 # count\n", "bad word 'N' (valid: KEY=VALUE)");
	BAD("# x\n# Preset: =x\nN=1 # count\n", "line 2: bad preset name '=x'");
}

TEST(test_project_scenarios_load)
{
	static const char *const names[] = {
		"fs-completion", "kupdate-after-exit", "memcg-dd",
		"reclaim-plug", "usb-responsiveness", "usemem-swap", "fio-write",
	};
	static struct scenario s;
	const char *dir = getenv("RL_FIXTURES");
	char path[4096], err[512];
	size_t i;

	CHECK(dir != NULL);
	for (i = 0; dir && i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/../../rootfs/scenarios/%s.scn",
			 dir, names[i]);
		err[0] = '\0';
		CHECK_EQ_INT(scn_load(path, &s, err, sizeof(err)), 0);
		if (err[0])
			fprintf(stderr, "  %s: %s\n", names[i], err);
		CHECK_STR(s.name, names[i]);
		CHECK(s.field[SCN_MEASURES][0] != '\0');
		CHECK(s.nparams > 0);
		CHECK(s.mem[0] != '\0');
	}
	/* fs-completion's picture: the thread's waits of ext4, xfs and vfat */
	snprintf(path, sizeof(path), "%s/../../rootfs/scenarios/fs-completion.scn", dir ? dir : ".");
	CHECK_EQ_INT(scn_load(path, &s, err, sizeof(err)), 0);
	CHECK_STR(s.picture.metric, "waits.task.rl-dd.reason.dirty");
	CHECK(scn_thread_waits(&s, "ext4") && scn_thread_waits(&s, "ext4")->n == 10);
	CHECK(scn_thread_waits(&s, "xfs") && scn_thread_waits(&s, "xfs")->n == 12);
	CHECK(scn_thread_waits(&s, "vfat") && scn_thread_waits(&s, "vfat")->n == 17);
	CHECK(scn_thread_waits(&s, "btrfs") == NULL);
	CHECK(scn_lacks(&s, "xfs") && strstr(scn_lacks(&s, "xfs"), "issue 42)"));
	CHECK_EQ_INT(scn_load("/nonexistent.scn", &s, err, sizeof(err)), -1);
	CHECK(strstr(err, "cannot open scenario '/nonexistent.scn'") != NULL);
}
