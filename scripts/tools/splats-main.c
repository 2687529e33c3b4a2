// SPDX-License-Identifier: GPL-2.0
/*
 * rl-splats: the kernel problem reports in a guest console log.
 *
 * Prints one line per splat, "KIND: TITLE", and with --excerpts writes each
 * whole report (up to SPLATS_MAX_LINES lines) to a file, so that a run's
 * folder says what went wrong without reading the console log.
 *
 * Exit status: 0 ok (splats or none), 1 out of memory or write error,
 * 2 bad usage or unreadable input.
 */
#include "cli.h"
#include "guest-read.h"
#include "splats.h"

#include <stdio.h>
#include <string.h>

#define PROG "rl-splats"

static const char usage_text[] =
	"usage: " PROG " [--excerpts FILE] [CONSOLE_LOG|-]\n"
	"Prints \"KIND: TITLE\" for each kernel splat (oops, bug, warning, kasan,\n"
	"ubsan, lockdep, hung_task, rcu_stall, soft_lockup, gpf, panic) in a\n"
	"console log; --excerpts FILE also writes each whole report to FILE.\n"
	"Exit status: 0 ok, 1 out of memory or write error, 2 bad usage or input.\n";

struct output {
	FILE *excerpts;
};

static int print_splat(const struct splat *s, void *arg)
{
	struct output *out = arg;

	printf("%s: %s\n", splat_kind_name(s->kind), s->title);
	if (!out->excerpts)
		return 0;
	fprintf(out->excerpts, "=== %s: %s\n%s", splat_kind_name(s->kind),
		s->title, s->text);
	if (s->dropped)
		fprintf(out->excerpts, "... %zu more lines in the console log\n",
			s->dropped);
	if (!s->complete)
		fprintf(out->excerpts, "(no end marker: the report was cut short or ended here)\n");
	fputc('\n', out->excerpts);
	return 0;
}

int main(int argc, char **argv)
{
	struct splat_scanner sc;
	struct output out = { NULL };
	const char *excerpts = NULL, *file = "-";
	char line[SPLATS_LINE_MAX * 8], err[1024];
	FILE *in = stdin;
	int i, rc = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			return 0;
		} else if (!strcmp(argv[i], "--excerpts")) {
			if (++i == argc) {
				fprintf(stderr, PROG ": --excerpts needs a file name\n");
				return 2;
			}
			excerpts = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, PROG ": unknown option '%s' (valid: --excerpts FILE --help)\n",
				argv[i]);
			return 2;
		} else if (i == argc - 1) {
			file = argv[i];
		} else {
			fprintf(stderr, PROG ": one console log only, got '%s' and more\n", argv[i]);
			return 2;
		}
	}
	if (strcmp(file, "-")) {
		/* host-written, but every byte of it is the guest's console */
		in = guest_fopen(file, GUEST_MAX_CONSOLE, err, sizeof(err));
		if (!in) {
			fprintf(stderr, PROG ": cannot read %s\n", err);
			return 2;
		}
	}
	if (excerpts) {
		/* a new file: a link planted at its name is not written through */
		out.excerpts = cli_create(excerpts, err, sizeof(err));
		if (!out.excerpts) {
			fprintf(stderr, PROG ": %s\n", err);
			if (in != stdin)
				fclose(in);
			return 2;
		}
	}
	splat_scanner_init(&sc, print_splat, &out);
	while (!rc && fgets(line, sizeof(line), in)) {
		size_t n = strlen(line);

		rc = splat_scanner_line(&sc, line);
		/* the rest of an over-long line is not a line of its own */
		while (n && line[n - 1] != '\n' && fgets(line, sizeof(line), in))
			n = strlen(line);
	}
	if (!rc)
		rc = splat_scanner_finish(&sc);
	else
		splat_scanner_finish(&sc);
	if (in != stdin)
		fclose(in);
	if (out.excerpts && fclose(out.excerpts))
		rc = -1;
	if (fflush(stdout) || ferror(stdout))
		rc = -1;
	if (rc) {
		fprintf(stderr, PROG ": out of memory or write error\n");
		return 1;
	}
	return 0;
}
