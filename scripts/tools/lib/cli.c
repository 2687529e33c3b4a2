// SPDX-License-Identifier: GPL-2.0
/* Bad usage of a host tool, and errors of their libraries; see cli.h. */
#include "lib/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void cli_die_usage(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

const char *cli_refused_option(char *const argv[], char *buf, size_t size)
{
	if (optopt > 0 && optopt < 256) {
		snprintf(buf, size, "-%c", optopt);
		return buf;
	}
	return argv[optind - 1];
}

int cli_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

FILE *cli_create(const char *path, char *err, size_t errlen)
{
	struct stat st;
	FILE *f;
	int fd;

	if (!lstat(path, &st)) {
		if (!S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
			cli_fail(err, errlen, "cannot write %s: refusing to replace %s",
				 path, S_ISLNK(st.st_mode) ? "a symbolic link" :
				 S_ISREG(st.st_mode) ? "a file owned by someone else" :
				 "something that is not a regular file");
			return NULL;
		}
		if (unlink(path) && errno != ENOENT) {
			cli_fail(err, errlen, "cannot replace %s: %s", path, strerror(errno));
			return NULL;
		}
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		cli_fail(err, errlen, "cannot create %s: %s", path,
			 errno == EEXIST ? "something was put there while it was replaced" :
			 strerror(errno));
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		cli_fail(err, errlen, "cannot write %s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}
