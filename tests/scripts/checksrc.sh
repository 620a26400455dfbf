#!/bin/sh
# tests/scripts/checksrc.sh - source rules that a compiler does not check:
# every file opens with a comment saying what it is for; no banned string
# functions (strcpy, strcat, sprintf, vsprintf, gets: use buf or str_copy);
# the generated knowledge-base file is in sync with data/kb.
# Prints "ok NAME" / "not ok NAME" per check (counted by tests/run.sh).
cd "$(dirname "$0")/../.." || exit 1
status=0
for f in $(find src tests/unit tests/stubs tests/tools tests/fuzz bench -name '*.[ch]' | sort); do
	first=$(head -c 2 "$f")
	if [ "$first" != "/*" ]; then
		echo "not ok top comment: $f"
		status=1
	fi
done
[ $status -eq 0 ] && echo "ok every C file opens with a comment"
banned=$(grep -n -E '\b(strcpy|strcat|sprintf|vsprintf|gets)\s*\(' $(find src -name '*.[ch]') | grep -v -E 'snprintf|vsnprintf' || true)
if [ -n "$banned" ]; then
	echo "not ok banned functions"
	echo "$banned" | sed 's/^/  /'
else
	echo "ok no banned string functions in src"
fi
placeholders=$(grep -l -r 'PLACEHOLDER' src tests/stubs tests/tools 2>/dev/null || true)
if [ -n "$placeholders" ]; then
	echo "not ok placeholder modules left: $placeholders"
else
	echo "ok no placeholder modules"
fi
gen="${1:-build}/tools/gen-kb"
if [ -x "$gen" ]; then
	if "$gen" data/kb 2>/dev/null | cmp -s - src/kb/kb_data.c; then
		echo "ok src/kb/kb_data.c is generated from data/kb"
	else
		echo "not ok src/kb/kb_data.c is stale or data/kb is invalid: run make kb"
	fi
else
	echo "not ok no $gen to check src/kb/kb_data.c with (make test-deps)"
fi
