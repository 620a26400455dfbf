/*
 * t_kb_tsv.c - the knowledge-base TSV reader (kb_tsv.c) and run-time
 * loading (kb_load_dir): every kind of bad input is refused with its
 * file:line, good input comes out typed and sorted, mangled input never
 * crashes, and a --kb directory replaces exactly the tables it holds, or
 * nothing when any of them is bad.
 */
#include "unit.h"

#include "kb/kb.h"
#include "kb/kb_schema.h"
#include "kb/kb_tsv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CD_HDR "cuda\trelease\tlinux_min\tlinux_minor_compat\twindows_min\twindows_minor_compat\tptx_isa\tsource\n"
#define GPU_HDR "device_id\tname\tarchitecture\tcompute_capability\tmemory_mib\tsegment\t" \
	"fp32_tflops\tfp16_tensor_tflops\tmem_bw_gbs\tsource\n"
#define TFF_HDR "version\twindows_native_gpu\tand_cuda_extra\tcpu_isa\tsource\n"
#define TFB_HDR "version\tplatform\tkind\tpython_min\tpython_max\tcuda\tcudnn\tcompiler\tsource\n"

static char err[4096];

/* Parse text as table t; returns the parse result, table in *out. */
static int
parse(enum kb_table t, const char *text, struct kb_tsv *out)
{
	return kb_tsv_parse(&kb_schemas[t], "x.tsv", text, strlen(text), out, err, sizeof(err));
}

/* Expect a failure whose first message starts with want. */
static void
expect_error(enum kb_table t, const char *text, const char *want)
{
	struct kb_tsv tab;

	if (parse(t, text, &tab) == 0) {
		kb_tsv_release(&tab);
		fail_msg("accepted, wanted %s", want);
	}
	assert_null(tab.rows);
	assert_int_equal(tab.count, 0);
	if (strncmp(err, want, strlen(want)))
		fail_msg("error \"%s\", wanted \"%s...\"", err, want);
}

static void
test_good_table(void **state)
{
	struct kb_tsv t;
	const struct kb_cuda_driver *r;

	(void)state;
	assert_int_equal(parse(KB_CUDA_DRIVER,
			       "# a comment\n"
			       "\n" CD_HDR
			       "12.4\t12.4.0 GA\t550.54.14\t525.60.13\t551.61\t527.41\t\tdoc a\r\n"
			       "  \t \n"
			       "9.0\t9.0.76\t384.81\t\t385.54\t\t6.0\tdoc b\n"
			       "10.0\t10.0.130\t410.48\t\t411.31\t\t\tdoc \"c\"", /* no final newline */
			       &t),
			 0);
	assert_string_equal(err, "");
	assert_int_equal(t.count, 3);
	r = t.rows;
	/* sorted numerically: 9.0 < 10.0 < 12.4 */
	assert_string_equal(r[0].cuda, "9.0");
	assert_string_equal(r[1].cuda, "10.0");
	assert_string_equal(r[2].cuda, "12.4");
	assert_string_equal(r[2].linux_minor_compat, "525.60.13");
	assert_string_equal(r[2].windows_minor_compat, "527.41");
	assert_string_equal(r[2].source, "doc a"); /* CR dropped */
	assert_string_equal(r[0].linux_minor_compat, "");
	assert_string_equal(r[1].source, "doc \"c\"");
	kb_tsv_release(&t);
	assert_null(t.rows);

	assert_int_equal(parse(KB_GPU_DEVICES, GPU_HDR
			       "0x2335\tNVIDIA H200\tHopper\t9.0\t144384\tdatacenter\t67\t989.5\t4800\ts\n"
			       "0x1DB4\tTesla V100\tVolta\t7.0\t16384\tdatacenter\t\t\t\ts\n",
			       &t),
			 0);
	assert_int_equal(t.count, 2);
	assert_int_equal(((const struct kb_gpu *)t.rows)[0].device_id, 0x1db4);
	assert_int_equal(((const struct kb_gpu *)t.rows)[1].device_id, 0x2335);
	assert_int_equal(((const struct kb_gpu *)t.rows)[1].memory_mib, 144384);
	assert_string_equal(((const struct kb_gpu *)t.rows)[1].fp16_tensor_tflops, "989.5");
	kb_tsv_release(&t);

	assert_int_equal(parse(KB_TF_FEATURES, TFF_HDR "2.10\tyes\tno\tavx\ts\n2.9\tyes\tno\t\ts\n", &t),
			 0);
	assert_true(((const struct kb_tf_feature *)t.rows)[1].windows_native_gpu);
	assert_false(((const struct kb_tf_feature *)t.rows)[1].and_cuda_extra);
	assert_string_equal(((const struct kb_tf_feature *)t.rows)[1].version, "2.10");
	kb_tsv_release(&t);
	kb_tsv_release(NULL);
}

static void
test_errors(void **state)
{
	(void)state;
	/* header */
	expect_error(KB_CUDA_DRIVER, "# c\ncuda\tlinux_min\tsource\n", "x.tsv:2: header must be");
	expect_error(KB_CUDA_DRIVER, "# only comments\n\n", "x.tsv: no header line");
	expect_error(KB_CUDA_DRIVER, "", "x.tsv: no header line");
	/* the header of another table */
	expect_error(KB_CUDA_DRIVER, GPU_HDR, "x.tsv:1: header must be");
	/* field count */
	expect_error(KB_CUDA_DRIVER, CD_HDR "12.4\t12.4.0\t550.54.14\t\t\tdoc\n",
		     "x.tsv:2: expected 8 tab-separated fields, found 6");
	expect_error(KB_CUDA_DRIVER, CD_HDR "\n# x\n12.4\t12.4.0\t550.54.14\t\t\t\t\tdoc\textra\n",
		     "x.tsv:4: expected 8 tab-separated fields, found 9");
	/* source */
	expect_error(KB_CUDA_DRIVER, CD_HDR "12.4\t12.4.0\t550.54.14\t\t\t\t\t\n",
		     "x.tsv:2: source is empty");
	/* required, versions, spaces, control characters */
	expect_error(KB_CUDA_DRIVER, CD_HDR "12.4\t12.4.0\t\t\t\t\t\tdoc\n",
		     "x.tsv:2: linux_min is empty");
	expect_error(KB_CUDA_DRIVER, CD_HDR "12.4\t12.4.0\t550.x\t\t\t\t\tdoc\n",
		     "x.tsv:2: linux_min is not a dotted version: 550.x");
	expect_error(KB_CUDA_DRIVER, CD_HDR "12.4.\t12.4.0\t550.1\t\t\t\t\tdoc\n",
		     "x.tsv:2: cuda is not a dotted version");
	expect_error(KB_CUDA_DRIVER, CD_HDR "12.4\t12.4.0\t550.1\t\t\t\t\t doc\n",
		     "x.tsv:2: source has leading or trailing spaces");
	expect_error(KB_CUDA_DRIVER, CD_HDR "12.4\t12.4.0\t550.1\t\t\t\t\tdo\x01" "c\n",
		     "x.tsv:2: source has a control character");
	/* duplicate key, also when written differently in the file */
	expect_error(KB_CUDA_DRIVER,
		     CD_HDR "12.4\t12.4.0\t550.54.14\t\t\t\t\tdoc\n"
			    "11.8\t11.8.0\t520.61.05\t\t\t\t\tdoc\n"
			    "12.4\t12.4.1\t550.54.15\t\t\t\t\tdoc\n",
		     "x.tsv:4: duplicate key 12.4 (first at line 2)");
	expect_error(KB_GPU_DEVICES,
		     GPU_HDR "0x2335\tA\tHopper\t9.0\t0\tdatacenter\t\t\t\ts\n"
			     "0x2335\tB\tHopper\t9.0\t0\tdatacenter\t\t\t\ts\n",
		     "x.tsv:3: duplicate key 0x2335 (first at line 2)");
	expect_error(KB_TF_BUILDS,
		     TFB_HDR "2.13.0\tlinux\tgpu\t3.8\t3.11\t11.8\t8.6\tClang\ts\n"
			     "2.13.0\tlinux\tcpu\t3.8\t3.11\t\t\tClang\ts\n"
			     "2.13.0\tlinux\tgpu\t3.8\t3.11\t11.8\t8.6\tClang\ts\n",
		     "x.tsv:4: duplicate key 2.13.0 linux gpu (first at line 2)");
	/* hex */
	expect_error(KB_GPU_DEVICES, GPU_HDR "2335\tA\tHopper\t9.0\t0\tdatacenter\t\t\t\ts\n",
		     "x.tsv:2: device_id is not a hex id");
	expect_error(KB_GPU_DEVICES, GPU_HDR "0x23g5\tA\tHopper\t9.0\t0\tdatacenter\t\t\t\ts\n",
		     "x.tsv:2: device_id is not a hex id");
	expect_error(KB_GPU_DEVICES, GPU_HDR "0x12345\tA\tHopper\t9.0\t0\tdatacenter\t\t\t\ts\n",
		     "x.tsv:2: device_id is not a hex id");
	expect_error(KB_GPU_DEVICES, GPU_HDR "0x\tA\tHopper\t9.0\t0\tdatacenter\t\t\t\ts\n",
		     "x.tsv:2: device_id is not a hex id");
	/* unsigned, numbers, allowed values */
	expect_error(KB_GPU_DEVICES, GPU_HDR "0x2335\tA\tHopper\t9.0\t-1\tdatacenter\t\t\t\ts\n",
		     "x.tsv:2: memory_mib is not an unsigned number: -1");
	expect_error(KB_GPU_DEVICES,
		     GPU_HDR "0x2335\tA\tHopper\t9.0\t99999999999\tdatacenter\t\t\t\ts\n",
		     "x.tsv:2: memory_mib is not an unsigned number");
	expect_error(KB_GPU_DEVICES, GPU_HDR "0x2335\tA\tHopper\t9.0\t0\tserver\t\t\t\ts\n",
		     "x.tsv:2: segment is not one of the allowed values: server");
	expect_error(KB_GPU_DEVICES, GPU_HDR "0x2335\tA\tHopper\t9.0\t0\tdatacenter\t6.7.1\t\t\ts\n",
		     "x.tsv:2: fp32_tflops is not a decimal number");
	/* yes / no */
	expect_error(KB_TF_FEATURES, TFF_HDR "2.10\tyes\tno\tavx\ts\n2.11\ttrue\tno\tavx\ts\n",
		     "x.tsv:3: windows_native_gpu must be yes or no: true");
	expect_error(KB_TF_FEATURES, TFF_HDR "2.11\tno\t\tavx\ts\n", "x.tsv:2: and_cuda_extra is empty");
	/* ranges: min > max */
	expect_error(KB_TF_BUILDS, TFB_HDR "2.13.0\tlinux\tgpu\t3.11\t3.8\t11.8\t8.6\tClang\ts\n",
		     "x.tsv:2: python_min 3.11 is above python_max 3.8");
	expect_error(KB_ARCH_SUPPORT,
		     "compute_capability\tarchitecture\tcuda_min\tcuda_max\tdriver_last_branch\ttegra\tsource\n"
		     "3.5\tKepler\t12.0\t11.8\t470\tno\ts\n",
		     "x.tsv:2: cuda_min 12.0 is above cuda_max 11.8");
	/* build_targets: compute-capability lists, and a build carries some code */
#define BT_HDR "framework\tversion_min\tversion_max\tplatform\tcuda\tsass\tptx\tsource\n"
	expect_error(KB_BUILD_TARGETS, BT_HDR "torch\t2.8.0\t\tlinux\t12.8\tsm_80\t\ts\n",
		     "x.tsv:2: sass is not an ascending list of compute capabilities");
	expect_error(KB_BUILD_TARGETS, BT_HDR "torch\t2.8.0\t\tlinux\t12.8\t9.0 8.0\t\ts\n",
		     "x.tsv:2: sass is not an ascending list");
	expect_error(KB_BUILD_TARGETS, BT_HDR "torch\t2.8.0\t\tlinux\t12.8\t9.0b\t\ts\n",
		     "x.tsv:2: sass is not an ascending list");
	expect_error(KB_BUILD_TARGETS, BT_HDR "torch\t2.8.0\t\tlinux\t12.8\t\t\ts\n",
		     "x.tsv:2: a build carries sass or ptx targets");
	expect_error(KB_BUILD_TARGETS, BT_HDR "torch\t2.8.0\t\tlinux\t12\t8.0\t\ts\n",
		     "x.tsv:2: cuda 12 is not major.minor");
	expect_error(KB_BUILD_TARGETS, BT_HDR "caffe\t2.8.0\t\tlinux\t12.8\t8.0\t\ts\n",
		     "x.tsv:2: framework is not one of the allowed values");
	expect_error(KB_BUILD_TARGETS, BT_HDR "torch\t2.9.0\t2.8.0\tlinux\t12.8\t8.0\t\ts\n",
		     "x.tsv:2: version_min 2.9.0 is above version_max 2.8.0");
	/* row rules */
	expect_error(KB_TF_BUILDS, TFB_HDR "2.13.0\tlinux\tcpu\t3.8\t3.11\t11.8\t\tClang\ts\n",
		     "x.tsv:2: a cpu row names no cuda or cudnn");
	expect_error(KB_TF_BUILDS, TFB_HDR "2.13.0\tmacos\tgpu\t3.8\t3.11\t\t\tClang\ts\n",
		     "x.tsv:2: macos rows are cpu rows");
	expect_error(KB_TF_BUILDS, TFB_HDR "2.13.0\tLinux\tgpu\t3.8\t3.11\t\t\tClang\ts\n",
		     "x.tsv:2: platform is not one of the allowed values");
	expect_error(KB_TORCH_BUILDS,
		     "version\tpython_min\tpython_max\tcuda_variants\tcuda_default\tsource\n"
		     "2.5.1\t3.9\t3.13\t11.8 12.1 12.4\t12.6\ts\n",
		     "x.tsv:2: cuda_default 12.6 is not in cuda_variants");
	expect_error(KB_TORCH_BUILDS,
		     "version\tpython_min\tpython_max\tcuda_variants\tcuda_default\tsource\n"
		     "2.5.1\t3.9\t3.13\t11.8  12.4\t12.4\ts\n",
		     "x.tsv:2: cuda_variants is not a space-separated list of versions");
	expect_error(KB_TORCH_BUILDS,
		     "version\tpython_min\tpython_max\tcuda_variants\tcuda_default\tsource\n"
		     "2.5.1\t3.9\t3.13\t11.8,12.4\t12.4\ts\n",
		     "x.tsv:2: cuda_variants is not a space-separated list of versions");
	/* bytes: NUL, bad UTF-8 */
	{
		static const char nul[] = CD_HDR "12.4\t12.4.0\t550.1\t\t\t\t\td\0c\n";
		struct kb_tsv t;

		assert_int_equal(kb_tsv_parse(&kb_schemas[KB_CUDA_DRIVER], "x.tsv", nul,
					      sizeof(nul) - 1, &t, err, sizeof(err)),
				 -1);
		assert_string_equal(err, "x.tsv:2: NUL byte in line");
	}
	expect_error(KB_CUDA_DRIVER, CD_HDR "12.4\t12.4.0\t550.1\t\t\t\t\td\xc3\x28\n",
		     "x.tsv:2: not valid UTF-8");
	expect_error(KB_CUDA_DRIVER, CD_HDR "12.4\t12.4.0\t550.1\t\t\t\t\td\xc0\xaf\n",
		     "x.tsv:2: not valid UTF-8");
}

/* Several errors are all reported, one per line; the err buffer is never
 * overrun however small. */
#define CUE_HDR "key\tfinding\tseverity\trole\twords\tunless\tregex\tcaptures\ttitle\texplain\tfix\tsource\n"

/* log_cues: words in groups, a '*' only at a word's end, cue.* keys,
 * expressions and captures as log_patterns' */
static void
test_log_cues(void **state)
{
	struct kb_tsv t;
	const struct kb_log_cue *r;

	(void)state;
	assert_int_equal(parse(KB_LOG_CUES, CUE_HDR "cue.a\tmem.oom\terror\tcause\t"
				"out of memory | oom* + gpu\tram\t\t\tt\te\t\tsrc doc\n", &t), 0);
	r = t.rows;
	assert_string_equal(r->words, "out of memory | oom* + gpu");
	kb_tsv_release(&t);
	expect_error(KB_LOG_CUES, CUE_HDR "a\tmem.oom\terror\tcause\tx1 + y1\t\t\t\tt\te\t\tsrc doc\n",
		     "x.tsv:2: key a does not begin with cue.");
	expect_error(KB_LOG_CUES, CUE_HDR "cue.a\tmem.oom\terror\tcause\tx*y + zz\t\t\t\tt\te\t\tsrc doc\n",
		     "x.tsv:2: words: \"x*y\" is not a word");
	expect_error(KB_LOG_CUES, CUE_HDR "cue.a\tmem.oom\terror\tcause\tab |  | cd\t\t\t\tt\te\t\tsrc doc\n",
		     "x.tsv:2: words: an empty or one-character word");
	expect_error(KB_LOG_CUES, CUE_HDR "cue.a\tmem.oom\terror\tcause\tab + cd +\t\t\t\tt\te\t\tsrc doc\n",
		     "x.tsv:2: words: ends with a separator");
	expect_error(KB_LOG_CUES, CUE_HDR "cue.a\tmem.oom\terror\tcause\t"
		     "a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9\t\t\t\tt\te\t\tsrc doc\n",
		     "x.tsv:2: words: more than 8 groups");
	expect_error(KB_LOG_CUES, CUE_HDR "cue.a\tmem.oom\terror\tcause\tab\tcd + ef\t\t\tt\te\t\tsrc doc\n",
		     "x.tsv:2: unless: groups (+) are for words only");
	expect_error(KB_LOG_CUES, CUE_HDR "cue.a\tmem.oom\terror\tbenign\tab\t\t\t\tt\te\t\tsrc doc\n",
		     "x.tsv:2: role");
	expect_error(KB_LOG_CUES, CUE_HDR "cue.a\tmem.oom\terror\tcause\tab\t\tcc ([0-9]+)\t\tt\te\t\tsrc doc\n",
		     "x.tsv:2: regex has 1 groups but 0 captures are named");
	expect_error(KB_LOG_CUES, CUE_HDR "cue.a\tmem.oom\terror\tcause\tab\t\tcc ([0-9]+)\tcc\tcc {cc}\te\t\tsrc doc\n",
		     "x.tsv:2: title: {cc} is not among the captures");
	expect_error(KB_LOG_CUES, CUE_HDR "cue.a\tmemoom\terror\tcause\tab\t\t\t\tt\te\t\tsrc doc\n",
		     "x.tsv:2: finding memoom is not layer.name");
}

static void
test_error_list(void **state)
{
	struct kb_tsv t;
	char small[12];
	const char *text = CD_HDR "12.4\t12.4.0\t\t\t\t\t\tdoc\n"
				  "x\t12.4.0\t1\t\t\t\t\tdoc\n";

	(void)state;
	assert_int_equal(parse(KB_CUDA_DRIVER, text, &t), -1);
	assert_non_null(strstr(err, "x.tsv:2: linux_min is empty\nx.tsv:3: cuda is not a dotted"));
	assert_int_equal(kb_tsv_parse(&kb_schemas[KB_CUDA_DRIVER], "x.tsv", text, strlen(text), &t,
				      small, sizeof(small)),
			 -1);
	assert_string_equal(small, "x.tsv:2: li");
	assert_int_equal(kb_tsv_parse(&kb_schemas[KB_CUDA_DRIVER], "x.tsv", text, strlen(text), &t,
				      NULL, 0),
			 -1);
}

static void
test_caps(void **state)
{
	struct kb_tsv t;
	size_t n = strlen(CD_HDR) + KB_TSV_MAX_LINE + 64, i;
	char *big = malloc(n + 1);

	(void)state;
	assert_non_null(big);
	i = strlen(CD_HDR "12.4\t12.4.0\t550.1\t\t\t\t\t");
	memcpy(big, CD_HDR "12.4\t12.4.0\t550.1\t\t\t\t\t", i);
	for (; i < n - 1; i++)
		big[i] = 'a';
	big[n - 1] = '\n';
	big[n] = '\0';
	assert_int_equal(parse(KB_CUDA_DRIVER, big, &t), -1);
	assert_non_null(strstr(err, "x.tsv:2: line longer than"));
	assert_int_equal(kb_tsv_parse(&kb_schemas[KB_CUDA_DRIVER], "x.tsv", big,
				      (size_t)KB_TSV_MAX_BYTES + 1, &t, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "larger than"));
	free(big);
}

/* Mangled copies of a good table (bytes flipped, lines cut) are either
 * accepted or refused with a message, never a crash (run under ASan). */
static void
test_mangled(void **state)
{
	const char *good = TFB_HDR "2.13.0\tlinux\tgpu\t3.8\t3.11\t11.8\t8.6\tClang 16\ts\n"
				   "2.10.0\twindows\tgpu\t3.7\t3.10\t11.2\t8.1\tMSVC 2019\ts\n"
				   "2.13.0\tmacos\tcpu\t3.8\t3.11\t\t\tClang\ts\n";
	size_t len = strlen(good), i, k;
	char *m = malloc(len);
	unsigned seed = 12345;
	static const char bytes[] = "\t\n\r\0 #.0x\x80\xff";

	(void)state;
	assert_non_null(m);
	for (i = 0; i < 3000; i++) {
		struct kb_tsv t;
		size_t cut;

		memcpy(m, good, len);
		for (k = 0; k < 1 + i % 4; k++) {
			seed = seed * 1103515245u + 12345u;
			m[(seed >> 8) % len] = bytes[(seed >> 20) % (sizeof(bytes) - 1)];
		}
		seed = seed * 1103515245u + 12345u;
		cut = i % 5 ? len : (seed >> 8) % len;
		if (kb_tsv_parse(&kb_schemas[KB_TF_BUILDS], "m.tsv", m, cut, &t, err, sizeof(err)) == 0)
			kb_tsv_release(&t);
		else
			assert_true(strncmp(err, "m.tsv:", 6) == 0);
	}
	free(m);
}

/* ---- kb_load_dir ------------------------------------------------------ */

static void
write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static void
remove_file(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

static void
test_load_dir(void **state)
{
	char dir[] = "/tmp/t_kb_tsv.XXXXXX";
	size_t builtin_gpus = kb_count(KB_GPU_DEVICES);
	size_t builtin_cuda = kb_count(KB_CUDA_DRIVER);
	const struct kb_gpu *h200 = kb_gpu_by_id(0x2335);
	struct kb_info info;
	char out[16];

	(void)state;
	assert_non_null(h200);
	assert_non_null(mkdtemp(dir));

	/* an empty directory holds no tables: an error */
	assert_int_equal(kb_load_dir(dir, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "none of the knowledge-base tables"));
	assert_int_equal(kb_load_dir("/nonexistent/kb", err, sizeof(err)), -1);
	assert_string_equal(err, "/nonexistent/kb: not a directory");
	assert_int_equal(kb_load_dir("", err, sizeof(err)), -1);

	/* one table replaced, the others stay compiled in */
	write_file(dir, "cuda_driver.tsv",
		   "# newer table\n" CD_HDR
		   "99.1\t99.1.0\t990.10\t900.1\t991.1\t901.1\t99.1\tfuture doc\n"
		   "12.4\t12.4.0\t550.54.14\t525.60.13\t551.61\t527.41\t\tdoc\n");
	write_file(dir, "unrelated.txt", "not a table\n");
	assert_int_equal(kb_load_dir(dir, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(kb_count(KB_CUDA_DRIVER), 2);
	assert_non_null(kb_cuda_driver("99.1"));
	assert_null(kb_cuda_driver("11.8"));
	assert_int_equal(kb_driver_max_cuda("995.1", out, sizeof(out)), 0);
	assert_string_equal(out, "99.1");
	assert_int_equal(kb_count(KB_GPU_DEVICES), builtin_gpus);
	assert_ptr_equal(kb_gpu_by_id(0x2335), h200);
	assert_int_equal(kb_info(KB_CUDA_DRIVER, &info), 0);
	assert_true(info.loaded);
	assert_string_equal(info.dir, dir);
	assert_int_equal(info.rows, 2);
	assert_string_equal(info.newest, "99.1");
	assert_int_equal(kb_info(KB_GPU_DEVICES, &info), 0);
	assert_false(info.loaded);
	assert_string_equal(info.dir, "");

	/* a directory with one bad table replaces nothing, good ones included */
	write_file(dir, "cuda_driver.tsv",
		   CD_HDR "77.0\t77.0.0\t770.1\t\t\t\t\tdoc\n");
	write_file(dir, "gpu_devices.tsv",
		   GPU_HDR "0x2335\tNVIDIA H200\tHopper\t9.0\t0\tdatacenter\t\t\t\ts\n"
			   "0xzz\tbad\tHopper\t9.0\t0\tdatacenter\t\t\t\ts\n");
	assert_int_equal(kb_load_dir(dir, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/gpu_devices.tsv:3: device_id is not a hex id"));
	assert_true(strncmp(err, dir, strlen(dir)) == 0);
	assert_non_null(kb_cuda_driver("99.1")); /* the earlier load still in use */
	assert_null(kb_cuda_driver("77.0"));
	assert_ptr_equal(kb_gpu_by_id(0x2335), h200);

	/* fixed: both replaced */
	write_file(dir, "gpu_devices.tsv",
		   GPU_HDR "0x2335\tNVIDIA H200\tHopper\t9.0\t0\tdatacenter\t\t\t\ts\n");
	assert_int_equal(kb_load_dir(dir, err, sizeof(err)), 0);
	assert_non_null(kb_cuda_driver("77.0"));
	assert_null(kb_cuda_driver("99.1"));
	assert_int_equal(kb_count(KB_GPU_DEVICES), 1);
	assert_ptr_not_equal(kb_gpu_by_id(0x2335), h200);
	assert_null(kb_gpu_by_id(0x1db4));

	/* back to the compiled-in tables */
	kb_reset();
	assert_int_equal(kb_count(KB_CUDA_DRIVER), builtin_cuda);
	assert_ptr_equal(kb_gpu_by_id(0x2335), h200);
	assert_non_null(kb_cuda_driver("11.8"));
	assert_int_equal(kb_info(KB_CUDA_DRIVER, &info), 0);
	assert_false(info.loaded);

	remove_file(dir, "cuda_driver.tsv");
	remove_file(dir, "gpu_devices.tsv");
	remove_file(dir, "unrelated.txt");
	assert_int_equal(rmdir(dir), 0);
}

/* The build's own tables load through kb_load_dir and give the same rows
 * as the compiled-in ones (tests run from the repository root). */
static void
test_load_data_kb(void **state)
{
	size_t t, i;
	size_t n[KB_NTABLES];
	struct stat st;

	(void)state;
	if (stat("data/kb/cuda_driver.tsv", &st) != 0)
		SKIP_BECAUSE("run from elsewhere than the top of the tree: no data/kb");
	for (t = 0; t < KB_NTABLES; t++)
		n[t] = kb_count((enum kb_table)t);
	if (kb_load_dir("data/kb", err, sizeof(err)) != 0)
		fail_msg("data/kb does not load: %s", err);
	for (t = 0; t < KB_NTABLES; t++) {
		const struct kb_schema *s = &kb_schemas[t];

		/* kb_data.c current (make kb-check) means equal counts */
		if (kb_count((enum kb_table)t) != n[t])
			fail_msg("%s: %zu rows in data/kb, %zu compiled in: run make kb", s->name,
				 kb_count((enum kb_table)t), n[t]);
		for (i = 0; i < n[t]; i++)
			assert_true(kb_row((enum kb_table)t, i) != NULL);
	}
	kb_reset();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_table),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_error_list),
		cmocka_unit_test(test_log_cues),
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_mangled),
		cmocka_unit_test(test_load_dir),
		cmocka_unit_test(test_load_data_kb),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
