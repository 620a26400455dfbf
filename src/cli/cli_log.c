/*
 * cli_log.c - a log read into explain for `explain` and `report`: a file,
 * stdin or one message, streamed whatever its size; input that is no log
 * (empty, blank, UTF-16, binary) said in one line.
 */
#include "cli/command.h"
#include "explain/explain.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Open the log; -1 (reported) when it cannot be read. */
static int
open_log(const char *file)
{
	struct stat st;
	int fd;

	if (!file || !strcmp(file, "-"))
		return STDIN_FILENO;
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		fprintf(stderr, "gpudoctor: cannot open '%s': %s\n", file, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "gpudoctor: '%s' is a directory, not a log\n", file);
		close(fd);
		return -1;
	}
	return fd;
}

/* Say so, in one line, when what was read is no log; -1 then. */
static int
not_a_log(const struct explain *x, const char *name)
{
	switch (explain_input(x)) {
	case EXPLAIN_INPUT_EMPTY:
		if (!strcmp(name, "message"))
			fprintf(stderr, "gpudoctor: -e: the message is empty: nothing to explain\n");
		else
			fprintf(stderr, "gpudoctor: %s is empty: nothing to explain (give the log as a "
				"file, or pipe the program's output with 2>&1)\n", name);
		return -1;
	case EXPLAIN_INPUT_BLANK:
		fprintf(stderr, "gpudoctor: %s holds only blank lines: nothing to explain\n", name);
		return -1;
	case EXPLAIN_INPUT_UTF16:
		fprintf(stderr, "gpudoctor: %s is UTF-16 text (as PowerShell's > writes it): convert it "
			"first: iconv -f UTF-16 -t UTF-8 %s > log-utf8.txt\n", name,
			strcmp(name, "stdin") ? name : "LOG");
		return -1;
	case EXPLAIN_INPUT_BINARY:
		fprintf(stderr, "gpudoctor: %s is not text (it holds NUL bytes): give the program's log, "
			"not a binary or an archive\n", name);
		return -1;
	case EXPLAIN_INPUT_TEXT:
		break;
	}
	return 0;
}

int
cli_read_log(const char *file, const char *message, struct explain *x, const char **name)
{
	struct logread r;
	int fd = -1, rc;

	if (message) {
		logread_init_mem(&r, message, strlen(message));
		*name = "message";
	} else {
		fd = open_log(file);
		if (fd < 0)
			return -1;
		logread_init_fd(&r, fd);
		*name = !file || !strcmp(file, "-") ? "stdin" : file;
	}
	rc = explain_stream(x, &r);
	if (rc < 0)
		fprintf(stderr, "gpudoctor: reading %s: %s\n", *name, strerror(r.error));
	logread_release(&r);
	if (fd > STDIN_FILENO)
		close(fd);
	if (rc < 0)
		return -1;
	return not_a_log(x, *name);
}
