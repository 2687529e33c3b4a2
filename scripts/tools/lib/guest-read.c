// SPDX-License-Identifier: GPL-2.0
/* Reading a file a guest wrote; see guest-read.h. */
#include "lib/guest-read.h"
#include "lib/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a file of st_mode is, for a refusal: "a fifo", "a directory", ... */
static const char *guest_file_kind(unsigned int st_mode)
{
	if (S_ISREG(st_mode))
		return "a regular file";
	if (S_ISLNK(st_mode))
		return "a symbolic link";
	if (S_ISFIFO(st_mode))
		return "a fifo";
	if (S_ISDIR(st_mode))
		return "a directory";
	if (S_ISCHR(st_mode))
		return "a character device";
	if (S_ISBLK(st_mode))
		return "a block device";
	if (S_ISSOCK(st_mode))
		return "a socket";
	return "not a regular file";
}

/* cli_fail() that keeps errno e for the caller */
static int refuse(int e, char *err, size_t errlen, const char *path,
		  const char *why, const char *what)
{
	cli_fail(err, errlen, "%s: %s%s", path, why, what);
	errno = e;
	return -1;
}

/*
 * Opens path read-only for a guest file of at most max bytes; the fd,
 * or -1 (see guest-read.h).  *size gets its size if size is not NULL.
 */
static int guest_open(const char *path, size_t max, size_t *size, char *err,
		      size_t errlen)
{
	struct stat lst, st;
	int fd, e;

	/* lstat first: a device node or a fifo is not even opened */
	if (lstat(path, &lst) < 0) {
		e = errno;
		return refuse(e, err, errlen, path, "", strerror(e));
	}
	if (!S_ISREG(lst.st_mode))
		return refuse(EINVAL, err, errlen, path, "refused: it is ",
			      guest_file_kind(lst.st_mode));
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		e = errno;
		if (e == ELOOP)
			return refuse(EINVAL, err, errlen, path, "refused: it is ",
				      "a symbolic link");
		return refuse(e, err, errlen, path, "", strerror(e));
	}
	if (fstat(fd, &st) < 0) {
		e = errno;
		close(fd);
		return refuse(e, err, errlen, path, "", strerror(e));
	}
	/* what was opened is what lstat saw: not swapped in between */
	if (!S_ISREG(st.st_mode) || st.st_dev != lst.st_dev || st.st_ino != lst.st_ino) {
		close(fd);
		return refuse(EINVAL, err, errlen, path, "refused: it is ",
			      S_ISREG(st.st_mode) ? "a file replaced while it was opened" :
			      guest_file_kind(st.st_mode));
	}
	if (st.st_size < 0 || (unsigned long long)st.st_size > max) {
		close(fd);
		cli_fail(err, errlen, "%s: refused: %lld bytes, more than the %zu a guest's file of this kind may have",
			 path, (long long)st.st_size, max);
		errno = EFBIG;
		return -1;
	}
	/*
	 * A regular file: blocking reads cannot hang on it, and a tracefs
	 * file such as trace_pipe (regular, size 0) wants them.
	 */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (size)
		*size = (size_t)st.st_size;
	return fd;
}

char *guest_read_file(const char *path, size_t max, size_t *len, char *err,
		      size_t errlen)
{
	size_t size, n = 0;
	char *buf;
	int fd = guest_open(path, max, &size, err, errlen), e;

	if (fd < 0)
		return NULL;
	buf = malloc(size + 1);
	if (!buf) {
		close(fd);
		refuse(ENOMEM, err, errlen, path, "", "out of memory");
		return NULL;
	}
	/* no more than its size when opened, which is at most max */
	while (n < size) {
		ssize_t got = read(fd, buf + n, size - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			e = errno;
			free(buf);
			close(fd);
			refuse(e, err, errlen, path, "", strerror(e));
			return NULL;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

struct bounded {
	int fd;
	size_t left;
};

static ssize_t bounded_read(void *cookie, char *buf, size_t size)
{
	struct bounded *b = cookie;
	ssize_t got;

	if (size > b->left)
		size = b->left;
	if (!size)
		return 0;
	do
		got = read(b->fd, buf, size);
	while (got < 0 && errno == EINTR);
	if (got > 0)
		b->left -= (size_t)got;
	return got;
}

static int bounded_close(void *cookie)
{
	struct bounded *b = cookie;
	int rc = close(b->fd);

	free(b);
	return rc;
}

FILE *guest_fopen(const char *path, size_t max, char *err, size_t errlen)
{
	static const cookie_io_functions_t io = {
		.read = bounded_read, .close = bounded_close,
	};
	struct bounded *b;
	FILE *f;
	int fd = guest_open(path, max, NULL, err, errlen);

	if (fd < 0)
		return NULL;
	b = malloc(sizeof(*b));
	f = b ? fopencookie(b, "r", io) : NULL;
	if (!f) {
		free(b);
		close(fd);
		refuse(ENOMEM, err, errlen, path, "", "out of memory");
		return NULL;
	}
	b->fd = fd;
	b->left = max;
	return f;
}
