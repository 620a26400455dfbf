/*
 * maxrss.c - run a command and report the most memory it ever held:
 *
 *   maxrss OUTFILE COMMAND [ARGS...]
 *
 * writes the child's peak resident set size in KiB (getrusage of the
 * waited-for child) to OUTFILE and exits with the child's status. Used by
 * the explain stress test and its benchmark to show that memory stays
 * flat whatever the size of the log.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct rusage ru;
	FILE *out;
	pid_t pid;
	int status;

	if (argc < 3) {
		fprintf(stderr, "usage: maxrss OUTFILE COMMAND [ARGS...]\n");
		return 125;
	}
	pid = fork();
	if (pid < 0) {
		perror("maxrss: fork");
		return 125;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror("maxrss: exec");
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("maxrss: wait4");
		return 125;
	}
	out = fopen(argv[1], "w");
	if (!out || fprintf(out, "%ld\n", ru.ru_maxrss) < 0 || fclose(out) != 0) {
		perror("maxrss: write");
		return 125;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
