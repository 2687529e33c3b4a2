/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collect: how a run ended, from what its guest left, into the run's one
 * record of its outcome, RUN/status (record.h), once the guest is gone.
 *
 * The console log (all the kernel and the guest printed) is read once,
 * for every fact it holds: the kernel's splats (splats.h), the OOM
 * killer's kills (a "Killed process N" line each, global or in a memory
 * cgroup), and the disk models the kernel refused ("ubd: bad ubd.model=":
 * a disk without its model would run at host speed).  The guest's own
 * files are read as data through guest-read.h: exit-status, guest-uptime,
 * time-travel-cpu, failure-reason, knobs-absent, workloads-killed (the
 * workloads SIGKILL ended: OOM-killed, a result, when the console has an
 * OOM kill, else the run's failure).
 *
 * The host's own record of a run it could not take to its end,
 * RUN/host-failure (the native backend writes it, docs/native.md): the
 * step that failed, why, and whether the run folder's filesystem filled
 * up during the run (a native run's disks are files there).  Read as
 * bounded data too.
 *
 * The status file: the status word (ok, failed, hung, crashed, splat),
 * then key=value facts, in this order:
 *   run exit_status wall_seconds simulated_seconds [clock_stalled_ticks]
 *   splats splat_kinds oom_kills model_errors knobs_absent [failed_step]
 *   [reason] [host_disk_full]
 */
#ifndef RECLAIMLAB_COLLECT_H
#define RECLAIMLAB_COLLECT_H

#include <stddef.h>
#include <stdio.h>

#include "collect/splats.h"

/* What the console log says. */
struct collect_console {
	size_t splats[NR_SPLAT_KINDS];
	size_t nsplats;
	size_t oom_kills;
	size_t model_errors;
};

/*
 * Scans a console log: each splat as a "KIND: TITLE" line to list (if
 * not NULL) and its whole report to excerpts (if not NULL), and the
 * counts into c.  0, or -1 (out of memory or a write error).
 */
int collect_console(FILE *in, FILE *list, FILE *excerpts,
		    struct collect_console *c);

/* "kind:N,kind:N" of the splats, kinds in name order, into buf. */
void collect_splat_kinds(const struct collect_console *c, char *buf,
			 size_t size);

/* How the guest ended, as the host saw it. */
enum collect_end { COLLECT_ENDED, COLLECT_HUNG, COLLECT_INTERACTIVE };

/*
 * The run's status word and the exit status collect-run.sh exits with:
 * hung (124) when the watchdog stopped it; with an exit-status from the
 * guest (have_exit, exit_rc: -1 if it was refused or not a number from 0
 * to 255, then 125), failed on a disk model the kernel refused, splat on
 * a splat, failed when a workload was killed (killed) though the kernel
 * OOM-killed nothing, else ok or failed by the exit status (a failure is
 * never reported as 0); an interactive shell left without one and without
 * a splat is ok; anything else crashed (125).
 */
const char *collect_status(enum collect_end end, int have_exit, int exit_rc,
			   int killed, const struct collect_console *c, int *rc);

/*
 * The first line of a guest's text, only the characters of keep, at most
 * max of them, into buf (an empty string if none).
 */
void collect_guest_line(const char *text, const char *keep, size_t max,
			char *buf, size_t size);

/* RUN/host-failure's facts (collect_host_failure). */
struct collect_host_failure {
	char step[32];		/* the step that failed; "" if none */
	char reason[400];	/* why, in the host's words; "" if none */
	int disk_full;		/* 1: the run folder's filesystem filled up */
};

/*
 * The host's record text (NULL: there is none): key=value lines "step",
 * "reason" and "disk_full" (1 or not), each value's first line, printable
 * characters only, bounded, into h.  1 if it names a step or a full disk,
 * else 0.
 */
int collect_host_failure(const char *text, struct collect_host_failure *h);

#endif
