// SPDX-License-Identifier: GPL-2.0
#include "opbench.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const names[RL_NR_OPS] = {
	[RL_OP_NULL_SYSCALL] = "null_syscall",
	[RL_OP_WRITE_1K] = "write_1k",
	[RL_OP_MINOR_FAULT] = "minor_fault",
	[RL_OP_FORK_EXIT_WAIT] = "fork_exit_wait",
};

const char *rl_op_name(enum rl_op op)
{
	return (unsigned int)op < RL_NR_OPS ? names[op] : NULL;
}

bool rl_op_by_name(const char *name, enum rl_op *op)
{
	for (int i = 0; i < RL_NR_OPS; i++) {
		if (!strcmp(name, names[i])) {
			*op = (enum rl_op)i;
			return true;
		}
	}
	return false;
}

const char *rl_op_names(void)
{
	return "null_syscall write_1k minor_fault fork_exit_wait";
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int null_syscall(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}

static int write_1k(uint64_t n, const char *dir)
{
	char path[4096], buf[1024];
	int fd, err = 0;

	if (snprintf(path, sizeof(path), "%s/rl-opbench.%d", dir, (int)getpid()) >= (int)sizeof(path))
		return ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return errno;
	memset(buf, 'w', sizeof(buf));
	for (uint64_t i = 0; i < n && !err; i++) {
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			err = errno ? errno : EIO;
	}
	close(fd);
	unlink(path);
	return err;
}

static int minor_fault(uint64_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p;

	p = mmap(NULL, n * (uint64_t)page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return errno;
	for (uint64_t i = 0; i < n; i++)
		p[i * (uint64_t)page] = 1;
	munmap((void *)p, n * (uint64_t)page);
	return 0;
}

static int fork_exit_wait(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		int status;
		pid_t pid = fork();

		if (pid < 0)
			return errno;
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, &status, 0) != pid)
			return errno;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			return ECHILD;
	}
	return 0;
}

int rl_op_run(enum rl_op op, uint64_t n, const char *dir, uint64_t *ns)
{
	uint64_t t0 = now_ns();
	int err;

	switch (op) {
	case RL_OP_NULL_SYSCALL:
		err = null_syscall(n);
		break;
	case RL_OP_WRITE_1K:
		err = write_1k(n, dir);
		break;
	case RL_OP_MINOR_FAULT:
		err = minor_fault(n);
		break;
	case RL_OP_FORK_EXIT_WAIT:
		err = fork_exit_wait(n);
		break;
	default:
		return EINVAL;
	}
	if (!err)
		*ns = now_ns() - t0;
	return err;
}
