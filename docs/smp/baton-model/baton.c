// SPDX-License-Identifier: GPL-2.0
/*
 * baton: a user-space model of deterministic multi-CPU execution under a
 * modelled clock (docs/smp.md).  An experiment, not part of the lab.
 *
 * Two virtual CPUs share a dirty-page counter: vCPU 0 is a writer that
 * dirties one page per step and throttles (sleeps 200 us of modelled time)
 * above a limit; vCPU 1 is a flusher that idles until the writer wakes it
 * with an IPI above a background threshold and then cleans up to 16 pages
 * per step.  Each step costs modelled nanoseconds drawn from the vCPU's own
 * seeded generator and burns host CPU in proportion, as UML's emulation
 * does.  The end of each step is a settlement point.  Every shared action
 * goes into a log whose FNV-1a hash is printed.
 *
 * Modes:
 *   baton  one host thread per vCPU; one baton (mutex + condition
 *          variables), handed at each settlement point to the vCPU whose
 *          modelled clock is lowest (ties: lowest id); idle vCPUs take part
 *          at the time of their next event (timer or IPI)
 *   coro   the same scheduling decisions, every vCPU a ucontext on one host
 *          thread (a switch is a swapcontext, no host wakeup)
 *   free   one host thread per vCPU running at once as upstream's SMP does,
 *          the counter under a mutex, wakeups by condition variables; each
 *          vCPU's clock is its own work, a wakee's moved to the waker's
 *          (Lamport), so the log depends on the host's interleaving
 *
 * Usage: baton MODE [PAGES [SEED]]
 * Prints one line: mode, hash, log entries, baton handoffs, modelled ns,
 * wall ns, CPU ns of the process (user + system) and CPU ns of the steps'
 * work alone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <ucontext.h>

#define NCPU		2
#define BG_THRESH	64	/* dirty pages: wake the flusher */
#define DIRTY_LIMIT	128	/* dirty pages: throttle the writer */
#define THROTTLE_NS	200000
#define IPI_NS		1000	/* modelled latency of an IPI */
#define TICK_NS		1000000	/* HZ=1000 */
#define NEVER		UINT64_MAX
#define CORO_STACK	(256 * 1024)

enum mode { MODE_BATON, MODE_CORO, MODE_FREE };
enum state { RUNNABLE, IDLE, DONE };

struct vcpu {
	int id;
	uint64_t t;		/* modelled clock, ns */
	uint64_t wake_at;	/* next event of an idle vCPU */
	uint64_t next_tick;
	enum state state;
	uint64_t rng;
	pthread_t thread;
	pthread_cond_t turn;	/* baton: my turn; free: woken */
	ucontext_t ctx;
	char *stack;
};

static struct {
	enum mode mode;
	struct vcpu v[NCPU];
	int owner;		/* baton, coro: who runs */
	pthread_mutex_t lock;	/* baton: the baton; free: the counter */
	pthread_cond_t ended;	/* baton: the last vCPU handed it to nobody */
	ucontext_t main_ctx;
	long pages;
	long dirty, written, cleaned;
	int writer_done;
	uint64_t ipi_t, clean_t;	/* free: the waker's clock, for the wakee */
	uint64_t hash;
	long entries, handoffs;
	uint64_t work_ns;	/* host ns spent in step work */
	volatile uint64_t sink;
} S;

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/* user + system CPU time of the process */
static uint64_t cpu_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) *
		       1000000000u +
	       ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000u;
}

static uint64_t next_rand(struct vcpu *v)
{
	/* xorshift64 */
	v->rng ^= v->rng << 13;
	v->rng ^= v->rng >> 7;
	v->rng ^= v->rng << 17;
	return v->rng;
}

static void log_entry(const struct vcpu *v, int op, long arg)
{
	uint64_t item[4] = { (uint64_t)v->id, v->t, (uint64_t)op, (uint64_t)arg };
	const unsigned char *p = (const unsigned char *)item;
	size_t i;

	for (i = 0; i < sizeof(item); i++) {
		S.hash ^= p[i];
		S.hash *= 1099511628211u;
	}
	S.entries++;
}

enum { OP_WRITE, OP_CLEAN, OP_IPI, OP_THROTTLE, OP_WAKE, OP_TICK };

/*
 * Host work for a step of @ns modelled nanoseconds, its CPU time counted;
 * the clock moves too.
 */
static void step_work(struct vcpu *v, uint64_t ns)
{
	uint64_t start = clock_ns(CLOCK_THREAD_CPUTIME_ID), i;

	for (i = 0; i < ns / 2; i++)
		S.sink += i;
	__atomic_add_fetch(&S.work_ns, clock_ns(CLOCK_THREAD_CPUTIME_ID) - start,
			   __ATOMIC_RELAXED);
	v->t += ns;
}

/* The per-CPU tick: one log entry per tick the clock passed while busy. */
static void ticks(struct vcpu *v)
{
	while (v->next_tick <= v->t) {
		log_entry(v, OP_TICK, 0);
		v->next_tick += TICK_NS;
	}
}

/* baton and coro: who runs next, or -1 if nobody can */
static int pick_next(void)
{
	uint64_t best = NEVER;
	int i, who = -1;

	for (i = 0; i < NCPU; i++) {
		struct vcpu *v = &S.v[i];
		uint64_t key;

		if (v->state == RUNNABLE)
			key = v->t;
		else if (v->state == IDLE && v->wake_at != NEVER)
			key = v->wake_at > v->t ? v->wake_at : v->t;
		else
			continue;
		if (key < best) {
			best = key;
			who = i;
		}
	}
	return who;
}

/* Make @who the owner; an idle vCPU wakes at its event's time. */
static void grant(int who)
{
	struct vcpu *v = &S.v[who];

	if (v->state == IDLE) {
		if (v->wake_at > v->t)
			v->t = v->wake_at;
		v->wake_at = NEVER;
		v->state = RUNNABLE;
		v->next_tick = (v->t / TICK_NS + 1) * TICK_NS;	/* NO_HZ idle */
		log_entry(v, OP_WAKE, 0);
	}
	S.owner = who;
}

/*
 * A settlement point: the vCPU's work so far is charged (its clock has
 * moved), and the baton goes to the vCPU with the lowest clock.
 */
static void settle(struct vcpu *v)
{
	int next;

	if (S.mode == MODE_FREE) {
		pthread_mutex_lock(&S.lock);
		ticks(v);
		pthread_mutex_unlock(&S.lock);
		return;
	}
	ticks(v);
	next = pick_next();
	if (next == v->id)
		return;
	if (next < 0) {
		if (v->state != DONE) {
			fprintf(stderr, "baton: no vCPU can run (deadlock)\n");
			exit(2);
		}
		S.owner = -1;
	} else {
		grant(next);
	}
	S.handoffs++;
	if (S.mode == MODE_CORO) {
		ucontext_t *to = next < 0 ? &S.main_ctx : &S.v[next].ctx;

		if (swapcontext(&v->ctx, to) < 0) {
			perror("baton: swapcontext");
			exit(2);
		}
		return;
	}
	if (next >= 0)
		pthread_cond_signal(&S.v[next].turn);
	else
		pthread_cond_signal(&S.ended);
	while (v->state != DONE && S.owner != v->id)
		pthread_cond_wait(&v->turn, &S.lock);
}

/* An event for idle @to at @when (modelled). */
static void post_event(struct vcpu *to, uint64_t when)
{
	if (to->state == IDLE && when < to->wake_at)
		to->wake_at = when;
}

static void idle_until_event(struct vcpu *v)
{
	v->state = IDLE;
	settle(v);
}

/*
 * The writer sends the idle flusher an IPI: a free thread is signalled and
 * told when the IPI lands, a baton vCPU gets an event at that time.
 * Called with S.lock held in MODE_FREE.
 */
static void wake_flusher(struct vcpu *v, struct vcpu *flusher)
{
	log_entry(v, OP_IPI, 1);
	if (S.mode == MODE_FREE) {
		flusher->state = RUNNABLE;
		S.ipi_t = v->t + IPI_NS;
		pthread_cond_signal(&flusher->turn);
	} else {
		post_event(flusher, v->t + IPI_NS);
	}
}

static void writer(struct vcpu *v)
{
	struct vcpu *flusher = &S.v[1];

	while (S.written < S.pages) {
		step_work(v, 2000 + next_rand(v) % 3000);
		if (S.mode == MODE_FREE)
			pthread_mutex_lock(&S.lock);
		S.dirty++;
		S.written++;
		log_entry(v, OP_WRITE, S.dirty);
		if (S.dirty >= BG_THRESH && flusher->state == IDLE)
			wake_flusher(v, flusher);
		if (S.dirty >= DIRTY_LIMIT) {
			log_entry(v, OP_THROTTLE, S.dirty);
			if (S.mode == MODE_FREE) {
				while (S.dirty >= DIRTY_LIMIT)
					pthread_cond_wait(&v->turn, &S.lock);
				if (v->t < S.clean_t)
					v->t = S.clean_t;
			} else {
				v->wake_at = v->t + THROTTLE_NS;
				idle_until_event(v);
				continue;
			}
		}
		if (S.mode == MODE_FREE)
			pthread_mutex_unlock(&S.lock);
		settle(v);
	}
	if (S.mode == MODE_FREE)
		pthread_mutex_lock(&S.lock);
	S.writer_done = 1;
	if (flusher->state == IDLE)
		wake_flusher(v, flusher);
	v->state = DONE;
	if (S.mode == MODE_FREE)
		pthread_mutex_unlock(&S.lock);
	settle(v);
}

static void flusher(struct vcpu *v)
{
	struct vcpu *w = &S.v[0];

	for (;;) {
		long n;

		if (S.mode == MODE_FREE) {
			pthread_mutex_lock(&S.lock);
			while (S.dirty == 0 && !S.writer_done) {
				v->state = IDLE;
				pthread_cond_wait(&v->turn, &S.lock);
				if (v->t < S.ipi_t)
					v->t = S.ipi_t;
			}
			v->state = RUNNABLE;
			if (S.dirty == 0) {
				v->state = DONE;
				pthread_mutex_unlock(&S.lock);
				return;
			}
			pthread_mutex_unlock(&S.lock);
		} else if (S.dirty == 0) {
			if (S.writer_done) {
				v->state = DONE;
				settle(v);
				return;
			}
			idle_until_event(v);
			continue;
		}
		step_work(v, 4000 + next_rand(v) % 4000);
		if (S.mode == MODE_FREE)
			pthread_mutex_lock(&S.lock);
		n = S.dirty < 16 ? S.dirty : 16;
		S.dirty -= n;
		S.cleaned += n;
		log_entry(v, OP_CLEAN, n);
		if (S.mode == MODE_FREE) {
			S.clean_t = v->t;
			if (S.dirty < DIRTY_LIMIT)
				pthread_cond_signal(&w->turn);
			pthread_mutex_unlock(&S.lock);
		}
		settle(v);
	}
}

static void run_vcpu(struct vcpu *v)
{
	if (v->id == 0)
		writer(v);
	else
		flusher(v);
}

static void *thread_fn(void *arg)
{
	struct vcpu *v = arg;

	if (S.mode == MODE_BATON) {
		pthread_mutex_lock(&S.lock);
		while (S.owner != v->id)
			pthread_cond_wait(&v->turn, &S.lock);
		run_vcpu(v);
		pthread_mutex_unlock(&S.lock);
	} else {
		run_vcpu(v);
	}
	return NULL;
}

static void coro_fn(int id)
{
	run_vcpu(&S.v[id]);
	/* settle() of a DONE vCPU never returns here unless all are done */
	setcontext(&S.main_ctx);
}

static void usage(void)
{
	fprintf(stderr, "usage: baton MODE [PAGES [SEED]] (MODE: baton, coro or free; PAGES 1..10000000)\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static unsigned long long seed = 1;
	uint64_t start, cpu_start, modelled;
	char *end;
	int i;

	if (argc < 2 || argc > 4)
		usage();
	if (!strcmp(argv[1], "baton"))
		S.mode = MODE_BATON;
	else if (!strcmp(argv[1], "coro"))
		S.mode = MODE_CORO;
	else if (!strcmp(argv[1], "free"))
		S.mode = MODE_FREE;
	else {
		fprintf(stderr, "baton: unknown mode '%s' (valid: baton coro free)\n", argv[1]);
		return 2;
	}
	S.pages = 20000;
	if (argc > 2) {
		errno = 0;
		S.pages = strtol(argv[2], &end, 10);
		if (errno || *end || S.pages < 1 || S.pages > 10000000) {
			fprintf(stderr, "baton: bad PAGES '%s' (valid: 1..10000000)\n", argv[2]);
			return 2;
		}
	}
	if (argc > 3) {
		errno = 0;
		seed = strtoull(argv[3], &end, 10);
		if (errno || *end || seed == 0) {
			fprintf(stderr, "baton: bad SEED '%s' (valid: 1..2^64-1)\n", argv[3]);
			return 2;
		}
	}
	S.hash = 14695981039346656037u;
	pthread_mutex_init(&S.lock, NULL);
	pthread_cond_init(&S.ended, NULL);
	for (i = 0; i < NCPU; i++) {
		struct vcpu *v = &S.v[i];

		v->id = i;
		v->wake_at = NEVER;
		v->next_tick = TICK_NS;
		v->rng = seed * 2654435761u + (uint64_t)i + 1;
		pthread_cond_init(&v->turn, NULL);
	}
	S.v[1].state = IDLE;	/* the flusher waits for work */
	S.owner = 0;

	start = now_ns();
	cpu_start = cpu_ns();
	if (S.mode == MODE_CORO) {
		for (i = 0; i < NCPU; i++) {
			struct vcpu *v = &S.v[i];

			v->stack = malloc(CORO_STACK);
			if (!v->stack || getcontext(&v->ctx) < 0) {
				perror("baton: coroutine");
				return 2;
			}
			v->ctx.uc_stack.ss_sp = v->stack;
			v->ctx.uc_stack.ss_size = CORO_STACK;
			v->ctx.uc_link = &S.main_ctx;
			makecontext(&v->ctx, (void (*)(void))coro_fn, 1, i);
		}
		if (swapcontext(&S.main_ctx, &S.v[0].ctx) < 0) {
			perror("baton: swapcontext");
			return 2;
		}
	} else {
		for (i = 0; i < NCPU; i++)
			if (pthread_create(&S.v[i].thread, NULL, thread_fn, &S.v[i])) {
				fprintf(stderr, "baton: pthread_create failed\n");
				return 2;
			}
		if (S.mode == MODE_BATON) {
			/* whoever ends last hands the baton to nobody */
			pthread_mutex_lock(&S.lock);
			while (S.owner != -1)
				pthread_cond_wait(&S.ended, &S.lock);
			pthread_mutex_unlock(&S.lock);
		}
		for (i = 0; i < NCPU; i++)
			pthread_join(S.v[i].thread, NULL);
	}
	modelled = S.v[0].t > S.v[1].t ? S.v[0].t : S.v[1].t;
	printf("mode=%s pages=%ld seed=%llu hash=%016" PRIx64 " entries=%ld handoffs=%ld modelled_ns=%" PRIu64 " wall_ns=%" PRIu64 " cpu_ns=%" PRIu64 " work_ns=%" PRIu64 "\n",
	       argv[1], S.pages, seed, S.hash, S.entries, S.handoffs, modelled,
	       now_ns() - start, cpu_ns() - cpu_start, S.work_ns);
	if (S.written != S.pages || S.cleaned != S.pages) {
		fprintf(stderr, "baton: wrote %ld and cleaned %ld of %ld pages\n",
			S.written, S.cleaned, S.pages);
		return 1;
	}
	for (i = 0; i < NCPU; i++) {
		pthread_cond_destroy(&S.v[i].turn);
		free(S.v[i].stack);
	}
	pthread_cond_destroy(&S.ended);
	pthread_mutex_destroy(&S.lock);
	return 0;
}
