/*
 * deep.c - `doctor --deep`: ask each framework itself. For every framework
 * that probe_frameworks found, its environment's interpreter runs the small
 * program of deep_py.h in a child (sys/child.h: stdin and stderr /dev/null,
 * dies with gpudoctor, killed at the time limit), which imports that one
 * framework, asks it what it was built with and which GPUs it sees, and
 * lists the CUDA library files the process mapped. Its one JSON object
 * fills frameworks[].live.
 *
 * One child per framework, not per environment: in one process the first
 * framework's libraries would already be loaded when the second asks for
 * the same sonames, and the mapped files would no longer be its own. The
 * children run in parallel (at most one per CPU, 2..16 at once).
 *
 * The child's environment is gpudoctor's, plus TF_CPP_MIN_LOG_LEVEL=2
 * (quiet) and XLA_PYTHON_CLIENT_PREALLOCATE=false (JAX would otherwise
 * reserve 75% of every GPU's memory just to list the devices); neither
 * changes what a framework finds. Nothing runs unless the root is "/":
 * the interpreters of a fixture tree are not this machine's.
 *
 * Whose code runs as whom: an environment's interpreter and packages belong
 * to the environment's owner (the owner of its prefix directory), so they
 * run as that user, never as anyone with more rights: gpudoctor run as root
 * drops to the owner (its groups, HOME, USER) before the exec; run as
 * another user it skips environments that are neither its own nor root's.
 * An interpreter that others could have replaced (its file, or a directory
 * on its path, writable by group or others; a file owned by a third user)
 * is not run at all. live.run_uid / run_user say who each check ran as.
 */
#include "probe/probe.h"
#include "probe/deep_py.h"
#include "base/str.h"
#include "base/xalloc.h"
#include "sys/child.h"
#include "sys/root.h"
#include "sys/trust.h"

#include <grp.h>
#include <jansson.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEEP_MIN_TIMEOUT_MS 60000   /* import torch ~5 s, TensorFlow more */
#define DEEP_MAX_ANSWER (256u << 10)
#define DEEP_MAX_PARALLEL 16

/* Who runs an environment's interpreter. */
struct run_as {
	uid_t uid;
	gid_t gid;
	bool drop;                   /* change to uid/gid in the child (gpudoctor is root) */
	char user[32];               /* "" when the passwd database has no name */
	char home[PATH_MAX];
};

struct deep_job {
	const struct python_env_facts *env;
	struct framework_facts *fw;
	struct run_as as;
	struct child c;
};

#define EXIT_CANNOT_DROP 125

/* In the child: become the environment's owner, make the pipe its stdout
 * and become the interpreter. */
static void
deep_exec(void *arg, int fd)
{
	const struct deep_job *j = arg;

	if (j->as.drop) {
		if ((j->as.user[0] ? initgroups(j->as.user, j->as.gid) : setgroups(0, NULL)) < 0 ||
		    setgid(j->as.gid) < 0 || setuid(j->as.uid) < 0 || setuid(0) == 0)
			_exit(EXIT_CANNOT_DROP);
		if (j->as.home[0])
			setenv("HOME", j->as.home, 1);
		if (j->as.user[0]) {
			setenv("USER", j->as.user, 1);
			setenv("LOGNAME", j->as.user, 1);
		}
	}
	if (dup2(fd, 1) < 0)
		_exit(126);
	setenv("TF_CPP_MIN_LOG_LEVEL", "2", 1);
	setenv("XLA_PYTHON_CLIENT_PREALLOCATE", "false", 1);
	execl(j->env->interpreter, j->env->interpreter, "-B", "-c", DEEP_PY, j->fw->name, (char *)NULL);
	_exit(127);
}

/* The name, home and primary group of uid, from the passwd database (the
 * gid stays as it is when the database does not know the user). */
static void
user_of(uid_t uid, struct run_as *as)
{
	struct passwd pw, *res = NULL;
	char buf[4096];

	as->user[0] = as->home[0] = '\0';
	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) == 0 && res) {
		STR_COPY(as->user, pw.pw_name);
		STR_COPY(as->home, pw.pw_dir);
		if (as->drop)
			as->gid = pw.pw_gid;
	}
}

/*
 * Whether an environment's interpreter may run, and as whom. The owner is
 * the owner of the environment's prefix (of the interpreter when the
 * prefix cannot be read). false with the reason in why.
 */
static bool
deep_identity(const struct python_env_facts *e, struct run_as *as, char *why, size_t size)
{
	char real[PATH_MAX], dir[PATH_MAX], *slash;
	struct stat st, link;
	uid_t me = geteuid(), owner;

	memset(as, 0, sizeof(*as));
	if (!realpath(e->interpreter, real) || stat(real, &st) < 0) {
		str_fmt(why, size, "cannot resolve %s", e->interpreter);
		return false;
	}
	owner = st.st_uid;
	if (stat(e->path, &link) == 0)
		owner = link.st_uid;
	/* the file that runs, and every directory from it up to / */
	if (!trust_path(real, owner, why, size))
		return false;
	/* the symlink's own directory (venv/bin) too */
	STR_COPY(dir, e->interpreter);
	if ((slash = strrchr(dir, '/')) != NULL && slash != dir) {
		*slash = '\0';
		if (lstat(dir, &link) == 0 && trust_others_can_write(&link)) {
			str_fmt(why, size, "%s is in %s, which other users can write", e->interpreter, dir);
			return false;
		}
	}
	if (owner != me && me != 0 && owner != 0) {
		str_fmt(why, size, "the environment belongs to uid %u: run gpudoctor --deep as that user or "
			"as root", (unsigned)owner);
		return false;
	}
	as->uid = owner == 0 || me != 0 ? me : owner;
	as->drop = me == 0 && owner != 0;
	as->gid = getegid();
	if (as->drop)
		as->gid = stat(e->path, &link) == 0 ? link.st_gid : st.st_gid;
	user_of(as->uid, as);
	return true;
}

static void __attribute__((format(printf, 2, 3)))
set_error(struct framework_live_facts *lv, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(lv->error, sizeof(lv->error), fmt, ap);
	va_end(ap);
}

/* A JSON string (or null) into dst. */
static void
get_str(json_t *o, const char *key, char *dst, size_t size)
{
	json_t *v = json_object_get(o, key);

	if (json_is_string(v))
		str_copy(dst, size, json_string_value(v));
	else if (json_is_integer(v))
		str_fmt(dst, size, "%lld", (long long)json_integer_value(v));
}

/* A JSON array of strings, joined by sep, into dst (cut where it is full). */
static void
get_list(json_t *o, const char *key, const char *sep, char *dst, size_t size)
{
	json_t *a = json_object_get(o, key), *v;
	size_t i, n = 0;

	dst[0] = '\0';
	if (json_is_string(a)) {
		str_copy(dst, size, json_string_value(a));
		return;
	}
	json_array_foreach(a, i, v) {
		const char *s = json_is_string(v) ? json_string_value(v) : NULL;
		size_t need;

		if (!s)
			continue;
		need = strlen(s) + (n ? strlen(sep) : 0);
		if (n + need + 1 > size)
			break;
		if (n)
			n += (size_t)snprintf(dst + n, size - n, "%s", sep);
		n += (size_t)snprintf(dst + n, size - n, "%s", s);
	}
}

/* The program's answer into lv; -1 when it is not one. */
static int
parse_answer(struct framework_live_facts *lv, const char *name, const char *buf, size_t len)
{
	json_t *o, *v, *a;
	json_error_t je;
	size_t i;

	o = json_loadb(buf, len, 0, &je);
	if (!json_is_object(o) || !json_is_integer(json_object_get(o, "gpudoctor_deep"))) {
		json_decref(o);
		return -1;
	}
	v = json_object_get(o, "name");
	if (json_is_string(v) && strcmp(json_string_value(v), name)) {
		json_decref(o);
		return -1;
	}
	get_str(o, "error", lv->error, sizeof(lv->error));
	get_str(o, "version", lv->version, sizeof(lv->version));
	get_str(o, "module", lv->module, sizeof(lv->module));
	v = json_object_get(o, "cuda_build");
	if (json_is_boolean(v))
		lv->cuda_build = json_is_true(v);
	lv->cuda_available = json_is_true(json_object_get(o, "cuda_available"));
	v = json_object_get(o, "gpu_count");
	if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) < 1 << 20)
		lv->gpu_count = (int)json_integer_value(v);
	get_list(o, "devices", "; ", lv->devices, sizeof(lv->devices));
	get_str(o, "cuda", lv->cuda, sizeof(lv->cuda));
	get_str(o, "cudnn", lv->cudnn, sizeof(lv->cudnn));
	get_list(o, "arch_list", " ", lv->arch_list, sizeof(lv->arch_list));
	get_str(o, "capability", lv->capability, sizeof(lv->capability));
	a = json_object_get(o, "mapped");
	json_array_foreach(a, i, v) {
		if (lv->nmapped >= MAX_LIVE_MAPPED)
			break;
		if (json_is_string(v) && json_string_value(v)[0] == '/')
			STR_COPY(lv->mapped[lv->nmapped++], json_string_value(v));
	}
	json_decref(o);
	return 0;
}

/* Spell a mapped file as the prediction does when both name the same file
 * (a symlinked directory in the prediction's path, e.g. /usr/local/cuda),
 * so that rules can compare the two as strings. */
static void
spell_as_predicted(struct framework_facts *fw)
{
	struct framework_live_facts *lv = &fw->live;
	int i, k;

	for (i = 0; i < lv->nmapped && i < MAX_LIVE_MAPPED; i++) {
		struct stat m, p;

		if (stat(lv->mapped[i], &m) < 0)
			continue;
		for (k = 0; k < fw->nresolved && k < MAX_RESOLVED; k++) {
			const char *rp = fw->resolved[k].path;

			if (rp[0] && strcmp(rp, lv->mapped[i]) && stat(rp, &p) == 0 && p.st_dev == m.st_dev &&
			    p.st_ino == m.st_ino) {
				STR_COPY(lv->mapped[i], rp);
				break;
			}
		}
	}
}

/* Collect one child and fill its framework's live facts. */
static void
deep_finish(struct facts *f, struct deep_job *j, char *buf)
{
	struct framework_live_facts *lv = &j->fw->live;
	bool started = j->c.pid >= 0;
	struct child_result r;

	child_finish(&j->c, buf, DEEP_MAX_ANSWER, &r);
	lv->ms = r.ms;
	lv->state = r.state;
	if (r.state == CHILD_FAILED && r.exit_code == 0 && r.len > 0) {
		/* the normal end: EOF after a whole answer */
		lv->state = CHILD_OK;
		if (parse_answer(lv, j->fw->name, buf, r.len) < 0) {
			lv->state = CHILD_FAILED;
			STR_COPY(lv->error, "the interpreter's answer is not the program's JSON");
		} else {
			spell_as_predicted(j->fw);
		}
	} else if (r.state == CHILD_OK) {
		lv->state = CHILD_FAILED;
		set_error(lv, "the answer exceeds %u bytes", DEEP_MAX_ANSWER);
	} else if (r.state == CHILD_CRASHED) {
		lv->signal = r.signal;
		set_error(lv, "%s died of signal %d", j->env->interpreter, r.signal);
	} else if (r.state == CHILD_TIMEOUT) {
		set_error(lv, "no answer from %s within %d ms", j->env->interpreter, j->c.timeout_ms);
	} else if (!started) {
		set_error(lv, "cannot start a child to run %s", j->env->interpreter);
	} else if (r.exit_code == 127) {
		set_error(lv, "cannot run %s", j->env->interpreter);
	} else if (r.exit_code == EXIT_CANNOT_DROP) {
		set_error(lv, "cannot become uid %u to run %s", (unsigned)j->as.uid, j->env->interpreter);
	} else if (r.len == 0 && r.exit_code == 0) {
		set_error(lv, "%s exited without an answer", j->env->interpreter);
	} else {
		set_error(lv, "%s exited with status %d", j->env->interpreter, r.exit_code);
	}
	if (lv->state != CHILD_OK)
		facts_note(f, "deep", "%s in %s: %s", j->fw->name, j->env->path, lv->error);
}

static void
deep_start(struct deep_job *j, int timeout_ms)
{
	struct framework_live_facts *lv = &j->fw->live;

	memset(lv, 0, sizeof(*lv));
	lv->ran = true;
	lv->cuda_build = -1;
	lv->gpu_count = -1;
	lv->run_uid = (int)j->as.uid;
	STR_COPY(lv->run_user, j->as.user);
	if (child_start(&j->c, deep_exec, j, timeout_ms) < 0)
		j->c.pid = -1; /* child_finish reports it as failed */
}

static int
parallel_limit(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 2)
		return 2;
	return n > DEEP_MAX_PARALLEL ? DEEP_MAX_PARALLEL : (int)n;
}

void
probe_deep_limit(struct facts *f, const struct probe_opts *o, int timeout_ms)
{
	struct deep_job *jobs;
	char *buf;
	int i, k, n = 0, next = 0, par = parallel_limit();

	(void)o;
	if (strcmp(root_get(), "/")) {
		facts_note(f, "deep", "--deep runs the interpreters of this machine only, not under --root");
		return;
	}
	jobs = xcalloc((size_t)MAX_PYENVS * MAX_FRAMEWORKS, sizeof(*jobs));
	for (i = 0; i < f->npython && i < MAX_PYENVS; i++) {
		struct python_env_facts *e = &f->python[i];

		struct run_as as;
		char why[F_TEXT];

		if (!e->nframeworks)
			continue;
		if (!e->interpreter[0] || e->interpreter[0] != '/' || access(e->interpreter, X_OK)) {
			facts_note(f, "deep", "%s: no interpreter to run%s%s", e->path,
				   e->interpreter[0] ? " at " : "", e->interpreter);
			continue;
		}
		if (!deep_identity(e, &as, why, sizeof(why))) {
			facts_note(f, "deep", "%s: not run: %s", e->path, why);
			for (k = 0; k < e->nframeworks && k < MAX_FRAMEWORKS; k++) {
				struct framework_live_facts *lv = &e->frameworks[k].live;
				memset(lv, 0, sizeof(*lv));
				lv->ran = true;
				lv->state = CHILD_NOT_RUN;
				lv->cuda_build = -1;
				lv->gpu_count = -1;
				lv->run_uid = -1;
				set_error(lv, "not run: %s", why);
			}
			continue;
		}
		for (k = 0; k < e->nframeworks && k < MAX_FRAMEWORKS; k++) {
			jobs[n].env = e;
			jobs[n].fw = &e->frameworks[k];
			jobs[n].as = as;
			n++;
		}
	}
	buf = n ? xmalloc(DEEP_MAX_ANSWER) : NULL;
	/* a window of `par` children; each one's limit runs from its start */
	for (; next < n && next < par; next++)
		deep_start(&jobs[next], timeout_ms);
	for (i = 0; i < n; i++) {
		deep_finish(f, &jobs[i], buf);
		if (next < n)
			deep_start(&jobs[next++], timeout_ms);
	}
	free(buf);
	free(jobs);
}

void
probe_deep(struct facts *f, const struct probe_opts *o)
{
	int ms = o->timeout_ms > DEEP_MIN_TIMEOUT_MS ? o->timeout_ms : DEEP_MIN_TIMEOUT_MS;

	probe_deep_limit(f, o, ms);
}
