/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memcg-reclaim: the reclaim rounds a memory cgroup's charges ran, from
 * the kernel's mm_vmscan_memcg_reclaim_end trace event (upstream's: one
 * event a try_to_free_mem_cgroup_pages() call, "nr_reclaimed=N").
 *
 * Why: a charge over the limit reclaims and retries for as long as a
 * round frees something; in 6.12, after its first round (then it drains
 * the per-CPU stocks), it retries MAX_RECLAIM_RETRIES (16) times on rounds
 * that free nothing and calls the OOM killer on the 17th: 18 fruitless
 * rounds in a row when none frees anything.  The longest run of fruitless
 * rounds in a row one task met is what the trace shows of that (rounds
 * that free something do not give a charge its retries back, so a
 * charge's fruitless rounds need not be in a row).  A task is its
 * pid; the rounds of pids past MEMCG_RECLAIM_MAX_TASKS are counted but
 * not followed in a run.
 */
#ifndef RECLAIMLAB_MEMCG_RECLAIM_H
#define RECLAIMLAB_MEMCG_RECLAIM_H

#include <stdio.h>

#define MEMCG_RECLAIM_EVENT	"mm_vmscan_memcg_reclaim_end"
#define MEMCG_RECLAIM_MAX_TASKS	64

struct memcg_reclaim_task {
	int pid;
	unsigned long run;	/* fruitless rounds in a row, now */
};

struct memcg_reclaim_stats {
	unsigned long rounds, fruitless;
	unsigned long long reclaimed;	/* pages, summed over the rounds */
	unsigned long run_max;		/* the longest run of one task */
	struct memcg_reclaim_task tasks[MEMCG_RECLAIM_MAX_TASKS];
	size_t ntasks;
	unsigned long untracked;	/* rounds of tasks past the table */
};

void memcg_reclaim_init(struct memcg_reclaim_stats *m);
/* An event's fields ("nr_reclaimed=N"): 0 and *nr, or -1 if bad. */
int memcg_reclaim_parse(const char *fields, unsigned long *nr);
/* Counts one round of task pid that reclaimed nr pages. */
void memcg_reclaim_add(struct memcg_reclaim_stats *m, int pid, unsigned long nr);
/*
 * "memcg_reclaim.NAME<TAB>value" rows (tsv) or "memcg_reclaim.NAME value"
 * lines: rounds, fruitless, fruitless_share, reclaimed_pages,
 * fruitless_run_max (untracked_rounds when some were); nothing when no
 * round was seen.
 */
void memcg_reclaim_print(FILE *f, int tsv, const struct memcg_reclaim_stats *m);

#endif
