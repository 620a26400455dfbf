/*
 * fake_scenario.h - the scenario file reader shared by the mock driver
 * libraries (fake_cuda.c, fake_nvml.c); format in README.md. Header-only
 * (static functions) because the Makefile builds each stub from one .c.
 *
 * fake_scenario_read() calls fn(key, fields, nfields, ctx) for every
 * `KEY VALUE` line of the file named by GPUDOCTOR_FAKE_SCENARIO, VALUE split
 * on '|' into at most FAKE_MAX_FIELDS trimmed fields. Unset variable: no
 * lines (the defaults). Unreadable file: a message on stderr, no lines.
 */
#ifndef FAKE_SCENARIO_H
#define FAKE_SCENARIO_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FAKE_MAX_FIELDS 20

typedef void (*fake_line_fn)(const char *key, char **fields, int n, void *ctx);

static char * __attribute__((unused))
fake_trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static void __attribute__((unused))
fake_scenario_read(fake_line_fn fn, void *ctx)
{
	const char *path = getenv("GPUDOCTOR_FAKE_SCENARIO");
	char line[1024];
	FILE *fp;

	if (!path || !*path)
		return;
	if (!(fp = fopen(path, "r"))) {
		fprintf(stderr, "fake driver: cannot read scenario '%s'\n", path);
		return;
	}
	while (fgets(line, sizeof(line), fp)) {
		char *fields[FAKE_MAX_FIELDS], *key, *val, *hash, *bar;
		int n = 0;

		if ((hash = strchr(line, '#')))
			*hash = '\0';
		key = fake_trim(line);
		if (!*key)
			continue;
		val = key + strcspn(key, " \t");
		if (*val)
			*val++ = '\0';
		val = fake_trim(val);
		while (n < FAKE_MAX_FIELDS) {
			bar = strchr(val, '|');
			if (bar)
				*bar = '\0';
			fields[n++] = fake_trim(val);
			if (!bar)
				break;
			val = bar + 1;
		}
		fn(key, fields, n, ctx);
	}
	fclose(fp);
}

/* A numeric field; `dflt` when absent, empty or "-". */
static long long __attribute__((unused))
fake_num(char **fields, int n, int i, long long dflt)
{
	if (i >= n || !fields[i][0] || !strcmp(fields[i], "-"))
		return dflt;
	return strtoll(fields[i], NULL, 0);
}

static void __attribute__((unused))
fake_str(char *dst, size_t size, char **fields, int n, int i)
{
	snprintf(dst, size, "%s", i < n ? fields[i] : "");
}

static void __attribute__((unused))
fake_sleep_ms(long ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};

	while (ms > 0 && nanosleep(&ts, &ts) != 0)
		;
}

#endif
