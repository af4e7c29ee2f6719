// SPDX-License-Identifier: GPL-2.0
/*
 * ksmix: a mixed workload for the VM sweep (tests/vm/sweep): a little of
 * everything a kernel does for a process, in rounds, for about MS
 * milliseconds (at least one round).
 *
 *   ksmix [-t MS] [-x PROG] DIR...
 *
 * Each round: fork and exec PROG (default /bin/true); anonymous memory
 * mapped, every page touched, unmapped; in each DIR a file written,
 * fsync'ed, read back, mapped shared and touched, unlinked; a pipe and a
 * unix socketpair to a child and back; a loopback TCP connection (lo must
 * be up); a timerfd, an interval timer's SIGALRM and a nanosleep; a signal
 * to a child with a handler (sigaction).  Prints "ksmix: N rounds in MS ms"
 * and exits 0, or names the first step that failed and exits 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/wait.h>

#define PAGE		4096
#define ANON_PAGES	256
#define FILE_BYTES	(64 * 1024)

static const char *prog = "/bin/true";
static char buf[FILE_BYTES], back[FILE_BYTES];
static volatile sig_atomic_t got;
static sigset_t unblocked;	/* SIGALRM and SIGUSR1 come in sigsuspend() only */

static void die(const char *what)
{
	fprintf(stderr, "ksmix: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void on_signal(int sig)
{
	(void)sig;
	got++;
}

static void reap(pid_t pid, const char *what)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		die(what);
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "ksmix: %s: child status 0x%x\n", what, st);
		exit(1);
	}
}

static void do_exec(void)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		execl(prog, prog, (char *)NULL);
		_exit(127);
	}
	reap(pid, "exec");
}

static void do_anon(void)
{
	char *p = mmap(NULL, ANON_PAGES * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int i;

	if (p == MAP_FAILED)
		die("mmap anonymous");
	for (i = 0; i < ANON_PAGES; i++)
		p[i * PAGE] = (char)i;
	if (mprotect(p, PAGE, PROT_READ) || munmap(p, ANON_PAGES * PAGE))
		die("munmap anonymous");
}

static void do_file(const char *dir, int round)
{
	char path[4096];
	char *p;
	int fd, i;

	snprintf(path, sizeof(path), "%s/ksmix.%d.%d", dir, (int)getpid(), round);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die(path);
	memset(buf, 'a' + round % 26, sizeof(buf));
	if (write(fd, buf, sizeof(buf)) != sizeof(buf) || fsync(fd))
		die("write/fsync");
	if (pread(fd, back, sizeof(back), 0) != sizeof(back) ||
	    memcmp(buf, back, sizeof(buf))) {
		errno = EIO;
		die("read back");
	}
	p = mmap(NULL, FILE_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap file");
	for (i = 0; i < FILE_BYTES / PAGE; i++)
		p[i * PAGE]++;
	if (msync(p, FILE_BYTES, MS_SYNC) || munmap(p, FILE_BYTES))
		die("msync/munmap file");
	if (ftruncate(fd, PAGE) || close(fd) || unlink(path))
		die("truncate/close/unlink");
}

/* A child echoes what comes on @in back to @out. */
static void echo_child(int in, int out)
{
	char b[512];
	ssize_t n;

	while ((n = read(in, b, sizeof(b))) > 0)
		if (write(out, b, n) != n)
			_exit(1);
	_exit(n < 0);
}

/*
 * Does @err say the kernel has no sockets of that kind (the small debug
 * kernel of make test-debug is built without networking)?
 */
static int no_net(int err)
{
	return err == ENOSYS || err == EAFNOSUPPORT || err == EPROTONOSUPPORT;
}

static void do_ipc(void)
{
	int to[2], from[2], sv[2] = { -1, -1 }, i;
	char b[512];
	pid_t pid;

	if (pipe(to) || pipe(from))
		die("pipe");
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		if (!no_net(errno))
			die("socketpair");
		sv[0] = sv[1] = -1;	/* no sockets here: pipes alone */
	}
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		close(to[1]);
		close(from[0]);
		if (sv[0] >= 0) {
			close(sv[0]);
			if (fork() == 0)
				echo_child(sv[1], sv[1]);
		}
		echo_child(to[0], from[1]);
	}
	close(to[0]);
	close(from[1]);
	if (sv[1] >= 0)
		close(sv[1]);
	memset(b, 'p', sizeof(b));
	for (i = 0; i < 8; i++) {
		if (write(to[1], b, sizeof(b)) != sizeof(b) ||
		    read(from[0], b, sizeof(b)) <= 0)
			die("pipe round trip");
		if (sv[0] >= 0 &&
		    (write(sv[0], b, 64) != 64 || read(sv[0], b, 64) <= 0))
			die("socketpair round trip");
	}
	close(to[1]);
	if (sv[0] >= 0)
		close(sv[0]);
	while (read(from[0], b, sizeof(b)) > 0)
		;
	close(from[0]);
	reap(pid, "ipc child");
}

static void do_tcp(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int l, c, s, i, one = 1;
	char b[1024];

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 && no_net(errno))
		return;		/* a kernel without networking */
	if (l < 0 || setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 4) ||
	    getsockname(l, (struct sockaddr *)&a, &len))
		die("tcp listen");
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a)))
		die("tcp connect");
	s = accept(l, NULL, NULL);
	if (s < 0)
		die("tcp accept");
	memset(b, 't', sizeof(b));
	for (i = 0; i < 8; i++) {
		if (send(c, b, sizeof(b), 0) != sizeof(b) ||
		    recv(s, b, sizeof(b), MSG_WAITALL) != sizeof(b) ||
		    send(s, b, 16, 0) != 16 || recv(c, b, 16, MSG_WAITALL) != 16)
			die("tcp round trip");
	}
	close(c);
	close(s);
	close(l);
}

static void do_timers(void)
{
	struct itimerspec its = { .it_value = { 0, 1000000 } };
	struct itimerval itv = { .it_value = { 0, 2000 } };
	struct timespec ts = { 0, 1000000 };
	unsigned long long n;
	int fd;

	fd = timerfd_create(CLOCK_MONOTONIC, 0);
	if (fd < 0 || timerfd_settime(fd, 0, &its, NULL) ||
	    read(fd, &n, sizeof(n)) != sizeof(n))
		die("timerfd");
	close(fd);
	got = 0;
	if (setitimer(ITIMER_REAL, &itv, NULL))
		die("setitimer");
	while (!got)
		sigsuspend(&unblocked);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void do_signal(void)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		got = 0;
		while (!got)
			sigsuspend(&unblocked);
		_exit(0);
	}
	/* the child's handler is ours; SIGUSR1 waits for its sigsuspend() */
	while (kill(pid, SIGUSR1) && errno == EINTR)
		;
	reap(pid, "signal child");
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	long long t0, ms = 1500;
	int opt, round = 0, i;
	sigset_t mask;

	while ((opt = getopt(argc, argv, "t:x:")) != -1) {
		switch (opt) {
		case 't':
			ms = atoll(optarg);
			break;
		case 'x':
			prog = optarg;
			break;
		default:
			fprintf(stderr, "usage: ksmix [-t MS] [-x PROG] DIR...\n");
			return 2;
		}
	}
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) || sigaction(SIGUSR1, &sa, NULL))
		die("sigaction");
	sigemptyset(&mask);
	sigaddset(&mask, SIGALRM);
	sigaddset(&mask, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &mask, &unblocked))
		die("sigprocmask");
	signal(SIGPIPE, SIG_IGN);
	t0 = now_ms();
	do {
		do_exec();
		do_anon();
		for (i = optind; i < argc; i++)
			do_file(argv[i], round);
		do_ipc();
		do_tcp();
		do_timers();
		do_signal();
		round++;
	} while (now_ms() - t0 < ms);
	printf("ksmix: %d rounds in %lld ms\n", round, now_ms() - t0);
	return 0;
}
