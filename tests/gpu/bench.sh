#!/bin/sh
# tests/gpu/bench.sh - `gpudoctor bench` on a real GPU against PyTorch
# doing the same work in the same run (tests/gpu/bench_torch.py): each
# figure must reach 0.97 of PyTorch's; FP8 at least 1400 TFLOP/s on an
# H200; the default bench within 30 s; every result verified. Prints
# "ok"/"not ok" lines and "N passed, N failed".
#
#   sh tests/gpu/bench.sh [GPUDOCTOR] [OUTDIR]
set -u
bin=${1:-build/gpudoctor}
out=${2:-/tmp/gpudoctor-gpu}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
pass=0
fail=0
ok() { echo "ok $1"; pass=$((pass + 1)); }
notok() { echo "not ok $1"; fail=$((fail + 1)); }

t0=$(date +%s%N)
"$bin" bench --json > "$out/bench.json" 2> "$out/bench.err"
echo $? > "$out/bench.rc"
t1=$(date +%s%N)
wall=$(( (t1 - t0) / 1000000 ))
echo "$wall" > "$out/bench.wall_ms"
"$bin" bench --color never > "$out/bench.txt" 2>&1
python3 "$here/bench_torch.py" > "$out/bench_torch.json" 2> "$out/bench_torch.err"

[ "$wall" -le 30000 ] && ok "bench-wall-${wall}ms" || notok "bench-wall-${wall}ms (over 30 s)"
v() { jq -r --arg t "$1" '.tests[] | select(.name == $t) | .'"${2:-value}"' // 0' "$out/bench.json"; }
ratio() { # NAME OURS THEIRS
	r=$(awk -v a="$2" -v b="$3" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print 0 }')
	if awk -v r="$r" 'BEGIN { exit !(r >= 0.97) }'; then ok "$1 $2 vs torch $3 ($r)"; else notok "$1 $2 vs torch $3 ($r)"; fi
}
for t in gemm_fp32 gemm_tf32 gemm_fp16 gemm_bf16; do
	ratio "$t" "$(v $t)" "$(jq -r ".$t // 0" "$out/bench_torch.json")"
done
ratio d2d_kernel "$(v d2d_kernel value_read_write)" "$(jq -r '.d2d_read_write // 0' "$out/bench_torch.json")"
ratio d2d_copy "$(v d2d_copy value_read_write)" "$(jq -r '.d2d_read_write // 0' "$out/bench_torch.json")"
ratio h2d_pinned "$(v h2d_pinned)" "$(jq -r '.h2d_pinned // 0' "$out/bench_torch.json")"
ratio d2h_pinned "$(v d2h_pinned)" "$(jq -r '.d2h_pinned // 0' "$out/bench_torch.json")"
fp8=$(v gemm_fp8)
if awk -v a="$fp8" 'BEGIN { exit !(a >= 1400) }'; then ok "gemm_fp8 $fp8 TFLOP/s"; else notok "gemm_fp8 $fp8 TFLOP/s (under 1400)"; fi
bad=$(jq -r '[.tests[] | select(.state == "ok" and .verified == false) | .name] | join(" ")' "$out/bench.json")
[ -z "$bad" ] && ok "bench-verified" || notok "bench-verified: $bad"
echo "$pass passed, $fail failed"
