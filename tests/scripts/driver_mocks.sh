#!/bin/sh
# tests/scripts/driver_mocks.sh BUILD_DIR - the driver layer end to end:
# `gpudoctor doctor --root ROOT --json` on fixture roots that carry the mock
# libcuda / libnvidia-ml (BUILD_DIR/stubs/fake_*.so, behaviour from
# GPUDOCTOR_FAKE_SCENARIO, see tests/stubs/README.md), checked with jq.
# Prints one "ok NAME" / "not ok NAME" line per check (run by tests/run.sh).
set -u
. "$(dirname "$0")/../lib.sh"
build=${1:?usage: driver_mocks.sh BUILD_DIR}
case "$build" in /*) ;; *) build=$(pwd)/$build ;; esac
bin=$build/gpudoctor
work=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-drv.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
lib=usr/lib/x86_64-linux-gnu
failed=0

pass() { echo "ok $1"; }
fail() { echo "not ok $1"; shift; [ $# -gt 0 ] && printf '#   %s\n' "$@"; failed=1; return 0; }

for f in "$bin" "$build/stubs/fake_cuda.so" "$build/stubs/fake_nvml.so" "$build/tests/tools/mk-ldcache"; do
	if [ ! -e "$f" ]; then
		fail "prerequisites" "missing $f (make test-deps BUILD=$(basename "$build"))"
		exit 1
	fi
done

# mkroot NAME [cuda-kind]: a root with the mocks installed the way the
# driver installs itself (versioned file + soname link + ld.so.cache).
# cuda-kind "text" puts a text file where libcuda belongs.
mkroot() {
	r=$work/$1
	mkdir -p "$r/$lib" "$r/etc"
	if [ "${2:-}" = text ]; then
		echo "not a shared object" > "$r/$lib/libcuda.so.580.95.05"
	else
		cp "$build/stubs/fake_cuda.so" "$r/$lib/libcuda.so.580.95.05"
	fi
	cp "$build/stubs/fake_nvml.so" "$r/$lib/libnvidia-ml.so.580.95.05"
	ln -s libcuda.so.580.95.05 "$r/$lib/libcuda.so.1"
	ln -s libnvidia-ml.so.580.95.05 "$r/$lib/libnvidia-ml.so.1"
	printf 'libcuda.so.1 /%s/libcuda.so.1\nlibnvidia-ml.so.1 /%s/libnvidia-ml.so.1\n' \
		"$lib" "$lib" > "$work/$1.ldcache"
	"$build/tests/tools/mk-ldcache" "$work/$1.ldcache" "$r/etc/ld.so.cache"
}

# doctor NAME SCENARIO-TEXT [ARGS...]: run on root NAME; JSON in
# $work/NAME.json, wall time in ms in $ms; the mock libcuda's constructor
# writes $work/NAME.loaded when it is loaded at all. $load is how the tree's
# libraries are allowed to load (--load-root; empty: the default, never).
load=--load-root
doctor() {
	name=$1 scen=$2
	shift 2
	printf '%s\n' "$scen" > "$work/$name.scenario"
	t0=$(date +%s%N)
	env -i PATH=/usr/bin:/bin ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} \
		${UBSAN_OPTIONS:+UBSAN_OPTIONS=$UBSAN_OPTIONS} \
		GPUDOCTOR_FAKE_SCENARIO="$work/$name.scenario" GPUDOCTOR_FAKE_LOADED_MARK="$work/$name.loaded" \
		"$bin" doctor --root "$work/$name" $load --json "$@" > "$work/$name.json" 2> "$work/$name.err"
	t1=$(date +%s%N)
	ms=$(((t1 - t0) / 1000000))
}

# check LABEL NAME JQ-EXPRESSION...: every expression must be true on the
# output of the run on root NAME.
check() {
	label=$1 name=$2
	shift 2
	if ! jq_failing "$work/$name.json" "$@"; then
		fail "$label" "not JSON: $(head -c 300 "$work/$name.err")"
	elif [ -n "$_pf_bad" ]; then
		fail "$label" "false:$_pf_bad" "driver: $(jq -c '.driver | del(.libs)' "$work/$name.json")"
	else
		pass "$label"
	fi
}

H200='NVIDIA H200'
UUID=GPU-0488de22-0688-4512-984a-a9517a925ed0
NVML_GPU="nvml_gpu 00000000:06:00.0|$H200|$UUID|143771|1024|31|76000|700000|4|1|0|0|12|1980|1980|1|0|0x233510de"
DEVICE="device $H200|$UUID|0000:06:00.0|9.0|143771"

mkroot healthy
doctor healthy "cuda_driver_version 13000
$DEVICE
nvml_driver 580.95.05
$NVML_GPU
nvml_proc 00000000:06:00.0|4242|800|compute
nvml_proc 00000000:06:00.0|4343|2048|graphics"
check healthy healthy \
	'.driver.cuda_state == "ok"' \
	'.driver.cuda_driver_version == 13000' \
	'.driver.cuda_version == "13.0"' \
	'.driver.cuinit_rc == 0' \
	'.driver.cuda_device_count == 1' \
	'.driver.cuda_loaded_path | endswith("/libcuda.so.580.95.05")' \
	'.driver.nvml_state == "ok"' \
	'.driver.nvml_device_count == 1' \
	'.driver.version == "580.95.05" and .driver.version_source == "nvml"' \
	'.gpus | length == 1' \
	'.gpus[0].name == "NVIDIA H200"' \
	'.gpus[0].uuid == "GPU-0488de22-0688-4512-984a-a9517a925ed0"' \
	'.gpus[0].pci_bus_id == "0000:06:00.0"' \
	'.gpus[0].compute_capability == "9.0"' \
	'.gpus[0].memory_total_mib == 143771' \
	'.gpus[0].cuda_valid and .gpus[0].nvml_valid' \
	'.gpus[0].memory_used_mib == 1024 and .gpus[0].temperature_c == 31' \
	'.gpus[0].power_limit_mw == 700000 and .gpus[0].sm_clock_max_mhz == 1980' \
	'[.procs[] | .pid] == [4242, 4343]' \
	'[.procs[] | .type] == ["compute", "graphics"]' \
	'.procs[0].used_mib == 800 and .procs[0].gpu_bus_id == "0000:06:00.0"'

mkroot old
doctor old "cuda_driver_version 11040
nvml_driver 470.256.02"
check old_driver old \
	'.driver.cuda_state == "ok"' \
	'.driver.cuda_driver_version == 11040' \
	'.driver.cuda_version == "11.4"' \
	'.driver.version == "470.256.02"'

mkroot nodev
doctor nodev "cuinit 100
$NVML_GPU"
check cuinit_no_device nodev \
	'.driver.cuda_state == "ok"' \
	'.driver.cuinit_rc == 100' \
	'.driver.cuinit_name == "CUDA_ERROR_NO_DEVICE"' \
	'.driver.cuinit_text | length > 0' \
	'.driver.nvml_state == "ok" and .driver.nvml_device_count == 1'

mkroot crash
doctor crash "cuinit_behaviour crash
$NVML_GPU
nvml_proc 00000000:06:00.0|4242|800|compute"
check cuinit_segfault crash \
	'.driver.cuda_state == "crashed"' \
	'.driver.cuda_signal == 11' \
	'.driver.cuinit_called' \
	'.driver.cuda_driver_version == 13000' \
	'.driver.nvml_state == "ok"' \
	'.driver.nvml_device_count == 1' \
	'.gpus[0].nvml_valid and .gpus[0].uuid == "GPU-0488de22-0688-4512-984a-a9517a925ed0"' \
	'.procs | length == 1'

mkroot hang
doctor hang "cuinit_behaviour hang
$NVML_GPU" --timeout 1
check cuinit_hang hang \
	'.driver.cuda_state == "timeout"' \
	'.driver.cuinit_called' \
	'.driver.nvml_state == "ok"' \
	'.gpus[0].nvml_valid'
if [ "$ms" -lt 2000 ]; then
	pass cuinit_hang_time
else
	fail cuinit_hang_time "doctor --timeout 1 took $ms ms"
fi

# cuInit forks a process that holds the answer pipe and never ends, then
# crashes: the crash is seen as a crash (not a time-out once the helper's
# pipe finally closes), and the helper is killed with the child's group.
mkroot forkcrash
doctor forkcrash "cuinit_behaviour fork-crash
grandchild_pidfile $work/forkcrash.pid
$NVML_GPU" --timeout 3
check cuinit_fork_crash forkcrash \
	'.driver.cuda_state == "crashed"' \
	'.driver.cuda_signal == 11' \
	'.driver.nvml_state == "ok"' \
	'[.findings[].id] | index("driver.probe_crashed") != null'
gpid=$(cat "$work/forkcrash.pid" 2>/dev/null)
# dead: gone, or a zombie left for init to reap
gstate=$( [ -n "$gpid" ] && awk '{ print $3 }' "/proc/$gpid/stat" 2>/dev/null)
if [ -z "$gpid" ]; then
	fail cuinit_fork_crash_helper_killed "the mock wrote no pid"
elif [ -z "$gstate" ] || [ "$gstate" = Z ]; then
	pass cuinit_fork_crash_helper_killed
else
	kill -9 "$gpid" 2>/dev/null
	fail cuinit_fork_crash_helper_killed "the helper $gpid outlived gpudoctor (state $gstate)"
fi

# Both inits take 600 ms: the children run side by side.
mkroot slow
doctor slow "cuinit_delay_ms 600
nvml_init_delay_ms 600
$DEVICE
$NVML_GPU"
check slow_inits slow '.driver.cuda_state == "ok"' '.driver.nvml_state == "ok"' '.driver.cuda_ms >= 590'
if [ "$ms" -lt 1100 ]; then
	pass parallel_children
else
	fail parallel_children "two 600 ms inits took $ms ms"
fi

mkroot mismatch
doctor mismatch "nvml_init 18"
check nvml_mismatch mismatch \
	'.driver.nvml_state == "ok"' \
	'.driver.nvml_init_rc == 18' \
	'.driver.nvml_init_name == "NVML_ERROR_LIB_RM_VERSION_MISMATCH"' \
	'.driver.version == "580.95.05" and .driver.version_source == "libcuda"'

mkroot noload
doctor noload "$DEVICE" --no-load
check no_load noload \
	'.driver.cuda_state == "not_run"' \
	'.driver.nvml_state == "not_run"' \
	'(.gpus | length) == 0'

# a tree is read, never run: without --load-root no library of it is loaded
# (no constructor runs), and the facts say why
mkroot readonly
load=
doctor readonly "$DEVICE"
load=--load-root
check root_loads_nothing readonly \
	'.driver.cuda_state == "not_run"' \
	'.driver.nvml_state == "not_run"' \
	'[.notes[] | select(.probe == "driver") | .note] | any(test("--load-root loads its libraries"))'
if [ -e "$work/readonly.loaded" ]; then
	fail root_constructor_not_run "the mock libcuda's constructor ran: $(cat "$work/readonly.loaded")"
else
	pass root_constructor_not_run
fi
# the same tree with --load-root: the constructor does run (the check can fail)
doctor readonly "$DEVICE"
if [ -e "$work/readonly.loaded" ]; then
	pass load_root_loads
else
	fail load_root_loads "no mark from the mock libcuda's constructor with --load-root"
fi

mkroot text text
doctor text "$DEVICE
$NVML_GPU"
check not_elf text \
	'.driver.cuda_state == "not_run"' \
	'.driver.nvml_state == "ok"' \
	'[.notes[] | select(.probe == "driver") | .note] | any(test("not a loadable"))'

if grep -l -E 'ERROR: (Address|Leak|Undefined)Sanitizer|runtime error:' "$work"/*.err > "$work/san" 2>/dev/null; then
	fail sanitizers "reports in: $(tr '\n' ' ' < "$work/san")"
else
	pass sanitizers
fi

exit $failed
