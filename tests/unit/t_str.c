/*
 * t_str.c - base/str.c's membership tests: str_among and str_among_case
 * find a string in a NULL-terminated list, exactly or ignoring ASCII case.
 */
#include "unit.h"

#include "base/str.h"

static void
membership_in_a_list(void **state)
{
	static const char *const ids[] = {"driver.libcuda_missing", "rt.unknown", NULL};
	static const char *const none[] = {NULL};

	(void)state;
	assert_true(str_among("rt.unknown", ids));
	assert_true(str_among("driver.libcuda_missing", ids));
	assert_false(str_among("RT.UNKNOWN", ids));
	assert_false(str_among("rt.unknow", ids));
	assert_false(str_among("", ids));
	assert_false(str_among("rt.unknown", none));
	assert_true(str_among_case("RT.Unknown", ids));
	assert_false(str_among_case("rt.unknown.x", ids));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(membership_in_a_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
