/*
 * t_deep.c - doctor --deep (probe/deep.c) with stub interpreters: small
 * shell scripts in a temporary directory that ignore their arguments and
 * answer as the embedded program would (a healthy torch on the H200 that
 * agrees with the static facts, one that maps the system cuDNN instead of
 * the wheel's, one that imports another torch, one without a GPU, one whose
 * import fails), or misbehave (sleep past the limit, print garbage, die of
 * a signal). Each case checks framework_facts.live and what rule_fw makes
 * of it; one more runs the real embedded program under the machine's
 * python3 against a fake torch package. The runs use the root "/" because
 * the test names the interpreter itself; under another root nothing runs.
 */
#include "rules_facts.h"

#include "base/clock.h"
#include "probe/probe.h"
#include "render/facts_json.h"
#include "sys/child.h"
#include "sys/root.h"

#include <jansson.h>
#include <stdio.h>
#include <sys/stat.h>

#define LIMIT_MS 3000
#define SITE H200_SITE

static char tmpdir[64];

static int
setup_tmp(void **state)
{
	(void)state;
	str_copy(tmpdir, sizeof(tmpdir), "/tmp/t_deep.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int
teardown_tmp(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Write an executable /bin/sh script named `name` with `body`; returns its path. */
static const char *
stub(const char *name, const char *body)
{
	static char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp, "#!/bin/sh\n%s\n", body);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(chmod(path, 0755), 0);
	return path;
}

/* A stub that prints `json` (a here-document, so no quoting trouble). */
static const char *
stub_json(const char *name, const char *json)
{
	char body[4096];

	snprintf(body, sizeof(body), "cat <<'EOF'\n%s\nEOF", json);
	return stub(name, body);
}

/* The healthy H200 with its venv holding torch alone, run through `interp`. */
static struct facts *
h200_deep(const char *interp, int limit_ms)
{
	struct facts *f = healthy_h200();

	f->python[0].nframeworks = 1; /* torch */
	assert_string_equal(f->python[0].frameworks[0].name, "torch");
	STR_COPY(f->python[0].interpreter, interp);
	root_set(NULL);
	probe_deep_limit(f, &(struct probe_opts){.timeout_ms = 5000}, limit_ms);
	return f;
}

/* The answer of torch 2.11.0+cu130 on the H200, mapping `cudnn`. */
static void
torch_answer(char *out, size_t size, const char *version, const char *cudnn, bool available)
{
	snprintf(out, size,
		 "{\"gpudoctor_deep\": 1, \"name\": \"torch\", \"error\": null, \"version\": \"%s\",\n"
		 " \"module\": \"" SITE "/torch/__init__.py\", \"cuda_build\": true,\n"
		 " \"cuda_available\": %s, \"gpu_count\": %d, \"devices\": %s, \"cuda\": \"13.0\",\n"
		 " \"cudnn\": \"9.19.0\", \"arch_list\": [\"sm_80\", \"sm_90\", \"sm_100\"],\n"
		 " \"capability\": %s, \"mapped\": [\"" SITE "/nvidia/cu13/lib/libcudart.so.13\",\n"
		 " \"%s\", \"" SITE "/nvidia/cu13/lib/libcublas.so.13\", \"relative/libcuda.so.1\"]}",
		 version, available ? "true" : "false", available ? 1 : 0,
		 available ? "[\"NVIDIA H200\"]" : "[]", available ? "\"9.0\"" : "null", cudnn);
}

static void
test_healthy_agrees(void **state)
{
	char json[2048];
	struct findings fs;
	struct facts *f;
	const struct framework_live_facts *lv;

	(void)state;
	torch_answer(json, sizeof(json), "2.11.0+cu130", SITE "/nvidia/cudnn/lib/libcudnn.so.9", true);
	f = h200_deep(stub_json("healthy", json), LIMIT_MS);
	lv = &f->python[0].frameworks[0].live;
	assert_true(lv->ran);
	assert_int_equal(lv->state, CHILD_OK);
	assert_string_equal(lv->error, "");
	assert_string_equal(lv->version, "2.11.0+cu130");
	assert_int_equal(lv->cuda_build, 1);
	assert_true(lv->cuda_available);
	assert_int_equal(lv->gpu_count, 1);
	assert_string_equal(lv->devices, "NVIDIA H200");
	assert_string_equal(lv->cuda, "13.0");
	assert_string_equal(lv->cudnn, "9.19.0");
	assert_string_equal(lv->arch_list, "sm_80 sm_90 sm_100");
	assert_string_equal(lv->capability, "9.0");
	assert_int_equal(lv->nmapped, 3); /* the relative path is not a file name */
	assert_string_equal(lv->mapped[1], SITE "/nvidia/cudnn/lib/libcudnn.so.9");
	assert_true(lv->ms > 0 && lv->ms < LIMIT_MS);

	run_rule(rule_fw, f, &fs);
	assert_int_equal(count_id(&fs, "fw.prediction_mismatch"), 0);
	assert_int_equal(count_id(&fs, "fw.no_gpu_at_runtime"), 0);
	assert_int_equal(count_at_least(&fs, SEV_WARN), 0);
	findings_release(&fs);
	free(f);
}

static void
test_json_round_trip(void **state)
{
	char json[2048], err[128];
	struct facts *f, *g;
	const struct framework_live_facts *a, *b;
	json_t *doc, *live;

	(void)state;
	torch_answer(json, sizeof(json), "2.11.0+cu130", SITE "/nvidia/cudnn/lib/libcudnn.so.9", true);
	f = h200_deep(stub_json("roundtrip", json), LIMIT_MS);
	f->python[0].nframeworks = 3; /* jax and cupy back, not asked */
	doc = facts_to_json(f, NULL);
	live = json_object_get(json_array_get(json_object_get(json_array_get(json_object_get(doc, "python"), 0),
							      "frameworks"),
					      0),
			       "live");
	assert_true(json_is_object(live));
	assert_string_equal(json_string_value(json_object_get(live, "state")), child_state_name(CHILD_OK));
	assert_int_equal(json_array_size(json_object_get(live, "mapped")), 3);
	g = malloc(sizeof(*g));
	assert_non_null(g);
	facts_init(g);
	assert_int_equal(facts_from_json(doc, g, err, sizeof(err)), 0);
	a = &f->python[0].frameworks[0].live;
	b = &g->python[0].frameworks[0].live;
	assert_true(b->ran);
	assert_int_equal(b->state, a->state);
	assert_int_equal(b->cuda_build, 1);
	assert_int_equal(b->gpu_count, 1);
	assert_true(b->cuda_available);
	assert_string_equal(b->cudnn, a->cudnn);
	assert_string_equal(b->arch_list, a->arch_list);
	assert_int_equal(b->nmapped, a->nmapped);
	assert_string_equal(b->mapped[2], a->mapped[2]);
	/* a framework not asked: no .live, and it reads back as not run */
	assert_null((json_object_get(
		json_array_get(json_object_get(json_array_get(json_object_get(doc, "python"), 0), "frameworks"), 1),
		"live")));
	assert_false(g->python[0].frameworks[1].live.ran);
	json_decref(doc);
	free(g);
	free(f);
}

static void
test_cudnn_path_disagrees(void **state)
{
	char json[2048];
	const struct finding *fd;
	struct findings fs;
	struct facts *f;

	(void)state;
	torch_answer(json, sizeof(json), "2.11.0+cu130", "/usr/lib/x86_64-linux-gnu/libcudnn.so.9.14.0", true);
	f = h200_deep(stub_json("othercudnn", json), LIMIT_MS);
	assert_int_equal(f->python[0].frameworks[0].live.state, CHILD_OK);
	run_rule(rule_fw, f, &fs);
	assert_int_equal(count_id(&fs, "fw.prediction_mismatch"), 1);
	assert_int_equal(count_id(&fs, "fw.no_gpu_at_runtime"), 0);
	fd = find_id(&fs, "fw.prediction_mismatch");
	assert_int_equal(fd->severity, SEV_WARN);
	assert_string_equal(fd->env, H200_VENV);
	assert_true(evidence_has(fd, SITE "/nvidia/cudnn/lib/libcudnn.so.9"));
	assert_true(evidence_has(fd, "mapped /usr/lib/x86_64-linux-gnu/libcudnn.so.9.14.0"));
	assert_false(evidence_has(fd, "libcudart")); /* that one agrees */
	assert_true(fix_has(fd, "LD_DEBUG=libs"));
	findings_release(&fs);
	free(f);
}

static void
test_other_copy_imported(void **state)
{
	char json[2048];
	const struct finding *fd;
	struct findings fs;
	struct facts *f;

	(void)state;
	torch_answer(json, sizeof(json), "2.5.1+cu121", SITE "/nvidia/cudnn/lib/libcudnn.so.9", true);
	f = h200_deep(stub_json("othertorch", json), LIMIT_MS);
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "fw.prediction_mismatch");
	assert_non_null(fd);
	assert_true(evidence_has(fd, "predicted 2.11.0+cu130, imported 2.5.1+cu121"));
	assert_true(fix_has(fd, "pip show -f torch"));
	findings_release(&fs);
	free(f);
}

/* Every framework of the venv at once: one child each, in parallel; the
 * stub answers for the name it is given ($4) after a pause, and says CUDA
 * 12.8 where the prediction is 13.0. */
static void
test_parallel_and_cuda(void **state)
{
	const struct finding *fd;
	struct findings fs;
	struct facts *f = healthy_h200();
	double t0;
	int k;

	(void)state;
	STR_COPY(f->python[0].interpreter,
		 stub("pernamed", "sleep 0.4; echo \"{\\\"gpudoctor_deep\\\": 1, \\\"name\\\": \\\"$4\\\", "
				  "\\\"version\\\": \\\"0.11.2\\\", \\\"cuda\\\": \\\"12.8\\\", "
				  "\\\"cuda_available\\\": true, \\\"gpu_count\\\": 1}\""));
	root_set(NULL);
	t0 = clock_ms();
	probe_deep_limit(f, &(struct probe_opts){.timeout_ms = 5000}, LIMIT_MS);
	if (sysconf(_SC_NPROCESSORS_ONLN) >= 3)
		assert_true(clock_ms() - t0 < 1100); /* not 3 x 0.4 s one after another */
	for (k = 0; k < 3; k++) {
		assert_int_equal(f->python[0].frameworks[k].live.state, CHILD_OK);
		assert_string_equal(f->python[0].frameworks[k].live.cuda, "12.8");
	}
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "fw.prediction_mismatch");
	assert_non_null(fd);
	assert_true(evidence_has(fd, "built for CUDA: predicted 13.0, it says 12.8"));
	findings_release(&fs);
	free(f);
}

static void
test_no_gpu_at_runtime(void **state)
{
	char json[2048];
	const struct finding *fd;
	struct findings fs;
	struct facts *f;

	(void)state;
	torch_answer(json, sizeof(json), "2.11.0+cu130", SITE "/nvidia/cudnn/lib/libcudnn.so.9", false);
	f = h200_deep(stub_json("nogpu", json), LIMIT_MS);
	assert_false(f->python[0].frameworks[0].live.cuda_available);
	assert_int_equal(f->python[0].frameworks[0].live.gpu_count, 0);
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "fw.no_gpu_at_runtime");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_true(evidence_has(fd, "cuda_available false, 0 GPUs"));
	assert_true(evidence_has(fd, "NVIDIA H200"));
	assert_true(fix_has(fd, "torch.cuda.init()"));
	assert_int_equal(count_id(&fs, "fw.prediction_mismatch"), 0);
	findings_release(&fs);

	/* a machine-wide error below (the driver fails) explains it */
	findings_init(&fs);
	findings_add(&fs, "driver.init_failed", SEV_ERROR, "cuInit failed");
	rule_fw(f, &fs);
	assert_int_equal(count_id(&fs, "fw.no_gpu_at_runtime"), 0);
	findings_release(&fs);

	/* and so does CUDA_VISIBLE_DEVICES=-1 */
	set_env(f, "CUDA_VISIBLE_DEVICES", "-1");
	run_rule(rule_fw, f, &fs);
	assert_int_equal(count_id(&fs, "fw.no_gpu_at_runtime"), 0);
	findings_release(&fs);
	free(f);
}

static void
test_import_fails(void **state)
{
	const struct finding *fd;
	struct findings fs;
	struct facts *f;

	(void)state;
	f = h200_deep(stub_json("importfails",
				"{\"gpudoctor_deep\": 1, \"name\": \"torch\", \"error\": \"import torch: OSError: "
				"libcudnn.so.9: cannot open shared object file\", \"mapped\": []}"),
		      LIMIT_MS);
	assert_int_equal(f->python[0].frameworks[0].live.state, CHILD_OK);
	assert_string_equal(f->python[0].frameworks[0].live.version, "");
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "fw.no_gpu_at_runtime");
	assert_non_null(fd);
	assert_non_null(strstr(fd->title, "cannot be imported"));
	assert_true(evidence_has(fd, "libcudnn.so.9: cannot open"));
	findings_release(&fs);
	free(f);
}

static void
test_timeout(void **state)
{
	const struct framework_live_facts *lv;
	struct findings fs;
	struct facts *f;

	(void)state;
	f = h200_deep(stub("sleeper", "exec sleep 5"), 300);
	lv = &f->python[0].frameworks[0].live;
	assert_true(lv->ran);
	assert_int_equal(lv->state, CHILD_TIMEOUT);
	assert_true(lv->ms >= 290 && lv->ms < 2000);
	assert_non_null(strstr(lv->error, "within 300 ms"));
	assert_true(f->nnotes > 0);
	run_rule(rule_fw, f, &fs);
	assert_int_equal(count_id(&fs, "fw.no_gpu_at_runtime"), 0);
	assert_int_equal(count_id(&fs, "fw.prediction_mismatch"), 0);
	findings_release(&fs);
	free(f);
}

static void
test_garbage(void **state)
{
	const struct framework_live_facts *lv;
	struct findings fs;
	struct facts *f;

	(void)state;
	f = h200_deep(stub("garbage", "echo 'Traceback (most recent call last): {not json'"), LIMIT_MS);
	lv = &f->python[0].frameworks[0].live;
	assert_int_equal(lv->state, CHILD_FAILED);
	assert_non_null(strstr(lv->error, "not the program's JSON"));
	run_rule(rule_fw, f, &fs);
	assert_int_equal(count_id(&fs, "fw.no_gpu_at_runtime"), 0);
	findings_release(&fs);
	free(f);

	/* another framework's answer is not this one's */
	f = h200_deep(stub_json("wrongname", "{\"gpudoctor_deep\": 1, \"name\": \"jax\", \"version\": \"0.11.2\"}"),
		      LIMIT_MS);
	assert_int_equal(f->python[0].frameworks[0].live.state, CHILD_FAILED);
	free(f);

	/* an interpreter that exits with an error and says nothing */
	f = h200_deep(stub("exit3", "exit 3"), LIMIT_MS);
	assert_int_equal(f->python[0].frameworks[0].live.state, CHILD_FAILED);
	assert_non_null(strstr(f->python[0].frameworks[0].live.error, "status 3"));
	free(f);
}

static void
test_crash(void **state)
{
	const struct framework_live_facts *lv;
	const struct finding *fd;
	struct findings fs;
	struct facts *f;

	(void)state;
	f = h200_deep(stub("crasher", "ulimit -c 0; kill -SEGV $$"), LIMIT_MS);
	lv = &f->python[0].frameworks[0].live;
	assert_int_equal(lv->state, CHILD_CRASHED);
	assert_int_equal(lv->signal, 11);
	run_rule(rule_fw, f, &fs);
	fd = find_id(&fs, "fw.no_gpu_at_runtime");
	assert_non_null(fd);
	assert_non_null(strstr(fd->title, "signal 11"));
	findings_release(&fs);
	free(f);
}

static void
test_not_under_root(void **state)
{
	struct facts *f = healthy_h200();

	(void)state;
	STR_COPY(f->python[0].interpreter, stub("never", "touch \"$0.ran\""));
	root_set(tmpdir);
	probe_deep_limit(f, &(struct probe_opts){.timeout_ms = 5000}, LIMIT_MS);
	root_set(NULL);
	assert_false(f->python[0].frameworks[0].live.ran);
	assert_true(f->nnotes > 0);
	assert_int_not_equal(access(f->python[0].interpreter, F_OK), -1);
	{
		char ran[F_PATH + 8];
		snprintf(ran, sizeof(ran), "%s.ran", f->python[0].interpreter);
		assert_int_equal(access(ran, F_OK), -1);
	}
	free(f);
}

/* The real embedded program under this machine's python3, importing a
 * fake torch package (PYTHONPATH) that prints to stdout while importing. */
static void
test_real_program(void **state)
{
	static const char *const files[][2] = {
		{"torch/__init__.py", "print('noise on stdout')\n__version__ = '2.11.0+cu130'\n"
				      "from . import version, backends, cuda\n"},
		{"torch/version.py", "cuda = '13.0'\n"},
		{"torch/backends/__init__.py", "from . import cudnn\n"},
		{"torch/backends/cudnn.py", "def version():\n    return 91900\n"},
		{"torch/cuda.py", "def is_available():\n    return False\n"
				  "def get_arch_list():\n    return []\n"
				  "def device_count():\n    return 0\n"},
	};
	const struct framework_live_facts *lv;
	char dir[128], path[256];
	struct facts *f;
	size_t i;

	(void)state;
	if (access("/usr/bin/python3", X_OK) != 0)
		SKIP_BECAUSE("no /usr/bin/python3");
	snprintf(dir, sizeof(dir), "%s/fakesite", tmpdir);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/torch", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/torch/backends", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		FILE *fp;
		snprintf(path, sizeof(path), "%s/%s", dir, files[i][0]);
		fp = fopen(path, "w");
		assert_non_null(fp);
		fputs(files[i][1], fp);
		fclose(fp);
	}
	setenv("PYTHONPATH", dir, 1);
	f = h200_deep("/usr/bin/python3", 20000);
	unsetenv("PYTHONPATH");
	lv = &f->python[0].frameworks[0].live;
	assert_int_equal(lv->state, CHILD_OK);
	assert_string_equal(lv->error, "");
	assert_string_equal(lv->version, "2.11.0+cu130");
	assert_non_null(strstr(lv->module, "fakesite/torch/__init__.py"));
	assert_int_equal(lv->cuda_build, 1);
	assert_string_equal(lv->cuda, "13.0");
	assert_string_equal(lv->cudnn, "9.19.0");
	assert_false(lv->cuda_available);
	assert_int_equal(lv->gpu_count, 0);
	free(f);

	/* a framework that is not there: the import error, as text */
	f = h200_deep("/usr/bin/python3", 20000);
	lv = &f->python[0].frameworks[0].live;
	assert_int_equal(lv->state, CHILD_OK);
	assert_non_null(strstr(lv->error, "import torch"));
	free(f);
}

/* The H200 facts with their venv at `env`, run through `interp`. */
static struct facts *
env_deep(const char *env, const char *interp)
{
	struct facts *f = healthy_h200();

	f->python[0].nframeworks = 1;
	STR_COPY(f->python[0].path, env);
	STR_COPY(f->python[0].interpreter, interp);
	root_set(NULL);
	probe_deep_limit(f, &(struct probe_opts){.timeout_ms = 5000}, LIMIT_MS);
	return f;
}

/* An environment owned by another user runs as that user, never as root
 * (issue: a file an unprivileged user planted ran with uid 0). */
static void
test_runs_as_owner(void **state)
{
	char env[128], bin[160], path[192];
	const struct framework_live_facts *lv;
	struct facts *f;
	FILE *fp;

	(void)state;
	if (geteuid() != 0)
		SKIP_BECAUSE("dropping to the owner needs root (this run is uid %u)", (unsigned)geteuid());
	assert_int_equal(chmod(tmpdir, 0755), 0);
	snprintf(env, sizeof(env), "%s/home-nobody-venv", tmpdir);
	snprintf(bin, sizeof(bin), "%s/bin", env);
	snprintf(path, sizeof(path), "%s/python3", bin);
	assert_int_equal(mkdir(env, 0755), 0);
	assert_int_equal(mkdir(bin, 0755), 0);
	fp = fopen(path, "w");
	assert_non_null(fp);
	/* it answers with the uid it runs as in the version field */
	fprintf(fp, "#!/bin/sh\nprintf '{\"gpudoctor_deep\": 1, \"name\": \"torch\", \"version\": \"%%s\"}' \"$(id -u)\"\n");
	fclose(fp);
	assert_int_equal(chmod(path, 0755), 0);
	assert_int_equal(chown(path, 65534, 65534), 0);
	assert_int_equal(chown(bin, 65534, 65534), 0);
	assert_int_equal(chown(env, 65534, 65534), 0);
	f = env_deep(env, path);
	lv = &f->python[0].frameworks[0].live;
	assert_int_equal(lv->state, CHILD_OK);
	assert_int_equal(lv->run_uid, 65534);
	assert_string_equal(lv->version, "65534");
	free(f);
	/* root's own environment runs as root */
	assert_int_equal(chown(path, 0, 0), 0);
	assert_int_equal(chown(bin, 0, 0), 0);
	assert_int_equal(chown(env, 0, 0), 0);
	f = env_deep(env, path);
	lv = &f->python[0].frameworks[0].live;
	assert_int_equal(lv->run_uid, 0);
	assert_string_equal(lv->version, "0");
	free(f);
	/* a file of a third user in root's environment: not run */
	assert_int_equal(chown(path, 65534, 65534), 0);
	f = env_deep(env, path);
	lv = &f->python[0].frameworks[0].live;
	assert_int_equal(lv->state, CHILD_NOT_RUN);
	assert_non_null(strstr(lv->error, "belongs to uid 65534"));
	free(f);
}

/* An interpreter others could have replaced is not run at all. */
static void
test_refuses_writable(void **state)
{
	char dir[128], path[192];
	const struct framework_live_facts *lv;
	struct facts *f;
	int i;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/shared", tmpdir);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/python3", dir);
	assert_non_null(stub("shared/python3", "echo '{\"gpudoctor_deep\": 1}'"));
	/* a directory anyone can write (not sticky), then a group-writable file */
	assert_int_equal(chmod(dir, 0777), 0);
	f = env_deep(dir, path);
	lv = &f->python[0].frameworks[0].live;
	assert_true(lv->ran);
	assert_int_equal(lv->state, CHILD_NOT_RUN);
	assert_int_equal(lv->run_uid, -1);
	assert_non_null(strstr(lv->error, "other users can write"));
	for (i = 0; i < f->nnotes && !strstr(f->notes[i].note, "not run"); i++)
		;
	assert_true(i < f->nnotes);
	free(f);
	assert_int_equal(chmod(dir, 0755), 0);
	assert_int_equal(chmod(path, 0775), 0);
	f = env_deep(dir, path);
	lv = &f->python[0].frameworks[0].live;
	assert_int_equal(lv->state, CHILD_NOT_RUN);
	assert_non_null(strstr(lv->error, "can be changed by other users (mode 0775)"));
	free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthy_agrees),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_cudnn_path_disagrees),
		cmocka_unit_test(test_other_copy_imported),
		cmocka_unit_test(test_parallel_and_cuda),
		cmocka_unit_test(test_no_gpu_at_runtime),
		cmocka_unit_test(test_import_fails),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_crash),
		cmocka_unit_test(test_not_under_root),
		cmocka_unit_test(test_real_program),
		cmocka_unit_test(test_runs_as_owner),
		cmocka_unit_test(test_refuses_writable),
	};

	return cmocka_run_group_tests_name("deep", tests, setup_tmp, teardown_tmp);
}
