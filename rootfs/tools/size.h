/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Size arguments shared by the tools: "123", "4k", "16M", "6G" (powers of
 * 1024) into bytes.
 */
#ifndef RECLAIMLAB_SIZE_H
#define RECLAIMLAB_SIZE_H

#include <stdbool.h>
#include <stdint.h>

enum rl_size_err {
	RL_SIZE_OK = 0,
	RL_SIZE_GARBAGE,	/* empty, sign, junk after the number, bad suffix */
	RL_SIZE_OVERFLOW,	/* does not fit an off_t */
	RL_SIZE_ZERO,
};

/* The valid forms, for error messages. */
#define RL_SIZE_FORMS "bytes, or a number with suffix k, M, G"

/* Parse s into *out (left alone on error). */
enum rl_size_err rl_parse_size(const char *s, uint64_t *out);

/* "not a size", "too large" or "must not be zero". */
const char *rl_size_strerror(enum rl_size_err e);

/* A plain unsigned decimal number, no sign, no suffix; false if not. */
bool rl_parse_u64(const char *s, uint64_t *out);

#endif
