/*
 * from_facts.c - fleet rows from facts documents (gpudoctor doctor --json)
 * collected any way: a Slurm prolog writing /shared/gpudoctor/<host>.json,
 * scp, a configuration-management run. Files and directories (their
 * *.json) are read; a JSON file that is no facts document is skipped with
 * a warning.
 */
#include "fleet/fleet.h"
#include "base/str.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* "16.0 GT/s PCIe" -> the PCIe generation, 0 unknown. */
static int
gen_of(const char *speed)
{
	double gts = speed ? strtod(speed, NULL) : 0;

	return gts >= 60 ? 6 : gts >= 30 ? 5 : gts >= 15 ? 4 : gts >= 7 ? 3 : gts >= 4 ? 2 : gts >= 2 ? 1 : 0;
}

static double
num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : FLEET_NA;
}

static const char *
str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

static void
read_doc(struct fleet *f, json_t *doc, const char *path)
{
	struct fleet_node *n = fleet_add(f);
	json_t *gpus = json_object_get(doc, "gpus"), *g, *fs = json_object_get(doc, "findings"), *x;
	const char *when = str(doc, "collected_at");
	double usum = 0, worst_ratio = 2;
	int nutil = 0;
	size_t i;
	struct tm tm;

	str_copy(n->host, sizeof(n->host), str(doc, "hostname")[0] ? str(doc, "hostname") : path);
	str_copy(n->source, sizeof(n->source), path);
	str_copy(n->driver, sizeof(n->driver), str(json_object_get(doc, "driver"), "version"));
	str_copy(n->cuda, sizeof(n->cuda), str(json_object_get(doc, "driver"), "cuda_version"));
	n->gpus = 0;
	n->expected = (int)json_array_size(gpus);
	n->throttled = 0;
	json_array_foreach(gpus, i, g) {
		double t = num(g, "temperature_c"), u = num(g, "utilization_gpu"), used = num(g, "memory_used_mib"),
		       total = num(g, "memory_total_mib"), ecc = num(g, "ecc_uncorrected");
		int gc = gen_of(str(g, "link_speed_cur")), gm = gen_of(str(g, "link_speed_max"));
		double wc = num(g, "link_width_cur"), wm = num(g, "link_width_max");
		if (json_is_true(json_object_get(g, "cuda_valid")) || json_is_true(json_object_get(g, "nvml_valid")))
			n->gpus++;
		if (!n->model[0])
			str_copy(n->model, sizeof(n->model), str(g, "name"));
		else if (strcmp(n->model, str(g, "name")))
			str_copy(n->model, sizeof(n->model), "mixed");
		if (t != FLEET_NA && t > n->temp_max)
			n->temp_max = t;
		if (u != FLEET_NA) {
			usum += u;
			nutil++;
		}
		if (total > 0) {
			n->mem_total_mib = (n->mem_total_mib > 0 ? n->mem_total_mib : 0) + total;
			n->mem_used_mib = (n->mem_used_mib > 0 ? n->mem_used_mib : 0) + (used > 0 ? used : 0);
		}
		if (ecc != FLEET_NA)
			n->ecc_uncorrected = (n->ecc_uncorrected > 0 ? n->ecc_uncorrected : 0) + ecc;
		if (json_is_true(json_object_get(g, "throttle_valid")) &&
		    ((unsigned long long)num(g, "throttle_reasons") & 0xe8ULL))
			n->throttled++;
		if (gc && wc > 0) {
			double ratio = (gm ? (double)gc / gm : 1) * (wm > 0 ? wc / wm : 1);
			if (ratio < worst_ratio) {
				worst_ratio = ratio;
				if (ratio < 1)
					str_fmt(n->link, sizeof(n->link), "gen%d x%.0f (of %d x%.0f)", gc, wc, gm, wm);
				else
					str_fmt(n->link, sizeof(n->link), "gen%d x%.0f", gc, wc);
				n->link_degraded = ratio < 1;
			}
		}
	}
	if (nutil)
		n->util_avg = usum / nutil;
	n->errors = n->warnings = n->infos = 0;
	json_array_foreach(fs, i, x) {
		const char *sev = str(x, "severity");
		if (!strcmp(sev, "error"))
			n->errors++;
		else if (!strcmp(sev, "warn") || !strcmp(sev, "warning"))
			n->warnings++;
		else
			n->infos++;
	}
	memset(&tm, 0, sizeof(tm));
	if (when[0] && strptime(when, "%Y-%m-%dT%H:%M:%SZ", &tm))
		n->age_s = difftime(time(NULL), timegm(&tm));
}

static int
read_file(struct fleet *f, const char *path, bool from_dir, char *err, size_t errsize)
{
	json_error_t e;
	json_t *doc = json_load_file(path, 0, &e);
	const char *schema;

	if (!doc) {
		if (from_dir) {
			fprintf(stderr, "gpudoctor fleet: warning: skipping '%s': %s\n", path, e.text);
			return 0;
		}
		snprintf(err, errsize, "'%s': %s", path, e.text);
		return -1;
	}
	schema = json_string_value(json_object_get(doc, "schema"));
	if (!schema || strncmp(schema, "gpudoctor/facts/", 16)) {
		json_decref(doc);
		if (from_dir) {
			fprintf(stderr, "gpudoctor fleet: warning: skipping '%s': not a facts document\n", path);
			return 0;
		}
		snprintf(err, errsize, "'%s' is not a facts document (gpudoctor doctor --json)", path);
		return -1;
	}
	read_doc(f, doc, path);
	json_decref(doc);
	return 0;
}

int
fleet_from_facts(struct fleet *f, char **paths, int npaths, char *err, size_t errsize)
{
	int i;

	for (i = 0; i < npaths; i++) {
		struct stat st;
		if (stat(paths[i], &st) < 0) {
			snprintf(err, errsize, "'%s': no such file or directory", paths[i]);
			return -1;
		}
		if (S_ISDIR(st.st_mode)) {
			struct dirent **names;
			int n = scandir(paths[i], &names, NULL, alphasort), k;
			if (n < 0) {
				snprintf(err, errsize, "cannot read the directory '%s'", paths[i]);
				return -1;
			}
			for (k = 0; k < n; k++) {
				size_t len = strlen(names[k]->d_name);
				char full[4096];
				if (len > 5 && !strcmp(names[k]->d_name + len - 5, ".json")) {
					str_fmt(full, sizeof(full), "%s/%s", paths[i], names[k]->d_name);
					if (read_file(f, full, true, err, errsize) < 0)
						return -1;
				}
				free(names[k]);
			}
			free(names);
		} else if (read_file(f, paths[i], false, err, errsize) < 0) {
			return -1;
		}
	}
	if (!f->n) {
		snprintf(err, errsize, "no facts document found (gpudoctor doctor --json > HOST.json on each node)");
		return -1;
	}
	return 0;
}
