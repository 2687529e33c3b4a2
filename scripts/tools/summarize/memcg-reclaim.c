// SPDX-License-Identifier: GPL-2.0
/* memcg-reclaim: a memory cgroup's reclaim rounds (see memcg-reclaim.h). */
#include "summarize/memcg-reclaim.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

void memcg_reclaim_init(struct memcg_reclaim_stats *m)
{
	memset(m, 0, sizeof(*m));
}

int memcg_reclaim_parse(const char *fields, unsigned long *nr)
{
	static const char key[] = "nr_reclaimed=";
	const char *p = fields;
	char *end;

	/* the key at the start or after a space: not the tail of another */
	while ((p = strstr(p, key)) && p != fields && p[-1] != ' ' && p[-1] != '\t')
		p++;
	if (!p || p[sizeof(key) - 1] < '0' || p[sizeof(key) - 1] > '9')
		return -1;
	errno = 0;
	*nr = strtoul(p + sizeof(key) - 1, &end, 10);
	/* the line's end, as a trace line is read, or the next field */
	if (errno || (*end && !strchr(" \t\r\n", *end)))
		return -1;
	return 0;
}

static struct memcg_reclaim_task *task_of(struct memcg_reclaim_stats *m, int pid)
{
	size_t i;

	for (i = 0; i < m->ntasks; i++)
		if (m->tasks[i].pid == pid)
			return &m->tasks[i];
	if (m->ntasks == MEMCG_RECLAIM_MAX_TASKS)
		return NULL;
	m->tasks[m->ntasks].pid = pid;
	m->tasks[m->ntasks].run = 0;
	return &m->tasks[m->ntasks++];
}

void memcg_reclaim_add(struct memcg_reclaim_stats *m, int pid, unsigned long nr)
{
	struct memcg_reclaim_task *t = task_of(m, pid);

	m->rounds++;
	/* a guest's number: saturate rather than wrap */
	m->reclaimed = nr > ULLONG_MAX - m->reclaimed ? ULLONG_MAX : m->reclaimed + nr;
	if (nr == 0)
		m->fruitless++;
	if (!t) {
		m->untracked++;
		return;
	}
	t->run = nr ? 0 : t->run + 1;
	if (t->run > m->run_max)
		m->run_max = t->run;
}

void memcg_reclaim_print(FILE *f, int tsv, const struct memcg_reclaim_stats *m)
{
	const char sep = tsv ? '\t' : ' ';

	if (!m->rounds)
		return;
	fprintf(f, "memcg_reclaim.rounds%c%lu\n", sep, m->rounds);
	fprintf(f, "memcg_reclaim.fruitless%c%lu\n", sep, m->fruitless);
	fprintf(f, "memcg_reclaim.fruitless_share%c%.4f\n", sep,
		(double)m->fruitless / m->rounds);
	fprintf(f, "memcg_reclaim.reclaimed_pages%c%llu\n", sep, m->reclaimed);
	fprintf(f, "memcg_reclaim.fruitless_run_max%c%lu\n", sep, m->run_max);
	if (m->untracked)
		fprintf(f, "memcg_reclaim.untracked_rounds%c%lu\n", sep, m->untracked);
}
