/*
 * http.c - serve's HTTP server (libmicrohttpd, one internal thread with
 * epoll). It only hands out the last published snapshot of each path: a
 * request never touches NVML, the disk or anything slow. Safe by default:
 * GET and HEAD only (405 otherwise), no request body (413), small request
 * headers (libmicrohttpd answers 431 above the per-connection memory
 * limit), bounded connections and time per connection; optional basic
 * auth and TLS from the web-config file.
 */
#include "serve/serve.h"
#include "base/str.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define NPATHS 4
#define CONNECTION_MEMORY (32 * 1024)

static const char *const paths[NPATHS] = {"/metrics", "/facts", "/", "/-/healthy"};
static const char *const types[NPATHS] = {
	"text/plain; version=0.0.4; charset=utf-8", "application/json", "text/html; charset=utf-8",
	"text/plain; charset=utf-8",
};

struct serve_http {
	struct MHD_Daemon *d;
	pthread_mutex_t lock;
	char *body[NPATHS];
	size_t len[NPATHS];
	const struct web_config *web;
	atomic_ulong ok, refused;
	/* the last good credentials, so bcrypt runs once per password */
	char good[256];
};

static int
path_index(const char *url)
{
	int i;

	for (i = 0; i < NPATHS; i++)
		if (!strcmp(url, paths[i]))
			return i;
	return -1;
}

static enum MHD_Result
reply(struct MHD_Connection *c, unsigned status, const char *text, const char *allow)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", "text/plain; charset=utf-8");
	if (allow)
		MHD_add_response_header(r, "Allow", allow);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static bool
authorised(struct serve_http *h, struct MHD_Connection *c)
{
	char *pass = NULL, *user, key[256];
	bool ok = false;

	if (!h->web || !h->web->nusers)
		return true;
	user = MHD_basic_auth_get_username_password(c, &pass);
	if (user && pass) {
		snprintf(key, sizeof(key), "%s:%s", user, pass);
		if (h->good[0] && !strcmp(key, h->good))
			ok = true;
		else if (web_config_check(h->web, user, pass)) {
			ok = true;
			str_copy(h->good, sizeof(h->good), key);
		}
	}
	MHD_free(user);
	MHD_free(pass);
	return ok;
}

static enum MHD_Result
handle(void *cls, struct MHD_Connection *c, const char *url, const char *method, const char *version,
       const char *upload, size_t *upload_size, void **state)
{
	struct serve_http *h = cls;
	struct MHD_Response *r;
	enum MHD_Result ret;
	int i;

	static char headers_seen, body_seen;

	(void)version;
	(void)upload;
	if (!*state) {
		/* first call: headers only; a body, if any, comes next */
		*state = &headers_seen;
		if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD)) {
			atomic_fetch_add(&h->refused, 1);
			return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD\n", "GET, HEAD");
		}
		return MHD_YES;
	}
	if (*upload_size) {
		/* a body is read and dropped; the answer comes once it is over */
		*state = &body_seen;
		*upload_size = 0;
		return MHD_YES;
	}
	if (*state == &body_seen) {
		atomic_fetch_add(&h->refused, 1);
		return reply(c, MHD_HTTP_CONTENT_TOO_LARGE, "no request body\n", NULL);
	}
	if (!authorised(h, c)) {
		atomic_fetch_add(&h->refused, 1);
		r = MHD_create_response_from_buffer(strlen("unauthorised\n"), (void *)"unauthorised\n",
						    MHD_RESPMEM_PERSISTENT);
		ret = MHD_queue_basic_auth_fail_response(c, "gpudoctor", r);
		MHD_destroy_response(r);
		return ret;
	}
	if ((i = path_index(url)) < 0) {
		atomic_fetch_add(&h->refused, 1);
		return reply(c, MHD_HTTP_NOT_FOUND, "not found: /metrics, /facts, / or /-/healthy\n", NULL);
	}
	pthread_mutex_lock(&h->lock);
	r = MHD_create_response_from_buffer(h->len[i], h->body[i] ? h->body[i] : (void *)"", MHD_RESPMEM_MUST_COPY);
	pthread_mutex_unlock(&h->lock);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", types[i]);
	MHD_add_response_header(r, "Cache-Control", "no-store");
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	atomic_fetch_add(&h->ok, 1);
	return ret;
}

/* "127.0.0.1:9446", ":9446" (every interface), "[::1]:9446". */
static int
parse_listen(const char *s, struct sockaddr_storage *ss, bool *v6)
{
	char host[128];
	const char *colon;
	char *end;
	long port;

	memset(ss, 0, sizeof(*ss));
	*v6 = false;
	if (s[0] == '[') {
		const char *close = strchr(s, ']');
		if (!close || close[1] != ':' || (size_t)(close - s - 1) >= sizeof(host))
			return -1;
		memcpy(host, s + 1, (size_t)(close - s - 1));
		host[close - s - 1] = '\0';
		colon = close + 1;
		*v6 = true;
	} else {
		if (!(colon = strrchr(s, ':')) || (size_t)(colon - s) >= sizeof(host))
			return -1;
		memcpy(host, s, (size_t)(colon - s));
		host[colon - s] = '\0';
	}
	port = strtol(colon + 1, &end, 10);
	if (*end || colon[1] == '\0' || port < 1 || port > 65535)
		return -1;
	if (*v6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;
		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)port);
		return inet_pton(AF_INET6, host, &a->sin6_addr) == 1 ? 0 : -1;
	}
	{
		struct sockaddr_in *a = (struct sockaddr_in *)ss;
		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)port);
		if (!host[0])
			a->sin_addr.s_addr = htonl(INADDR_ANY);
		else if (inet_pton(AF_INET, host, &a->sin_addr) != 1)
			return -1;
	}
	return 0;
}

struct serve_http *
serve_http_start(const struct serve_http_opts *o, char *err, size_t errsize)
{
	struct serve_http *h = calloc(1, sizeof(*h));
	struct sockaddr_storage ss;
	unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD;
	bool v6;
	char why[300];

	if (!h)
		return NULL;
	if (parse_listen(o->listen, &ss, &v6) < 0) {
		snprintf(err, errsize, "--listen '%s': not ADDRESS:PORT (127.0.0.1:9446, :9446, [::1]:9446)", o->listen);
		free(h);
		return NULL;
	}
	if (v6)
		flags |= MHD_USE_IPv6;
	h->web = o->web;
	pthread_mutex_init(&h->lock, NULL);
	if (o->web && o->web->cert_pem) {
		if (tls_load(why, sizeof(why)) < 0) {
			snprintf(err, errsize, "%s", why);
			free(h);
			return NULL;
		}
		flags |= MHD_USE_TLS;
		h->d = MHD_start_daemon(flags, 0, NULL, NULL, handle, h, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
					MHD_OPTION_CONNECTION_LIMIT, (unsigned)o->max_connections,
					MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)o->timeout_s,
					MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONNECTION_MEMORY,
					MHD_OPTION_HTTPS_MEM_CERT, o->web->cert_pem, MHD_OPTION_HTTPS_MEM_KEY,
					o->web->key_pem, MHD_OPTION_END);
	} else {
		h->d = MHD_start_daemon(flags, 0, NULL, NULL, handle, h, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
					MHD_OPTION_CONNECTION_LIMIT, (unsigned)o->max_connections,
					MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)o->timeout_s,
					MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONNECTION_MEMORY, MHD_OPTION_END);
	}
	if (!h->d) {
		snprintf(err, errsize, "cannot listen on %s: %s%s", o->listen, strerror(errno),
			 o->web && o->web->cert_pem ? " (or the TLS certificate and key do not load)" : "");
		free(h);
		return NULL;
	}
	return h;
}

void
serve_http_publish(struct serve_http *h, const char *path, char *body, size_t len)
{
	int i = path_index(path);
	char *old;

	if (i < 0) {
		free(body);
		return;
	}
	pthread_mutex_lock(&h->lock);
	old = h->body[i];
	h->body[i] = body;
	h->len[i] = len;
	pthread_mutex_unlock(&h->lock);
	free(old);
}

void
serve_http_counts(struct serve_http *h, unsigned long *ok, unsigned long *refused)
{
	*ok = atomic_load(&h->ok);
	*refused = atomic_load(&h->refused);
}

void
serve_http_stop(struct serve_http *h)
{
	int i;

	if (!h)
		return;
	MHD_stop_daemon(h->d);
	for (i = 0; i < NPATHS; i++)
		free(h->body[i]);
	pthread_mutex_destroy(&h->lock);
	free(h);
}
