#!/bin/sh
# tests/scripts/check_slurm.sh BUILD_DIR - `gpudoctor check` on a fixture
# root with the mock NVML: healthy, a GPU lost, a GPU missing; and with
# --slurm against a fake scontrol that keeps a node's state in a file: a
# failing node drained with a "gpudoctor:" reason, resumed once healthy,
# a node an admin drained left alone either way; and the error paths.
# Prints "ok NAME" / "not ok NAME" lines.
set -u
. "$(dirname "$0")/../lib.sh"
build=${1:?usage: check_slurm.sh BUILD_DIR}
case "$build" in /*) ;; *) build=$(pwd)/$build ;; esac
bin=$build/gpudoctor
work=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-check.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
lib=usr/lib/x86_64-linux-gnu

pass() { echo "ok $1"; }
fail() { echo "not ok $1"; shift; [ $# -gt 0 ] && printf '#   %s\n' "$@"; return 0; }

root=$work/root
mkdir -p "$root/$lib" "$root/etc"
cp "$build/stubs/fake_nvml.so" "$root/$lib/libnvidia-ml.so.580.95.05"
ln -s libnvidia-ml.so.580.95.05 "$root/$lib/libnvidia-ml.so.1"
printf 'libnvidia-ml.so.1 /%s/libnvidia-ml.so.1\n' "$lib" > "$work/ldcache"
"$build/tests/tools/mk-ldcache" "$work/ldcache" "$root/etc/ld.so.cache"
BUS=00000000:06:00.0
GPU="nvml_gpu $BUS|NVIDIA H200|GPU-0488de22|143771|1024|31|76000|700000|0|1|0|0|12|1980|1980|1|0|0x233510de"

# a fake scontrol: the node's state and reason in files, each call logged
mkdir -p "$work/sbin"
cat > "$work/sbin/scontrol" <<EOS
#!/bin/sh
echo "\$*" >> "$work/scontrol.log"
case "\$1 \$2" in
"show node")
	[ -f "$work/show-fails" ] && exit 1
	printf 'NodeName=%s Arch=x86_64 CoresPerSocket=32\n   State=%s ThreadsPerCore=2\n   Reason=%s [root@2026-12-02T06:00:00]\n' \
		"\$3" "\$(cat "$work/state")" "\$(cat "$work/reason")"
	;;
update*)
	case "\$*" in
	*State=DRAIN*) echo IDLE+DRAIN > "$work/state"; echo "\$*" | sed 's/.*Reason=//' > "$work/reason" ;;
	*State=RESUME*) echo IDLE > "$work/state"; echo "(null)" > "$work/reason" ;;
	esac
	;;
esac
EOS
chmod 755 "$work/sbin/scontrol"
echo IDLE > "$work/state"
echo "(null)" > "$work/reason"

# check NAME SCENARIO [ARGS...]: stdout in $work/NAME.out, status in $rc
check() {
	name=$1
	printf '%s\n' "$2" > "$work/$name.scenario"
	shift 2
	env -i PATH=/usr/bin:/bin ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} GPUDOCTOR_FAKE_SCENARIO="$work/$name.scenario" \
		"$bin" check --root "$root" --load-root "$@" > "$work/$name.out" 2> "$work/$name.err"
	rc=$?
}

check healthy "$GPU" --expect-gpus 1
[ $rc -eq 0 ] && grep -q '^gpudoctor check: healthy (1 GPU)$' "$work/healthy.out" &&
	pass "check: a healthy node, exit 0" || fail "check: healthy" "rc=$rc" "$(cat "$work/healthy.out" "$work/healthy.err")"
check lost "$GPU
nvml_at 0|$BUS|lost=1" --json
[ $rc -eq 2 ] && jq -e '.healthy == false and (.failures[0] | test("fell off the bus")) and .gpus == 0 and .slurm == null' "$work/lost.out" > /dev/null &&
	pass "check: a GPU lost fails the node, exit 2 (JSON)" || fail "check: lost" "rc=$rc" "$(cat "$work/lost.out")"
check missing "$GPU" --expect-gpus 2
[ $rc -eq 2 ] && grep -q '^gpudoctor check: FAILED: 1 of 2 GPUs answer NVML$' "$work/missing.out" &&
	pass "check: a GPU missing against --expect-gpus" || fail "check: missing" "rc=$rc" "$(cat "$work/missing.out")"
check ecc "$GPU
nvml_at 0|$BUS|ecc_unc=3"
[ $rc -eq 2 ] && grep -q 'FAILED: .*ecc_uncorrected 3' "$work/ecc.out" && pass "check: uncorrected ECC errors fail the node" ||
	fail "check: ecc" "rc=$rc" "$(cat "$work/ecc.out")"

S="--slurm --node gpu07 --scontrol $work/sbin/scontrol"
# shellcheck disable=SC2086
check drain "$GPU
nvml_at 0|$BUS|lost=1" $S
if [ $rc -eq 2 ] && [ "$(cat "$work/state")" = IDLE+DRAIN ] && grep -q '^gpudoctor: GPU 0 (NVIDIA H200): fell off the bus' "$work/reason" &&
	grep -q '^update NodeName=gpu07 State=DRAIN Reason=gpudoctor: ' "$work/scontrol.log" && grep -q '^slurm: node gpu07 drained$' "$work/drain.out"; then
	pass "check --slurm: a failing node is drained with a gpudoctor: reason"
else
	fail "check --slurm: drain" "rc=$rc" "$(cat "$work/drain.out" "$work/drain.err" "$work/scontrol.log")"
fi
# shellcheck disable=SC2086
check resume "$GPU" $S --expect-gpus 1
if [ $rc -eq 0 ] && [ "$(cat "$work/state")" = IDLE ] && grep -q '^update NodeName=gpu07 State=RESUME$' "$work/scontrol.log" &&
	grep -q '^slurm: node gpu07 resumed (its reason was: gpudoctor: ' "$work/resume.out"; then
	pass "check --slurm: healthy again, the node gpudoctor drained is resumed"
else
	fail "check --slurm: resume" "rc=$rc" "$(cat "$work/resume.out" "$work/scontrol.log")"
fi
echo IDLE+DRAIN > "$work/state"
echo "disk replacement" > "$work/reason"
: > "$work/scontrol.log"
# shellcheck disable=SC2086
check admin_ok "$GPU" $S --expect-gpus 1
# shellcheck disable=SC2086
check admin_bad "$GPU
nvml_at 0|$BUS|lost=1" $S --json
if ! grep -q '^update' "$work/scontrol.log" && [ "$(cat "$work/reason")" = "disk replacement" ] &&
	jq -e '.slurm.action == "left alone: drained by someone else" and .slurm.reason_before == "disk replacement"' "$work/admin_bad.out" > /dev/null; then
	pass "check --slurm: a node an admin drained is neither resumed nor drained again"
else
	fail "check --slurm: admin's drain" "$(cat "$work/scontrol.log" "$work/admin_bad.out")"
fi
echo IDLE > "$work/state"
echo "(null)" > "$work/reason"
: > "$work/scontrol.log"
# shellcheck disable=SC2086
check idle "$GPU" $S --expect-gpus 1
[ $rc -eq 0 ] && ! grep -q '^update' "$work/scontrol.log" && pass "check --slurm: a healthy idle node is not touched" ||
	fail "check --slurm: idle" "$(cat "$work/scontrol.log")"

usage() {
	label=$1 want=$2
	shift 2
	printf '%s\n' "$GPU" > "$work/u.scenario"
	env -i PATH=/usr/bin:/bin GPUDOCTOR_FAKE_SCENARIO="$work/u.scenario" "$bin" check "$@" > "$work/u.out" 2> "$work/u.err"
	rc=$?
	if [ $rc -eq 3 ] && [ "$(wc -l < "$work/u.err")" -eq 1 ] && grep -q -- "$want" "$work/u.err"; then
		pass "$label"
	else
		fail "$label" "rc=$rc" "$(cat "$work/u.err")"
	fi
}
usage "check: --node without --slurm" "go with --slurm" --node x
usage "check: a scontrol that is not there" "--scontrol '/nope/scontrol': not an executable" --slurm --scontrol /nope/scontrol
cp "$work/sbin/scontrol" "$work/open-scontrol"
chmod 777 "$work/open-scontrol"
usage "check: a scontrol others can change is not run" "not running '$work/open-scontrol'" --slurm --scontrol "$work/open-scontrol"
touch "$work/show-fails"
usage "check: scontrol failing" "scontrol show node gpu07: exit status 1" --root "$root" --load-root --slurm --node gpu07 --scontrol "$work/sbin/scontrol"
rm -f "$work/show-fails"
usage "check: a bad --expect-gpus" "not a whole number from 1" --expect-gpus none
usage "check: a bad --timeout" "not a number of seconds" --timeout 99
usage "check: an unexpected argument" "unexpected argument 'now'" now
"$bin" check --help | grep -q '^usage: gpudoctor check' && pass "check --help" || fail "check --help"
exit 0
