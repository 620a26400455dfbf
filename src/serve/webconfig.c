/*
 * webconfig.c - the web configuration file of Prometheus exporters
 * (prometheus/exporter-toolkit, docs/web-configuration.md), the subset
 * gpudoctor serve knows:
 *
 *     tls_server_config:
 *       cert_file: /etc/gpudoctor/tls.crt
 *       key_file: /etc/gpudoctor/tls.key
 *     basic_auth_users:
 *       prometheus: $2y$10$...      # bcrypt, e.g. htpasswd -nBC 10 "" | tr -d ':'
 *
 * Anything else is refused by name rather than ignored: a setting the
 * operator believes in must not silently do nothing. Passwords are
 * checked with crypt(3) from the machine's libcrypt (bcrypt), loaded when
 * the file has users.
 */
#include "serve/serve.h"
#include "base/str.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *
read_file(const char *path, char *err, size_t errsize)
{
	FILE *fp = fopen(path, "rb");
	char *s;
	long n;

	if (!fp) {
		snprintf(err, errsize, "cannot read '%s': %s", path, strerror(errno));
		return NULL;
	}
	if (fseek(fp, 0, SEEK_END) < 0 || (n = ftell(fp)) < 0 || n > (1 << 20) || fseek(fp, 0, SEEK_SET) < 0) {
		snprintf(err, errsize, "'%s' is not a readable file under 1 MiB", path);
		fclose(fp);
		return NULL;
	}
	s = malloc((size_t)n + 1);
	if (!s || fread(s, 1, (size_t)n, fp) != (size_t)n) {
		snprintf(err, errsize, "cannot read '%s'", path);
		free(s);
		fclose(fp);
		return NULL;
	}
	s[n] = '\0';
	fclose(fp);
	return s;
}

/* A YAML scalar: trimmed, quotes removed, a trailing comment dropped. */
static void
scalar(char *v)
{
	char *p, *end;
	size_t n;

	while (isspace((unsigned char)*v))
		memmove(v, v + 1, strlen(v));
	if (*v == '"' || *v == '\'') {
		char q = *v;
		memmove(v, v + 1, strlen(v));
		if ((p = strchr(v, q)))
			*p = '\0';
		return;
	}
	if ((p = strstr(v, " #")))
		*p = '\0';
	n = strlen(v);
	end = v + n;
	while (end > v && isspace((unsigned char)end[-1]))
		*--end = '\0';
}

int
web_config_load(const char *path, struct web_config *wc, char *err, size_t errsize)
{
	char *text, *line, *save = NULL, section[64] = "", cert[1024] = "", key[1024] = "", e2[300];
	int lineno = 0;

	memset(wc, 0, sizeof(*wc));
	if (!(text = read_file(path, err, errsize)))
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon, *k = line, *v;
		bool indented = isspace((unsigned char)*line);
		lineno++;
		while (isspace((unsigned char)*k))
			k++;
		if (!*k || *k == '#' || !strcmp(k, "---"))
			continue;
		if (!(colon = strchr(k, ':'))) {
			snprintf(err, errsize, "%s:%d: not a 'key: value' line", path, lineno);
			goto fail;
		}
		*colon = '\0';
		v = colon + 1;
		scalar(k);
		scalar(v);
		if (!indented) {
			if (strcmp(k, "tls_server_config") && strcmp(k, "basic_auth_users")) {
				snprintf(err, errsize, "%s:%d: '%s' is not supported (tls_server_config and "
						       "basic_auth_users are)", path, lineno, k);
				goto fail;
			}
			str_copy(section, sizeof(section), k);
			continue;
		}
		if (!strcmp(section, "tls_server_config")) {
			if (!strcmp(k, "cert_file"))
				str_copy(cert, sizeof(cert), v);
			else if (!strcmp(k, "key_file"))
				str_copy(key, sizeof(key), v);
			else {
				snprintf(err, errsize, "%s:%d: tls_server_config.%s is not supported (cert_file and "
						       "key_file are)", path, lineno, k);
				goto fail;
			}
		} else if (!strcmp(section, "basic_auth_users")) {
			if (wc->nusers >= WEB_MAX_USERS || strlen(k) >= sizeof(wc->users[0].name) ||
			    strlen(v) >= sizeof(wc->users[0].hash) || strncmp(v, "$2", 2)) {
				snprintf(err, errsize, "%s:%d: user '%s': a bcrypt hash ($2y$...) is needed, at most %d users",
					 path, lineno, k, WEB_MAX_USERS);
				goto fail;
			}
			str_copy(wc->users[wc->nusers].name, sizeof(wc->users[0].name), k);
			str_copy(wc->users[wc->nusers].hash, sizeof(wc->users[0].hash), v);
			wc->nusers++;
		} else {
			snprintf(err, errsize, "%s:%d: an indented line outside a section", path, lineno);
			goto fail;
		}
	}
	free(text);
	if (!cert[0] != !key[0]) {
		snprintf(err, errsize, "%s: tls_server_config needs both cert_file and key_file", path);
		return -1;
	}
	if (cert[0]) {
		if (!(wc->cert_pem = read_file(cert, e2, sizeof(e2))) || !(wc->key_pem = read_file(key, e2, sizeof(e2)))) {
			snprintf(err, errsize, "%s: %s", path, e2);
			web_config_release(wc);
			return -1;
		}
	}
	return 0;
fail:
	free(text);
	return -1;
}

void
web_config_release(struct web_config *wc)
{
	free(wc->cert_pem);
	free(wc->key_pem);
	wc->cert_pem = wc->key_pem = NULL;
}

typedef char *(*crypt_fn)(const char *phrase, const char *setting);

bool
web_config_check(const struct web_config *wc, const char *user, const char *password)
{
	static crypt_fn fn;
	static bool tried;
	int i;

	if (!tried) {
		void *h = dlopen("libcrypt.so.1", RTLD_NOW | RTLD_LOCAL);
		tried = true;
		if (h)
			*(void **)&fn = dlsym(h, "crypt");
	}
	if (!fn || !user || !password)
		return false;
	for (i = 0; i < wc->nusers; i++) {
		const char *got;
		if (strcmp(wc->users[i].name, user))
			continue;
		got = fn(password, wc->users[i].hash);
		return got && got[0] != '*' && !strcmp(got, wc->users[i].hash);
	}
	return false;
}
