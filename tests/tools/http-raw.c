/*
 * http-raw.c - send bytes as they are to a loopback HTTP server and print
 * the status line it answers (or "closed" when it answers nothing):
 * http-raw PORT TEXT, where TEXT may hold \r and \n escapes. For the
 * malformed requests of tests/scripts/serve_mocks.sh.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct sockaddr_in a;
	char req[65536], buf[4096];
	size_t n = 0, i;
	ssize_t k, have = 0;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: http-raw PORT TEXT\n");
		return 2;
	}
	for (i = 0; argv[2][i] && n < sizeof(req) - 1; i++) {
		if (argv[2][i] == '\\' && argv[2][i + 1] == 'r') {
			req[n++] = '\r';
			i++;
		} else if (argv[2][i] == '\\' && argv[2][i + 1] == 'n') {
			req[n++] = '\n';
			i++;
		} else {
			req[n++] = argv[2][i];
		}
	}
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)atoi(argv[1]));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		printf("refused\n");
		return 1;
	}
	if (write(fd, req, n) != (ssize_t)n) {
		printf("closed\n");
		return 0;
	}
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		if (poll(&p, 1, 3000) <= 0)
			break;
		k = read(fd, buf + have, sizeof(buf) - 1 - (size_t)have);
		if (k <= 0)
			break;
		have += k;
		buf[have] = '\0';
		if (strstr(buf, "\r\n"))
			break;
	}
	close(fd);
	buf[have] = '\0';
	if (!have) {
		printf("closed\n");
		return 0;
	}
	buf[strcspn(buf, "\r\n")] = '\0';
	printf("%s\n", buf);
	return 0;
}
