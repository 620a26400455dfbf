/*
 * cli_facts.c - the facts a command works on, got the same way by doctor,
 * plan and explain: read back from a `doctor --json` document (--from), or
 * probed on this machine or under a fixture tree (--root). Under a root
 * other than "/" no library of the tree is loaded (their constructors would
 * run as the caller) unless --load-root asks for it.
 */
#include "cli/command.h"
#include "facts.h"
#include "probe/probe.h"
#include "render/facts_json.h"
#include "base/str.h"
#include "sys/root.h"
#include "sys/trust.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

int
cli_facts(const char *from, const char *root, const struct probe_opts *po, struct facts *f)
{
	struct stat st;

	facts_init(f);
	if (from) {
		char err[256];
		int i;

		if (facts_load_file(from, f, err, sizeof(err)) < 0) {
			fprintf(stderr, "gpudoctor: %s\n", err);
			return -1;
		}
		/* what is missing or malformed in the document: said where it is seen */
		for (i = 0; i < f->nnotes; i++)
			if (!strcmp(f->notes[i].probe, "from"))
				fprintf(stderr, "gpudoctor: warning: %s: %s\n", from, f->notes[i].note);
		facts_derive(f);
		return 0;
	}
	if (root && (stat(root, &st) < 0 || !S_ISDIR(st.st_mode))) {
		fprintf(stderr, "gpudoctor: --root '%s' is not a directory\n", root);
		return -1;
	}
	root_set(root);
	if (root && !root_is_host() && !po->load_root && !po->no_driver_calls) {
		/* a tree is read, never run: a mounted disk image or a container's
		 * root file system may hold anyone's libraries */
		struct probe_opts ro = *po;

		ro.no_driver_calls = true;
		ro.no_load_why = "--root: nothing from the tree is loaded; --load-root loads its libraries";
		probe_all(f, &ro);
		return 0;
	}
	probe_all(f, po);
	return 0;
}

/* The NVML of a fixture tree: the copy its loader would pick, a real ELF
 * object not writable by others. */
int
cli_fixture_nvml(const char *cmd, const char *root, char *out, size_t size)
{
	struct probe_opts po = {.timeout_ms = 5000, .no_driver_calls = true};
	struct facts *f = malloc(sizeof(*f));
	char path[PATH_MAX], real[PATH_MAX], why[256];
	struct stat st;
	int i, pick = -1;

	if (stat(root, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "gpudoctor %s: --root '%s' is not a directory\n", cmd, root);
		free(f);
		return -1;
	}
	if (!f)
		return -1;
	root_set(root);
	facts_init(f);
	probe_driverlibs(f, &po);
	for (i = 0; i < f->driver.nlibs && i < MAX_DRIVER_LIBS; i++) {
		const struct driver_lib_facts *d = &f->driver.libs[i];
		if (strcmp(d->name, "libnvidia-ml") || d->is_stub || !d->is_elf)
			continue;
		if (pick < 0 || d->loader_pick)
			pick = i;
	}
	if (pick < 0) {
		fprintf(stderr, "gpudoctor %s: no loadable libnvidia-ml in '%s'\n", cmd, root);
		free(f);
		return -1;
	}
	root_path(f->driver.libs[pick].real_path[0] ? f->driver.libs[pick].real_path : f->driver.libs[pick].path, path,
		  sizeof(path));
	free(f);
	if (!realpath(path, real) || !trust_path(real, getuid(), why, sizeof(why))) {
		fprintf(stderr, "gpudoctor %s: not loading '%s': %s\n", cmd, path, realpath(path, real) ? why : "missing");
		return -1;
	}
	str_copy(out, size, real);
	return 0;
}

json_t *
cli_bench_doc(const char *cmd, const char *path)
{
	json_error_t e;
	struct stat st;
	json_t *doc;
	const char *schema;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0) {
		fprintf(stderr, "gpudoctor %s: --bench '%s': %s\n", cmd, path, strerror(errno));
		return NULL;
	}
	/* a regular file of a bench document's size: never a device, a FIFO, a
	 * file that never ends (serve and report may read it as root) */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > (16 << 20)) {
		fprintf(stderr, "gpudoctor %s: --bench '%s': %s: not a gpudoctor bench --json document\n", cmd,
			path, S_ISREG(st.st_mode) ? "more than 16 MiB" : "not a regular file");
		close(fd);
		return NULL;
	}
	doc = json_loadfd(fd, 0, &e);
	close(fd);
	schema = doc ? json_string_value(json_object_get(doc, "schema")) : NULL;
	if (!doc || !json_is_object(doc) || !schema || strcmp(schema, "gpudoctor/bench/1") ||
	    !json_is_array(json_object_get(doc, "tests"))) {
		fprintf(stderr, "gpudoctor %s: --bench '%s': not a gpudoctor bench --json document%s%s\n", cmd,
			path, doc ? "" : ": ", doc ? "" : e.text);
		json_decref(doc);
		return NULL;
	}
	return doc;
}

int
cli_check_pythons(struct probe_opts *po, const char *root)
{
	static char real[8][PATH_MAX];
	int i;

	for (i = 0; i < po->nextra_pythons && i < 8; i++) {
		if (root) {
			if (po->extra_pythons[i][0] != '/') {
				fprintf(stderr, "gpudoctor: --python '%s': with --root, a path inside the tree "
						"(starting with /)\n", po->extra_pythons[i]);
				return -1;
			}
		} else if (!realpath(po->extra_pythons[i], real[i])) {
			fprintf(stderr, "gpudoctor: --python '%s': %s\n", po->extra_pythons[i], strerror(errno));
			return -1;
		} else {
			po->extra_pythons[i] = real[i];
		}
	}
	return 0;
}
