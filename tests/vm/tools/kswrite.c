// SPDX-License-Identifier: GPL-2.0
/*
 * kswrite: precise writes for the VM scenarios, which busybox sh cannot
 * make (an embedded NUL, one command split over two write() calls, a
 * write at an offset, a write of 0 bytes or of 64 KiB, a write as an
 * unprivileged user).
 *
 *   kswrite [-u UID] [-o OFFSET] [-f NTH] FILE DATA...
 *
 * FILE is opened once (O_WRONLY) as UID if given, the offset set with
 * lseek(), then each DATA is one write().  DATA understands \0, \n, \r, \t,
 * \\ and \xHH; "*N:C" is N bytes of the character C.  Prints one word per
 * write on one line: OK (all bytes taken) or the errno name; a failed
 * open prints "open:ERRNO".  Exit status 0 unless the usage is wrong.
 *
 * -f NTH arms the kernel's systematic fault injection for the writes
 * alone (Documentation/fault-injection: /proc/thread-self/fail-nth, after
 * the open): the NTH fault-injection point they pass fails (an allocation
 * under failslab or fail_page_alloc, a function under fail_function).
 * Then " injected" or " not-injected LEFT" ends the line: whether the
 * writes passed NTH points (LEFT: by how many they fell short), so a caller
 * can count the points of a write with a large NTH, then fail each.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *ks_errname(int e)
{
	static const struct { int e; const char *name; } names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { E2BIG, "E2BIG" },
		{ ENOMEM, "ENOMEM" }, { EACCES, "EACCES" }, { EFAULT, "EFAULT" },
		{ EBUSY, "EBUSY" }, { EEXIST, "EEXIST" }, { EINVAL, "EINVAL" },
		{ ENOSPC, "ENOSPC" }, { ERANGE, "ERANGE" }, { ESPIPE, "ESPIPE" },
		{ EBADF, "EBADF" }, { ENODEV, "ENODEV" }, { EIO, "EIO" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { 524, "ENOTSUPP" },
	};
	static char buf[16];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			return names[i].name;
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

/* Decode @s into a new buffer; its length in *len. */
static char *ks_decode(const char *s, size_t *len)
{
	size_t n = 0;
	char *buf;

	if (s[0] == '*' && strchr(s, ':')) {
		char *end;
		unsigned long rep = strtoul(s + 1, &end, 10);

		if (*end != ':' || !end[1])
			return NULL;
		buf = malloc(rep ? rep : 1);
		if (buf)
			memset(buf, end[1], rep);
		*len = rep;
		return buf;
	}
	buf = malloc(strlen(s) + 1);
	if (!buf)
		return NULL;
	while (*s) {
		if (*s != '\\' || !s[1]) {
			buf[n++] = *s++;
			continue;
		}
		s++;
		switch (*s) {
		case '0': buf[n++] = '\0'; s++; break;
		case 'n': buf[n++] = '\n'; s++; break;
		case 't': buf[n++] = '\t'; s++; break;
		case 'r': buf[n++] = '\r'; s++; break;
		case 'x': {
			char hex[3] = { 0 };

			memcpy(hex, s + 1, s[1] && s[2] ? 2 : 1);
			buf[n++] = (char)strtoul(hex, NULL, 16);
			s += 1 + strlen(hex);
			break;
		}
		default: buf[n++] = *s++; break;
		}
	}
	*len = n;
	return buf;
}

/* Set this thread's fail-nth to @nth; -1 if it cannot. */
static int ks_fail_nth_set(int fd, long nth)
{
	char num[24];
	int len = snprintf(num, sizeof(num), "%ld", nth);

	return pwrite(fd, num, len, 0) == len ? 0 : -1;
}

/* This thread's fail-nth now: 0 once the armed fault was injected. */
static long ks_fail_nth_get(int fd)
{
	char num[24] = "";
	ssize_t n = pread(fd, num, sizeof(num) - 1, 0);

	return n > 0 ? strtol(num, NULL, 10) : -1;
}

int main(int argc, char **argv)
{
	long uid = -1, off = 0, nth = 0;
	int opt, fd, i, nth_fd = -1;

	while ((opt = getopt(argc, argv, "u:o:f:")) != -1) {
		switch (opt) {
		case 'u': uid = strtol(optarg, NULL, 10); break;
		case 'o': off = strtol(optarg, NULL, 10); break;
		case 'f': nth = strtol(optarg, NULL, 10); break;
		default: goto usage;
		}
	}
	if (optind + 1 >= argc)
		goto usage;
	if (uid >= 0 && (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
			 setresuid(uid, uid, uid))) {
		perror("kswrite: setresuid");
		return 2;
	}
	fd = open(argv[optind], O_WRONLY);
	if (fd < 0) {
		printf("open:%s\n", ks_errname(errno));
		return 0;
	}
	if (off && lseek(fd, off, SEEK_SET) < 0) {
		printf("lseek:%s\n", ks_errname(errno));
		return 0;
	}
	if (nth > 0) {
		nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
		if (nth_fd < 0 || ks_fail_nth_set(nth_fd, nth)) {
			printf("fail-nth:%s\n", ks_errname(errno));
			return 0;
		}
	}
	for (i = optind + 1; i < argc; i++) {
		size_t len;
		char *buf = ks_decode(argv[i], &len);
		ssize_t n;

		if (!buf)
			goto usage;
		n = write(fd, buf, len);
		printf("%s%s", i > optind + 1 ? " " : "",
		       n < 0 ? ks_errname(errno) : (size_t)n == len ? "OK" : "SHORT");
		free(buf);
	}
	if (nth_fd >= 0) {
		long left = ks_fail_nth_get(nth_fd);

		ks_fail_nth_set(nth_fd, 0);	/* disarm before anything else */
		if (left == 0)
			printf(" injected");
		else
			printf(" not-injected %ld", left);
		close(nth_fd);
	}
	printf("\n");
	close(fd);
	return 0;
usage:
	fprintf(stderr, "usage: kswrite [-u UID] [-o OFFSET] [-f NTH] FILE DATA...\n");
	return 2;
}
