#!/bin/sh
# tests/scripts/fleet_fixtures.sh BUILD_DIR - `gpudoctor fleet --facts` on
# the facts documents of five fixture machines (doctor --root --load-root
# --json with their mock drivers), against the exact expected table in
# tests/fleet/ (the age column masked); the JSON form; --expect-gpus; and
# every error path. `fleet --prom` is tested against a real Prometheus in
# serve_mocks.sh. Prints "ok NAME" / "not ok NAME" lines.
set -u
. "$(dirname "$0")/../lib.sh"
build=${1:?usage: fleet_fixtures.sh BUILD_DIR}
case "$build" in /*) ;; *) build=$(pwd)/$build ;; esac
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$build/gpudoctor
work=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-fleet.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

pass() { echo "ok $1"; }
fail() { echo "not ok $1"; shift; [ $# -gt 0 ] && printf '#   %s\n' "$@"; return 0; }

mkdir -p "$work/docs"
for fx in fw-tf215-h100-jit fw-tf215-and-cuda-complete fw-tf210-conda-pins driver-library-version-mismatch \
	driver-too-old-for-toolkit; do
	fixture_prepare "$build" "$top/tests/fixtures/$fx" "$work/$fx" || { fail "prepare $fx"; exit 0; }
	env -i PATH=/usr/bin:/bin GPUDOCTOR_FAKE_SCENARIO="$top/tests/fixtures/$fx/scenario" \
		${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} \
		"$bin" doctor --root "$work/$fx" --load-root --json > "$work/docs/$fx.json" 2> /dev/null
done
echo '{"schema": "gpudoctor/bench/1", "tests": []}' > "$work/docs/bench.json"

mask() { sed -E 's/ +[0-9]+[smhd]  / AGE  /'; }
"$bin" fleet --facts "$work/docs" --max-age 100000 --color never > "$work/out.txt" 2> "$work/err.txt"
rc=$?
mask < "$work/out.txt" > "$work/masked.txt"
if [ $rc -eq 2 ] && diff -u "$top/tests/fleet/five-fixtures.txt" "$work/masked.txt" > "$work/d.txt" &&
	grep -q "skipping '.*bench.json': not a facts document" "$work/err.txt"; then
	pass "fleet --facts: five machines, the outliers marked, exit 2 (exact table)"
else
	fail "fleet --facts" "rc=$rc" "$(cat "$work/d.txt" "$work/err.txt" | head -30)"
fi
"$bin" fleet --facts "$work/docs"/*.json --max-age 100000 --json > "$work/out.json" 2> /dev/null
if jq -e '.schema == "gpudoctor/fleet/1" and .driver == "535.104.05" and (.nodes | length == 5)
	and ([.nodes[] | select(.driver == "470.82.01")][0] | (.outliers | index("driver differs")) and .cuda == "11.4" and .gpus == 1)
	and ([.nodes[] | select(.model == "NVIDIA H100 PCIe")][0] | .outliers == [] and .memory_total_mib == 81559 and .findings.error == 0)
	and ([.nodes[] | select(.driver == "535.129.03")][0] | (.outliers | index("GPU missing")) and .gpus == 0 and .expected_gpus == 1)' \
	"$work/out.json" > /dev/null; then
	pass "fleet --facts --json: files named one by one, the same rows as a document"
else
	fail "fleet --json" "$(jq -c '.nodes[] | {host, driver, gpus, expected_gpus, model, outliers}' "$work/out.json" 2>&1 | head)"
fi
"$bin" fleet --facts "$work/docs" --expect-gpus 2 --max-age 100000 --json > "$work/e.json" 2> /dev/null
rc=$?
[ $rc -eq 2 ] && jq -e '[.nodes[] | .outliers | index("GPU missing")] | all' "$work/e.json" > /dev/null &&
	pass "fleet --expect-gpus 2: every one-GPU node misses one" || fail "fleet --expect-gpus" "rc=$rc"
"$bin" fleet --facts "$work/docs/fw-tf215-h100-jit.json" --max-age 100000 > "$work/one.txt"
rc=$?
[ $rc -eq 0 ] && grep -q '^1 node, 0 with outliers; fleet driver 535.104.05.$' "$work/one.txt" &&
	pass "fleet: one healthy node, exit 0" || fail "fleet: one node" "rc=$rc" "$(cat "$work/one.txt")"
jq '.collected_at = "2020-01-01T00:00:00Z"' "$work/docs/fw-tf215-h100-jit.json" > "$work/old-facts.json"
"$bin" fleet --facts "$work/old-facts.json" --json > "$work/old.json"
jq -e '.nodes[0].outliers == ["old data"] and .nodes[0].age_s > 1e8' "$work/old.json" > /dev/null &&
	pass "fleet: data older than --max-age (900 s) is an outlier" ||
	fail "fleet --max-age" "$(jq -c '.nodes[0]' "$work/old.json")"

# text from another machine's document reaches the terminal cleaned
jq '.hostname = "evil\u001b]0;owned\u0007" | .driver.version = "\u001b[2J535.1"' "$work/docs/fw-tf215-h100-jit.json" > "$work/evil.json"
"$bin" fleet --facts "$work/evil.json" --color never > "$work/evil.txt" 2>&1
if ! LC_ALL=C grep -q "$(printf '\033')" "$work/evil.txt" && grep -q '535.1' "$work/evil.txt"; then
	pass "fleet: escape sequences in a document's host and driver do not reach the terminal"
else
	fail "fleet: escape sequences" "$(od -c "$work/evil.txt" | head -5)"
fi

usage() {
	label=$1 want=$2
	shift 2
	"$bin" fleet "$@" > "$work/u.out" 2> "$work/u.err"
	rc=$?
	if [ $rc -eq 3 ] && [ "$(wc -l < "$work/u.err")" -eq 1 ] && grep -q -- "$want" "$work/u.err" && [ ! -s "$work/u.out" ]; then
		pass "$label"
	else
		fail "$label" "rc=$rc" "$(cat "$work/u.err")"
	fi
}
usage "fleet: no input" "give --prom URL or --facts PATH" 
usage "fleet: both inputs" "one of them" --prom http://127.0.0.1:1 --facts "$work/docs"
usage "fleet: --facts without paths" "--facts needs files" --facts
usage "fleet: a path that does not exist" "no such file or directory" --facts "$work/nope"
mkdir -p "$work/empty"
usage "fleet: a directory without facts documents" "no facts document found" --facts "$work/empty"
usage "fleet: a file that is no facts document" "is not a facts document" --facts "$work/docs/bench.json"
usage "fleet: --prom without a URL scheme" "wants an http:// or https:// URL" --prom 127.0.0.1:9090
usage "fleet: a Prometheus that does not answer" "127.0.0.1:1" --prom http://127.0.0.1:1 --timeout 2
usage "fleet: --expect-gpus 0" "not a whole number from 1" --facts "$work/docs" --expect-gpus 0
usage "fleet: --max-age x" "not a number of seconds" --facts "$work/docs" --max-age x
"$bin" fleet --help | grep -q '^usage: gpudoctor fleet' && pass "fleet --help" || fail "fleet --help"
exit 0
