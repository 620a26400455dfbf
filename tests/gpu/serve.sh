#!/bin/sh
# tests/gpu/serve.sh - `gpudoctor serve` on a real GPU under load beside
# nvidia-smi: /metrics sampled at the moments nvidia-smi is, the GPU figures
# compared (temperature, power, utilization, memory used, SM clock); then
# `check` and `fleet --facts` on the same machine. Prints "ok"/"not ok"
# lines and "N passed, N failed".
#
#   sh tests/gpu/serve.sh [GPUDOCTOR] [OUTDIR]
set -u
bin=${1:-build/gpudoctor}
out=${2:-/tmp/gpudoctor-gpu-serve}
mkdir -p "$out"
pass=0
fail=0
ok() { echo "ok $1"; pass=$((pass + 1)); }
notok() { echo "not ok $1"; fail=$((fail + 1)); }

python3 - > "$out/load.log" 2>&1 <<'PY' &
import time, torch
a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
hold = torch.empty(8 << 30, dtype=torch.uint8, device="cuda")
end = time.time() + 35
while time.time() < end:
    for _ in range(50):
        c = a @ a
    torch.cuda.synchronize()
PY
load=$!
"$bin" serve --listen 127.0.0.1:19446 --interval 0.5 > /dev/null 2> "$out/serve.err" &
srv=$!
sleep 8
m() { awk -v n="$1" '$1 ~ "^"n"[{]" { print $NF; exit }' "$2"; }
agree=0
for i in 1 2 3 4 5; do
	nvidia-smi --query-gpu=temperature.gpu,power.draw,utilization.gpu,memory.used,clocks.sm \
		--format=csv,noheader,nounits > "$out/smi.$i" &
	curl -s http://127.0.0.1:19446/metrics > "$out/metrics.$i"
	wait $!
	IFS=', ' read -r st sp su sm sc < "$out/smi.$i"
	mt=$(m DCGM_FI_DEV_GPU_TEMP "$out/metrics.$i")
	mp=$(m DCGM_FI_DEV_POWER_USAGE "$out/metrics.$i")
	mu=$(m DCGM_FI_DEV_GPU_UTIL "$out/metrics.$i")
	mm=$(m DCGM_FI_DEV_FB_USED "$out/metrics.$i")
	mc=$(m DCGM_FI_DEV_SM_CLOCK "$out/metrics.$i")
	echo "sample $i: temp $mt/$st power $mp/$sp util $mu/$su fb_used $mm/$sm sm_clock $mc/$sc" | tee -a "$out/compare.txt"
	if awk -v a="$mt" -v b="$st" -v c="$mp" -v d="$sp" -v e="$mu" -v f="$su" -v g="$mm" -v h="$sm" -v k="$mc" -v l="$sc" 'BEGIN {
		x = a - b; if (x < 0) x = -x; if (x > 3) exit 1
		x = c - d; if (x < 0) x = -x; if (x > 0.15 * d + 20) exit 1
		x = e - f; if (x < 0) x = -x; if (x > 10) exit 1
		x = g - h; if (x < 0) x = -x; if (x > 256) exit 1
		x = k - l; if (x < 0) x = -x; if (x > 0.15 * l) exit 1
		if (e < 90) exit 1
	}'; then agree=$((agree + 1)); fi
	sleep 1
done
[ "$agree" -ge 4 ] && ok "serve's GPU metrics agree with nvidia-smi under load in $agree of 5 samples" ||
	notok "serve's GPU metrics agree with nvidia-smi under load in $agree of 5 samples"
curl -s http://127.0.0.1:19446/facts | jq -e '.schema == "gpudoctor/facts/1"' > /dev/null && ok "serve /facts" || notok "serve /facts"
grep -q '^gpudoctor_gpus 1$' "$out/metrics.5" && grep -q '^gpudoctor_sampler_up 1$' "$out/metrics.5" &&
	ok "serve: gpudoctor_gpus and the sampler" || notok "serve: gpudoctor_gpus and the sampler"
kill "$srv"
wait "$load"
"$bin" check --json > "$out/check.json"
echo "$?" > "$out/check.rc"
jq -e '.gpus == 1 and .expected_gpus == 1 and (.failures | length == 0)' "$out/check.json" > /dev/null &&
	ok "check on the H200: 1 GPU of 1 answers, no failure (exit $(cat "$out/check.rc"))" ||
	notok "check on the H200: $(head -c 400 "$out/check.json")"
"$bin" doctor --json > "$out/facts.json" 2> /dev/null
"$bin" fleet --facts "$out/facts.json" > "$out/fleet.txt"
grep -q 'H200' "$out/fleet.txt" && ok "fleet --facts on the H200's document" || notok "fleet --facts on the H200's document"
echo "$pass passed, $fail failed"
