// SPDX-License-Identifier: GPL-2.0
/*
 * rl-scenario-info: a scenario file, checked, as data for the host scripts.
 *
 * The scripts read its key=value lines (never source them).  Exit status:
 * 0 ok, 1 output error, 2 bad usage, a bad scenario or a bad --set value.
 */
#include "lib/cli.h"
#include "lib/scenario.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "rl-scenario-info"

static const char usage_text[] =
	"usage: " PROG " [--preset NAME] [--set KEY=VALUE]... FILE.scn\n"
	"       " PROG " --field NAME FILE.scn\n"
	"       " PROG " --params FILE.scn\n"
	"       " PROG " --checks FILE.scn\n"
	"Reads a scenario file as data (it is never run) and prints:\n"
	"  (default)  key=value lines: scenario, title, mem, profile, fs_profile\n"
	"             (FS:PROFILE,...), swap, timeout,\n"
	"             disk_use and mem_use (bytes, empty if not declared) with\n"
	"             disk_use_desc and mem_use_desc, params (every parameter,\n"
	"             KEY=VALUE separated by spaces, --set values applied) and\n"
	"             set (the --set and preset ones), preset (the one applied)\n"
	"             and presets (every one the file has); each value is\n"
	"             type-checked; --preset applies first, --set over it\n"
	"  --field    the text of a header field: title Measures Headline Thread Compare\n"
	"  --params   NAME<TAB>DEFAULT<TAB>TYPE<TAB>ABOUT per parameter\n"
	"  --checks   the '# Check:' lines, one per line\n"
	"Exit status: 0 ok, 1 write error, 2 bad usage, scenario or value.\n";

#define die_usage(...) cli_die_usage(PROG, __VA_ARGS__)

/* "2*WRITE_SIZE with WRITE_SIZE=64M", or "WRITE_SIZE=64M" for a bare name */
static void use_desc(const struct scenario *s, const char *expr)
{
	int bare = 1, first = 1;
	size_t i;

	for (i = 0; expr[i]; i++)
		if (!((expr[i] >= 'A' && expr[i] <= 'Z') || expr[i] == '_' ||
		      (expr[i] >= '0' && expr[i] <= '9')))
			bare = 0;
	if (!bare)
		printf("%s with ", expr);
	for (i = 0; i < s->nparams; i++) {
		const char *hit = strstr(expr, s->params[i].name);
		size_t n = strlen(s->params[i].name);

		/* a whole name of the expression, not a part of a longer one */
		while (hit && ((hit > expr && (hit[-1] == '_' || (hit[-1] >= 'A' && hit[-1] <= 'Z'))) ||
			       hit[n] == '_' || (hit[n] >= 'A' && hit[n] <= 'Z') ||
			       (hit[n] >= '0' && hit[n] <= '9')))
			hit = strstr(hit + 1, s->params[i].name);
		if (!hit)
			continue;
		printf("%s%s=%s", first ? "" : ", ", s->params[i].name, s->params[i].value);
		first = 0;
	}
}

static void print_use(const struct scenario *s, const char *key, const char *expr)
{
	char err[512];
	uint64_t bytes;

	if (!expr[0]) {
		printf("%s=\n%s_desc=\n", key, key);
		return;
	}
	if (scn_eval_use(s, expr, &bytes, err, sizeof(err)) < 0)
		die_usage("scenario %s: %s", s->name, err);
	printf("%s=%llu\n%s_desc=", key, (unsigned long long)bytes, key);
	use_desc(s, expr);
	putchar('\n');
}

static void print_data(const struct scenario *s)
{
	size_t i;
	int first = 1;

	printf("scenario=%s\ntitle=%s\nmem=%s\nprofile=%s\nfs_profile=%s\nswap=%s\ntimeout=%s\n",
	       s->name, s->title, s->mem, s->profile, s->fs_profile, s->swap, s->timeout);
	print_use(s, "disk_use", s->disk_use);
	print_use(s, "mem_use", s->mem_use);
	printf("params=");
	for (i = 0; i < s->nparams; i++)
		printf("%s%s=%s", i ? " " : "", s->params[i].name, s->params[i].value);
	printf("\nset=");
	for (i = 0; i < s->nparams; i++) {
		if (!s->params[i].was_set)
			continue;
		printf("%s%s=%s", first ? "" : " ", s->params[i].name, s->params[i].value);
		first = 0;
	}
	printf("\npreset=%s\npresets=", s->preset);
	for (i = 0; i < s->npresets; i++)
		printf("%s%s", i ? " " : "", s->presets[i].name);
	putchar('\n');
}

static void print_field(const struct scenario *s, const char *name)
{
	int f;

	if (!strcmp(name, "title")) {
		printf("%s\n", s->title);
		return;
	}
	for (f = 0; f < SCN_NFIELDS; f++) {
		if (!strcmp(name, scn_field_name(f))) {
			if (s->field[f][0])
				printf("%s\n", s->field[f]);
			return;
		}
	}
	die_usage("unknown --field '%s' (valid: title Measures Headline Thread Compare)", name);
}

enum { OPT_PRESET = 256, OPT_SET, OPT_FIELD, OPT_PARAMS, OPT_CHECKS, OPT_HELP };

static const struct option long_options[] = {
	{ "preset", required_argument, NULL, OPT_PRESET },
	{ "set", required_argument, NULL, OPT_SET },
	{ "field", required_argument, NULL, OPT_FIELD },
	{ "params", no_argument, NULL, OPT_PARAMS },
	{ "checks", no_argument, NULL, OPT_CHECKS },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/*
 * A refusal, its control bytes (a terminal's escape sequences that a
 * --set word may carry) shown as '?', as the scripts' own messages show
 * them: the one message of a bad --set, whichever script passed it on.
 */
static void __attribute__((noreturn)) refuse(char *err)
{
	char *p;

	for (p = err; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	die_usage("%s", err);
}

static void __attribute__((noreturn)) bad_argument(const char *arg)
{
	fputs(usage_text, stderr);
	die_usage("bad argument '%s' (valid: --preset NAME --set KEY=VALUE --field NAME --params --checks --help, then one FILE)",
		  arg);
}

int main(int argc, char **argv)
{
	static struct scenario s;
	const char *file = NULL, *field = NULL, *mode = "data", *preset = NULL;
	char err[1024], bad[8];
	int c, i, nsets = 0;
	size_t j;
	const char **sets = calloc((size_t)argc, sizeof(*sets));

	if (!sets)
		die_usage("out of memory");
	while ((c = getopt_long(argc, argv, "-:", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_HELP:
			fputs(usage_text, stdout);
			free(sets);
			return 0;
		case OPT_PRESET:
			preset = optarg;
			break;
		case OPT_SET:
			sets[nsets++] = optarg;
			break;
		case OPT_FIELD:
			mode = "field";
			field = optarg;
			break;
		case OPT_PARAMS:
			mode = "params";
			break;
		case OPT_CHECKS:
			mode = "checks";
			break;
		case 1:
			if (optarg[0] != '-' && !file) {
				file = optarg;
				break;
			}
			bad_argument(optarg);
		case ':':	/* an option without its value */
			bad_argument(argv[optind - 1]);
		default:
			bad_argument(cli_refused_option(argv, bad, sizeof(bad)));
		}
	}
	for (; optind < argc; optind++) {	/* after "--" */
		if (file)
			bad_argument(argv[optind]);
		file = argv[optind];
	}
	if (!file) {
		fputs(usage_text, stderr);
		die_usage("no scenario file given");
	}
	if (scn_load(file, &s, err, sizeof(err)) < 0)
		refuse(err);
	if (preset && scn_apply_preset(&s, preset, err, sizeof(err)) < 0)
		refuse(err);
	for (i = 0; i < nsets; i++)
		if (scn_set(&s, sets[i], err, sizeof(err)) < 0)
			refuse(err);
	free(sets);
	if (!strcmp(mode, "field")) {
		print_field(&s, field);
	} else if (!strcmp(mode, "params")) {
		for (j = 0; j < s.nparams; j++)
			printf("%s\t%s\t%s\t%s\n", s.params[j].name, s.params[j].value,
			       s.params[j].type_text, s.params[j].about);
	} else if (!strcmp(mode, "checks")) {
		for (j = 0; j < s.nchecks; j++)
			printf("%s\n", s.checks[j].text);
	} else {
		print_data(&s);
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, PROG ": write error\n");
		return 1;
	}
	return 0;
}
