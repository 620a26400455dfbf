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

# ---- bytes that are not UTF-8 survive --json and --from -------------------

l=$in/latin1-names.json
gd doctor --from "$l" --json
cp "$work/out" "$work/once.json"
gd doctor --from "$work/once.json" --json
if [ "$rc" -le 2 ] && cmp -s "$work/once.json" "$work/out" &&
	grep -q '"hostname": "caf\\uDBFF\\uDFE9-ws"' "$work/out"; then
	ok from/bytes-round-trip
else
	notok from/bytes-round-trip "$(grep hostname "$work/out")"
fi
gd doctor --from "$l" --color never
clean from/bytes-shown-as-question-marks
grep -q '^gpudoctor .* on caf?-ws' "$work/out" || notok from/bytes-shown-as-question-marks-text "$(head -1 "$work/out")"

# ---- limits on a facts document -------------------------------------------

head -c 17000000 /dev/zero | tr '\0' ' ' > "$work/big.json"
gd doctor --from "$work/big.json"
if [ "$rc" -eq 3 ] && grep -q "is larger than 16 MiB" "$work/out" && [ "$(wc -l < "$work/out")" -eq 1 ]; then
	ok from/size-cap
else
	notok from/size-cap "exit $rc" "$(head -2 "$work/out")"
fi
awk 'BEGIN { printf "["; for (i = 0; i < 300000; i++) printf "{},"; printf "{}]" }' > "$work/many.json"
gd doctor --from "$work/many.json"
if [ "$rc" -eq 3 ] && grep -q "holds more than 500000 objects, arrays and commas" "$work/out"; then
	ok from/structure-cap
else
	notok from/structure-cap "exit $rc" "$(head -2 "$work/out")"
fi
gd doctor --from - < "$work/big.json"
[ "$rc" -eq 3 ] && grep -q "'-' is larger than 16 MiB" "$work/out" && ok from/size-cap-stdin ||
	notok from/size-cap-stdin "exit $rc" "$(head -2 "$work/out")"

# a device behind a link is never opened, for --from as for --kb
ln -s /dev/zero "$work/zero.json"
gd doctor --from "$work/zero.json"
[ "$rc" -eq 3 ] && grep -q "not a regular file" "$work/out" && ok from/device-not-opened ||
	notok from/device-not-opened "exit $rc" "$(head -2 "$work/out")"
mkdir -p "$work/kb"
ln -s /dev/zero "$work/kb/gpu_devices.tsv"
gd compat --kb "$work/kb" --kb-info
[ "$rc" -eq 3 ] && grep -q "gpu_devices.tsv: not a regular file" "$work/out" && ok kb/device-not-opened ||
	notok kb/device-not-opened "exit $rc" "$(head -2 "$work/out")"

# ---- unknown is not absent --------------------------------------------------

# the recorded machine without its .driver, and a GPU's memory as a string
awk '
	/^ "driver": \{/ { skip = 1; next }
	skip && /^ \},?$/ { skip = 0; next }
	skip { next }
	{ sub(/"memory_total_mib": 8192/, "\"memory_total_mib\": \"8192\""); print }
' "$l" > "$work/nodriver.json"
env -i PATH=/usr/bin:/bin LC_ALL=C "$bin" doctor --from "$work/nodriver.json" --json \
	> "$work/out" 2> "$work/err"
rc=$?
if [ "$rc" -le 2 ] && ! grep -q '"id": "driver\.' "$work/out" && grep -q '"driver": null' "$work/out" &&
	grep -q "warning: .*no .driver: the driver is unknown here, not absent" "$work/err" &&
	grep -q "warning: .*\.gpus\[0\]\.memory_total_mib is a string, not an integer" "$work/err"; then
	ok from/missing-driver-is-unknown
else
	notok from/missing-driver-is-unknown "exit $rc" "$(grep '"id"' "$work/out")" "$(cat "$work/err")"
fi
gd doctor --from "$work/nodriver.json" --color never
grep -q "^  unknown   the facts document does not hold this part" "$work/out" &&
	ok from/missing-driver-said || notok from/missing-driver-said "$(sed -n '/^DRIVER/,/^$/p' "$work/out")"
gd plan torch --from "$work/nodriver.json" --color never
if grep -q "the driver is unknown" "$work/out" && ! grep -qi "install.*driver\|nvidia-driver" "$work/out"; then
	ok plan/missing-driver-not-installed
else
	notok plan/missing-driver-not-installed "$(head -20 "$work/out")"
fi
