#!/bin/sh
# tests/scripts/bench_mocks.sh BUILD_DIR - `gpudoctor bench` end to end on
# fixture roots that carry the mock libcuda, libnvidia-ml and libcublasLt
# (BUILD_DIR/stubs/fake_*.so; behaviour from GPUDOCTOR_FAKE_SCENARIO, see
# tests/stubs/README.md): every test passing, a missing cuBLASLt, the PTX
# JIT refused, no cuBLASLt algorithm, throttling seen during a test, wrong
# results, a crash, a hang (time limit and Ctrl-C), and the CPU test on
# this machine's real BLAS. Prints "ok NAME" / "not ok NAME" lines.
set -u
. "$(dirname "$0")/../lib.sh"
build=${1:?usage: bench_mocks.sh BUILD_DIR}
case "$build" in /*) ;; *) build=$(pwd)/$build ;; esac
bin=$build/gpudoctor
work=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
lib=usr/lib/x86_64-linux-gnu
cuda=usr/local/cuda-13.0/lib64

pass() { echo "ok $1"; }
fail() { echo "not ok $1"; shift; [ $# -gt 0 ] && printf '#   %s\n' "$@"; return 0; }

for f in "$bin" "$build/stubs/fake_cuda.so" "$build/stubs/fake_nvml.so" "$build/stubs/fake_cublaslt.so" \
	"$build/tests/tools/mk-ldcache"; do
	[ -e "$f" ] || { fail "prerequisites" "missing $f (make test-deps BUILD=$(basename "$build"))"; exit 0; }
done

# mkroot NAME [nolt]: the driver mocks installed as the driver installs
# itself, and a CUDA toolkit's cuBLASLt (unless nolt).
mkroot() {
	r=$work/$1
	mkdir -p "$r/$lib" "$r/etc" "$r/$cuda"
	cp "$build/stubs/fake_cuda.so" "$r/$lib/libcuda.so.580.95.05"
	cp "$build/stubs/fake_nvml.so" "$r/$lib/libnvidia-ml.so.580.95.05"
	ln -s libcuda.so.580.95.05 "$r/$lib/libcuda.so.1"
	ln -s libnvidia-ml.so.580.95.05 "$r/$lib/libnvidia-ml.so.1"
	if [ "${2:-}" != nolt ]; then
		cp "$build/stubs/fake_cublaslt.so" "$r/$cuda/libcublasLt.so.13.1.0.3"
		ln -s libcublasLt.so.13.1.0.3 "$r/$cuda/libcublasLt.so.13"
		ln -s cuda-13.0 "$r/usr/local/cuda"
	fi
	printf 'libcuda.so.1 /%s/libcuda.so.1\nlibnvidia-ml.so.1 /%s/libnvidia-ml.so.1\n' \
		"$lib" "$lib" > "$work/$1.ldcache"
	"$build/tests/tools/mk-ldcache" "$work/$1.ldcache" "$r/etc/ld.so.cache"
}

H200='NVIDIA H200'
UUID=GPU-0488de22-0688-4512-984a-a9517a925ed0
DEVICE="device $H200|$UUID|0000:06:00.0|9.0|143771"
NVML_GPU="nvml_gpu 00000000:06:00.0|$H200|$UUID|143771|1024|31|76000|700000|0|1|0|0|12|1980|1980|1|0|0x233510de"
SMALL="--size 64 --copy-mib 2 --host-mib 2 --timeout 20"

# bench NAME SCENARIO-TEXT [ARGS...]: JSON in $work/NAME.json, exit status in $rc
bench() {
	name=$1 scen=$2
	shift 2
	printf '%s\n' "$scen" > "$work/$name.scenario"
	env -i PATH=/usr/bin:/bin ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} \
		${UBSAN_OPTIONS:+UBSAN_OPTIONS=$UBSAN_OPTIONS} GPUDOCTOR_FAKE_SCENARIO="$work/$name.scenario" \
		"$bin" bench --root "$work/$name" --load-root --json $SMALL "$@" > "$work/$name.json" 2> "$work/$name.err"
	rc=$?
}

check() {
	label=$1 name=$2
	shift 2
	if ! jq_failing "$work/$name.json" "$@"; then
		fail "$label" "not JSON: $(head -c 300 "$work/$name.err")"
	elif [ -n "$_pf_bad" ]; then
		fail "$label" "false:$_pf_bad" "tests: $(jq -c '[.tests[] | {name, state, error}]' "$work/$name.json")"
	else
		pass "$label"
	fi
}

mkroot healthy
bench healthy "$DEVICE
$NVML_GPU"
check "bench: every test on the mocks" healthy \
	'.schema == "gpudoctor/bench/1"' \
	'[.tests[] | select(.group != "cpu")] | length == 11' \
	'[.tests[] | select(.state != "ok")] | length == 0' \
	'[.tests[] | select(.verified != true)] | length == 0' \
	'[.tests[] | select(.value <= 0)] | length == 0' \
	'.tests[] | select(.name == "d2d_kernel") | .value_read_write == 2 * .value' \
	'.tests[] | select(.name == "gemm_bf16") | .detail | test("algorithm [0-9]+ of 4, workspace 32 MiB, cuBLASLt 13.1.0")' \
	'.tests[] | select(.name == "gemm_fp32") | .nvml.samples >= 2 and .nvml.sm_clock_max_mhz == 1980' \
	'.libraries.cublaslt | endswith("/usr/local/cuda-13.0/lib64/libcublasLt.so.13.1.0.3")' \
	'[.mixed_precision[] | .precision] == ["tf32", "fp16", "bf16", "fp8"]' \
	'[.findings[] | select(.severity == "error")] | length == 0'

mkroot nolt nolt
bench nolt "$DEVICE
$NVML_GPU"
check "bench: no cuBLASLt skips the GEMMs and says so" nolt \
	'[.tests[] | select(.group == "gemm") | .state] | unique == ["skipped"]' \
	'.tests[] | select(.name == "d2d_copy") | .state == "ok"' \
	'[.findings[] | select(.id == "lib.cuda_lib_missing")] | length == 1'

mkroot jit
bench jit "$DEVICE
$NVML_GPU
jit 221" --tests d2d_kernel,d2d_copy
check "bench: the PTX JIT missing (221) is a finding" jit \
	'.tests[] | select(.name == "d2d_kernel") | .state == "failed" and (.error | test("CUDA_ERROR_JIT_COMPILER_NOT_FOUND \\(221\\)"))' \
	'.tests[] | select(.name == "d2d_copy") | .state == "ok"' \
	'[.findings[] | select(.id == "driver.ptx_jit_missing" and .severity == "error")] | length == 1'
[ "$rc" = 2 ] && pass "bench: exit 2 on an error finding" || fail "bench: exit 2 on an error finding" "exit $rc"

mkroot ptxnew
bench ptxnew "$DEVICE
$NVML_GPU
jit 222" --tests d2d_kernel
check "bench: PTX too new for the driver (222) is driver.too_old" ptxnew \
	'[.findings[] | select(.id == "driver.too_old")] | length == 1'

mkroot badptx
bench badptx "$DEVICE
$NVML_GPU
jit 218" --tests d2d_kernel
check "bench: valid PTX rejected (218) points at a mixed driver" badptx \
	'[.findings[] | select(.id == "driver.version_mismatch")] | length == 1'

mkroot noalgo
bench noalgo "$DEVICE
$NVML_GPU
lt_algos 0" --tests gemm
check "bench: cuBLASLt without an algorithm is skipped, not a crash" noalgo \
	'[.tests[] | .state] | unique == ["skipped"]' \
	'.tests[0].error | test("has no algorithm for fp32")'

mkroot hot
bench hot "$DEVICE
nvml_gpu 00000000:06:00.0|$H200|$UUID|143771|1024|91|699000|700000|0x40|1|0|0|100|1200|1980|1|0|0x233510de" \
	--tests gemm_bf16
check "bench: thermal slowdown seen during a test" hot \
	'.tests[0].nvml.clock_event_reasons == 64' \
	'.tests[0].nvml.temperature_max_c == 91' \
	'[.findings[] | select(.id == "rt.thermal")] | length == 1'

mkroot corrupt
bench corrupt "$DEVICE
$NVML_GPU
bench_corrupt 1" --tests d2d_copy,h2d_pinned
check "bench: wrong results are an error" corrupt \
	'[.tests[] | .verified] == [false, false]' \
	'[.findings[] | select(.id == "perf.result_wrong")] | length == 2'

mkroot crash
bench crash "$DEVICE
$NVML_GPU
bench_crash 1" --tests d2d_kernel,h2d_pinned
check "bench: a crashing test is reported, the next one runs" crash \
	'.tests[0].state == "crashed" and (.tests[0].error | test("signal 11"))' \
	'.tests[1].state == "ok"'

mkroot hang
bench hang "$DEVICE
$NVML_GPU
bench_hang 1" --tests d2d_copy --timeout 1
check "bench: a hang ends at the time limit" hang \
	'.tests[0].state == "timeout"' '.tests[0].ms < 3000'

# Ctrl-C: gpudoctor ends and no test child is left behind. A background
# job starts with SIGINT ignored (and gpudoctor keeps a signal that was
# ignored ignored), so the test sends SIGTERM, which the same handler
# (sys/child.c) takes as it takes SIGINT.
printf '%s\n%s\n%s\n' "$DEVICE" "$NVML_GPU" "bench_hang 1" > "$work/sigint.scenario"
env -i PATH=/usr/bin:/bin GPUDOCTOR_FAKE_SCENARIO="$work/sigint.scenario" \
	setsid "$bin" bench --root "$work/hang" --load-root $SMALL --tests d2d_copy > /dev/null 2>&1 &
pid=$!
sleep 1
kill -TERM "$pid" 2>/dev/null
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 "$pid" 2>/dev/null; then
	kill -KILL "$pid"
	fail "bench: a signal ends it" "still running 5 s after SIGTERM"
elif sleep 0.2 && pgrep -f "bench --root $work/hang" > /dev/null 2>&1; then
	fail "bench: a signal ends it" "a test child outlived it"
else
	pass "bench: a signal ends it and its test child"
fi

# two GPUs: the multi tests run by default, P2P between each pair, NCCL's
# all-reduce through the machine's libnccl (a mock that sums on the CPU)
UUID2=GPU-7d21c5e0-3b9a-4f16-8c42-0e5a9b1d6f73
TWO="$DEVICE
device $H200|$UUID2|0000:07:00.0|9.0|143771
$NVML_GPU
nvml_gpu 00000000:07:00.0|$H200|$UUID2|143771|1024|31|76000|700000|0|1|0|0|12|1980|1980|1|0|0x233510de"
mkroot multi
cp "$build/stubs/fake_nccl.so" "$work/multi/$cuda/libnccl.so.2.27.3"
ln -s libnccl.so.2.27.3 "$work/multi/$cuda/libnccl.so.2"
bench multi "$TWO" --copy-mib 8
check "bench: two GPUs, P2P and NCCL all-reduce" multi \
	'[.tests[] | select(.group == "multi") | .name] == ["p2p_copy", "nccl_allreduce"]' \
	'.tests[] | select(.name == "p2p_copy") | .state == "ok" and .gpus == 2 and .verified == true' \
	'.tests[] | select(.name == "p2p_copy") | [.pairs[] | [.from, .to, .peer_access]] == [[0, 1, true], [1, 0, true]]' \
	'.tests[] | select(.name == "p2p_copy") | [.pairs[] | select(.gbs > 0 and .latency_us > 0)] | length == 2' \
	'.tests[] | select(.name == "nccl_allreduce") | .state == "ok" and .verified == true and .gpus == 2' \
	'.tests[] | select(.name == "nccl_allreduce") | .sizes[0].bytes == 8388608 and .sizes[0].busbw == .sizes[0].algbw' \
	'.tests[] | select(.name == "nccl_allreduce") | .value == .sizes[-1].busbw' \
	'.libraries.nccl | endswith("/libnccl.so.2.27.3")'
bench multi "$TWO
peer_access 0
nccl_wrong 1" --copy-mib 8 --tests multi
check "bench: pairs without peer access are staged and said so; wrong sums are caught" multi \
	'.tests[] | select(.name == "p2p_copy") | .state == "ok" and ([.pairs[] | .peer_access] == [false, false])' \
	'.tests[] | select(.name == "p2p_copy") | .detail | test("0 of 2 pairs with peer access")' \
	'.tests[] | select(.name == "nccl_allreduce") | .verified == false' \
	'[.findings[] | select(.severity == "error")] | length >= 1'
bench multi "$TWO
nccl_init_error 2" --copy-mib 8 --tests nccl_allreduce
check "bench: NCCL that cannot start is a failed test with NCCL's words" multi \
	'.tests[0].state == "failed" and (.tests[0].error | test("ncclCommInitAll: unhandled system error \\(2\\)"))'
# one GPU: the multi tests are left out unless asked for, and then p2p says why
bench healthy "$DEVICE
$NVML_GPU" --tests p2p_copy
check "bench: P2P on one GPU is skipped with the reason" healthy \
	'.tests[0].state == "skipped" and (.tests[0].error | test("needs two GPUs or more; CUDA sees 1"))'
printf '%s\n' "$TWO" > "$work/multi.scenario"
env -i PATH=/usr/bin:/bin GPUDOCTOR_FAKE_SCENARIO="$work/multi.scenario" \
	"$bin" bench --root "$work/multi" --load-root --tests multi --copy-mib 8 > "$work/multi.txt" 2>&1
if grep -q "GPU0 *X" "$work/multi.txt" && grep -q "busbw" "$work/multi.txt"; then
	pass "bench: the P2P matrices and NCCL's sizes in the text output"
else
	fail "bench: the P2P matrices and NCCL's sizes in the text output" "$(head -c 600 "$work/multi.txt")"
fi

# the CPU test runs for real on this machine's BLAS
"$bin" bench --tests cpu --cpu-size 256 --json > "$work/cpu.json" 2> "$work/cpu.err"
if jq -e '.tests[0].state == "ok" and .tests[0].value > 0 and .tests[0].verified == true' "$work/cpu.json" > /dev/null 2>&1 ||
	jq -e '.tests[0].state == "skipped" and ([.findings[] | select(.id == "perf.no_cpu_blas")] | length == 1)' "$work/cpu.json" > /dev/null 2>&1; then
	pass "bench: the CPU's GEMM through its BLAS ($(jq -r '.tests[0] | "\(.state) \(.value) GFLOP/s"' "$work/cpu.json"))"
else
	fail "bench: the CPU's GEMM through its BLAS" "$(head -c 400 "$work/cpu.json") $(head -c 200 "$work/cpu.err")"
fi
exit 0
