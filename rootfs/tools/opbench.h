/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rl-opbench: the cost of a few operations a kernel's clock must charge
 * (a null system call, a 1 KiB write into the page cache, a minor page
 * fault, fork + exit + wait), timed with CLOCK_MONOTONIC.  Run natively and
 * in a guest, it shows what the guest's clock makes of each.
 */
#ifndef RECLAIMLAB_OPBENCH_H
#define RECLAIMLAB_OPBENCH_H

#include <stdbool.h>
#include <stdint.h>

enum rl_op {
	RL_OP_NULL_SYSCALL,
	RL_OP_WRITE_1K,
	RL_OP_MINOR_FAULT,
	RL_OP_FORK_EXIT_WAIT,
	RL_NR_OPS,
};

/* "null_syscall", ...; NULL for an unknown op. */
const char *rl_op_name(enum rl_op op);

/* The op of that name; false if there is none. */
bool rl_op_by_name(const char *name, enum rl_op *op);

/* The names of all ops, space-separated, for error messages. */
const char *rl_op_names(void);

/*
 * Run op n times (write_1k writes into a file it makes in dir) and set
 * *ns to the nanoseconds all n took.  0, or an errno value.
 */
int rl_op_run(enum rl_op op, uint64_t n, const char *dir, uint64_t *ns);

#endif
