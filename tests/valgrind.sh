#!/bin/sh
# tests/valgrind.sh [BUILD] - every fixture machine (tests/fixtures/*;
# ONLY=pattern: those whose name holds it) under valgrind's memcheck: doctor --json (its findings must still be the
# fixture's expect.ids), doctor's text report with -v, and plan. A memory
# error, or memory definitely lost, in gpudoctor or in any child it forks,
# fails the machine. `make valgrind` runs it; it ends with "N passed, N failed".
#
# The children that load the fixtures' mock libraries run under valgrind
# too, some ten times slower: each gets --timeout 60 unless the fixture sets
# its own (a fixture that tests a hang keeps its short limit).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
b=${1:-build}
bin=$top/$b/gpudoctor
passed=0
failed=0
work=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-valgrind.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
command -v valgrind >/dev/null || { echo "valgrind is not installed: apt-get install valgrind" >&2; exit 1; }
# Debian's valgrind is a script that adds /usr/lib/debug to LD_LIBRARY_PATH,
# which doctor would rightly report: run the program behind it
vgbin=$(command -v valgrind.bin || command -v valgrind)
[ -x "$bin" ] || { echo "no $bin: build first (make test-deps)" >&2; exit 1; }

vg() { # LOG ARGS...: run gpudoctor under memcheck; 99 on a memory error
	_log=$1
	shift
	(cd "$work" && IFS='
' && exec env -i $fenv "$vgbin" -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite --show-leak-kinds=definite \
		--log-file="$_log" "$bin" "$@")
}

for dir in "$here"/fixtures/*/; do
	dir=${dir%/}
	[ -f "$dir/expect.ids" ] || continue
	name=$(basename "$dir")
	case "$name" in *"${ONLY:-}"*) ;; *) continue ;; esac
	if ! fixture_prepare "$top/$b" "$dir" "$work/root"; then
		echo "not ok $name: could not prepare the fixture"
		failed=$((failed + 1))
		continue
	fi
	args="--timeout
60"
	[ -f "$dir/args" ] && args="$args
$(cat "$dir/args")"
	fenv="PATH=/usr/bin:/bin"
	[ -f "$dir/scenario" ] && fenv="$fenv
GPUDOCTOR_FAKE_SCENARIO=$dir/scenario"
	[ -f "$dir/env" ] && fenv="$fenv
$(grep -v '^#' "$dir/env" | grep '=')"
	why=""
	set -f
	# shellcheck disable=SC2086
	IFS='
'
	vg "$work/vg.json.%p" doctor --root "$work/root" --load-root --json $args > "$work/out.json" 2>/dev/null
	[ $? -eq 99 ] && why="doctor --json: memory errors"
	jq -r '.findings[] | "\(.severity) \(.id)"' "$work/out.json" 2>/dev/null | sort > "$work/ids"
	if [ -z "$why" ] && ! diff -u "$dir/expect.ids" "$work/ids" > "$work/vg.diff"; then
		why="findings differ under valgrind"
	fi
	vg "$work/vg.text.%p" doctor -v --root "$work/root" --load-root $args > /dev/null 2>&1
	[ $? -eq 99 ] && why="$why doctor -v: memory errors"
	vg "$work/vg.plan.%p" plan tensorflow --python 3.11 --root "$work/root" --load-root $args > /dev/null 2>&1
	[ $? -eq 99 ] && why="$why plan: memory errors"
	unset IFS
	set +f
	if [ -z "$why" ]; then
		echo "ok $name"
		passed=$((passed + 1))
	else
		echo "not ok $name: $why"
		cat "$work"/vg.* 2>/dev/null | head -60 | sed 's/^/#   /'
		failed=$((failed + 1))
	fi
	rm -f "$work"/vg.*
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
