// SPDX-License-Identifier: GPL-2.0
/*
 * rl-aggregate: statistics over the runs of a comparison matrix (each run
 * folder's record, record.h, or files of joined rows), by hand and for
 * scripts/bench-seeds.sh; rl-report links the same
 * aggregate-*.c modules.
 *
 * Exit status: 0 ok, 1 out of memory or output write error, 2 bad usage,
 * unreadable input or a bad check.
 */
#include "lib/cli.h"
#include "aggregate/aggregate.h"
#include "lib/record.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PROG "rl-aggregate"

static const char usage_text[] =
	"usage: " PROG " groups  [--scenario NAME] [--scn FILE]... [SUMMARY...]\n"
	"       " PROG " compare --by fs|mode|profile A B [--scenario NAME] [SUMMARY...]\n"
	"       " PROG " check   (--scn FILE | --check TEXT)... [--scenario NAME] [SUMMARY...]\n"
	"       " PROG " check   --one --scenario NAME --check TEXT [SUMMARY...]\n"
	"       " PROG " runs    [SUMMARY...]\n"
	"       " PROG " rows    [SUMMARY...]\n"
	"Each SUMMARY is a run folder (MATRIX/runs/NAME: its run.conf, status and\n"
	"derived/summary.tsv joined into rows, record.h), or a file of joined rows\n"
	"(run scenario fs profile mode kernel repeat metric value, tab-separated), or -\n"
	"for stdin, which is read when none is given.  Prints TSV with a header\n"
	"line (rows: none):\n"
	"  groups   n, median, min, max, spread (max - min) of every metric over the\n"
	"           runs of each scenario/fs/profile/mode/kernel\n"
	"  compare  median of A minus median of B for every group pair differing\n"
	"           only in the dimension --by; verdict significant, n.s. (the\n"
	"           difference is 0 or smaller than either group's spread) or\n"
	"           single run (one run on both sides)\n"
	"  check    one verdict per check and value of each dimension (fs, mode)\n"
	"           that neither side names: reproduced, not reproduced,\n"
	"           inconclusive, not enough variation to judge, not enough runs\n"
	"           or not measured, with the medians, run counts and spreads\n"
	"           used; a count outcome (a count metric against a number) as\n"
	"           the share of seeds in which it held, with its interval\n"
	"  runs     every run, its status and whether it is included\n"
	"  rows     the joined rows, as read\n"
	"  --scenario NAME  only rows of scenario NAME (check: the scenario of --check)\n"
	"  --scn FILE       a scenario file: its '# Check: ...' header lines are\n"
	"                   evaluated (check) and their metrics filled by the\n"
	"                   missing-task-events rule (groups); its scenario is the\n"
	"                   file name without .scn unless --scenario is given\n"
	"  --check TEXT     METRIC [fs=X] [mode=Y] OP NUMBER|[METRIC] [fs=X] [mode=Y]\n"
	"                   with OP one of < <= > >= == !=\n"
	"  --one            (check) one check that must give one verdict over the\n"
	"                   runs: every fs and mode it names is one a run has, and\n"
	"                   the runs vary in no dimension it leaves free; else bad\n"
	"                   input, naming what to add (compare.sh --check)\n"
	"Runs whose run.status is not ok are excluded from every figure.  Rows that\n"
	"are malformed are skipped and counted on stderr.  A run with waits.events\n"
	"but no waits.task.COMM.events had 0 waits of task COMM.\n"
	"Exit status: 0 ok, 1 out of memory or write error, 2 bad usage or input.\n";

#define COMMANDS_VALID	"groups compare check runs rows"
#define OPTIONS_VALID	"--scenario NAME --scn FILE --check TEXT --one --by DIM A B --help"

enum command { CMD_GROUPS, CMD_COMPARE, CMD_CHECK, CMD_RUNS, CMD_ROWS };

#define MAX_ARGS	256

struct opts {
	enum command cmd;
	const char *scenario;
	const char *scn[MAX_ARGS];
	size_t nscn;
	const char *check[MAX_ARGS];
	size_t ncheck;
	int one;
	int by;
	const char *a, *b;
	const char *files[MAX_ARGS];
	size_t nfiles;
};

#define die_usage(...) cli_die_usage(PROG, __VA_ARGS__)

static void die_nomem(void)
{
	fprintf(stderr, PROG ": out of memory\n");
	exit(1);
}

enum { OPT_SCENARIO = 256, OPT_SCN, OPT_CHECK, OPT_ONE, OPT_BY, OPT_HELP };

static const struct option long_options[] = {
	{ "scenario", required_argument, NULL, OPT_SCENARIO },
	{ "scn", required_argument, NULL, OPT_SCN },
	{ "check", required_argument, NULL, OPT_CHECK },
	{ "one", no_argument, NULL, OPT_ONE },
	{ "by", required_argument, NULL, OPT_BY },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/* What the value of an option is called, for the message when it lacks one. */
static const char *value_name(int opt)
{
	switch (opt) {
	case OPT_SCENARIO:
		return "NAME";
	case OPT_SCN:
		return "FILE";
	case OPT_CHECK:
		return "TEXT";
	default:
		return "DIM A B";
	}
}

static void add_arg(const char **v, size_t *n, const char *arg,
		    const char *what)
{
	if (*n == MAX_ARGS)
		die_usage("too many %s (valid: at most %d)", what, MAX_ARGS);
	v[(*n)++] = arg;
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	const char *cmd;
	char bad[8], **av;
	int ac, c;

	if (argc < 2)
		die_usage("missing command (valid: %s; see --help)", COMMANDS_VALID);
	cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		fputs(usage_text, stdout);
		exit(0);
	} else if (!strcmp(cmd, "groups")) {
		o->cmd = CMD_GROUPS;
	} else if (!strcmp(cmd, "compare")) {
		o->cmd = CMD_COMPARE;
	} else if (!strcmp(cmd, "check")) {
		o->cmd = CMD_CHECK;
	} else if (!strcmp(cmd, "runs")) {
		o->cmd = CMD_RUNS;
	} else if (!strcmp(cmd, "rows")) {
		o->cmd = CMD_ROWS;
	} else {
		die_usage("unknown command '%s' (valid: %s)", cmd, COMMANDS_VALID);
	}
	o->by = -1;
	/*
	 * The arguments after the command, in order ('-': files between the
	 * options keep their place, which decides which of a metric given
	 * twice wins); "--" ends the options.
	 */
	ac = argc - 1;
	av = argv + 1;
	while ((c = getopt_long(ac, av, "-:h", long_options, NULL)) != -1) {
		switch (c) {
		case 1:
			add_arg(o->files, &o->nfiles, optarg, "files");
			break;
		case 'h':
		case OPT_HELP:
			fputs(usage_text, stdout);
			exit(0);
		case OPT_SCENARIO:
			o->scenario = optarg;
			if (!*o->scenario || strlen(o->scenario) > AGG_WORD_MAX)
				die_usage("bad --scenario '%s' (valid: a scenario name of 1 to %d characters)",
					  o->scenario, AGG_WORD_MAX);
			break;
		case OPT_SCN:
			add_arg(o->scn, &o->nscn, optarg, "--scn files");
			break;
		case OPT_CHECK:
			add_arg(o->check, &o->ncheck, optarg, "--check texts");
			break;
		case OPT_ONE:
			o->one = 1;
			break;
		case OPT_BY:
			o->by = agg_dim_from_name(optarg);
			if (o->by < 0 || o->by == AGG_SCENARIO)
				die_usage("bad --by '%s' (valid: fs mode profile)", optarg);
			/* the two values follow the dimension, whatever they look like */
			if (optind + 1 >= ac)
				die_usage("option '--by' needs a dimension and two values (valid: --by mode patched vanilla)");
			o->a = av[optind];
			o->b = av[optind + 1];
			optind += 2;
			break;
		case ':':
			die_usage("option '%s' needs a value (valid: %s %s)", av[optind - 1],
				  av[optind - 1], value_name(optopt));
		default:
			die_usage("unknown option '%s' (valid: %s)",
				  cli_refused_option(av, bad, sizeof(bad)), OPTIONS_VALID);
		}
	}
	for (; optind < ac; optind++)
		add_arg(o->files, &o->nfiles, av[optind], "files");
	if (o->cmd == CMD_COMPARE && o->by < 0)
		die_usage("compare needs --by DIM A B (valid: --by mode patched vanilla)");
	if (o->cmd != CMD_COMPARE && o->by >= 0)
		die_usage("--by is an option of compare only (valid: %s compare --by DIM A B)",
			  PROG);
	if (o->cmd == CMD_CHECK && !o->nscn && !o->ncheck)
		die_usage("check needs --scn FILE or --check TEXT (valid: check --scn rootfs/scenarios/NAME.scn)");
	if (o->ncheck && !o->scenario)
		die_usage("--check needs --scenario NAME (valid: --scenario fs-completion --check '...')");
	if (o->ncheck && o->cmd != CMD_CHECK)
		die_usage("--check is an option of check only (valid: %s check --check TEXT)",
			  PROG);
	if (o->one && (o->cmd != CMD_CHECK || o->ncheck != 1 || o->nscn))
		die_usage("--one judges one check: give it to check with one --check TEXT and no --scn (valid: %s check --one --scenario NAME --check TEXT)",
			  PROG);
}

struct check_list {
	struct agg_check *v;
	char (*scenario)[AGG_WORD_MAX + 1];
	size_t n;
};

static void add_check(struct check_list *l, const struct agg_check *c,
		      const char *scenario)
{
	struct agg_check *nv = realloc(l->v, (l->n + 1) * sizeof(*nv));
	char (*ns)[AGG_WORD_MAX + 1];

	if (!nv)
		die_nomem();
	l->v = nv;
	ns = realloc(l->scenario, (l->n + 1) * sizeof(*ns));
	if (!ns)
		die_nomem();
	l->scenario = ns;
	l->v[l->n] = *c;
	snprintf(l->scenario[l->n], sizeof(*ns), "%s", scenario);
	l->n++;
}

static void load_checks(const struct opts *o, struct check_list *l)
{
	char err[AGG_CHECK_MAX + 128], name[AGG_WORD_MAX + 1];
	struct agg_check one, *v;
	size_t i, j, n;

	for (i = 0; i < o->nscn; i++) {
		static struct scenario scn;

		if (scn_load(o->scn[i], &scn, err, sizeof(err)) < 0)
			die_usage("bad --scn '%s': %s (valid: a scenario file, e.g. rootfs/scenarios/fs-completion.scn)",
				  o->scn[i], err);
		n = agg_scenario_checks(&scn, &v, err, sizeof(err));
		if (n == (size_t)-1) {
			if (errno == ENOMEM)
				die_nomem();
			die_usage("%s: %s", o->scn[i], err);
		}
		if (o->scenario)
			snprintf(name, sizeof(name), "%s", o->scenario);
		else
			snprintf(name, sizeof(name), "%s", scn.name);
		for (j = 0; j < n; j++)
			add_check(l, &v[j], name);
		free(v);
	}
	for (i = 0; i < o->ncheck; i++) {
		if (agg_parse_check(o->check[i], &one, err, sizeof(err)) < 0)
			die_usage("bad --check '%s': %s", o->check[i], err);
		add_check(l, &one, o->scenario);
	}
}

/* a row of a run folder's record: fed, or printed (rows) */
struct feed {
	struct agg_set *s;
	int print;
};

static int feed_row(void *arg, const char *row, const char *metric,
		    const char *value, unsigned long line)
{
	struct feed *fd = arg;

	(void)metric;
	(void)value;
	(void)line;
	if (fd->print)
		return printf("%s\n", row) < 0;
	return agg_feed_line(fd->s, row) < 0 ? -1 : 0;
}

/* a run folder: its record's rows (record.h) */
static void read_run(struct agg_set *s, const char *dir, int print)
{
	struct feed fd = { s, print };
	struct record rec;
	const char *base = strrchr(dir, '/');
	char *name, err[1024];
	size_t n = strlen(dir);
	int rc;

	/* the folder's name, without a trailing slash */
	while (n > 1 && dir[n - 1] == '/')
		n--;
	name = strndup(dir, n);
	if (!name)
		die_nomem();
	base = strrchr(name, '/');
	base = base ? base + 1 : name;
	if (record_load(&rec, dir, base) < 0)
		die_usage("'%s' is not a run folder (no status file; valid: MATRIX/runs/NAME)", dir);
	rc = record_rows(&rec, feed_row, &fd, err, sizeof(err));
	record_free(&rec);
	free(name);
	if (rc < 0 && errno == ENOMEM)
		die_nomem();
	if (rc)
		die_usage("%s", err);
}

static void read_input(struct agg_set *s, const struct opts *o)
{
	const char *path, *first_file = NULL;
	unsigned long first_line = 0;
	size_t i, n = o->nfiles ? o->nfiles : 1;

	for (i = 0; i < n; i++) {
		unsigned long lines0 = s->lines, bad0 = s->malformed;
		struct stat sb;
		FILE *f;

		path = o->nfiles ? o->files[i] : "-";
		if (strcmp(path, "-") && !stat(path, &sb) && S_ISDIR(sb.st_mode)) {
			read_run(s, path, o->cmd == CMD_ROWS);
			if (!bad0 && s->malformed) {
				first_file = path;
				first_line = s->first_error_line - lines0;
			}
			continue;
		}
		f = strcmp(path, "-") ? fopen(path, "r") : stdin;
		if (!f)
			die_usage("cannot open '%s': %s (valid: a run folder, a file of joined rows, or - for stdin)",
				  path, strerror(errno));
		if (o->cmd == CMD_ROWS) {
			char line[AGG_LINE_MAX];

			while (fgets(line, sizeof(line), f))
				fputs(line, stdout);
		} else if (agg_feed_stream(s, f) < 0) {
			if (errno == ENOMEM)
				die_nomem();
			die_usage("cannot read '%s': %s (valid: a run folder, a file of joined rows, or - for stdin)",
				  path, strerror(errno));
		}
		if (f != stdin)
			fclose(f);
		if (!bad0 && s->malformed) {
			first_file = path;
			first_line = s->first_error_line - lines0;
		}
	}
	if (s->malformed)
		fprintf(stderr, PROG ": skipped %lu malformed row%s (the first: %s line %lu: %s)\n",
			s->malformed, s->malformed == 1 ? "" : "s",
			strcmp(first_file, "-") ? first_file : "stdin",
			first_line, s->first_error);
}

static int print_runs(const struct agg_set *s)
{
	const struct agg_run **runs;
	size_t i, n, k;
	int pass;

	printf("run\tscenario\tfs\tprofile\tmode\tkernel\trepeat\tstatus\tincluded\n");
	for (pass = 0; pass < 2; pass++) {
		n = pass ? agg_excluded(s, &runs) : agg_included(s, &runs);
		for (i = 0; i < n; i++) {
			const struct agg_run *r = runs[i];

			printf("%s", r->name);
			for (k = 0; k < AGG_NDIMS; k++)
				printf("\t%s", r->dim[k]);
			printf("\t%ld\t%s\t%s\n", r->repeat,
			       r->status ? r->status : "-", pass ? "no" : "yes");
		}
		free(runs);
	}
	return 0;
}

/*
 * The verdicts of each check; with one (--one), the check's must be one
 * (agg_one_verdict), else it is bad input: nothing is printed.
 */
static void run_checks(const struct agg_set *s, const struct check_list *l,
		       int one)
{
	char err[2048] = "";
	struct agg_verdict *v;
	size_t i, n;

	if (!one)
		printf("scenario\tcheck\twhere\tverdict\tleft\tleft_n\tleft_spread\top\tright\tright_n\tright_spread\tnote\n");
	for (i = 0; i < l->n; i++) {
		n = agg_eval_check(s, l->scenario[i], &l->v[i], &v);
		if (n == (size_t)-1)
			die_nomem();
		if (one && agg_one_verdict(s, l->scenario[i], &l->v[i], v, n, err,
					   sizeof(err)) < 0) {
			free(v);
			if (!*err)
				die_nomem();
			/* the set and the list go with the process */
			die_usage("%s", err);
		}
		if (one)
			printf("scenario\tcheck\twhere\tverdict\tleft\tleft_n\tleft_spread\top\tright\tright_n\tright_spread\tnote\n");
		agg_print_verdicts(stdout, l->scenario[i], &l->v[i], v, n);
		free(v);
	}
}

int main(int argc, char **argv)
{
	static struct agg_set s;
	struct opts o;
	struct check_list checks = { 0 };
	struct agg_group *g = NULL;
	struct agg_pair *p = NULL;
	size_t ng, np, i;

	memset(&o, 0, sizeof(o));
	parse_args(argc, argv, &o);
	load_checks(&o, &checks);
	agg_init(&s);
	if (o.scenario && o.cmd != CMD_CHECK && agg_only_scenario(&s, o.scenario) < 0)
		die_nomem();
	for (i = 0; i < checks.n; i++)
		if (agg_want_metric(&s, checks.v[i].left.metric) < 0 ||
		    (!checks.v[i].right.is_number &&
		     agg_want_metric(&s, checks.v[i].right.metric) < 0))
			die_nomem();
	read_input(&s, &o);
	if (agg_finish(&s) < 0)
		die_nomem();

	switch (o.cmd) {
	case CMD_ROWS:
		break;
	case CMD_RUNS:
		print_runs(&s);
		break;
	case CMD_CHECK:
		run_checks(&s, &checks, o.one);
		break;
	case CMD_GROUPS:
	case CMD_COMPARE:
		ng = agg_groups(&s, &g);
		if (ng == (size_t)-1)
			die_nomem();
		if (o.cmd == CMD_GROUPS) {
			agg_print_groups(stdout, g, ng);
			break;
		}
		np = agg_pairs(g, ng, (enum agg_dim)o.by, o.a, o.b, &p);
		if (np == (size_t)-1)
			die_nomem();
		agg_print_pairs(stdout, p, np, (enum agg_dim)o.by);
		break;
	}
	free(p);
	free(g);
	free(checks.v);
	free(checks.scenario);
	agg_free(&s);
	if (ferror(stdout) | fflush(stdout)) {
		fprintf(stderr, PROG ": error writing standard output\n");
		return 1;
	}
	return 0;
}
