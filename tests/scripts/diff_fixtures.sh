#!/bin/sh
# tests/scripts/diff_fixtures.sh BUILD_DIR - `gpudoctor diff` on the facts
# documents of two fixture machines (doctor --root --json), against the
# exact expected text in tests/diff/; the JSON form; a document against
# itself; and every error path. Prints "ok NAME" / "not ok NAME" lines.
set -u
. "$(dirname "$0")/../lib.sh"
build=${1:?usage: diff_fixtures.sh BUILD_DIR}
case "$build" in /*) ;; *) build=$(pwd)/$build ;; esac
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$build/gpudoctor
work=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-diff.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

pass() { echo "ok $1"; }
fail() { echo "not ok $1"; shift; [ $# -gt 0 ] && printf '#   %s\n' "$@"; return 0; }

for fx in driver-library-version-mismatch driver-too-old-for-toolkit; do
	fixture_prepare "$build" "$top/tests/fixtures/$fx" "$work/$fx" || { fail "prepare $fx"; exit 0; }
	"$bin" doctor --root "$work/$fx" --json > "$work/$fx.json" 2> /dev/null
done
a=$work/driver-library-version-mismatch.json
b=$work/driver-too-old-for-toolkit.json

"$bin" diff "$a" "$b" > "$work/out.txt" 2> "$work/err.txt"
rc=$?
if [ $rc -eq 2 ] && diff -u "$top/tests/diff/mismatch-vs-too-old.txt" "$work/out.txt" > "$work/d.txt"; then
	pass "diff: two machines, every difference by layer, lists matched by name, exit 2 (exact text)"
else
	fail "diff: two machines" "rc=$rc" "$(head -30 "$work/d.txt")" "$(cat "$work/err.txt")"
fi
"$bin" diff --json "$a" "$b" > "$work/out.json"
if jq -e '.schema == "gpudoctor/diff/1" and .a_name == "cad-ws-12" and .b_name == "lab-pc"
	and ([.layers[].layer] == ["host", "hw", "kmod", "driver", "libs"])
	and ([.layers[] | select(.layer == "driver") | .differences[] | select(.path == "driver.version")][0] | .a == "535.129.03" and .b == "470.82.01")
	and ([.layers[] | select(.layer == "hw") | .differences[].path] == ["gpus[0000:65:00.0]", "gpus[0000:0b:00.0]"])
	and ([.findings[] | [.only_in, .id, .severity]] == [["a", "driver.version_mismatch", "error"], ["b", "driver.too_old", "error"]])' \
	"$work/out.json" > /dev/null; then
	pass "diff --json: the same comparison as a document"
else
	fail "diff --json" "$(head -c 600 "$work/out.json")"
fi
"$bin" diff "$a" "$a" > "$work/same.txt"
rc=$?
[ $rc -eq 0 ] && grep -q '^A and B: no fact and no finding differs.$' "$work/same.txt" &&
	pass "diff: a document against itself, exit 0" || fail "diff: itself" "rc=$rc" "$(cat "$work/same.txt")"
# an error finding on one side only: exit 2
jq '.findings += [{"id": "hw.arch_too_old", "severity": "error", "layer": "hw", "title": "The GPU is too old", "env": null, "evidence": [], "fix": null}]' "$a" > "$work/broken.json"
"$bin" diff "$a" "$work/broken.json" > "$work/broken.txt"
rc=$?
[ $rc -eq 2 ] && grep -q '^  only on B: error   hw.arch_too_old  The GPU is too old$' "$work/broken.txt" &&
	pass "diff: an error only one side has, exit 2" || fail "diff: error finding" "rc=$rc" "$(cat "$work/broken.txt")"

usage() {
	label=$1 want=$2
	shift 2
	"$bin" diff "$@" > "$work/u.out" 2> "$work/u.err"
	rc=$?
	if [ $rc -eq 3 ] && [ "$(wc -l < "$work/u.err")" -eq 1 ] && grep -q -- "$want" "$work/u.err" && [ ! -s "$work/u.out" ]; then
		pass "$label"
	else
		fail "$label" "rc=$rc" "$(cat "$work/u.err")"
	fi
}
usage "diff: one document" "two facts documents are needed" "$a"
usage "diff: three documents" "two facts documents are needed" "$a" "$b" "$a"
usage "diff: a missing file" "unable to open" "$a" "$work/nope.json"
usage "diff: a directory" "is a directory, not a facts document" "$work" "$a"
echo '{"tests": []}' > "$work/bench.json"
usage "diff: JSON that is not a facts document" "is not a facts document" "$a" "$work/bench.json"
printf 'not json' > "$work/text.json"
usage "diff: not JSON" "text.json'" "$work/text.json" "$a"
"$bin" diff --help | grep -q '^usage: gpudoctor diff' && pass "diff --help" || fail "diff --help"
exit 0
