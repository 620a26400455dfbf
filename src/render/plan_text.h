/*
 * plan_text.h - a plan (plan/plan.h) as install steps in the format asked
 * (pip, conda, docker, requirements), as text for people and as the JSON
 * object `plan --json` prints.
 *
 * Every command is written to be pasted as it is: package specifiers are
 * quoted for the shell (POSIX single quotes; double quotes on Windows).
 */
#ifndef GPUDOCTOR_PLAN_TEXT_H
#define GPUDOCTOR_PLAN_TEXT_H

#include "base/buf.h"
#include "plan/plan.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

enum plan_format { PLAN_FMT_PIP, PLAN_FMT_CONDA, PLAN_FMT_DOCKER, PLAN_FMT_REQUIREMENTS };

/* "pip", "conda", "docker", "requirements" -> enum plan_format; -1 unknown. */
int plan_format_parse(const char *s);
const char *plan_format_name(int format);

/* What the steps are: the lines to run (pip, conda), or the lines of a
 * file (docker: a Dockerfile, requirements: requirements.txt) followed by
 * the commands that use it (then). Each a newline-separated list. */
struct plan_steps {
	struct buf steps;
	struct buf then;
	const char *file;            /* "Dockerfile", "requirements.txt", NULL */
	char verify[64];             /* "gpudoctor doctor" */
	char verify_fw[160];         /* the framework's own GPU check */
};

/* Write the steps for plan p on machine m (p->ok must be true).
 * driver_fix: the commands that install the NVIDIA driver on this distro
 * (diag/fix.h), used when the plan installs one first; may be NULL. */
void plan_steps_make(const struct plan *p, const struct plan_machine *m, int format,
		     const char *driver_fix, struct plan_steps *s);
void plan_steps_release(struct plan_steps *s);

/* The one pip command that installs plan p's framework build, as the
 * steps print it ("python -m pip install torch==2.14.0 --index-url
 * https://download.pytorch.org/whl/cu126"), for p's version, variant, OS
 * and GPU alone; the caller frees it. */
char *plan_pip_command(const struct plan *p);

/* The `plan --json` object (new reference); s may be NULL when !p->ok. */
json_t *plan_to_json(const struct plan *p, const struct plan_machine *m, int format,
		     const struct plan_steps *s, const char *driver_fix);
/* The text report; 0, or -1 when writing failed. */
int plan_render_text(FILE *out, const struct plan *p, const struct plan_machine *m, int format,
		     const struct plan_steps *s, const char *driver_fix, bool color);

#endif
