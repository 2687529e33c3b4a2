// SPDX-License-Identifier: GPL-2.0
/*
 * rl-usemem: map anonymous memory and dirty every page, for reclaim
 * experiments ("usemem 6G" on an 8G box, then swapon).  See usemem.h for
 * the logic and the usage text in usemem.c for the interface.
 */
#include "usemem.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct run {
	struct um_touch_ctl ctl;
	struct timespec t0;
	double last_tick;
	double next_sample;
	uint64_t touched_pages;
	FILE *prog;
	const char *prog_name;
	int prog_err;
};

static double elapsed(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) +
	       (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void sample(struct run *r, double now)
{
	if (fprintf(r->prog, "%.3f\t%" PRIu64 "\n", now,
		    r->touched_pages * r->ctl.pagesz) < 0 || fflush(r->prog))
		r->prog_err = errno;
}

/* Called by the touch loop every ctl.cb_every pages. */
static void on_tick(void *arg, uint64_t delta)
{
	struct run *r = arg;
	double now;

	r->touched_pages += delta;
	now = elapsed(&r->t0);
	r->ctl.cb_every = um_tick_adjust(r->ctl.cb_every, now - r->last_tick);
	r->last_tick = now;
	if (r->prog && now >= r->next_sample) {
		sample(r, now);
		/* Stay on the 0.5 s grid rather than drift by the tick. */
		while (r->next_sample <= now)
			r->next_sample += 0.5;
	}
}

static void install_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: the hold wait must return on the signal. */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
}

/*
 * Sleep for secs (forever if negative) or until SIGTERM/SIGINT: --hold,
 * and --pause between passes.  The signals are blocked except inside ppoll
 * so one arriving just before the wait cannot be lost.
 */
static void hold(double secs)
{
	sigset_t block, old;
	struct timespec start;

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &old);
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (!stop) {
		struct timespec ts, *tp = NULL;

		if (secs >= 0) {
			double left = secs - elapsed(&start);

			if (left <= 0)
				break;
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
			tp = &ts;
		}
		ppoll(NULL, 0, tp, &old);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/*
 * First pass: make the mapping usable step by step and touch each step as
 * it appears, so commit and RSS grow together.  The whole range is reserved
 * PROT_NONE up front (which charges no commit) so it stays one contiguous
 * region that later passes walk with a single loop.
 */
static int grow_and_touch(struct run *r, uint64_t pages, uint64_t step_pages,
			  uint64_t seed)
{
	uint64_t first, s = 0;
	size_t pg = r->ctl.pagesz;

	for (first = 0; first < pages && !stop; first += step_pages, s++) {
		uint64_t n = pages - first < step_pages ? pages - first : step_pages;

		if (mprotect(r->ctl.base + first * pg, n * pg,
			     PROT_READ | PROT_WRITE)) {
			fprintf(stderr, "rl-usemem: cannot commit %" PRIu64
				" bytes at offset %" PRIu64 ": %s\n",
				(uint64_t)(n * pg), (uint64_t)(first * pg),
				strerror(errno));
			return -1;
		}
		r->ctl.seed = um_perm_seed(seed, 0, s);
		um_touch_range(&r->ctl, first, n);
	}
	return 0;
}

/*
 * Fork n children that exit at once; each fork copies the whole mapping
 * (page tables, commit charge), so under pressure some may fail.
 */
static uint64_t fork_children(uint64_t n, int *last_errno)
{
	uint64_t i, failed = 0;

	for (i = 0; i < n && !stop; i++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		if (pid < 0) {
			failed++;
			*last_errno = errno;
			continue;
		}
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	return failed;
}

static int run(const struct um_opts *o)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t pages = (o->size + pg - 1) / pg;
	uint64_t step_pages = (o->step + pg - 1) / pg;
	uint64_t done = 0;
	struct rusage ru0, ru1;
	struct um_result res = { 0 };
	int fork_errno = 0;
	struct run r;
	char line[256];
	double secs, paused = 0;
	int ret = 0;

	memset(&r, 0, sizeof(r));
	if (o->progress) {
		r.prog = fopen(o->progress, "a");
		if (!r.prog) {
			fprintf(stderr, "rl-usemem: cannot open %s: %s\n",
				o->progress, strerror(errno));
			return 1;
		}
	}
	r.ctl.pagesz = pg;
	r.ctl.order = o->touch;
	r.ctl.stop = &stop;
	r.ctl.cb = on_tick;
	r.ctl.arg = &r;
	r.ctl.cb_every = 64;
	r.next_sample = 0.5;

	getrusage(RUSAGE_SELF, &ru0);
	clock_gettime(CLOCK_MONOTONIC, &r.t0);
	r.ctl.base = mmap(NULL, pages * pg, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r.ctl.base == MAP_FAILED) {
		fprintf(stderr, "rl-usemem: cannot map %" PRIu64 " bytes: %s\n",
			(uint64_t)(pages * pg), strerror(errno));
		ret = 1;
		goto out_prog;
	}

	/* A distinct non-zero stamp per pass, so each pass really dirties. */
	r.ctl.stamp = 1ULL << 48;
	if (grow_and_touch(&r, pages, step_pages, o->seed)) {
		ret = 1;
		goto out_unmap;
	}
	if (!stop)
		done = 1;
	if (o->forks)
		res.fork_failed = fork_children(o->forks, &fork_errno);
	while (!stop && (o->passes == 0 || done < o->passes)) {
		if (o->pause > 0) {
			double t = elapsed(&r.t0);

			hold(o->pause);
			paused += elapsed(&r.t0) - t;
			if (stop)
				break;
		}
		r.ctl.stamp = (done + 1) << 48;
		r.ctl.seed = um_perm_seed(o->seed, done, 0);
		if (um_touch_range(&r.ctl, 0, pages) == pages && !stop)
			done++;
	}
	secs = elapsed(&r.t0);
	if (r.prog)
		sample(&r, secs);
	/* the result's seconds are the touching's: the pauses are left out */
	secs -= paused;

	if (!stop && o->hold != 0)
		hold(o->hold);
	getrusage(RUSAGE_SELF, &ru1);

	res.bytes = pages * pg;
	res.passes = done;
	res.touched = r.touched_pages * pg;
	res.seconds = secs;
	res.majflt = ru1.ru_majflt - ru0.ru_majflt;
	res.minflt = ru1.ru_minflt - ru0.ru_minflt;
	res.forks = o->forks;
	um_format_result(line, sizeof(line), &res);
	printf("%s%s%s\n", line, fork_errno ? " fork_errno=" : "",
	       fork_errno ? strerrorname_np(fork_errno) : "");
	if (r.prog_err) {
		fprintf(stderr, "rl-usemem: writing %s: %s\n", o->progress,
			strerror(r.prog_err));
		ret = 1;
	}
out_unmap:
	munmap(r.ctl.base, pages * pg);
out_prog:
	if (r.prog && fclose(r.prog) && !ret) {
		fprintf(stderr, "rl-usemem: writing %s: %s\n", o->progress,
			strerror(errno));
		ret = 1;
	}
	return ret;
}

int main(int argc, char *argv[])
{
	struct um_opts o;
	char err[256];

	switch (um_parse_args(argc, argv, &o, err, sizeof(err))) {
	case UM_PARSE_HELP:
		fputs(um_usage, stdout);
		return 0;
	case UM_PARSE_ERR:
		fprintf(stderr, "rl-usemem: %s\n", err);
		return 2;
	case UM_PARSE_OK:
		break;
	}
	install_handlers();
	return run(&o);
}
