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
#include "sys/root.h"

#include <string.h>
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
