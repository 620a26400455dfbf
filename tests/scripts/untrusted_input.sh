#!/bin/sh
# tests/scripts/untrusted_input.sh BUILD_DIR - what others wrote reaches
# people as text, never as terminal commands or fake report lines, and
# facts files are read with limits. tests/untrusted/ holds the inputs:
#   hostile-names.json  a facts document whose host name, OS name, GPU
#                       name, environment path and notes carry escape
#                       sequences, carriage returns, newlines and C1 codes
# Prints one "ok NAME" / "not ok NAME" line per check (run by tests/run.sh).
set -u
build=${1:?usage: untrusted_input.sh BUILD_DIR}
case "$build" in /*) ;; *) build=$(pwd)/$build ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$build/gpudoctor
in=$here/untrusted
work=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-untrusted.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

if [ ! -x "$bin" ]; then
	echo "not ok prerequisites"
	echo "#   no $bin"
	exit 1
fi

ok() { echo "ok $1"; }
notok() {
	echo "not ok $1"
	shift
	for l in "$@"; do echo "#   $l"; done
}

# gd ARGS...: run gpudoctor with a bare environment; stdout+stderr in
# $work/out, the exit status in $rc.
gd() {
	env -i PATH=/usr/bin:/bin LC_ALL=C "$bin" "$@" > "$work/out" 2>&1
	rc=$?
}

# clean NAME: $work/out has no control character but newline (C0, DEL, the
# C1 range as UTF-8) and no line that starts as a forged one.
clean() {
	bad=$(LC_ALL=C grep -c -P '[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$work/out")
	forged=$(grep -c -E '^(  ok   fw\.nothing_wrong|all GPUs healthy)' "$work/out")
	if [ "$rc" -gt 2 ]; then
		notok "$1" "exit $rc" "$(head -3 "$work/out")"
	elif [ "$bad" -ne 0 ] || [ "$forged" -ne 0 ]; then
		notok "$1" "$bad lines with control characters, $forged forged lines"
	else
		ok "$1"
	fi
}

# ---- names with escape sequences, shown to people -----------------------

h=$in/hostile-names.json
gd doctor --from "$h" --color never -v
clean doctor/text-is-clean
grep -q 'on ml-ws??all GPUs healthy' "$work/out" &&
	grep -q 'GTX 1080?2J?' "$work/out" && grep -q 'line one?line two tabbed' "$work/out" &&
	ok doctor/text-keeps-the-rest || notok doctor/text-keeps-the-rest "$(head -12 "$work/out")"

gd doctor --from "$h" --color always
n=$(LC_ALL=C grep -c -P '\x1b\[[0-9;]*m' "$work/out")
# the colour codes gpudoctor writes itself are the only escapes left
LC_ALL=C sed 's/\x1b\[[0-9;]*m//g' "$work/out" > "$work/plain"
if [ "$n" -gt 0 ] && ! LC_ALL=C grep -q -P '[\x00-\x09\x0b-\x1f\x7f]' "$work/plain"; then
	ok doctor/colour-codes-only
else
	notok doctor/colour-codes-only "$n coloured lines; other escapes remain"
fi

gd plan torch --from "$h" --color never
clean plan/text-is-clean

echo 'RuntimeError: CUDA error: no kernel image is available for execution on the device' > "$work/log"
env -i PATH=/usr/bin:/bin LC_ALL=C "$bin" explain --from "$h" --color never < "$work/log" > "$work/out" 2>&1
rc=$?
clean explain/text-is-clean

# JSON keeps the names as they are (escaped by JSON), for scripts
gd doctor --from "$h" --json
if grep -q '"hostname": "ml-ws\\r\\n\\u001B\[2J' "$work/out"; then
	ok doctor/json-keeps-names
else
	notok doctor/json-keeps-names "$(grep hostname "$work/out")"
fi
