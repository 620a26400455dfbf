/*
 * http-load.c - scrape one URL path from many clients at once, as many
 * Prometheus servers would: http-load HOST PORT PATH CLIENTS SECONDS.
 * Each client keeps its connection open (HTTP/1.1) and asks again as soon
 * as an answer is complete. Prints one JSON line: requests, errors (a
 * connection refused or cut, an answer that is not 200), and the latency
 * percentiles in milliseconds. For tests/scripts/serve_mocks.sh and
 * bench/serve.sh.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_SAMPLES 2000000

static struct sockaddr_in addr;
static char request[512];
static double until;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double *lat;
static long nlat, errors;

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
connect_to(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	if (fd < 0)
		return -1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* One request on fd; 1 when a 200 answer arrived whole, 0 otherwise. */
static int
one(int fd)
{
	static __thread char buf[1 << 20];
	size_t have = 0, need = 0;
	char *body;

	if (write(fd, request, strlen(request)) != (ssize_t)strlen(request))
		return 0;
	for (;;) {
		ssize_t n = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (n <= 0)
			return 0;
		have += (size_t)n;
		buf[have] = '\0';
		if (!need && (body = strstr(buf, "\r\n\r\n"))) {
			char *cl = strcasestr(buf, "\r\ncontent-length:");
			if (!cl || cl > body)
				return 0;
			need = (size_t)(body + 4 - buf) + (size_t)strtoul(cl + 17, NULL, 10);
		}
		if (need && have >= need)
			return !strncmp(buf, "HTTP/1.1 200", 12);
		if (have >= sizeof(buf) - 1)
			return 0;
	}
}

static void *
client(void *arg)
{
	int fd = -1;

	(void)arg;
	while (now_ms() < until) {
		double t0 = now_ms();
		int ok;
		if (fd < 0 && (fd = connect_to()) < 0) {
			pthread_mutex_lock(&lock);
			errors++;
			pthread_mutex_unlock(&lock);
			usleep(10000);
			continue;
		}
		ok = one(fd);
		pthread_mutex_lock(&lock);
		if (!ok)
			errors++;
		else if (nlat < MAX_SAMPLES)
			lat[nlat++] = now_ms() - t0;
		pthread_mutex_unlock(&lock);
		if (!ok) {
			close(fd);
			fd = -1;
		}
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	pthread_t t[512];
	int n, i;

	if (argc != 6 || (n = atoi(argv[4])) < 1 || n > 512) {
		fprintf(stderr, "usage: http-load HOST PORT PATH CLIENTS(1-512) SECONDS\n");
		return 2;
	}
	memset(&addr, 0, sizeof(addr));
	addr.sin_family = AF_INET;
	addr.sin_port = htons((unsigned short)atoi(argv[2]));
	if (inet_pton(AF_INET, argv[1], &addr.sin_addr) != 1) {
		fprintf(stderr, "http-load: '%s' is not an IPv4 address\n", argv[1]);
		return 2;
	}
	snprintf(request, sizeof(request), "GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: http-load\r\n\r\n", argv[3],
		 argv[1]);
	lat = malloc(MAX_SAMPLES * sizeof(*lat));
	if (!lat)
		return 2;
	until = now_ms() + atof(argv[5]) * 1e3;
	for (i = 0; i < n; i++)
		pthread_create(&t[i], NULL, client, NULL);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	qsort(lat, (size_t)nlat, sizeof(*lat), cmp);
	printf("{\"requests\": %ld, \"errors\": %ld, \"p50_ms\": %.3f, \"p99_ms\": %.3f, \"max_ms\": %.3f}\n", nlat, errors,
	       nlat ? lat[nlat / 2] : 0, nlat ? lat[(long)(nlat * 0.99)] : 0, nlat ? lat[nlat - 1] : 0);
	return 0;
}
