// SPDX-License-Identifier: GPL-2.0
/*
 * rl-dd: paced writer, reader and verifier whose file content can be
 * regenerated from (seed, offset), so a kernel that loses or corrupts page
 * cache pages is caught without keeping a copy.  See dd.h for the logic
 * and the usage text in dd.c for the interface.
 */
#include "dd.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* SIGTERM/SIGINT end the loop early; the result line still comes out. */
static void install_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
}

struct progress {
	FILE *f;
	int err;
};

static void on_progress(void *arg, double t, uint64_t done)
{
	struct progress *p = arg;

	if (fprintf(p->f, "%.3f\t%" PRIu64 "\n", t, done) < 0 || fflush(p->f))
		p->err = errno;
}

static int do_sparse(const struct dd_opts *o)
{
	struct dd_xfer x = { .seconds = 0 };
	char line[512];
	int fd;

	/* O_TRUNC first so no old data survives inside the new size. */
	fd = open(o->file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fprintf(stderr, "rl-dd: cannot open %s: %s\n", o->file, strerror(errno));
		return 1;
	}
	if (ftruncate(fd, (off_t)o->size)) {
		fprintf(stderr, "rl-dd: cannot size %s to %" PRIu64 ": %s\n",
			o->file, o->size, strerror(errno));
		close(fd);
		return 1;
	}
	if (close(fd)) {
		fprintf(stderr, "rl-dd: close %s: %s\n", o->file, strerror(errno));
		return 1;
	}
	dd_format_result(line, sizeof(line), o, &x);
	printf("%s\n", line);
	return 0;
}

static int open_file(const struct dd_opts *o)
{
	int flags = o->op == DD_WRITE ? O_WRONLY | O_CREAT | O_TRUNC : O_RDONLY;
	int fd;

	if (o->direct)
		flags |= O_DIRECT;
	fd = open(o->file, flags, 0644);
	if (fd < 0)
		fprintf(stderr, "rl-dd: cannot open %s%s: %s\n", o->file,
			o->direct ? " with O_DIRECT" : "", strerror(errno));
	return fd;
}

/* Exit status once the transfer has run and the result line is out. */
static int xfer_status(const struct dd_opts *o, const struct dd_xfer *x)
{
	if (o->op != DD_VERIFY)
		return 0;
	if (x->v.bad_chunks)
		return 3;
	if (x->stopped) {
		fprintf(stderr, "rl-dd: verify interrupted after %" PRIu64 " of %" PRIu64 " bytes\n",
			x->done, o->size);
		return 1;
	}
	return 0;
}

static int do_xfer(const struct dd_opts *o)
{
	struct progress prog = { 0 };
	struct dd_xfer x = {
		.size = o->size, .bs = (size_t)o->bs, .seed = o->seed,
		.rate = o->rate, .fsync = o->fsync, .verify = o->op == DD_VERIFY,
		.stop = &stop,
	};
	char line[512];
	int ret = 1, err;

	if (o->progress) {
		prog.f = fopen(o->progress, "a");
		if (!prog.f) {
			fprintf(stderr, "rl-dd: cannot open %s: %s\n", o->progress,
				strerror(errno));
			return 1;
		}
		x.progress = on_progress;
		x.arg = &prog;
	}
	/* Page-aligned always: O_DIRECT needs it and it costs nothing. */
	err = posix_memalign(&x.buf, DD_CHUNK, x.bs);
	if (err) {
		fprintf(stderr, "rl-dd: cannot allocate %zu byte buffer: %s\n",
			x.bs, strerror(err));
		goto out_prog;
	}
	x.fd = open_file(o);
	if (x.fd < 0)
		goto out_buf;

	if (o->op == DD_WRITE ? dd_write_fd(&x) : dd_read_fd(&x)) {
		fprintf(stderr, "rl-dd: %s %s at offset %" PRIu64 ": %s\n",
			x.failed, o->file, x.done, strerror(x.err));
		close(x.fd);
		goto out_buf;
	}
	if (close(x.fd)) {
		fprintf(stderr, "rl-dd: close %s: %s\n", o->file, strerror(errno));
		goto out_buf;
	}
	dd_format_result(line, sizeof(line), o, &x);
	printf("%s\n", line);
	ret = xfer_status(o, &x);
out_buf:
	free(x.buf);
out_prog:
	if (prog.f && fclose(prog.f) && !prog.err)
		prog.err = errno;
	if (prog.err) {
		fprintf(stderr, "rl-dd: writing %s: %s\n", o->progress,
			strerror(prog.err));
		if (ret == 0)
			ret = 1;
	}
	return ret;
}

int main(int argc, char *argv[])
{
	struct dd_opts o;
	char err[256];

	switch (dd_parse_args(argc, argv, &o, err, sizeof(err))) {
	case DD_PARSE_HELP:
		fputs(dd_usage, stdout);
		return 0;
	case DD_PARSE_ERR:
		fprintf(stderr, "rl-dd: %s\n", err);
		return 2;
	case DD_PARSE_OK:
		break;
	}
	if (o.op == DD_SPARSE)
		return do_sparse(&o);
	install_handlers();
	return do_xfer(&o);
}
