#!/bin/sh
# tests/run.sh - run every test against one or more build directories and
# end with the line "N passed, N failed".
#
#   tests/run.sh build [build-asan ...]
#   UPDATE=1 tests/run.sh build     rewrite golden files
#   ONLY=pattern tests/run.sh build  only tests whose name contains pattern
#   FUZZ=build-fuzz tests/run.sh build  also run each libFuzzer harness
#                                    there for FUZZ_SECONDS (3) from its seeds
#   SERIAL=1 tests/run.sh build build-asan  the builds one after the other
#                                    (default: side by side)
#
# Unit tests (tests/unit/t_*) report TAP; fixture scenarios
# (tests/fixtures/*) and CLI cases (tests/cases/*) are described in
# tests/README.md.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
[ $# -ge 1 ] || set -- build
passed=0
failed=0
skipped=0
failures=""
skips=""
work=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-test.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

ok() { passed=$((passed + 1)); }
bad() {
	failed=$((failed + 1))
	failures="$failures
  $1"
	echo "FAIL $1" >&2
	[ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/     /' >&2
	return 0
}
want() { [ -z "${ONLY:-}" ] && return 0; case "$1" in *"$ONLY"*) return 0 ;; esac; return 1; }

# Normalise a facts document: drop what changes from run to run.
normalise_json() {
	jq -S 'del(.collected_at, .total_ms, .tool_version, .root, .host.uid, .host.gids, .host.ngids)
	       | .kmod.devnodes |= (if . then map(del(.uid, .gid, .mode, .accessible)) else . end)
	       | .notes |= (if . then map(del(.ms)) else . end)
	       | .driver |= (if . then del(.cuda_ms) else . end)
	       | .python |= (if . then map(.frameworks |= (if . then map(if .targets then del(.targets.ms) else . end) else . end)) else . end)'
}

run_units() {
	b=$1
	for t in "$top/$b"/tests/t_*; do
		[ -x "$t" ] || continue
		name="$b/$(basename "$t")"
		want "$name" || continue
		out=$(cd "$top" && CMOCKA_MESSAGE_OUTPUT=TAP "$t" 2>&1)
		rc=$?
		np=$(printf '%s\n' "$out" | grep '^ok ' | grep -v -c '# SKIP')
		ns=$(printf '%s\n' "$out" | grep -c -E '^(not )?ok .*# SKIP')
		nf=$(printf '%s\n' "$out" | grep '^not ok ' | grep -v -c '# SKIP')
		passed=$((passed + np))
		skipped=$((skipped + ns))
		# SKIP_BECAUSE (tests/unit/unit.h) says why
		why=$(printf '%s\n' "$out" | sed -n "s|^# skipped: |  $name: |p")
		[ -n "$why" ] && skips="$skips
$why"
		if [ "$nf" -gt 0 ] || [ $rc -ne 0 ]; then
			[ "$nf" -eq 0 ] && nf=1
			failed=$((failed + nf))
			failures="$failures
  $name"
			echo "FAIL $name (exit $rc)" >&2
			printf '%s\n' "$out" | grep -v -E '^ok |# SKIP' | sed 's/^/     /' >&2
		fi
	done
}

# Build a scenario's root in $work/root: copy, ld.so.cache, mock libraries
# (fixture_prepare, tests/lib.sh).
prepare_fixture() {
	fixture_prepare "$top/$1" "$2" "$work/root"
}

fixture_env() {
	dir=$1
	echo "PATH=/usr/bin:/bin"
	[ -n "${ASAN_OPTIONS:-}" ] && echo "ASAN_OPTIONS=$ASAN_OPTIONS"
	[ -n "${UBSAN_OPTIONS:-}" ] && echo "UBSAN_OPTIONS=$UBSAN_OPTIONS"
	[ -f "$dir/scenario" ] && echo "GPUDOCTOR_FAKE_SCENARIO=$dir/scenario"
	[ -f "$dir/env" ] && grep -v '^#' "$dir/env" | grep '='
	return 0
}

run_fixtures() {
	b=$1
	for dir in "$here"/fixtures/*/; do
		dir=${dir%/}
		[ -f "$dir/expect.ids" ] || continue
		name="$b/fixture/$(basename "$dir")"
		want "$name" || continue
		if ! prepare_fixture "$b" "$dir"; then
			bad "$name" "could not prepare the fixture"
			continue
		fi
		args=""
		[ -f "$dir/args" ] && args=$(cat "$dir/args")
		fenv=$(fixture_env "$dir")
		# shellcheck disable=SC2086
		(cd "$work" && IFS='
' && exec env -i $fenv "$top/$b/gpudoctor" doctor --root "$work/root" --load-root --json $args) \
			> "$work/out.json" 2> "$work/err"
		rc=$?
		if ! jq -e . "$work/out.json" >/dev/null 2>&1; then
			bad "$name" "not JSON (exit $rc): $(head -c 600 "$work/err")"
			continue
		fi
		jq -r '.findings[] | "\(.severity) \(.id)"' "$work/out.json" | sort > "$work/ids"
		if ! diff -u "$dir/expect.ids" "$work/ids" > "$work/diff"; then
			bad "$name" "$(cat "$work/diff")"
			continue
		fi
		if [ -f "$dir/expect.rc" ] && [ "$(cat "$dir/expect.rc")" != "$rc" ]; then
			bad "$name" "exit $rc, expected $(cat "$dir/expect.rc")"
			continue
		fi
		if [ -s "$work/err" ] && grep -q -E 'ERROR: (Address|Leak|Undefined)Sanitizer|runtime error:' "$work/err"; then
			bad "$name" "$(head -c 2000 "$work/err")"
			continue
		fi
		ok
		# the plan for this machine must take up every error doctor finds
		# (as a prerequisite), so following it leaves doctor nothing to say
		(cd "$work" && IFS='
' && exec env -i $fenv "$top/$b/gpudoctor" plan tensorflow --root "$work/root" --load-root --python 3.11 --json $args) \
			> "$work/plan.json" 2> "$work/plan.err"
		prc=$?
		jq -r '.findings[] | select(.severity == "error" and .id != "hw.no_nvidia_gpu") | .id' \
			"$work/out.json" | sort > "$work/errs"
		jq -r '.prerequisites[]?.id' "$work/plan.json" 2>/dev/null | sort > "$work/pre"
		if [ $prc -gt 2 ]; then
			bad "$name.plan" "plan exit $prc: $(head -c 400 "$work/plan.err")"
		elif ! diff -u "$work/errs" "$work/pre" > "$work/diff"; then
			bad "$name.plan" "doctor's errors vs plan prerequisites: $(cat "$work/diff")"
		else
			ok
		fi
		if [ -f "$dir/expect.json" ]; then
			normalise_json < "$work/out.json" > "$work/norm.json"
			if [ -n "${UPDATE:-}" ] && [ "$b" = build ]; then
				cp "$work/norm.json" "$dir/expect.json"
			elif ! diff -u "$dir/expect.json" "$work/norm.json" > "$work/diff"; then
				bad "$name.json" "$(head -60 "$work/diff")"
			else
				ok
			fi
		fi
		if [ -f "$dir/expect.txt" ]; then
			# shellcheck disable=SC2086
			(cd "$work" && IFS='
' && exec env -i $fenv "$top/$b/gpudoctor" doctor --root "$work/root" --load-root --color never $args) \
				2>/dev/null | sed -e 's/([0-9.]* ms)/(N ms)/g' -e 's/in [0-9.]* ms/in N ms/g' -e 's/, [0-9]* ms$/, N ms/' > "$work/out.txt"
			if [ -n "${UPDATE:-}" ] && [ "$b" = build ]; then
				cp "$work/out.txt" "$dir/expect.txt"
			elif ! diff -u "$dir/expect.txt" "$work/out.txt" > "$work/diff"; then
				bad "$name.txt" "$(head -60 "$work/diff")"
			else
				ok
			fi
		fi
		if [ -f "$dir/explain.log" ]; then
			# the machine's log, explained with its facts (--here)
			# shellcheck disable=SC2086
			(cd "$work" && IFS='
' && exec env -i $fenv "$top/$b/gpudoctor" explain --here --root "$work/root" --load-root --color never $args "$dir/explain.log") \
				> "$work/explain.out" 2> "$work/explain.err"
			missing=""
			while IFS= read -r re; do
				[ -z "$re" ] && continue
				grep -q -E -- "$re" "$work/explain.out" || missing="$missing
$re"
			done < "$dir/explain.grep"
			if [ -n "$missing" ]; then
				bad "$name.explain" "no line matches:$missing
$(head -c 1500 "$work/explain.out")"
			else
				ok
			fi
		fi
	done
}

run_cases() {
	b=$1
	for dir in "$here"/cases/*/; do
		dir=${dir%/}
		[ -f "$dir/cmd" ] || continue
		name="$b/case/$(basename "$dir")"
		want "$name" || continue
		cmd=$(cat "$dir/cmd")
		# shellcheck disable=SC2086
		(cd "$dir" && eval "env -i PATH=/usr/bin:/bin ASAN_OPTIONS=${ASAN_OPTIONS:-} UBSAN_OPTIONS=${UBSAN_OPTIONS:-} GPUDOCTOR=$top/$b/gpudoctor $top/$b/gpudoctor $cmd") \
			> "$work/out" 2> "$work/err" < /dev/null
		rc=$?
		exp_rc=0
		[ -f "$dir/expect.rc" ] && exp_rc=$(cat "$dir/expect.rc")
		if [ "$rc" != "$exp_rc" ]; then
			bad "$name" "exit $rc, expected $exp_rc; stderr: $(head -c 400 "$work/err")"
			continue
		fi
		if [ -f "$dir/expect.out" ] && [ -n "${UPDATE:-}" ]; then
			cp "$work/out" "$dir/expect.out"
		fi
		if [ -f "$dir/expect.out" ] && ! diff -u "$dir/expect.out" "$work/out" > "$work/diff"; then
			bad "$name" "$(head -40 "$work/diff")"
			continue
		fi
		if [ -f "$dir/expect.err" ] && ! diff -u "$dir/expect.err" "$work/err" > "$work/diff"; then
			bad "$name" "$(head -40 "$work/diff")"
			continue
		fi
		if [ -f "$dir/expect.grep" ]; then
			missing=""
			while IFS= read -r re; do
				[ -z "$re" ] && continue
				cat "$work/out" "$work/err" | grep -q -E -- "$re" || missing="$missing
$re"
			done < "$dir/expect.grep"
			if [ -n "$missing" ]; then
				bad "$name" "no line matches:$missing"
				continue
			fi
		fi
		ok
	done
}

# Scripts that test whole behaviours (tests/scripts/*.sh BUILD): each prints
# its own "ok NAME" / "not ok NAME" lines (TAP-like).
run_scripts() {
	b=$1
	for s in "$here"/scripts/*.sh; do
		[ -f "$s" ] || continue
		name="$b/script/$(basename "$s" .sh)"
		want "$name" || continue
		out=$(cd "$top" && sh "$s" "$top/$b" 2>&1)
		rc=$?
		np=$(printf '%s\n' "$out" | grep '^ok ' | grep -v -c '# SKIP')
		ns=$(printf '%s\n' "$out" | grep -c -E '^(not )?ok .*# SKIP')
		nf=$(printf '%s\n' "$out" | grep '^not ok ' | grep -v -c '# SKIP')
		passed=$((passed + np))
		skipped=$((skipped + ns))
		why=$(printf '%s\n' "$out" | sed -n -E "s|^(not )?ok (.*) # SKIP (.*)|  $name/\2: \3|p")
		[ -n "$why" ] && skips="$skips
$why"
		if [ "$nf" -gt 0 ] || [ $rc -ne 0 ]; then
			[ "$nf" -eq 0 ] && nf=1
			failed=$((failed + nf))
			failures="$failures
  $name"
			echo "FAIL $name (exit $rc)" >&2
			printf '%s\n' "$out" | grep -v -E '^ok |# SKIP' | sed 's/^/     /' >&2
		fi
	done
}

# The fuzz smoke run (make check): every harness FUZZ/fuzz_<name> for a few
# seconds from tests/fuzz/corpus/<name> and FUZZ/seeds/<name>; new inputs go
# to a scratch directory, never into the tree. A crash, leak, sanitizer
# report or time-out fails it, with the fuzzer's report.
run_fuzz() {
	fb=$1
	secs=${FUZZ_SECONDS:-3}
	if ! ls "$top/$fb"/fuzz_* >/dev/null 2>&1; then
		skipped=$((skipped + 1))
		skips="$skips
  $fb/fuzz: no harnesses built (make fuzz-build needs clang and its libFuzzer runtime)"
		return
	fi
	for h in "$top/$fb"/fuzz_*; do
		[ -x "$h" ] || continue
		t=${h##*/fuzz_}
		name="$fb/fuzz_$t"
		want "$name" || continue
		mkdir -p "$work/fuzz-$t"
		dict=""
		[ -f "$here/fuzz/$t.dict" ] && dict="-dict=$here/fuzz/$t.dict"
		seeds=""
		[ -d "$here/fuzz/corpus/$t" ] && seeds="$here/fuzz/corpus/$t"
		[ -d "$top/$fb/seeds/$t" ] && seeds="$seeds $top/$fb/seeds/$t"
		# shellcheck disable=SC2086
		out=$(cd "$work" && ASAN_OPTIONS= UBSAN_OPTIONS= "$h" -max_total_time="$secs" \
			-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 $dict \
			-artifact_prefix="$work/fuzz-$t-" "$work/fuzz-$t" $seeds 2>&1)
		rc=$?
		if [ $rc -eq 0 ]; then
			ok
		else
			bad "$name" "$(printf '%s\n' "$out" | grep -v -E '^#[0-9]+ ' | tail -30)"
		fi
	done
}

# Every test of one build directory.
run_build() {
	b=$1
	if [ ! -x "$top/$b/gpudoctor" ]; then
		bad "$b" "no $b/gpudoctor: build first (make test-deps BUILD=$b)"
		return
	fi
	case "$b" in
	*asan*) export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0" \
		UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" ;;
	*) unset ASAN_OPTIONS UBSAN_OPTIONS 2>/dev/null ;;
	esac
	run_units "$b"
	run_fixtures "$b"
	run_cases "$b"
	run_scripts "$b"
}

if [ $# -gt 1 ] && [ -z "${SERIAL:-}" ]; then
	# several builds side by side (SERIAL=1: one after the other): many of
	# their tests wait on children, sockets and timers rather than the CPU.
	# Each gets a scratch directory of its own and reports its counts there.
	for b in "$@"; do
		(
			trap - EXIT INT TERM
			work=$work/run-$(printf '%s' "$b" | tr '/' '_')
			mkdir -p "$work"
			passed=0 failed=0 skipped=0 failures="" skips=""
			run_build "$b"
			printf '%s %s %s\n' "$passed" "$failed" "$skipped" > "$work/counts"
			printf '%s' "$failures" > "$work/failures"
			printf '%s' "$skips" > "$work/skips"
		) &
	done
	wait
	for b in "$@"; do
		d=$work/run-$(printf '%s' "$b" | tr '/' '_')
		if ! read -r p f s < "$d/counts"; then
			bad "$b" "its test run ended without counts"
			continue
		fi
		passed=$((passed + p))
		failed=$((failed + f))
		skipped=$((skipped + s))
		failures="$failures$(cat "$d/failures")"
		skips="$skips$(cat "$d/skips")"
	done
else
	for b in "$@"; do
		run_build "$b"
	done
fi
[ -n "${FUZZ:-}" ] && run_fuzz "$FUZZ"

if [ $failed -gt 0 ]; then
	echo "failed:$failures" >&2
fi
if [ $skipped -gt 0 ]; then
	echo "skipped, and why:$skips"
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ $failed -eq 0 ]
