/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aggregate: statistics over the summary rows of a comparison matrix,
 * rl-aggregate's interface.  It is three stages, each its own module:
 *
 *   aggregate-rows.h    reading and joining the rows, the rules they follow
 *   aggregate-stats.h   groups, pairs, bootstrap and Wilson intervals
 *   aggregate-checks.h  the scenarios' checks and their verdicts
 *
 * The caller feeds rows into a set, calls agg_finish() once, then asks for
 * groups, for comparisons of two groups, or evaluates the scenario files'
 * "# Check:" lines.
 */
#ifndef RECLAIMLAB_AGGREGATE_H
#define RECLAIMLAB_AGGREGATE_H

#include "aggregate/aggregate-rows.h"
#include "aggregate/aggregate-stats.h"
#include "aggregate/aggregate-checks.h"

#endif
