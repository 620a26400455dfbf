/*
 * codes.c - the status codes of the knowledge base (error_codes.tsv: the
 * CUDA runtime and driver, NVML, cuBLAS, cuDNN, NCCL) as patterns for the
 * matcher: a row for each code's name, in every spelling a program prints
 * it (the matcher folds case; "code=803(cudaErrorSystemDriverMismatch)"
 * holds the name), and a row for the message the library itself prints
 * for it ("device kernel image is invalid"), on a line that names the GPU
 * stack. A row of log_patterns.tsv always comes first: on a line that a
 * row of the table explains, the row wins (explain.c). A code
 * whose cause is not known (rt.unknown) is a symptom: it goes with the
 * cause the log shows, or stands alone when there is none.
 */
#include "explain/codes.h"
#include "base/xalloc.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const code_prefixes[] = {
	"cudaError", "CUDA_ERROR_", "NVML_ERROR_", "CUBLAS_STATUS_", "CUDNN_STATUS_", "nccl",
	/* the bindings' spellings: pynvml's exception classes, Rust's enums */
	"NVMLError_", "CudaError::", "Cuda(", NULL,
};

/* What a binding's name stands for: "NVMLError_DriverNotLoaded" is
 * NVML_ERROR_ + DRIVER_NOT_LOADED; NULL for the libraries' own names. */
const char *const code_prefix_canon[] = {
	NULL, NULL, NULL, NULL, NULL, NULL, "NVML_ERROR_", "CUDA_ERROR_", "CUDA_ERROR_", NULL,
};

size_t
code_camel_name(const char *canon, const unsigned char *s, size_t len, char *out, size_t size)
{
	size_t o = strlen(canon), i;

	if (o + 2 * len + 1 > size || !len || !isupper(s[0]))
		return 0;
	memcpy(out, canon, o);
	for (i = 0; i < len; i++) {
		/* a word begins at a capital after a small letter or a digit, or
		 * at the last capital of a run that a small letter follows
		 * (InvalidPTXVersion: INVALID_PTX_VERSION) */
		if (i && isupper(s[i]) &&
		    (islower(s[i - 1]) || isdigit(s[i - 1]) ||
		     (isupper(s[i - 1]) && i + 1 < len && islower(s[i + 1]))))
			out[o++] = '_';
		out[o++] = (char)toupper(s[i]);
	}
	out[o] = '\0';
	return o;
}

/* The library a line's words point a bare number to. */
static const char *
line_library(const char *l)
{
	const char *p;

	if (strcasestr(l, "cudnn"))
		return "cudnn";
	if (strcasestr(l, "cublas"))
		return "cublas";
	if (strcasestr(l, "nccl"))
		return "nccl";
	if (strcasestr(l, "nvml"))
		return "nvml";
	/* a driver API function (cuInit, cuLinkAddData) before a runtime one */
	for (p = l; (p = strstr(p, "cu")); p++)
		if ((p == l || !isalnum((unsigned char)p[-1])) && isupper((unsigned char)p[2]))
			return "cuda_driver";
	if (strcasestr(l, "cuda driver"))
		return "cuda_driver";
	if (strcasestr(l, "cuda"))
		return "cuda_runtime";
	return NULL;
}

size_t
code_by_number(const struct code_index *ix, const struct kb_log_pattern *rows, const char *line)
{
	static const char *const words[] = {"error", "code", "err", "failure", NULL};
	const struct kb_error_code *c;
	const char *lib = line_library(line), *p, *d;
	size_t k, row, n;
	unsigned long v;

	if (!lib)
		return SIZE_MAX;
	for (k = 0; words[k]; k++) {
		for (p = line; (p = strcasestr(p, words[k])); p += strlen(words[k])) {
			/* "error 35", "error #35", "error code: 100", "code=35" */
			d = p + strlen(words[k]);
			if (!strncasecmp(d, " code", 5))
				d += 5;
			d += strspn(d, " ");
			d += strspn(d, "#:=");
			d += strspn(d, " ");
			n = strspn(d, "0123456789");
			if (n == 0 || n > 4 || (d[n] == '.' && isdigit((unsigned char)d[n + 1])) ||
			    isalpha((unsigned char)d[n]))
				continue;
			v = strtoul(d, NULL, 10);
			/* cuDNN 9 numbers its codes from 1000; below are cuDNN 8's */
			if (v == 0 || !(c = kb_error_code(!strcmp(lib, "cudnn") && v < 1000 ? "cudnn8" : lib,
							  (unsigned)v)))
				continue;
			row = code_lookup(ix, (const unsigned char *)c->name, strlen(c->name));
			/* only a code whose cause is known: a bare number is weak */
			if (row != SIZE_MAX && strcmp(rows[row].finding, "rt.unknown"))
				return row;
		}
	}
	return SIZE_MAX;
}

/* A message this short is too common a phrase to stand for its code. */
#define MIN_MESSAGE 20

/* A message row needs the line to name the GPU stack. */
#define GPU_LINE "(cuda|cudnn|cublas|nccl|nvml|nvidia|gpu|device)"

static const char *
framework_of(const char *library)
{
	if (!strcmp(library, "nvml"))
		return "nvml";
	if (!strncmp(library, "cudnn", 5))
		return "cudnn";
	if (!strcmp(library, "nccl"))
		return "nccl";
	if (!strcmp(library, "cublas"))
		return "any";
	return "cuda";
}

/* s with '{' and '}' as '(' and ')': titles are templates (rank.c fill). */
static char *
plain(char *s)
{
	char *p;

	for (p = s; *p; p++)
		if (*p == '{' || *p == '}')
			*p = *p == '{' ? '(' : ')';
	return s;
}

static void
add_row(struct kb_log_pattern *r, const struct kb_error_code *c, bool message)
{
	const char *what = c->message[0] ? c->message : c->meaning;

	memset(r, 0, sizeof(*r));
	r->key = xasprintf("code.%s.%s%s", c->library, c->name, message ? ".message" : "");
	r->finding = c->finding;
	r->severity = "error";
	/* a code with no known cause goes with the cause the log shows, if any */
	r->role = strcmp(c->finding, "rt.unknown") ? "cause" : "symptom";
	r->framework = framework_of(c->library);
	r->anchor = message ? c->message : c->name;
	r->regex = message ? GPU_LINE : "";
	r->captures = message ? "-" : "";
	r->title = what[0] ? plain(xasprintf("%s (%u): %s", c->name, c->code, what))
			   : plain(xasprintf("%s (%u)", c->name, c->code));
	r->explain = plain(c->meaning[0] ? xasprintf("%s returned %s (%u): %s", c->library,
						     c->name, c->code, c->meaning)
				       : xasprintf("%s returned %s (%u)%s%s.", c->library, c->name,
						   c->code, c->message[0] ? ": " : "", c->message));
	r->fix = "";
	r->source = c->source;
}

struct kb_log_pattern *
code_patterns(size_t *n)
{
	const struct kb_error_code *codes;
	struct kb_log_pattern *rows;
	size_t ncodes, i, k = 0;

	*n = 0;
	codes = kb_list_error_codes(&ncodes);
	if (!ncodes)
		return NULL;
	rows = xcalloc(2 * ncodes, sizeof(*rows));
	for (i = 0; i < ncodes; i++) {
		const struct kb_error_code *c = &codes[i];
		size_t j;

		add_row(&rows[k++], c, false);
		/* a message once, from its first code, and only for a code whose
		 * cause is known (the others' names suffice: every anchor costs
		 * the matcher memory and start-up time) */
		if (!strcmp(c->finding, "rt.unknown") || strlen(c->message) < MIN_MESSAGE ||
		    strlen(c->message) >= 250)
			continue;
		for (j = 0; j < i && strcmp(codes[j].message, c->message); j++)
			;
		if (j == i)
			add_row(&rows[k++], c, true);
	}
	*n = k;
	return rows;
}

void
code_patterns_release(struct kb_log_pattern *rows, size_t n)
{
	size_t i;

	for (i = 0; rows && i < n; i++) {
		free((char *)rows[i].key);
		free((char *)rows[i].title);
		free((char *)rows[i].explain);
	}
	free(rows);
}

bool
code_is_name_row(const struct kb_log_pattern *r)
{
	size_t n = strlen(r->key);

	return !strncmp(r->key, "code.", 5) && (n < 8 || strcmp(r->key + n - 8, ".message"));
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
code_index_build(struct code_index *ix, const struct kb_log_pattern *rows, size_t n)
{
	size_t i, k = 0;
	char **tmp;

	memset(ix, 0, sizeof(*ix));
	tmp = xcalloc(n + 1, sizeof(*tmp));
	for (i = 0; i < n; i++) {
		size_t len, j;
		char *l;

		if (!code_is_name_row(&rows[i]))
			continue;
		/* "name\0" then the row number, so that one sort orders both */
		len = strlen(rows[i].anchor);
		l = xmalloc(len + 1 + sizeof(size_t));
		for (j = 0; j < len; j++)
			l[j] = (char)tolower((unsigned char)rows[i].anchor[j]);
		l[len] = '\0';
		memcpy(l + len + 1, &i, sizeof(i));
		tmp[k++] = l;
	}
	qsort(tmp, k, sizeof(*tmp), name_cmp);
	ix->names = tmp;
	ix->rows = xcalloc(k + 1, sizeof(*ix->rows));
	for (i = 0; i < k; i++)
		memcpy(&ix->rows[i], tmp[i] + strlen(tmp[i]) + 1, sizeof(size_t));
	ix->n = k;
}

void
code_index_release(struct code_index *ix)
{
	size_t i;

	for (i = 0; i < ix->n; i++)
		free(ix->names[i]);
	free(ix->names);
	free(ix->rows);
	memset(ix, 0, sizeof(*ix));
}

size_t
code_lookup(const struct code_index *ix, const unsigned char *s, size_t len)
{
	char want[128];
	size_t lo = 0, hi = ix->n, i;

	if (!ix->n || len == 0 || len >= sizeof(want))
		return SIZE_MAX;
	for (i = 0; i < len; i++)
		want[i] = (char)tolower(s[i]);
	want[len] = '\0';
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(want, ix->names[mid]);
		if (!c)
			return ix->rows[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return SIZE_MAX;
}
