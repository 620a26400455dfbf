/*
 * cmd_diff.c - `gpudoctor diff A.json B.json`: two facts documents (two
 * machines, or one machine before and after) side by side: every fact
 * that differs, grouped by layer, and the findings only one has. For "it
 * works on node 3 but not on node 7". Text or --json.
 */
#include "cli/command.h"
#include "base/clean.h"
#include "base/str.h"
#include "diff/factsdiff.h"

#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const layers[] = {"host", "hw", "kmod", "driver", "libs", "env", "python", "procs", "other", NULL};

static void
diff_usage(FILE *out)
{
	fprintf(out,
		"usage: gpudoctor diff [OPTIONS] A.json B.json\n\n"
		"Compare two facts documents (gpudoctor doctor --json): two machines, or one\n"
		"machine before and after a change. Prints every fact that differs, by layer\n"
		"(host, hw, kmod, driver, libs, env, python, procs), lists matched by what\n"
		"names their items (a GPU by bus id, a library by path, a package by name),\n"
		"then the findings only one of them has. Times and the probes' notes are left\n"
		"out: they differ on every run.\n\n"
		"Options:\n"
		"  --json       print the comparison as JSON (schema gpudoctor/diff/1)\n"
		"  -h, --help   show this help\n\n"
		"Exit status: 0 nothing differs, 1 facts or warnings differ, 2 an error finding\n"
		"is in only one of them, 3 bad usage or a file that is not a facts document.\n");
}

static json_t *
load(const char *path)
{
	json_error_t e;
	struct stat st;
	json_t *doc;
	const char *schema;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "gpudoctor diff: '%s' is a directory, not a facts document\n", path);
		return NULL;
	}
	if (!(doc = json_load_file(path, 0, &e))) {
		fprintf(stderr, "gpudoctor diff: '%s': %s (line %d)\n", path, e.text, e.line);
		return NULL;
	}
	schema = json_string_value(json_object_get(doc, "schema"));
	if (!schema || strncmp(schema, "gpudoctor/facts/", 16)) {
		fprintf(stderr, "gpudoctor diff: '%s' is not a facts document (gpudoctor doctor --json)\n", path);
		json_decref(doc);
		return NULL;
	}
	return doc;
}

/* A JSON value for a person: strings without quotes, cleaned, cut. */
static void
shown(const char *v, char *out, size_t size)
{
	size_t n;

	if (!v) {
		str_copy(out, size, "(absent)");
		return;
	}
	if (v[0] == '"') {
		json_t *s = json_loads(v, JSON_DECODE_ANY, NULL);
		str_copy(out, size, json_is_string(s) ? json_string_value(s) : v);
		json_decref(s);
	} else {
		str_copy(out, size, v);
	}
	text_clean_str(out, size);
	n = strlen(out);
	if (n > 38 && size > 40) {
		out[36] = '.';
		out[37] = '.';
		out[38] = '\0';
	}
}

static const char *
name_of(json_t *doc, const char *path)
{
	const char *h = json_string_value(json_object_get(doc, "hostname"));

	return h && h[0] ? h : path;
}

int
cmd_diff(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct factsdiff d;
	json_t *a, *b;
	bool json = false, error_only = false;
	char na[80], nb[80];
	int c, l, rc;
	size_t i;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'h':
			diff_usage(stdout);
			return EXIT_HEALTHY;
		default:
			cli_option_error("diff", c, argv);
			return EXIT_TOOL_FAILED;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "gpudoctor diff: two facts documents are needed (gpudoctor diff A.json B.json)\n");
		return EXIT_TOOL_FAILED;
	}
	if (!(a = load(argv[optind])))
		return EXIT_TOOL_FAILED;
	if (!(b = load(argv[optind + 1]))) {
		json_decref(a);
		return EXIT_TOOL_FAILED;
	}
	factsdiff_run(a, b, &d);
	for (i = 0; i < d.nfindings; i++)
		if (!strcmp(d.findings[i].severity, "error"))
			error_only = true;
	rc = error_only ? EXIT_ERRORS : d.nitems || d.nfindings ? EXIT_WARNINGS : EXIT_HEALTHY;
	str_copy(na, sizeof(na), name_of(a, argv[optind]));
	str_copy(nb, sizeof(nb), name_of(b, argv[optind + 1]));
	text_clean_str(na, sizeof(na));
	text_clean_str(nb, sizeof(nb));
	if (!strcmp(na, nb)) {
		str_copy(na, sizeof(na), "A");
		str_copy(nb, sizeof(nb), "B");
	}
	if (json) {
		json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s}", "schema", "gpudoctor/diff/1", "a", argv[optind], "b",
				      argv[optind + 1], "a_name", na, "b_name", nb);
		json_t *ls = json_array(), *fs = json_array();
		for (l = 0; layers[l]; l++) {
			json_t *items = json_array();
			for (i = 0; i < d.nitems; i++) {
				if (strcmp(d.items[i].layer, layers[l]))
					continue;
				json_array_append_new(items, json_pack("{s:s,s:o,s:o}", "path", d.items[i].path, "a",
								       d.items[i].a ? json_loads(d.items[i].a, JSON_DECODE_ANY, NULL) : json_null(),
								       "b",
								       d.items[i].b ? json_loads(d.items[i].b, JSON_DECODE_ANY, NULL) : json_null()));
			}
			if (json_array_size(items))
				json_array_append_new(ls, json_pack("{s:s,s:o}", "layer", layers[l], "differences", items));
			else
				json_decref(items);
		}
		for (i = 0; i < d.nfindings; i++)
			json_array_append_new(fs, json_pack("{s:s,s:s,s:s,s:s,s:s}", "only_in", d.findings[i].side ? "b" : "a",
							    "id", d.findings[i].id, "severity", d.findings[i].severity, "title",
							    d.findings[i].title, "env", d.findings[i].env));
		json_object_set_new(o, "layers", ls);
		json_object_set_new(o, "findings", fs);
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_ENSURE_ASCII);
		fputc('\n', stdout);
		json_decref(o);
	} else if (!d.nitems && !d.nfindings) {
		printf("%s and %s: no fact and no finding differs.\n", na, nb);
	} else {
		printf("%-44s %-38s %s\n", "", na, nb);
		for (l = 0; layers[l]; l++) {
			bool head = false;
			for (i = 0; i < d.nitems; i++) {
				char va[48], vb[48], p[200];
				if (strcmp(d.items[i].layer, layers[l]))
					continue;
				if (!head)
					printf("%s\n", layers[l]);
				head = true;
				shown(d.items[i].a, va, sizeof(va));
				shown(d.items[i].b, vb, sizeof(vb));
				str_copy(p, sizeof(p), d.items[i].path);
				text_clean_str(p, sizeof(p));
				if (strlen(p) > 42)
					printf("  %s\n  %-42s %-38s %s\n", p, "", va, vb);
				else
					printf("  %-42s %-38s %s\n", p, va, vb);
			}
		}
		if (d.nfindings)
			printf("findings\n");
		for (i = 0; i < d.nfindings; i++) {
			char t[200], e[200];
			str_copy(t, sizeof(t), d.findings[i].title);
			text_clean_str(t, sizeof(t));
			str_copy(e, sizeof(e), d.findings[i].env);
			text_clean_str(e, sizeof(e));
			printf("  only on %s: %-7s %s  %s%s%s%s\n", d.findings[i].side ? nb : na, d.findings[i].severity,
			       d.findings[i].id, t, e[0] ? " (" : "", e, e[0] ? ")" : "");
		}
	}
	factsdiff_release(&d);
	json_decref(a);
	json_decref(b);
	return rc;
}
