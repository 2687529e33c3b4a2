/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal unit-test helpers for reclaimlab's C tools.
 *
 * Each test binary defines test functions, lists them in main() with RUN(),
 * and returns check_summary().  Every RUN() prints one "ok"/"not ok" line;
 * tests/run-tests.sh counts them.
 */
#ifndef RECLAIMLAB_CHECK_H
#define RECLAIMLAB_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_failures_in_test;
static int check_tests_passed;
static int check_tests_failed;

#define CHECK(cond)                                                      \
	do {                                                             \
		if (!(cond)) {                                           \
			fprintf(stderr, "  %s:%d: CHECK(%s) failed\n",   \
				__FILE__, __LINE__, #cond);              \
			check_failures_in_test++;                        \
		}                                                        \
	} while (0)

#define CHECK_EQ_INT(a, b)                                                   \
	do {                                                                 \
		long long check_a_ = (long long)(a), check_b_ = (long long)(b); \
		if (check_a_ != check_b_) {                                  \
			fprintf(stderr, "  %s:%d: %s == %lld, expected %lld\n", \
				__FILE__, __LINE__, #a, check_a_, check_b_); \
			check_failures_in_test++;                            \
		}                                                            \
	} while (0)

#define CHECK_NEAR(a, b, tol)                                                \
	do {                                                                 \
		double check_a_ = (a), check_b_ = (b);                       \
		if (!(fabs(check_a_ - check_b_) <= (tol))) {                 \
			fprintf(stderr, "  %s:%d: %s == %g, expected %g +- %g\n", \
				__FILE__, __LINE__, #a, check_a_, check_b_,  \
				(double)(tol));                              \
			check_failures_in_test++;                            \
		}                                                            \
	} while (0)

#define CHECK_STR(a, b)                                                      \
	do {                                                                 \
		const char *check_a_ = (a), *check_b_ = (b);                 \
		if (!check_a_ || strcmp(check_a_, check_b_) != 0) {          \
			fprintf(stderr, "  %s:%d: %s == \"%s\", expected \"%s\"\n", \
				__FILE__, __LINE__, #a,                      \
				check_a_ ? check_a_ : "(null)", check_b_);   \
			check_failures_in_test++;                            \
		}                                                            \
	} while (0)

#define RUN(fn)                                                          \
	do {                                                             \
		check_failures_in_test = 0;                              \
		fn();                                                    \
		if (check_failures_in_test) {                            \
			printf("not ok - %s\n", #fn);                    \
			check_tests_failed++;                            \
		} else {                                                 \
			printf("ok - %s\n", #fn);                        \
			check_tests_passed++;                            \
		}                                                        \
	} while (0)

static inline int check_summary(void)
{
	return check_tests_failed ? 1 : 0;
}

#endif
