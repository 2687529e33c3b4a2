/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guest-read: the one way the host tools open a file a guest wrote
 * (RUN/guest/NAME, and console.log, whose content is the guest's).
 *
 * A guest chooses what it leaves behind: a fifo that blocks a reader, a
 * symlink to a host file, a device node, a sparse file of a terabyte.  So
 * a guest file is opened O_NOFOLLOW|O_NONBLOCK, must be a regular file,
 * must be at most a stated size, and no more than that size is ever read.
 *
 * Failure: NULL (or -1) with errno ENOENT when the file does not exist
 * (callers treat that as before: the run has no such file); any other
 * errno means the file was refused or unreadable, and err names the file
 * and why.  A caller marks such a run instead of dying.
 */
#ifndef RECLAIMLAB_GUEST_READ_H
#define RECLAIMLAB_GUEST_READ_H

#include <stddef.h>
#include <stdio.h>

/*
 * Per-file caps, in bytes.  The sizes real runs produce, with a margin
 * of ten or more:
 *  - trace.txt: ~56 KB for the report fixture's runs; a thread-preset run
 *    of a few minutes writes tens of MB (the guest's trace buffer is
 *    drained to it).  It is streamed, so the cap bounds time, not memory.
 *  - console.log: a few hundred KB; a splat storm (lockdep, KASAN
 *    repeating) can reach tens of MB.  Streamed too.
 *  - DEV.blktrace.bin: 32 KB in the fixture; ~50 bytes an event, a few
 *    events a request, a long I/O-bound run: tens of MB.  Read whole.
 *  - iostat.json: ~1 KB per device-second; an hour of 4 devices is 15 MB.
 *  - NAME.fio.json: tens of KB per job with its percentiles.
 *  - NAME.out, NAME.progress, verify.out: a line per result or per tick.
 *  - counters-*.debug-vm, counters-*.vmstat: a few KB (/proc/vmstat ~5 KB).
 *  - one-line files (workload-seconds, exit-status, guest-uptime,
 *    kernel-release, failure-reason, time-travel-cpu, trace.txt.overrun,
 *    DEV.blktrace.dropped)
 *    and params/knobs: bytes to a few hundred bytes.
 */
#define GUEST_MAX_TRACE		(512UL << 20)
#define GUEST_MAX_CONSOLE	(256UL << 20)
#define GUEST_MAX_BLKTRACE	(256UL << 20)
#define GUEST_MAX_IOSTAT	(128UL << 20)
#define GUEST_MAX_FIO		(16UL << 20)
#define GUEST_MAX_TOOL_OUT	(16UL << 20)
#define GUEST_MAX_COUNTERS	(1UL << 20)
#define GUEST_MAX_SMALL		(64UL << 10)
/* rl-guest-read's default: the one-line files collect-run.sh reads */
#define GUEST_MAX_DEFAULT	GUEST_MAX_SMALL

/*
 * The whole file, NUL-terminated (it may hold NULs: *len says how long it
 * is, if len is not NULL); malloc'ed.  Reads at most max bytes.
 */
char *guest_read_file(const char *path, size_t max, size_t *len, char *err,
		      size_t errlen);

/*
 * The file as a stream for line-by-line readers; reads stop after max
 * bytes even if the file grew since it was opened.  fclose() it.
 */
FILE *guest_fopen(const char *path, size_t max, char *err, size_t errlen);

#endif
