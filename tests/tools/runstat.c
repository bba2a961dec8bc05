/* runstat: run a command, then print its wall time and peak memory.
 *
 *   runstat CMD [ARG...]
 *
 * Forks, execs CMD (searched in PATH), waits with wait4 and prints on
 * stderr one line "runstat: wall_ms=N maxrss_kib=N status=N", where
 * status is the exit status (128+signal when killed).  The command's own
 * stdout and stderr are left alone.  Exits with the command's status. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	int st, rc;
	pid_t pid;
	long ms;

	if (argc < 2) {
		fprintf(stderr, "usage: runstat CMD [ARG...]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		perror("runstat: fork");
		return 127;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "runstat: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &st, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("runstat: wait4");
			return 127;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (long)(t1.tv_sec - t0.tv_sec) * 1000 +
	     (t1.tv_nsec - t0.tv_nsec) / 1000000;
	rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	fprintf(stderr, "runstat: wall_ms=%ld maxrss_kib=%ld status=%d\n",
		ms, ru.ru_maxrss, rc);
	return rc;
}
