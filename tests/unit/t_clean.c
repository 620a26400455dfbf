/*
 * t_clean.c - text from outside made safe for a terminal (base/clean.c):
 * escape sequences dropped, controls and invalid UTF-8 shown as '?',
 * characters never cut in half, in place and line by line.
 */
#include "unit.h"

#include "base/clean.h"

#include <string.h>

static void
clean_drops_escapes_and_bad_utf8(void **state)
{
	char out[64];
	const char *in = "\033[1;31mE\033[0m tensor\tflow \xff\xfe caf\xc3\xa9 \033]0;title\007ok\001";

	(void)state;
	text_clean((const unsigned char *)in, strlen(in), out, sizeof(out));
	assert_string_equal(out, "E tensor flow ?? caf\xc3\xa9 ok?");
	/* a multi-byte character is not cut in half */
	assert_int_equal(text_clean((const unsigned char *)"ab\xc3\xa9", 4, out, 4), 2);
	assert_string_equal(out, "ab");
	/* overlong encodings and surrogates are invalid */
	text_clean((const unsigned char *)"\xc0\xaf\xed\xa0\x80", 5, out, sizeof(out));
	assert_string_equal(out, "?????");
}

static void
clean_in_place(void **state)
{
	char s[32] = "a\033[2Jb\rc\xc2\x9b" "d  ";

	(void)state;
	text_clean_str(s, sizeof(s));
	assert_string_equal(s, "ab?c?d");
	/* a fixed field cut by its size keeps whole characters */
	char t[5] = "ab\xc3\xa9";
	text_clean_str(t, 4);
	assert_string_equal(t, "ab");
}

static void
clean_lines_keeps_newlines(void **state)
{
	char s[64] = "pip install x\033[A\n\rconda activate e\tv\n\nlast\x7f";

	(void)state;
	text_clean_lines(s);
	assert_string_equal(s, "pip install x\n?conda activate e v\n\nlast?");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clean_drops_escapes_and_bad_utf8),
		cmocka_unit_test(clean_in_place),
		cmocka_unit_test(clean_lines_keeps_newlines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
