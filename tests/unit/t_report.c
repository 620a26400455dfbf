/*
 * t_report.c - the report's redactor (report/redact.c) on the forms user
 * names, hosts, UUIDs, serials and addresses take in facts and logs, and
 * on the versions that look like addresses but are not; the Markdown back
 * end's escaping, fences and cut (report/markdown.c).
 */
#include "unit.h"

#include "report/redact.h"
#include "report/writer.h"

#include <stdlib.h>
#include <string.h>

static void
expect(struct redact *r, const char *in, const char *want)
{
	char *got = redact_dup(r, in);

	assert_non_null(got);
	if (strcmp(got, want))
		fail_msg("redact '%s':\n   got '%s'\n  want '%s'", in, got, want);
	free(got);
}

static void
users_and_hosts(void **state)
{
	struct redact *r = redact_new(true);

	redact_host(r, "dgx-lab-07.example.org");
	redact_learn(r, "(base) mei@gpu-box:~/src$ python x.py");
	/* home directories, in every form a path takes */
	expect(r, "/home/ana/proj/.venv/bin/python3", "/home/<user2>/proj/.venv/bin/python3");
	expect(r, "/home/ana", "/home/<user2>");
	expect(r, "C:\\Users\\Ana\\AppData\\Local", "C:\\Users\\<user2>\\AppData\\Local");
	expect(r, "/Users/bob/miniforge3", "/Users/<user3>/miniforge3");
	/* the prompt's user, found before it was seen in a path */
	expect(r, "/home/mei/x and mei@gpu-box", "/home/<user>/x and <user>@<host>");
	/* a known user as a word of prose, but not inside other words */
	expect(r, "owned by ana, not banana", "owned by <user2>, not banana");
	/* the host, full and short, but not as part of a longer name */
	expect(r, "dgx-lab-07.example.org dgx-lab-07:4242 dgx-lab-070", "<host> <host>:4242 dgx-lab-070");
	/* root and an ordinary word stay */
	expect(r, "/root/.cache /home/ubuntu/x Ubuntu 22.04", "/root/.cache /home/<user4>/x Ubuntu 22.04");
	redact_free(r);
	(void)state;
}

static void
uuids_serials_addresses(void **state)
{
	struct redact *r = redact_new(true);
	struct redact_counts c;

	redact_version(r, "9.19.0.56");
	/* one placeholder per value, the same each time */
	expect(r, "GPU-9f0e7c1a-2b3d-4e5f-8a9b-0c1d2e3f4a5b GPU-1d7e3a90-5c2b-4e84-b7f1-a9c6e0d43b28 "
		  "GPU-9F0E7C1A-2B3D-4E5F-8A9B-0C1D2E3F4A5B",
	       "GPU-<uuid-1> GPU-<uuid-2> GPU-<uuid-1>");
	expect(r, "MIG-5e7a9c1d-0b2f-4a6e-8c3d-1f2e3a4b5c6d", "MIG-<uuid-3>");
	expect(r, "Serial Number                         : 1654922001234", "Serial Number                         : <serial-1>");
	expect(r, "\"serial\": \"0324018045602\"", "\"serial\": \"<serial-2>\"");
	expect(r, "Serial Number : N/A", "Serial Number : N/A");
	/* addresses: alone, with a port, in NCCL's interface form, in a variable */
	expect(r, "Using [0]eth0:10.20.30.40<0> [1]ib0:192.168.7.21<0>",
	       "Using [0]eth0:<ip-1><0> [1]ib0:<ip-2><0>");
	expect(r, "connect to 10.20.30.40:29500 failed", "connect to <ip-1>:29500 failed");
	expect(r, "MASTER_ADDR=172.16.0.9 --master_addr=10.20.30.40", "MASTER_ADDR=<ip-3> --master_addr=<ip-1>");
	expect(r, "from 8.8.4.4 port 22", "from <ip-4> port 22");
	/* versions that look like addresses */
	expect(r, "cudnn_engines_precompiled 9.19.0.56 *", "cudnn_engines_precompiled 9.19.0.56 *");
	expect(r, "nvidia-cudnn-cu12==8.9.2.26 libcudnn8 8.9.3.28-1+cuda12.1",
	       "nvidia-cudnn-cu12==8.9.2.26 libcudnn8 8.9.3.28-1+cuda12.1");
	expect(r, "cuDNN version 8.9.4.25, TensorRT 8.6.1.6, v1.2.3.4", "cuDNN version 8.9.4.25, TensorRT 8.6.1.6, v1.2.3.4");
	expect(r, "libcudnn.so.8.9.2.26 and 1.2.3.4.5 and 300.1.1.1", "libcudnn.so.8.9.2.26 and 1.2.3.4.5 and 300.1.1.1");
	redact_counts(r, &c);
	assert_int_equal(c.uuids, 3);
	assert_int_equal(c.serials, 2);
	assert_int_equal(c.ips, 4);
	redact_free(r);
	(void)state;
}

static void
off_keeps_everything(void **state)
{
	struct redact *r = redact_new(false);

	redact_host(r, "dgx-lab-07");
	expect(r, "/home/ana on dgx-lab-07 at 10.0.0.1 GPU-9f0e7c1a-2b3d-4e5f-8a9b-0c1d2e3f4a5b",
	       "/home/ana on dgx-lab-07 at 10.0.0.1 GPU-9f0e7c1a-2b3d-4e5f-8a9b-0c1d2e3f4a5b");
	redact_free(r);
	(void)state;
}

/* A document through the Markdown back end, unredacted. */
static char *
markdown(size_t limit, void (*body)(struct rw *))
{
	struct rw w;
	char *s;

	rw_markdown(&w, NULL, limit);
	rw_begin(&w, "t");
	body(&w);
	rw_end(&w, "marker");
	s = strdup(w.out.s ? w.out.s : "");
	rw_release(&w);
	return s;
}

static void
escapes_body(struct rw *w)
{
	rw_para(w, "1. <b> & *x* _y_ [z](u) `c` #h | ~");
	rw_para(w, "- not a list");
	rw_para_begin(w);
	rw_code(w, "a `tick` here");
	rw_para_end(w);
	rw_block(w, "sh", "echo ```\nls\n");
	static const char *const head[] = {"a|b", "c"};
	rw_table_begin(w, 2, head);
	rw_row_begin(w);
	rw_cell_begin(w);
	rw_code(w, "x|y");
	rw_cell_end(w);
	rw_row_end(w); /* the short row is filled */
	rw_table_end(w);
	rw_details_begin(w, "a <summary> & more");
	rw_para(w, "inside");
	/* rw_end closes it */
}

static void
escapes_and_fences(void **state)
{
	char *s = markdown(0, escapes_body);

	assert_non_null(strstr(s, "1\\. &lt;b> &amp; \\*x\\* \\_y\\_ \\[z\\](u) \\`c\\` \\#h \\| \\~\n\n"));
	assert_non_null(strstr(s, "\\- not a list\n\n"));
	assert_non_null(strstr(s, "``a `tick` here``"));
	/* a fence longer than the backticks inside */
	assert_non_null(strstr(s, "````sh\necho ```\nls\n````\n"));
	assert_non_null(strstr(s, "| a\\|b | c |\n| --- | --- |\n| `x\\|y` |  |\n"));
	assert_non_null(strstr(s, "<details><summary>a &lt;summary&gt; &amp; more</summary>\n\ninside\n\n</details>\n"));
	assert_non_null(strstr(s, "<!-- marker -->\n"));
	free(s);
	(void)state;
}

static void
cut_body(struct rw *w)
{
	char line[64];
	struct buf b;
	int i;

	rw_para(w, "first");
	rw_details_begin(w, "big");
	buf_init(&b);
	for (i = 0; i < 400; i++) {
		snprintf(line, sizeof(line), "line %03d of a long block\n", i);
		buf_adds(&b, line);
	}
	rw_block(w, "text", b.s);
	buf_release(&b);
	rw_details_end(w);
	rw_details_begin(w, "after");
	rw_para(w, "never");
	rw_details_end(w);
}

static void
cut_at_a_line(void **state)
{
	char *s = markdown(4096, cut_body);
	const char *fence_end;

	assert_true(strlen(s) <= 4096);
	assert_non_null(strstr(s, "first\n\n<details><summary>big</summary>\n\n```text\nline 000"));
	/* the block is cut at a line and its fence closed before the note */
	fence_end = strstr(s, "\n```\n\n*(");
	assert_non_null(fence_end);
	assert_non_null(strstr(s, "more lines left out here)*"));
	assert_non_null(strstr(s, "</details>\n"));
	assert_null(strstr(s, "never"));
	assert_non_null(strstr(s, "left out: \"after\""));
	assert_non_null(strstr(s, "<!-- marker -->\n"));
	free(s);
	(void)state;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(users_and_hosts),
		cmocka_unit_test(uuids_serials_addresses),
		cmocka_unit_test(off_keeps_everything),
		cmocka_unit_test(escapes_and_fences),
		cmocka_unit_test(cut_at_a_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
