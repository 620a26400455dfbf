/*
 * t_facts_json.c - the facts document round-trips: what --json writes,
 * --from reads back to the same struct facts; and bad documents are refused.
 */
#include "unit.h"

#include "base/str.h"
#include "diag/rule.h"
#include "render/facts_json.h"

#include <stdlib.h>
#include <string.h>

static bool
note_has(const struct facts *f, const char *text)
{
	int i;

	for (i = 0; i < f->nnotes; i++)
		if (strstr(f->notes[i].note, text))
			return true;
	return false;
}


static struct facts *
sample(void)
{
	struct facts *f = calloc(1, sizeof(*f));
	struct gpu_facts *g;

	facts_init(f);
	STR_COPY(f->tool_version, "0.1.0");
	STR_COPY(f->hostname, "h200-node");
	STR_COPY(f->collected_at, "2026-11-30T14:33:49Z");
	STR_COPY(f->host.os_id, "ubuntu");
	STR_COPY(f->host.os_pretty, "Ubuntu 24.04.3 LTS");
	STR_COPY(f->host.pkg_manager, "apt");
	f->host.cpu_valid = true;
	f->host.cpu_avx2 = true;
	f->host.cpu_count = 16;
	f->host.secure_boot = 0;
	f->host.uid = 1000;
	f->host.ngids = 2;
	f->host.gids[0] = 1000;
	f->host.gids[1] = 44;
	f->ngpus = 1;
	g = &f->gpus[0];
	STR_COPY(g->pci_bus_id, "0000:00:06.0");
	g->vendor = 0x10de;
	g->device = 0x2335;
	g->class_code = 0x030200;
	STR_COPY(g->name, "NVIDIA H200");
	STR_COPY(g->compute_capability, "9.0");
	g->memory_total_mib = 143771;
	g->nvml_valid = true;
	g->temperature_c = 32;
	g->power_mw = 106000;
	g->throttle_reasons = 0x4;
	f->nother_gpus = 1;
	STR_COPY(f->other_gpus[0].pci_bus_id, "0000:00:02.0");
	f->other_gpus[0].vendor = 0x8086;
	f->kmod.nvidia = true;
	STR_COPY(f->kmod.nvidia_version, "580.159.04");
	f->kmod.ndevnodes = 1;
	STR_COPY(f->kmod.devnodes[0].path, "/dev/nvidiactl");
	f->kmod.devnodes[0].exists = true;
	f->kmod.devnodes[0].mode = 0666;
	STR_COPY(f->driver.version, "580.159.04");
	STR_COPY(f->driver.cuda_version, "13.0");
	STR_COPY(f->driver.cuda_version_source, "derived");
	f->driver.cuda_state = CHILD_CRASHED;
	f->driver.cuda_signal = 11;
	f->driver.cuda_ms = 101.5;
	f->driver.nlibs = 1;
	STR_COPY(f->driver.libs[0].name, "libcuda");
	f->driver.libs[0].is_stub = true;
	f->nlibs = 2;
	STR_COPY(f->libs[0].name, "cudnn");
	STR_COPY(f->libs[0].version, "9.19.0");
	f->libs[0].origin = ORIGIN_PIP;
	STR_COPY(f->libs[1].name, "cudart");
	f->libs[1].origin = ORIGIN_TOOLKIT;
	f->env.nvars = 1;
	STR_COPY(f->env.vars[0].name, "CUDA_VISIBLE_DEVICES");
	f->env.vars[0].set = true; /* set to "" */
	f->env.nldpath = 1;
	STR_COPY(f->env.ldpath[0].dir, "/usr/local/nvidia/lib64");
	f->nprocs = 1;
	f->procs[0].pid = 4242;
	f->procs[0].used_mib = UINT64_MAX;
	f->procs[0].state = 'T';
	f->nnotes = 1;
	STR_COPY(f->notes[0].probe, "libs");
	STR_COPY(f->notes[0].note, "x");
	f->total_ms = 12.5;
	f->npython = 1;
	STR_COPY(f->python[0].path, "/opt/torch/.venv");
	STR_COPY(f->python[0].version, "3.12.3");
	STR_COPY(f->python[0].kind, "venv");
	f->python[0].active = true;
	f->python[0].npkgs = 1;
	STR_COPY(f->python[0].pkgs[0].name, "nvidia-cudnn-cu13");
	STR_COPY(f->python[0].pkgs[0].version, "9.19.0.56");
	f->python[0].nframeworks = 2;
	STR_COPY(f->python[0].frameworks[0].name, "torch");
	STR_COPY(f->python[0].frameworks[0].built_cuda, "13.0");
	f->python[0].frameworks[0].cuda_build = 1;
	f->python[0].frameworks[0].nresolved = 1;
	STR_COPY(f->python[0].frameworks[0].resolved[0].soname, "libcudnn.so.9");
	STR_COPY(f->python[0].frameworks[0].resolved[0].via, "rpath");
	f->python[0].frameworks[0].resolved[0].needed = true;
	/* the fat binaries' lists become arrays of strings, and back */
	STR_COPY(f->python[0].frameworks[0].targets.sass, "7.5 8.0 9.0a 10.0f");
	STR_COPY(f->python[0].frameworks[0].targets.ptx, "12.0");
	STR_COPY(f->python[0].frameworks[0].targets.ptx_isa, "9.0");
	STR_COPY(f->python[0].frameworks[0].targets.file, "/v/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so");
	f->python[0].frameworks[0].targets.fat_binaries = 444;
	f->python[0].frameworks[0].targets.sampled = true;
	f->python[0].frameworks[0].targets.ms = 3.5;
	STR_COPY(f->python[0].frameworks[1].name, "cupy");
	f->python[0].frameworks[1].cuda_build = -1;
	return f;
}

static void
test_round_trip(void **state)
{
	struct facts *a = sample(), *b = calloc(1, sizeof(*b));
	char err[128];
	json_t *doc = facts_to_json(a, NULL);

	facts_init(b);
	assert_int_equal(facts_from_json(doc, b, err, sizeof(err)), 0);
	assert_true(b->from_file);
	b->from_file = false;
	assert_memory_equal(a, b, sizeof(*a));
	json_decref(doc);
	free(a);
	free(b);
}

static void
test_paths_relied_on(void **state)
{
	struct facts *a = sample();
	json_t *doc = facts_to_json(a, NULL);
	json_t *gpu = json_array_get(json_object_get(doc, "gpus"), 0);
	json_t *lib = json_array_get(json_object_get(doc, "libs"), 0);

	assert_string_equal(json_string_value(json_object_get(doc, "schema")), "gpudoctor/facts/1");
	assert_string_equal(json_string_value(json_object_get(gpu, "pci_device_id")), "0x2335");
	assert_string_equal(json_string_value(json_object_get(gpu, "compute_capability")), "9.0");
	assert_int_equal(json_integer_value(json_object_get(gpu, "memory_total_mib")), 143771);
	assert_string_equal(json_string_value(json_object_get(lib, "origin")), "pip");
	assert_string_equal(json_string_value(json_object_get(json_object_get(doc, "driver"), "cuda_state")),
			    "crashed");
	assert_true(json_is_null(json_object_get(json_array_get(json_object_get(doc, "procs"), 0), "used_mib")));
	json_decref(doc);
	free(a);
}

static void
test_findings_json(void **state)
{
	struct findings fs;
	struct finding *fi;
	json_t *a, *o;

	findings_init(&fs);
	fi = findings_add(&fs, "kmod.nouveau_loaded", SEV_ERROR, "nouveau holds %s", "GPU 0");
	finding_evidence(fi, "/proc/modules lists nouveau");
	finding_fix(fi, "sudo update-initramfs -u");
	a = findings_to_json(&fs);
	o = json_array_get(a, 0);
	assert_string_equal(json_string_value(json_object_get(o, "id")), "kmod.nouveau_loaded");
	assert_string_equal(json_string_value(json_object_get(o, "severity")), "error");
	assert_string_equal(json_string_value(json_object_get(o, "layer")), "kmod");
	assert_string_equal(json_string_value(json_object_get(o, "title")), "nouveau holds GPU 0");
	assert_int_equal(json_array_size(json_object_get(o, "evidence")), 1);
	assert_string_equal(json_string_value(json_object_get(o, "fix")), "sudo update-initramfs -u");
	json_decref(a);
	findings_release(&fs);
}

static void
test_refuses_bad_documents(void **state)
{
	struct facts *f = calloc(1, sizeof(*f));
	char err[256];
	json_t *doc;

	facts_init(f);
	doc = json_loads("[1,2]", 0, NULL);
	assert_int_equal(facts_from_json(doc, f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not an object"));
	json_decref(doc);
	doc = json_loads("{\"schema\":\"gpudoctor/facts/9\"}", 0, NULL);
	assert_int_equal(facts_from_json(doc, f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "newer"));
	json_decref(doc);
	/* wrong types are unknown and said; oversized arrays capped; never fatal */
	doc = json_loads("{\"schema\":\"gpudoctor/facts/1\",\"host\":{\"uid\":\"x\",\"os_id\":5},"
			 "\"gpus\":[{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}],"
			 "\"libs\":7}", 0, NULL);
	assert_int_equal(facts_from_json(doc, f, err, sizeof(err)), 0);
	assert_int_equal(f->ngpus, MAX_GPUS);
	assert_int_equal(f->nlibs, 0);
	assert_true(f->unknown_parts & FACTS_PART_LIBS);
	assert_int_equal(f->gpus[0].temperature_c, -1);
	assert_true(note_has(f, ".host.uid is a string, not an integer"));
	assert_true(note_has(f, ".host.os_id is an integer, not a string"));
	assert_true(note_has(f, "a malformed .libs: the CUDA libraries are unknown"));
	json_decref(doc);
	free(f);
}

/* A part the document lacks is unknown, never empty: no rule concludes
 * "absent" from it, and writing the facts back keeps it null. */
static void
test_unknown_is_not_absent(void **state)
{
	struct facts *a = sample(), *b = calloc(1, sizeof(*b));
	struct findings fs;
	char err[128];
	json_t *doc = facts_to_json(a, NULL), *again;
	size_t i;

	(void)state;
	/* present but empty: the driver is missing, and doctor says so */
	json_object_set_new(doc, "driver", json_pack("{s:[]}", "libs"));
	json_object_set_new(json_object_get(doc, "host"), "valid", json_true());
	facts_init(b);
	assert_int_equal(facts_from_json(doc, b, err, sizeof(err)), 0);
	assert_int_equal(b->unknown_parts, 0);
	findings_init(&fs);
	rules_run(b, &fs);
	assert_true(findings_has(&fs, "driver.libcuda_missing"));
	findings_release(&fs);
	/* absent: unknown */
	json_object_del(doc, "driver");
	json_object_set_new(json_array_get(json_object_get(doc, "gpus"), 0), "memory_total_mib",
			    json_string("143771"));
	facts_init(b);
	assert_int_equal(facts_from_json(doc, b, err, sizeof(err)), 0);
	assert_int_equal(b->unknown_parts, FACTS_PART_DRIVER);
	assert_true(note_has(b, "no .driver: the driver is unknown here, not absent"));
	assert_true(note_has(b, ".gpus[0].memory_total_mib is a string"));
	assert_int_equal(b->gpus[0].memory_total_mib, 0);
	findings_init(&fs);
	rules_run(b, &fs);
	for (i = 0; i < fs.n; i++)
		assert_false(str_starts(fs.v[i].id, "driver."));
	findings_release(&fs);
	again = facts_to_json(b, NULL);
	assert_true(json_is_null(json_object_get(again, "driver")));
	json_decref(again);
	json_decref(doc);
	free(a);
	free(b);
}

/* Unknown values are null, never a number that could be read as an answer. */
static void
test_unknown_values_are_null(void **state)
{
	struct facts *a = sample();
	json_t *doc, *d, *n;

	(void)state;
	a->driver.cuinit_called = false;
	a->driver.cuinit_rc = 0;
	a->kmod.devnodes[0].exists = false;
	doc = facts_to_json(a, NULL);
	d = json_object_get(doc, "driver");
	assert_true(json_is_null(json_object_get(d, "cuinit_rc")));
	assert_true(json_is_null(json_object_get(d, "nvml_init_rc")));
	assert_true(json_is_null(json_object_get(d, "cuda_driver_version")));
	assert_int_equal(json_integer_value(json_object_get(d, "cuda_signal")), 11);
	n = json_array_get(json_object_get(json_object_get(doc, "kmod"), "devnodes"), 0);
	assert_true(json_is_null(json_object_get(n, "mode")));
	json_decref(doc);
	a->driver.cuinit_called = true;
	doc = facts_to_json(a, NULL);
	assert_true(json_is_integer(json_object_get(json_object_get(doc, "driver"), "cuinit_rc")));
	json_decref(doc);
	free(a);
}

/* Bytes that are not UTF-8 (a Latin-1 folder name) survive --json and
 * --from unchanged, and the document stays valid JSON. */
static void
test_bytes_round_trip(void **state)
{
	struct facts *a = sample(), *b = calloc(1, sizeof(*b));
	char err[128], *text;
	json_t *doc, *back;

	(void)state;
	/* (the rest of each field zero, as reading leaves it) */
	memset(a->hostname, 0, sizeof(a->hostname));
	memset(a->python[0].frameworks[0].targets.sass, 0, sizeof(a->python[0].frameworks[0].targets.sass));
	STR_COPY(a->hostname, "caf\xe9-\xff\x80");
	STR_COPY(a->python[0].path, "/home/jos\xe9/env \xc3\xa9t\xc3\xa9");
	STR_COPY(a->python[0].frameworks[0].targets.sass, "7.5 \xfe");
	doc = facts_to_json(a, NULL);
	assert_non_null(json_object_get(doc, "hostname"));
	assert_false(json_is_null(json_object_get(doc, "hostname")));
	text = json_dumps(doc, JSON_ENSURE_ASCII);
	assert_non_null(text);
	back = json_loads(text, 0, NULL);
	assert_non_null(back);
	facts_init(b);
	assert_int_equal(facts_from_json(back, b, err, sizeof(err)), 0);
	b->from_file = false;
	assert_memory_equal(a, b, sizeof(*a));
	free(text);
	json_decref(back);
	json_decref(doc);
	free(a);
	free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_paths_relied_on),
		cmocka_unit_test(test_findings_json),
		cmocka_unit_test(test_refuses_bad_documents),
		cmocka_unit_test(test_unknown_is_not_absent),
		cmocka_unit_test(test_unknown_values_are_null),
		cmocka_unit_test(test_bytes_round_trip),
	};
	return cmocka_run_group_tests_name("facts_json", tests, NULL, NULL);
}
