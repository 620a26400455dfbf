/*
 * redact.c - replace user names, host names, UUIDs, serial numbers and IP
 * addresses in report text by stable placeholders (see redact.h). One pass
 * over the text, left to right; at each position the longest pattern wins.
 */
#include "report/redact.h"
#include "base/str.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_VALUES 256

struct valset {
	char *v[MAX_VALUES];
	int n;
};

struct redact {
	bool on;
	struct valset users, hosts, uuids, serials, ips, versions;
};

/* Words a user name can be that are also ordinary words in a report: such a
 * name is hidden in paths and prompts only, never as a word of prose. */
static const char *const common_words[] = {
	"root", "ubuntu", "debian", "fedora", "centos", "admin", "user", "users", "home",
	"test", "nvidia", "cuda", "python", "conda", "docker", "runner", "build", "ec2-user",
	"jovyan", "guest", "default", "local", "app", "gpu", "node", "server", "host", "vm",
	"localhost", "linux", "share", "lib", "opt", "tmp", "data", "work", NULL,
};

static bool
is_common(const char *w)
{
	return str_among_case(w, common_words);
}

/* Index of v in s (case-insensitive), adding it when add; -1 when absent or full. */
static int
valset_find(struct valset *s, const char *v, size_t n, bool add)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (strlen(s->v[i]) == n && !strncasecmp(s->v[i], v, n))
			return i;
	if (!add || s->n >= MAX_VALUES)
		return -1;
	s->v[s->n] = strndup(v, n);
	if (!s->v[s->n])
		return -1;
	return s->n++;
}

static void
valset_free(struct valset *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	s->n = 0;
}

struct redact *
redact_new(bool on)
{
	struct redact *r = calloc(1, sizeof(*r));

	if (r)
		r->on = on;
	return r;
}

void
redact_free(struct redact *r)
{
	if (!r)
		return;
	valset_free(&r->users);
	valset_free(&r->hosts);
	valset_free(&r->uuids);
	valset_free(&r->serials);
	valset_free(&r->ips);
	valset_free(&r->versions);
	free(r);
}

void
redact_host(struct redact *r, const char *hostname)
{
	const char *dot;

	if (!hostname || !*hostname || !strcmp(hostname, "(none)") || !strcasecmp(hostname, "localhost"))
		return;
	valset_find(&r->hosts, hostname, strlen(hostname), true);
	dot = strchr(hostname, '.');
	if (dot && dot > hostname)
		valset_find(&r->hosts, hostname, (size_t)(dot - hostname), true);
}

void
redact_user(struct redact *r, const char *name)
{
	size_t n;

	if (!name)
		return;
	n = strlen(name);
	if (!n || !strcmp(name, "root") || name[0] == '<')
		return;
	valset_find(&r->users, name, n, true);
}

void
redact_version(struct redact *r, const char *version)
{
	if (version && *version)
		valset_find(&r->versions, version, strlen(version), true);
}

/* Length of a home directory prefix at p ("/home/", "/Users/", "\Users\",
 * "/var/home/" as in Silverblue), 0 when none. */
static size_t
home_prefix(const char *p)
{
	static const char *const prefixes[] = {"/home/", "/Users/", "\\Users\\", "\\\\Users\\\\", NULL};
	int i;

	for (i = 0; prefixes[i]; i++) {
		size_t n = strlen(prefixes[i]);
		if (!strncasecmp(p, prefixes[i], n))
			return n;
	}
	return 0;
}

/* Length of a user name at p: up to a separator. */
static size_t
user_len(const char *p)
{
	size_t n = 0;

	while (p[n] && (isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '-' || p[n] == '.' ||
			(unsigned char)p[n] >= 0x80))
		n++;
	return n;
}

void
redact_learn(struct redact *r, const char *text)
{
	const char *p;

	if (!r || !text)
		return;
	for (p = text; *p; p++) {
		size_t h = home_prefix(p), n;

		if (h) {
			n = user_len(p + h);
			if (n && p[h] != '<' && !(n == 4 && !strncmp(p + h, "root", 4)))
				valset_find(&r->users, p + h, n, true);
			continue;
		}
		/* a shell prompt: user@host: or user@host:~$ */
		if (*p == '@' && p > text) {
			const char *s = p;
			while (s > text && (isalnum((unsigned char)s[-1]) || s[-1] == '_' || s[-1] == '-'))
				s--;
			n = user_len(p + 1);
			if (s < p && n && p[1 + n] == ':' && (s == text || isspace((unsigned char)s[-1]) ||
							     s[-1] == '(' || s[-1] == '['))
			{
				if (!(p - s == 4 && !strncmp(s, "root", 4)))
					valset_find(&r->users, s, (size_t)(p - s), true);
				valset_find(&r->hosts, p + 1, n, true);
			}
		}
	}
}

static int
hexrun(const char *p, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)p[i]))
			return 0;
	return 1;
}

/* A UUID at p: 8-4-4-4-12 hex digits. */
static size_t
uuid_at(const char *p)
{
	if (hexrun(p, 8) && p[8] == '-' && hexrun(p + 9, 4) && p[13] == '-' && hexrun(p + 14, 4) &&
	    p[18] == '-' && hexrun(p + 19, 4) && p[23] == '-' && hexrun(p + 24, 12) &&
	    !isxdigit((unsigned char)p[36]))
		return 36;
	return 0;
}

/* A dotted quad at p (each part 0-255, no leading zero), its length or 0. */
static size_t
quad_at(const char *p)
{
	size_t n = 0;
	int part;

	for (part = 0; part < 4; part++) {
		int v = 0, d = 0;
		if (part) {
			if (p[n] != '.')
				return 0;
			n++;
		}
		while (isdigit((unsigned char)p[n]) && d < 4) {
			v = v * 10 + (p[n] - '0');
			n++;
			d++;
		}
		if (!d || d > 3 || v > 255 || (d > 1 && p[n - (size_t)d] == '0'))
			return 0;
	}
	if (isdigit((unsigned char)p[n]) || (p[n] == '.' && isdigit((unsigned char)p[n + 1])) ||
	    isalpha((unsigned char)p[n]))
		return 0;
	return n;
}

/* Whether the word before position p (within text) marks a version: a
 * library, a version word or a package pin. */
static bool
version_context(const char *text, const char *p)
{
	static const char *const words[] = {"cudnn", "cuda", "nccl", "tensorrt", "trt", "version", "driver",
					    "cublas", "cufft", "curand", "cusolver", "cusparse", "nvrtc",
					    "nvjitlink", "libnv", "onnx", "release", "ver", NULL};
	const char *e = p, *s;
	char word[64];
	size_t n;
	int i;

	if (e > text && (e[-1] == '=' || e[-1] == '~' || e[-1] == '>' || e[-1] == '<')) {
		/* a pin (==8.9.2.26) unless the variable is an address */
		s = e - 1;
		while (s > text && (s[-1] == '=' || s[-1] == '~' || s[-1] == '>' || s[-1] == '<'))
			s--;
		e = s;
		s = e;
		while (s > text && (isalnum((unsigned char)s[-1]) || s[-1] == '_' || s[-1] == '-'))
			s--;
		n = (size_t)(e - s);
		str_copy(word, sizeof(word), "");
		if (n < sizeof(word)) {
			memcpy(word, s, n);
			word[n] = 0;
		}
		for (i = 0; word[i]; i++)
			word[i] = (char)tolower((unsigned char)word[i]);
		return !strstr(word, "addr") && !strstr(word, "host") && !strstr(word, "ip") &&
		       !strstr(word, "server") && !strstr(word, "endpoint");
	}
	if (e > text && (e[-1] == 'v' || e[-1] == 'V' || e[-1] == '-' || e[-1] == '_' || e[-1] == '+'))
		return true;
	/* skip blanks, then take the word */
	while (e > text && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (e == p)
		return false;
	while (e > text && e[-1] == ':')
		e--;
	s = e;
	while (s > text && !isspace((unsigned char)s[-1]) && s[-1] != '(' && s[-1] != '"')
		s--;
	n = (size_t)(e - s);
	if (!n || n >= sizeof(word))
		return false;
	memcpy(word, s, n);
	word[n] = 0;
	for (i = 0; word[i]; i++)
		word[i] = (char)tolower((unsigned char)word[i]);
	for (i = 0; words[i]; i++)
		if (strstr(word, words[i]))
			return true;
	return false;
}

/* A serial number label at p ("Serial Number : 1650321012345"): the length
 * up to the value in *label, the value's length returned; 0 none. */
static size_t
serial_at(const char *p, size_t *label)
{
	size_t n;

	if (strncasecmp(p, "serial", 6))
		return 0;
	n = 6;
	if (!strncasecmp(p + n, " number", 7))
		n += 7;
	else if (!strncasecmp(p + n, "_number", 7))
		n += 7;
	if (p[n] == '"')
		n++;
	while (p[n] == ' ' || p[n] == '\t' || p[n] == '.')
		n++;
	if (p[n] != ':' && p[n] != '=')
		return 0;
	n++;
	while (p[n] == ' ' || p[n] == '\t' || p[n] == '"')
		n++;
	*label = n;
	{
		size_t v = 0;
		while (isalnum((unsigned char)p[n + v]) || p[n + v] == '-')
			v++;
		/* a value, not a word: it has a digit */
		size_t k;
		bool digit = false;
		for (k = 0; k < v; k++)
			digit |= isdigit((unsigned char)p[n + k]) != 0;
		return digit && v >= 4 && strncasecmp(p + n, "N/A", 3) ? v : 0;
	}
}

static void
placeholder(struct buf *out, const char *kind, int idx)
{
	if (idx <= 0)
		buf_addf(out, "<%s>", kind);
	else
		buf_addf(out, "<%s%d>", kind, idx + 1);
}

/* A known word (user or host) at p with word boundaries: its length. */
static size_t
known_word_at(const struct valset *s, const char *text, const char *p, bool skip_common, int *idx)
{
	size_t best = 0;
	int i;

	if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '-' || p[-1] == '<' ||
			 (unsigned char)p[-1] >= 0x80))
		return 0;
	for (i = 0; i < s->n; i++) {
		size_t n = strlen(s->v[i]);
		if (n <= best || n < 3 || strncasecmp(p, s->v[i], n))
			continue;
		if (isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '-' || p[n] == '>' ||
		    (unsigned char)p[n] >= 0x80)
			continue;
		if (skip_common && is_common(s->v[i]))
			continue;
		best = n;
		*idx = i;
	}
	return best;
}

void
redact_apply(struct redact *r, const char *text, struct buf *out)
{
	const char *p;

	if (!text)
		return;
	if (!r || !r->on) {
		buf_adds(out, text);
		return;
	}
	for (p = text; *p;) {
		size_t h = home_prefix(p), n, label;
		int idx;

		if (h) {
			n = user_len(p + h);
			if (n && p[h] != '<' && !(n == 4 && !strncmp(p + h, "root", 4))) {
				idx = valset_find(&r->users, p + h, n, true);
				buf_add(out, p, h);
				placeholder(out, "user", idx);
				p += h + n;
				continue;
			}
		}
		if ((p == text || !isxdigit((unsigned char)p[-1])) && (n = uuid_at(p))) {
			idx = valset_find(&r->uuids, p, n, true);
			buf_addf(out, "<uuid-%d>", idx + 1);
			p += n;
			continue;
		}
		if ((p == text || (!isalnum((unsigned char)p[-1]) && p[-1] != '.')) && isdigit((unsigned char)*p) &&
		    (n = quad_at(p))) {
			if (valset_find(&r->versions, p, n, false) >= 0 || version_context(text, p)) {
				buf_add(out, p, n);
			} else {
				idx = valset_find(&r->ips, p, n, true);
				buf_addf(out, "<ip-%d>", idx + 1);
			}
			p += n;
			continue;
		}
		if ((p == text || !isalnum((unsigned char)p[-1])) && (n = serial_at(p, &label))) {
			buf_add(out, p, label);
			idx = valset_find(&r->serials, p + label, n, true);
			buf_addf(out, "<serial-%d>", idx + 1);
			p += label + n;
			continue;
		}
		if (isalnum((unsigned char)*p) || (unsigned char)*p >= 0x80) {
			idx = -1;
			if ((n = known_word_at(&r->hosts, text, p, true, &idx))) {
				buf_adds(out, "<host>");
				p += n;
				continue;
			}
			if ((n = known_word_at(&r->users, text, p, true, &idx))) {
				placeholder(out, "user", idx);
				p += n;
				continue;
			}
			/* the rest of the word at once: patterns start at word boundaries */
			n = 1;
			while (isalnum((unsigned char)p[n]) || p[n] == '_' || (unsigned char)p[n] >= 0x80)
				n++;
			buf_add(out, p, n);
			p += n;
			continue;
		}
		buf_addch(out, *p++);
	}
}

char *
redact_dup(struct redact *r, const char *text)
{
	struct buf b;

	buf_init(&b);
	redact_apply(r, text ? text : "", &b);
	if (!b.s)
		buf_adds(&b, "");
	return buf_detach(&b);
}

void
redact_counts(const struct redact *r, struct redact_counts *c)
{
	memset(c, 0, sizeof(*c));
	if (!r || !r->on)
		return;
	c->users = r->users.n;
	c->hosts = r->hosts.n;
	c->uuids = r->uuids.n;
	c->serials = r->serials.n;
	c->ips = r->ips.n;
}
