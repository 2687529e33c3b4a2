/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run-folder: the layout of a run folder as the host tools name its parts;
 * the shell's names are scripts/lib.sh's ($RL_DERIVED, $RL_GUEST), each
 * file's writer and readers are in docs/architecture.md ("The run
 * folder").
 *
 *   run.conf, cmdline, job.env, job.sh, console.log, status, host-failure
 *                the host's own record, out of the guest's reach
 *   derived/     what the host derived from the raw files (rl-collect's
 *                splats, rl-summarize's summary.tsv and series)
 *   guest/       the guest's hostfs root: all it can write, read as
 *                untrusted data through guest-read.h
 *
 * A run's record (record.h) is read from these.
 */
#ifndef RECLAIMLAB_RUN_FOLDER_H
#define RECLAIMLAB_RUN_FOLDER_H

/* the subfolder of a run folder with what the host derived (lib.sh RL_DERIVED) */
#define RL_DERIVED_DIR "derived"
/* the subfolder of a run folder with all the guest wrote (lib.sh RL_GUEST) */
#define RL_GUEST_DIR "guest"

#endif
