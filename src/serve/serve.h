/*
 * serve.h - `gpudoctor serve`: a Prometheus exporter. The GPU metrics
 * under dcgm-exporter's names, types, help and labels, gpudoctor's own
 * knowledge under gpudoctor_* (metrics.c); an HTTP server that only
 * hands out the last snapshot (http.c); the exporter-toolkit web-config
 * file for TLS and basic auth (webconfig.c, tls_loader.c).
 */
#ifndef GPUDOCTOR_SERVE_H
#define GPUDOCTOR_SERVE_H

#include "base/buf.h"
#include "diag/finding.h"
#include "facts.h"
#include "monitor/session.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* ---- metrics.c -------------------------------------------------------------------- */

struct serve_status {
	const char *version;
	bool have_sample;             /* the sampler has given one */
	const char *sampler_error;    /* why it gives none, or NULL */
	int sampler_restarts;
	double sample_time;           /* epoch seconds of the sample */
	const struct facts *facts;    /* the last doctor run, or NULL before the first */
	const struct findings *findings;
	double doctor_time, doctor_seconds;
	bool kmsg_readable;
	int last_xid[MON_MAX_GPUS];   /* per GPU of the sample: the last Xid seen, 0 none */
	json_t *bench;                /* a `bench --json` document (--bench FILE), or NULL */
};

/* The whole exposition (text format 0.0.4) into b. */
void serve_metrics(struct buf *b, const struct mon_session *s, const struct serve_status *st);

/* The metric families serve writes: name, type and help, for the docs
 * and the test that checks them against dcgm-exporter's list. */
struct serve_family {
	const char *name, *type, *help;
};
const struct serve_family *serve_families(size_t *n);

/* ---- page.c ------------------------------------------------------------------------ */

/* The human page at /: the verdict, the findings, the GPUs. */
void serve_page(struct buf *b, const struct mon_session *s, const struct serve_status *st);

/* ---- webconfig.c --------------------------------------------------------------------- */

#define WEB_MAX_USERS 32

struct web_config {
	char *cert_pem, *key_pem;     /* tls_server_config: the files' contents; NULL none */
	int nusers;
	struct {
		char name[64];
		char hash[128];       /* bcrypt, as htpasswd -B writes it */
	} users[WEB_MAX_USERS];
};

/* Read the exporter-toolkit web configuration file (the subset gpudoctor
 * knows: tls_server_config.cert_file and key_file, basic_auth_users).
 * 0, or -1 with one line in err. */
int web_config_load(const char *path, struct web_config *wc, char *err, size_t errsize);
void web_config_release(struct web_config *wc);
/* Whether user and password match a basic_auth_users entry. */
bool web_config_check(const struct web_config *wc, const char *user, const char *password);

/* ---- http.c ----------------------------------------------------------------------------- */

struct serve_http;

struct serve_http_opts {
	const char *listen;           /* "127.0.0.1:9446", ":9446", "[::1]:9446" */
	int max_connections;
	int timeout_s;                /* per connection */
	const struct web_config *web; /* NULL: plain HTTP, no auth */
};

/* Bind and start serving (empty pages until the first publish); NULL
 * with one line in err. */
struct serve_http *serve_http_start(const struct serve_http_opts *o, char *err, size_t errsize);
/* Replace what a path serves ("/metrics", "/facts", "/"); takes body. */
void serve_http_publish(struct serve_http *h, const char *path, char *body, size_t len);
/* Requests answered and refused so far, for the log. */
void serve_http_counts(struct serve_http *h, unsigned long *ok, unsigned long *refused);
void serve_http_stop(struct serve_http *h);

/* ---- tls_loader.c ------------------------------------------------------------------------ */

/* Load the machine's GnuTLS for libmicrohttpd; 0, or -1 with why. */
int tls_load(char *why, size_t size);

#endif
