/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal unit-test helpers for reclaimlab's C tools.
 *
 * A test is written TEST(name) { ... } and registers itself: the macro
 * puts a pointer to it in the check_tests section, and main(), defined
 * here, runs every test of the binary in the order of the file.  Each test
 * prints one "ok"/"not ok" line; tests/run-tests.sh counts them.
 */
#ifndef RECLAIMLAB_CHECK_H
#define RECLAIMLAB_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures_in_test;

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

struct check_test {
	const char *name;
	void (*fn)(void);
	int line;
};

/*
 * The linker gathers the entries of every TEST() in section check_tests
 * and defines __start_/__stop_check_tests; the compiler may emit them in
 * any order, so main() sorts them by line.
 */
#define TEST(fn)                                                         \
	static void fn(void);                                            \
	static const struct check_test check_entry_##fn                  \
		__attribute__((used, section("check_tests"),             \
			       aligned(sizeof(void *)))) = { #fn, fn, __LINE__ }; \
	static void fn(void)

extern const struct check_test __start_check_tests[];
extern const struct check_test __stop_check_tests[];

static int check_by_line(const void *a, const void *b)
{
	const struct check_test *x = *(const struct check_test *const *)a;
	const struct check_test *y = *(const struct check_test *const *)b;

	return x->line - y->line;
}

int main(void)
{
	static const struct check_test *order[1024];
	const struct check_test *t;
	size_t i, n = 0;
	int passed = 0, failed = 0;

	for (t = __start_check_tests; t < __stop_check_tests; t++) {
		if (n == sizeof(order) / sizeof(order[0])) {
			printf("not ok - more tests than check.h can order\n");
			return 1;
		}
		order[n++] = t;
	}
	qsort(order, n, sizeof(order[0]), check_by_line);
	for (i = 0; i < n; i++) {
		t = order[i];
		check_failures_in_test = 0;
		t->fn();
		if (check_failures_in_test) {
			printf("not ok - %s\n", t->name);
			failed++;
		} else {
			printf("ok - %s\n", t->name);
			passed++;
		}
	}
	if (passed + failed == 0) {
		printf("not ok - no tests registered\n");
		return 1;
	}
	return failed ? 1 : 0;
}

#endif
