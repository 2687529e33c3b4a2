/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one reader of scenario files (rootfs/scenarios/NAME.scn) on the host.
 *
 * A scenario is a shell file the guest runs; the host never runs it, it
 * reads three parts of it as data:
 *
 *   the header   "# NAME: title", then "# Field: text" blocks (Measures,
 *                Headline, Thread, Compare; continuation lines indented),
 *                "# Check: ..." lines and "# Preset: NAME KEY=VALUE ..."
 *                lines, up to the first line of code; and what the report's
 *                first section (the thread's picture) shows:
 *                  # Picture:   waits.task.COMM[.reason.REASON] mode=MODE
 *                  # Thread-waits: fs=FS USEC...
 *                  # Lacks:     fs=FS TEXT (continued like a field)
 *                the wait distribution and mode the picture shows, the
 *                thread's own usec_delayed values of a filesystem, and
 *                what the lab lacks for that filesystem's check;
 *   settings     SCN_MEM, SCN_PROFILE, SCN_SWAP, SCN_TIMEOUT, SCN_DISK_USE
 *                and SCN_MEM_USE (what the host needs before a guest starts);
 *   parameters   NAME=VALUE lines with a type after a '#':
 *                  WRITE_SIZE=64M   # size 4k..64G: bytes each writer writes
 *                  WRITERS=10       # count 1..64
 *                  MEMCG_VERSION=v1 # one of v1 v2
 *                a --set value is checked against that type.
 *
 * A preset is a named set of parameter values and of the settings SCN_MEM,
 * SCN_PROFILE, SCN_SWAP and SCN_TIMEOUT (e.g. "thread": the thread's own
 * scale); every one is checked when the file is read.
 *
 * SCN_DISK_USE and SCN_MEM_USE are expressions of parameter names, whole
 * numbers and * + ( ), evaluated here in unsigned 64-bit arithmetic that
 * refuses overflow: nothing of the file reaches a shell.
 */
#ifndef RECLAIMLAB_SCENARIO_H
#define RECLAIMLAB_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#define SCN_NAME_MAX	64
#define SCN_VALUE_MAX	128
#define SCN_PARAMS_MAX	32
#define SCN_CHECKS_MAX	32
#define SCN_PRESETS_MAX	8
#define SCN_TEXT_MAX	2048
/* filesystems a picture quotes the thread's waits or the lab's lacks of */
#define SCN_PICTURE_FS_MAX	8
/* the longest trace the 2012 thread quotes has 17 waits (vfat's) */
#define SCN_THREAD_WAITS_MAX	64
/* a quoted usec_delayed past 1000 s is a typo, not a wait */
#define SCN_THREAD_WAIT_USEC_MAX	1000000000L

enum scn_type {
	SCN_T_SIZE,	/* bytes: 123, 4k, 16M, 6G (powers of 1024) */
	SCN_T_COUNT,	/* a whole number */
	SCN_T_CHOICE,	/* one of a list of words */
};

struct scn_param {
	char name[SCN_NAME_MAX];
	char value[SCN_VALUE_MAX];	/* the file's default, or the --set one */
	char type_text[SCN_VALUE_MAX];	/* as written: "size 4k..64G" */
	char about[SCN_VALUE_MAX];	/* the text after the type's ':' */
	enum scn_type type;
	uint64_t min, max;		/* SCN_T_SIZE, SCN_T_COUNT */
	char choices[SCN_VALUE_MAX];	/* SCN_T_CHOICE: "v1 v2" */
	int was_set;			/* value came from scn_set() */
};

struct scn_check {
	char text[SCN_VALUE_MAX * 2];
	unsigned int line;
};

struct scn_preset {
	char name[SCN_NAME_MAX];
	char words[SCN_VALUE_MAX * 4];	/* "KEY=VALUE KEY=VALUE ..." */
	unsigned int line;
};

/*
 * "# Picture: waits.task.COMM[.reason.REASON] mode=MODE": the report's
 * first section shows that wait distribution (metric, the waits.* prefix
 * of its summary rows: task COMM, and reason REASON or any) in MODE.
 */
struct scn_picture {
	char metric[SCN_VALUE_MAX];	/* "" when the file has no Picture */
	char task[SCN_NAME_MAX];
	char reason[SCN_NAME_MAX];	/* "" for every reason of the task */
	char mode[SCN_NAME_MAX];
	unsigned int line;
};

/* "# Thread-waits: fs=FS USEC...": the waits the thread quotes for FS */
struct scn_thread_waits {
	char fs[SCN_NAME_MAX];
	long usec[SCN_THREAD_WAITS_MAX];
	size_t n;
	unsigned int line;
};

/* "# Lacks: fs=FS TEXT": what the lab lacks to reproduce FS's check */
struct scn_lacks {
	char fs[SCN_NAME_MAX];
	char text[SCN_TEXT_MAX];
	unsigned int line;
};

/* The header fields, in the order a report shows them. */
enum scn_field { SCN_MEASURES, SCN_HEADLINE, SCN_THREAD, SCN_COMPARE, SCN_NFIELDS };

struct scenario {
	char name[SCN_NAME_MAX];	/* the file name without .scn */
	char title[SCN_VALUE_MAX * 2];	/* the first line, without "# " */
	char field[SCN_NFIELDS][SCN_TEXT_MAX];
	struct scn_check checks[SCN_CHECKS_MAX];
	size_t nchecks;
	/* settings, "" when the file has none */
	char mem[SCN_VALUE_MAX], profile[SCN_VALUE_MAX], swap[SCN_VALUE_MAX];
	char timeout[SCN_VALUE_MAX], disk_use[SCN_VALUE_MAX], mem_use[SCN_VALUE_MAX];
	/* FS:PROFILE,...: a filesystem's own profile over SCN_PROFILE */
	char fs_profile[SCN_VALUE_MAX];
	struct scn_param params[SCN_PARAMS_MAX];
	size_t nparams;
	struct scn_preset presets[SCN_PRESETS_MAX];
	size_t npresets;
	char preset[SCN_NAME_MAX];	/* the one applied, "" for none */
	struct scn_picture picture;
	struct scn_thread_waits thread_waits[SCN_PICTURE_FS_MAX];
	size_t nthread_waits;
	struct scn_lacks lacks[SCN_PICTURE_FS_MAX];
	size_t nlacks;
};

/* "Measures" ... for SCN_MEASURES ... */
const char *scn_field_name(enum scn_field f);

/*
 * Reads the scenario file at path into *s.  Returns 0, or -1 with a message
 * "FILE line N: ..." that names the bad text and what is valid in err.
 */
int scn_load(const char *path, struct scenario *s, char *err, size_t errlen);

/* The same, from text (name is the scenario's name): for tests. */
int scn_parse(const char *name, const char *text, struct scenario *s,
	      char *err, size_t errlen);

struct scn_param *scn_param(struct scenario *s, const char *name);

/* The thread's waits of fs, or what the lab lacks for it; NULL if none. */
const struct scn_thread_waits *scn_thread_waits(const struct scenario *s, const char *fs);
const char *scn_lacks(const struct scenario *s, const char *fs);

/*
 * "KEY=VALUE" from the command line (run.sh, compare.sh and a job list's
 * line hand every --set word here, through rl-scenario-info: the one rule
 * of a --set): KEY a parameter of the scenario, VALUE of its type (a size
 * or count within its range, or one of its words), then the parameter's
 * value.  -1 and a message naming the bad word and the valid form.
 */
int scn_set(struct scenario *s, const char *kv, char *err, size_t errlen);

/*
 * Applies the preset NAME (its parameters as scn_set() does, its settings
 * over the file's); -1 and a message naming the valid presets if there is
 * no such preset.
 */
int scn_apply_preset(struct scenario *s, const char *name, char *err,
		     size_t errlen);

/*
 * Evaluates a SCN_DISK_USE / SCN_MEM_USE expression over the current
 * parameter values into *out (bytes; counts count as themselves).
 */
int scn_eval_use(const struct scenario *s, const char *expr, uint64_t *out,
		 char *err, size_t errlen);

#endif
