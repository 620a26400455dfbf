/*
 * t_explain.c - unit tests of `explain`'s parts: the multi-string matcher
 * (acmatch), the line reader (logread), line cleaning, and the engine on
 * a small pattern table of its own (longest anchor wins, captures and
 * their normal forms, symptoms folded into the cause, root causes taking
 * their consequences, the order, harmless and unknown lines, flat memory).
 */
#include "unit.h"
#include "explain_run.h"


#include "explain/acmatch.h"
#include "explain/explain.h"
#include "base/str.h"
#include "explain/lognorm.h"
#include "explain/logread.h"
#include "kb/kb.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- acmatch ---------------------------------------------------------- */

static void
acm_finds_overlapping_and_folds_case(void **state)
{
	struct acm *a = acm_new();
	struct acm_hit h[8];
	const char *text = "uSHERS and his";
	size_t n;

	(void)state;
	assert_int_equal(acm_add(a, "he", 2, 1), 0);
	assert_int_equal(acm_add(a, "she", 3, 2), 0);
	assert_int_equal(acm_add(a, "HIS", 3, 3), 0);
	assert_int_equal(acm_add(a, "hers", 4, 4), 0);
	assert_int_equal(acm_add(a, "", 0, 5), -1);
	assert_int_equal(acm_build(a), 0);
	assert_int_equal(acm_add(a, "late", 4, 6), -1);
	n = acm_scan(a, (const unsigned char *)text, strlen(text), h, 8);
	assert_int_equal(n, 4);
	/* "she" and "he" end at the same byte; each id once, first end */
	assert_int_equal(h[0].id, 2);
	assert_int_equal(h[0].end, 4);
	assert_int_equal(h[1].id, 1);
	assert_int_equal(h[1].end, 4);
	assert_int_equal(h[2].id, 4);
	assert_int_equal(h[2].end, 6);
	assert_int_equal(h[3].id, 3);
	assert_int_equal(h[3].end, strlen(text));
	/* the hit array is bounded */
	assert_int_equal(acm_scan(a, (const unsigned char *)text, strlen(text), h, 2), 2);
	assert_int_equal(acm_scan(a, (const unsigned char *)"xyz", 3, h, 8), 0);
	acm_free(a);
}

/* A string cut by the end of one text is found completed at the start of
 * the next, and the state says when enough of one was seen to wait for it. */
static void
acm_continues_across_texts(void **state)
{
	struct acm *a = acm_new();
	struct acm_hit h[8];
	unsigned st = 0;

	(void)state;
	assert_int_equal(acm_add(a, "driver version", 14, 1), 0);
	assert_int_equal(acm_add(a, "ab", 2, 2), 0);
	assert_int_equal(acm_build(a), 0);
	assert_int_equal(acm_scan_from(a, &st, (const unsigned char *)"the driver ver", 14, h, 8), 0);
	assert_true(acm_state_deep(st));
	assert_int_equal(acm_scan_from(a, &st, (const unsigned char *)"sion is", 7, h, 8), 1);
	assert_int_equal(h[0].id, 1);
	assert_int_equal(h[0].end, 4);               /* less than the string: begun before */
	st = 0;
	assert_int_equal(acm_scan_from(a, &st, (const unsigned char *)"xa", 2, h, 8), 0);
	assert_false(acm_state_deep(st));            /* one byte of "ab" is not enough */
	assert_int_equal(acm_scan_from(a, &st, (const unsigned char *)"b", 1, h, 8), 1);
	acm_free(a);
}

static void
acm_handles_binary_bytes(void **state)
{
	struct acm *a = acm_new();
	struct acm_hit h[4];
	unsigned char junk[4096];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)(i * 131 + 7);
	memcpy(junk + 1000, "\xff" "cuda\x00", 6);
	assert_int_equal(acm_add(a, "cuda", 4, 9), 0);
	assert_int_equal(acm_build(a), 0);
	assert_true(acm_scan(a, junk, sizeof(junk), h, 4) >= 1);
	assert_int_equal(h[0].id, 9);
	assert_int_equal(h[0].end, 1005);
	acm_free(a);
}

/* ---- logread ---------------------------------------------------------- */

struct seg {
	char text[64];
	size_t len;
	unsigned long line;
};

static size_t
read_all(struct logread *r, struct seg *out, size_t max)
{
	const unsigned char *s;
	size_t len, n = 0;
	unsigned long line;

	while (logread_next(r, &s, &len, &line) > 0 && n < max) {
		out[n].len = len;
		snprintf(out[n].text, sizeof(out[n].text), "%.*s", (int)(len < 63 ? len : 63), s);
		out[n].line = line;
		n++;
	}
	return n;
}

static void
logread_splits_lf_crlf_and_cr(void **state)
{
	const char *t = "one\r\ntwo\n\nepoch 1\repoch 2\rdone\nlast";
	struct logread r;
	struct seg s[16];
	size_t n;

	(void)state;
	logread_init_mem(&r, t, strlen(t));
	n = read_all(&r, s, 16);
	assert_int_equal(n, 6);
	assert_string_equal(s[0].text, "one");
	assert_int_equal(s[0].line, 1);
	assert_string_equal(s[1].text, "two");
	assert_int_equal(s[1].line, 2);
	assert_string_equal(s[2].text, "epoch 1");
	assert_int_equal(s[2].line, 4);
	assert_string_equal(s[3].text, "epoch 2");
	assert_int_equal(s[3].line, 4);
	assert_string_equal(s[4].text, "done");
	assert_int_equal(s[4].line, 4);
	assert_string_equal(s[5].text, "last");
	assert_int_equal(s[5].line, 5);
	assert_int_equal(r.line - 1 + r.partial, 5);
	assert_int_equal(r.bytes, strlen(t));
	logread_release(&r);
}

/* A file bigger than the buffer, with a line longer than a segment. */
static void
logread_refills_and_cuts_long_lines(void **state)
{
	char path[] = "/tmp/t_explain.XXXXXX";
	size_t longlen = LOGREAD_MAX_SEG * 2 + 100, i, segs = 0, total = 0;
	unsigned long line, maxline = 0;
	const unsigned char *s;
	struct logread r;
	size_t len;
	FILE *fp;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	for (i = 0; i < 40000; i++)
		fprintf(fp, "line %zu of a log that is larger than the read buffer\n", i + 1);
	for (i = 0; i < longlen; i++)
		fputc('x', fp);
	fputc('\n', fp);
	fputs("after\n", fp);
	fclose(fp);

	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	logread_init_fd(&r, fd);
	while (logread_next(&r, &s, &len, &line) > 0) {
		assert_true(len <= LOGREAD_MAX_SEG);
		assert_true(line >= maxline);
		maxline = line;
		if (line == 40001) {
			segs++;
			total += len;
		} else if (line <= 40000) {
			char want[80];
			snprintf(want, sizeof(want), "line %lu of a log", line);
			assert_memory_equal(s, want, strlen(want));
		} else {
			assert_int_equal(line, 40002);
			assert_memory_equal(s, "after", 5);
		}
	}
	assert_int_equal(segs, 3);
	assert_int_equal(total, longlen);
	assert_int_equal(maxline, 40002);
	assert_int_equal(r.line - 1 + r.partial, 40002);
	logread_release(&r);
	close(fd);
	unlink(path);
}

/* ---- the engine, on a table of its own -------------------------------- */

static char kbdir[64];

static const char table[] =
	"key\tfinding\tseverity\trole\tframework\tanchor\tregex\tcaptures\ttitle\texplain\tfix\tsource\n"
	"t.dso\tlib.cudnn_missing\terror\tcause\ttensorflow\tCould not load dynamic library\t"
	"Could not load dynamic library '(libcudnn[^']*)'\tsoname\tno {soname}\tmissing\t"
	"pip install x\\ngpudoctor plan tensorflow\ts\n"
	"t.dso.cudart\tlib.cudart_missing\terror\tcause\ttensorflow\t"
	"Could not load dynamic library 'libcudart\t"
	"Could not load dynamic library '(libcudart[^']*)'\tsoname\tno {soname}\tmissing\t\ts\n"
	"t.skip\tlib.cuda_lib_missing\terror\tsymptom\ttensorflow\tCannot dlopen some GPU libraries\t"
	"\t\tskipped the GPU\tfollows\t\ts\n"
	"t.cudnn\tlib.cudnn_version_mismatch\terror\tcause\ttensorflow\tLoaded runtime CuDNN library\t"
	"Loaded runtime CuDNN library: ([0-9.]+) but source was compiled with: ([0-9.]+)\t"
	"found expected\tcuDNN {found}, not {expected}\tmismatch\t\ts\n"
	"t.handle\trt.cudnn_init_failed\terror\tcause\ttensorflow\tCould not create cudnn handle\t"
	"\t\tno handle\thandle\t\ts\n"
	"t.jax\tlib.cudnn_version_mismatch\terror\tcause\tjax\tbut JAX was built against\t"
	"Found cuDNN version ([0-9]+), but JAX was built against version ([0-9]+)\t"
	"found expected\tcuDNN {found} vs {expected}\tjax\t\ts\n"
	"t.arch\tfw.arch_not_in_build\terror\tcause\ttorch\tis not compatible with the current PyTorch\t"
	"with CUDA capability (sm_[0-9]+) is not compatible\tcc\tcc {cc}\tarch\t\ts\n"
	"t.oom\tmem.oom\terror\tcause\ttorch\tCUDA out of memory\t"
	"Tried to allocate ([0-9.]+ [KMG]iB)\trequested\tasked {requested}\toom\t\ts\n"
	"t.numa\trt.benign_warning\tinfo\tbenign\ttensorflow\tNUMA node read from SysFS\t\t\tnuma\tok\t\ts\n"
	"t.avx\trt.benign_warning\tinfo\tbenign\ttensorflow\toptimized to use available CPU\t\t\tcpu\tok\t\ts\n"
	"t.ptx\tdriver.too_old\twarn\tcause\tcuda\tCUDA_ERROR_UNSUPPORTED_PTX_VERSION\t\t\tptx\told\t\ts\n";

/* Cues of its own: two groups each, one silenced by "host memory", one
 * with an expression that captures the compute capability. */
static const char cues[] =
	"key\tfinding\tseverity\trole\twords\tunless\tregex\tcaptures\ttitle\texplain\tfix\tsource\n"
	"cue.t_oom\tmem.oom\terror\tcause\tout of memory | oom + gpu | cuda\thost memory\t\t\t"
	"gpu oom\toom\t\ts\n"
	"cue.t_build\tfw.cpu_only_build\terror\tcause\tnot compiled with | built without + cuda*\t\t\t\t"
	"cpu build\tbuild\t\ts\n"
	"cue.t_cc\thw.arch_too_old\terror\tcause\tnot supported + compute capability\t\t"
	"capability ([0-9.]+)\tcc\ttoo old\told\t\ts\n"
	"cue.t_gate\trt.device_busy\terror\tcause\tquux + gpu\t\t\t\tquux\tq\t\ts\n";

static int
write_file(const char *dir, const char *name, const char *text)
{
	char path[128];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	if (!fp)
		return -1;
	fputs(text, fp);
	return fclose(fp);
}

static int
setup_kb(void **state)
{
	char err[512];

	(void)state;
	snprintf(kbdir, sizeof(kbdir), "/tmp/t_explain_kb.XXXXXX");
	if (!mkdtemp(kbdir))
		return -1;
	if (write_file(kbdir, "log_patterns.tsv", table) < 0 ||
	    write_file(kbdir, "log_cues.tsv", cues) < 0)
		return -1;
	if (kb_load_dir(kbdir, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	return 0;
}

static int
teardown_kb(void **state)
{
	char path[128];

	(void)state;
	kb_reset();
	snprintf(path, sizeof(path), "%s/log_patterns.tsv", kbdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/log_cues.tsv", kbdir);
	unlink(path);
	rmdir(kbdir);
	return 0;
}


static void
longest_anchor_wins_and_symptom_folds(void **state)
{
	struct explain x;

	(void)state;
	run_text(&x, "2024 I numa: successful NUMA node read from SysFS had negative value (-1)\n"
		     "W dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror\n"
		     "W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror\n"
		     "W gpu_device.cc:1850] Cannot dlopen some GPU libraries. Skipping\n");
	assert_int_equal(x.lines, 4);
	assert_int_equal(x.ncauses, 3);
	/* errors by layer, then first line: cudart (line 2) then cudnn */
	assert_string_equal(x.causes[0].id, "lib.cudart_missing");
	assert_string_equal(x.causes[0].title, "no libcudart.so.11.0");
	assert_int_equal(x.causes[0].lines[0], 2);
	/* the symptom went to the first cause */
	assert_int_equal(x.causes[0].nfolded, 1);
	assert_string_equal(x.causes[0].folded[0].id, "lib.cuda_lib_missing");
	assert_int_equal(x.causes[0].folded[0].line, 4);
	assert_string_equal(x.causes[1].id, "lib.cudnn_missing");
	/* the fix comes from the knowledge base and the log: cuDNN 8 for the
	 * CUDA 11 that libcudart.so.11.0 names, the newest cuDNN 8 for it */
	assert_true(str_starts(x.causes[1].fix, "Install cuDNN 8.9 for CUDA 11 (libcudnn.so.8 is cuDNN 8; "
						"the log also asks for libcudart.so.11.0"));
	assert_non_null(strstr(x.causes[1].fix, "\npip install 'nvidia-cudnn-cu11==8.9.*'\n"));
	assert_non_null(strstr(x.causes[1].fix, "\nAlternatives:\n- conda: "));
	assert_string_equal(explain_value(&x.causes[1], "soname"), "libcudnn.so.8");
	assert_string_equal(x.causes[2].id, "rt.benign_warning");
	assert_int_equal(x.causes[2].role, EXPLAIN_BENIGN);
	assert_int_equal(explain_worst(&x), SEV_ERROR);
	explain_release(&x);
}

/* One spelling for quotes, dashes, blanks and full-width characters. */
static void
lognorm_gives_one_spelling(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"couldn\u2019t communicate", "couldn't communicate"},
		{"library \u2018libcudart.so.11.0\u2019", "library 'libcudart.so.11.0'"},
		{"\u201cCUDA\u201d \u00abx\u00bb", "\"CUDA\" \"x\""},
		{"RuntimeError\uff1aCUDA error\uff1a no kernel\uff08x\uff09", "RuntimeError:CUDA error: no kernel(x)"},
		{"a\tb  c \t d", "a b c d"},
		{"a\u00a0\u00a0b\u3000c\u2009d", "a b c d"},
		{"ze\u200bro\ufeff", "zero"},
		{"CUDA\u2011capable \u2014 11\u221212", "CUDA-capable - 11-12"},
		{"\u4e2d\u6587 stays, as does \xff\xfe", "\u4e2d\u6587 stays, as does \xff\xfe"},
		{"\xe2\x80", "\xe2\x80"},        /* a cut sequence stays */
	};
	unsigned char out[256];
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const unsigned char *in = (const unsigned char *)cases[i].in;
		assert_true(lognorm_needed(in, strlen(cases[i].in)));
		n = lognorm(in, strlen(cases[i].in), out);
		assert_true(n <= strlen(cases[i].in));
		out[n] = '\0';
		assert_string_equal((char *)out, cases[i].out);
	}
	assert_false(lognorm_needed((const unsigned char *)"plain ASCII, one blank", 22));
	assert_false(lognorm_needed((const unsigned char *)"", 0));
	assert_true(lognorm_needed((const unsigned char *)"end ", 4) == false);
	assert_true(lognorm_needed((const unsigned char *)"two  ", 5));
}

/* The same message typed on another keyboard, pasted from a web page or
 * aligned with tabs is the same message. */
static void
typography_and_blanks_do_not_matter(void **state)
{
	struct explain x;

	(void)state;
	run_text(&x, "W dso_loader.cc:64]  Could not load dynamic library \u2018libcudart.so.11.0\u2019; "
		     "dlerror\n"
		     "W dso_loader.cc:64] Could\tnot load\u00a0dynamic library \uff07libcudnn.so.8\uff07; "
		     "dlerror\n");
	assert_int_equal(x.ncauses, 2);
	assert_string_equal(x.causes[0].id, "lib.cudart_missing");
	assert_string_equal(explain_value(&x.causes[0], "soname"), "libcudart.so.11.0");
	assert_string_equal(x.causes[1].id, "lib.cudnn_missing");
	assert_string_equal(explain_value(&x.causes[1], "soname"), "libcudnn.so.8");
	explain_release(&x);
}

/* A message wrapped by a terminal (cut inside a word) or by a mail
 * program (the blank dropped) is matched as one line, under the first
 * line's number; lines apart, or a blank line between, are not joined. */
static void
wrapped_lines_are_joined(void **state)
{
	struct explain x;

	(void)state;
	run_text(&x, "W dso_loader.cc:64] Could not load dyna\n"
		     "mic library 'libcudart.so.11.0'; dlerror\n"
		     "epoch 1\n"
		     "W dso_loader.cc:64] Could not load dynamic\n"
		     "library 'libcudnn.so.8'; dlerror\n");
	assert_int_equal(x.ncauses, 2);
	assert_string_equal(x.causes[0].id, "lib.cudart_missing");
	assert_int_equal(x.causes[0].lines[0], 1);
	assert_string_equal(explain_value(&x.causes[0], "soname"), "libcudart.so.11.0");
	assert_string_equal(x.causes[1].id, "lib.cudnn_missing");
	assert_int_equal(x.causes[1].lines[0], 4);
	explain_release(&x);

	run_text(&x, "W dso_loader.cc:64] Could not load dyna\n"
		     "\n"
		     "mic library 'libcudart.so.11.0'; dlerror\n");
	assert_int_equal(x.ncauses, 1);               /* a GPU line with "error": unknown */
	assert_string_equal(x.causes[0].id, "rt.unknown");
	explain_release(&x);
}

static void
captures_take_normal_forms(void **state)
{
	struct explain x;

	(void)state;
	run_text(&x, "RuntimeError: Found cuDNN version 8600, but JAX was built against version 90100\n"
		     "UserWarning: NVIDIA A40 with CUDA capability sm_86 is not compatible with the current PyTorch installation.\n");
	assert_int_equal(x.ncauses, 2);
	assert_string_equal(x.causes[0].id, "lib.cudnn_version_mismatch");
	assert_string_equal(x.causes[0].title, "cuDNN 8.6.0 vs 9.1.0");
	assert_string_equal(x.causes[1].id, "fw.arch_not_in_build");
	assert_string_equal(explain_value(&x.causes[1], "cc"), "8.6");
	explain_release(&x);
}

static void
root_cause_takes_consequence(void **state)
{
	struct explain x;

	(void)state;
	run_text(&x, "E Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR\n"
		     "E Loaded runtime CuDNN library: 8.1.0 but source was compiled with: 8.6.0.\n");
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "lib.cudnn_version_mismatch");
	assert_string_equal(x.causes[0].title, "cuDNN 8.1.0, not 8.6.0");
	assert_int_equal(x.causes[0].nfolded, 1);
	assert_string_equal(x.causes[0].folded[0].id, "rt.cudnn_init_failed");
	explain_release(&x);
}

static void
errors_before_warnings_and_unknown_last(void **state)
{
	struct explain x;

	(void)state;
	run_text(&x, "cuModuleLoad failed: CUDA_ERROR_UNSUPPORTED_PTX_VERSION\n"
		     "weird: cuda thing failed for no reason\n"
		     "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB\n"
		     "just a line\n");
	assert_int_equal(x.ncauses, 3);
	assert_string_equal(x.causes[0].id, "mem.oom");
	assert_string_equal(x.causes[0].title, "asked 20.00 MiB");
	assert_string_equal(x.causes[1].id, "driver.too_old");
	assert_string_equal(x.causes[2].id, "rt.unknown");
	assert_int_equal(x.causes[2].quotes[0].line, 2);
	assert_string_equal(x.causes[2].quotes[0].text, "weird: cuda thing failed for no reason");
	explain_release(&x);
}

/* A cause seen a million times keeps a bounded record. */
static void
memory_stays_flat(void **state)
{
	char err[256];
	struct explain x;
	const char *l = "W Could not load dynamic library 'libcudnn.so.8'; dlerror: x";
	unsigned long i;

	(void)state;
	assert_int_equal(explain_init(&x, err, sizeof(err)), 0);
	for (i = 1; i <= 1000000; i++)
		explain_line(&x, (const unsigned char *)l, strlen(l), i);
	explain_finish(&x);
	assert_int_equal(x.ncauses, 1);
	assert_int_equal(x.causes[0].count, 1000000);
	assert_int_equal(x.causes[0].nlines, EXPLAIN_MAX_LINES);
	assert_int_equal(x.causes[0].nquotes, EXPLAIN_MAX_QUOTES);
	explain_release(&x);
}

static void
harmless_only_is_healthy(void **state)
{
	struct explain x;

	(void)state;
	run_text(&x, "I This TensorFlow binary is optimized to use available CPU instructions\n"
		     "I successful NUMA node read from SysFS had negative value (-1)\n");
	assert_int_equal(x.ncauses, 2);
	assert_int_equal(x.causes[0].role, EXPLAIN_BENIGN);
	assert_int_equal(x.causes[1].role, EXPLAIN_BENIGN);
	assert_int_equal(explain_worst(&x), SEV_INFO);
	explain_release(&x);
}

/* A line no row explains is read by its words: every group, at word
 * bounds, none silenced; a row of the table comes first. */
static void
cues_read_what_no_row_knows(void **state)
{
	struct explain x;

	(void)state;
	/* the words of a cause, in a form no row knows */
	run_text(&x, "fatal: GPU 0 ran Out Of Memory while loading\n");
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "mem.oom");
	assert_string_equal(x.causes[0].pattern->key, "cue.t_oom");
	assert_int_equal(x.causes[0].role, EXPLAIN_CAUSE);
	explain_release(&x);
	/* '_' separates words; "oom" in "room" or "zoomed" is no word */
	run_text(&x, "event gpu_oom_kill\n");
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].pattern->key, "cue.t_oom");
	explain_release(&x);
	run_text(&x, "no room on the gpu; zoomed out\n");
	assert_int_equal(x.ncauses, 0);
	explain_release(&x);
	/* one group alone says nothing; an unless word silences the cue (the
	 * line is then an unexplained GPU error) */
	run_text(&x, "out of memory\n");
	assert_int_equal(x.ncauses, 0);
	explain_release(&x);
	run_text(&x, "error: CUDA kernel out of memory in host memory\n");
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "rt.unknown");
	explain_release(&x);
	/* a '*' word is a prefix: "cuda*" in "CUDAExecutionProvider" */
	run_text(&x, "this onnxruntime was built without CUDAExecutionProvider\n");
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "fw.cpu_only_build");
	explain_release(&x);
	/* a cue's expression captures values where it matches; the cue
	 * fires on its words either way */
	run_text(&x, "Device compute capability 3.0 not supported\n");
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "hw.arch_too_old");
	assert_string_equal(explain_value(&x.causes[0], "cc"), "3.0");
	explain_release(&x);
	run_text(&x, "error: compute capability not supported\n");
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].id, "hw.arch_too_old");
	assert_null(explain_value(&x.causes[0], "cc"));
	explain_release(&x);
	/* a line without an anchor is read for cues only when it holds an
	 * error word or a trigger word: a monitor's line that names the GPU
	 * is not ("quux" is no trigger) */
	run_text(&x, "GPU 0 quux 97 %, 41230 MiB\n");
	assert_int_equal(x.ncauses, 0);
	explain_release(&x);
	run_text(&x, "error: GPU 0 quux 97 %, 41230 MiB\n");
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].pattern->key, "cue.t_gate");
	explain_release(&x);
	/* a row of the table before the words of a cue */
	run_text(&x, "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0)\n");
	assert_int_equal(x.ncauses, 1);
	assert_string_equal(x.causes[0].pattern->key, "t.oom");
	explain_release(&x);
	/* a shape seen before gives the same cue (linememo) */
	run_text(&x, "step 1: GPU 0 out of memory\nstep 2: GPU 0 out of memory\n");
	assert_int_equal(x.ncauses, 1);
	assert_int_equal(x.causes[0].count, 2);
	assert_string_equal(x.causes[0].pattern->key, "cue.t_oom");
	explain_release(&x);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(acm_finds_overlapping_and_folds_case),
		cmocka_unit_test(acm_continues_across_texts),
		cmocka_unit_test(acm_handles_binary_bytes),
		cmocka_unit_test(logread_splits_lf_crlf_and_cr),
		cmocka_unit_test(logread_refills_and_cuts_long_lines),
		cmocka_unit_test(longest_anchor_wins_and_symptom_folds),
		cmocka_unit_test(lognorm_gives_one_spelling),
		cmocka_unit_test(typography_and_blanks_do_not_matter),
		cmocka_unit_test(wrapped_lines_are_joined),
		cmocka_unit_test(captures_take_normal_forms),
		cmocka_unit_test(root_cause_takes_consequence),
		cmocka_unit_test(errors_before_warnings_and_unknown_last),
		cmocka_unit_test(memory_stays_flat),
		cmocka_unit_test(harmless_only_is_healthy),
		cmocka_unit_test(cues_read_what_no_row_knows),
	};

	return cmocka_run_group_tests(tests, setup_kb, teardown_kb);
}
