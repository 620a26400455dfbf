#!/bin/sh
# tests/gpu/top.sh - `gpudoctor top` on a real GPU under load (a PyTorch
# matrix-multiplication loop): `top --once --json` taken beside
# `nvidia-smi --query-gpu` and `--query-compute-apps` must agree on
# utilization, memory, power, temperature and the process list; the
# sampler's CPU per sample is measured (target 1 ms per GPU); the screen
# is captured in tmux when there is one (TMUX_BIN). Prints "ok"/"not ok"
# lines and "N passed, N failed".
#
#   sh tests/gpu/top.sh [GPUDOCTOR] [OUTDIR]
set -u
bin=${1:-build/gpudoctor}
out=${2:-/tmp/gpudoctor-gpu-top}
tmux_bin=${TMUX_BIN:-tmux}
mkdir -p "$out"
pass=0
fail=0
ok() { echo "ok $1"; pass=$((pass + 1)); }
notok() { echo "not ok $1"; fail=$((fail + 1)); }

# the load: 40 s of bf16 matrix multiplications holding ~17 GiB
python3 - > "$out/load.log" 2>&1 <<'EOF' &
import time, torch
a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
hold = torch.empty(16 << 30, dtype=torch.uint8, device="cuda")
end = time.time() + 40
while time.time() < end:
    for _ in range(50):
        c = a @ b
    torch.cuda.synchronize()
EOF
load=$!
sleep 8

# agree with nvidia-smi, sampled at the same moments
agree=0
for i in 1 2 3 4 5; do
	nvidia-smi --query-gpu=utilization.gpu,memory.used,power.draw,temperature.gpu --format=csv,noheader,nounits \
		> "$out/smi.$i.csv" &
	"$bin" top --once --json > "$out/top.$i.json" 2> "$out/top.$i.err"
	wait $!
	nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits > "$out/apps.$i.csv"
	IFS=', ' read -r s_util s_mem s_pow s_temp < "$out/smi.$i.csv"
	t_util=$(jq -r '.gpus[0].utilization.gpu_pct' "$out/top.$i.json")
	t_mem=$(jq -r '.gpus[0].memory.used_mib' "$out/top.$i.json")
	t_pow=$(jq -r '.gpus[0].power.draw_w' "$out/top.$i.json")
	t_temp=$(jq -r '.gpus[0].temperature.gpu_c' "$out/top.$i.json")
	t_lmem=$(jq -r --argjson p "$load" '[.processes[] | select(.pid == $p) | .memory_mib][0] // -1' "$out/top.$i.json")
	s_lmem=$(awk -F', ' -v p="$load" '$1 == p { print $2 }' "$out/apps.$i.csv")
	echo "sample $i: util $t_util/$s_util mem $t_mem/$s_mem power $t_pow/$s_pow temp $t_temp/$s_temp load-mem $t_lmem/${s_lmem:-none}" \
		| tee -a "$out/compare.txt"
	if awk -v tu="$t_util" -v su="$s_util" -v tm="$t_mem" -v sm="$s_mem" -v tp="$t_pow" -v sp="$s_pow" \
		-v tt="$t_temp" -v st="$s_temp" -v tl="$t_lmem" -v sl="${s_lmem:--2}" 'BEGIN {
		d = tu - su; if (d < 0) d = -d; if (d > 10) exit 1
		d = tm - sm; if (d < 0) d = -d; if (d > 256) exit 1
		d = tp - sp; if (d < 0) d = -d; if (d > 0.15 * sp + 20) exit 1
		d = tt - st; if (d < 0) d = -d; if (d > 3) exit 1
		if (tl != sl) exit 1
		if (tu < 90) exit 1
	}'; then agree=$((agree + 1)); fi
done
[ "$agree" -ge 4 ] && ok "top agrees with nvidia-smi under load in $agree of 5 samples" ||
	notok "top agrees with nvidia-smi under load in $agree of 5 samples"
jq -e '.gpus[0].clocks.sm_mhz > 0 and .gpus[0].pcie.gen > 0 and (.processes | length) >= 1' "$out/top.5.json" > /dev/null &&
	ok "top --once --json: clocks, PCIe link and processes" || notok "top --once --json: clocks, PCIe link and processes"

# CPU per sample: the sampler thread's own figure, and the whole run's
/usr/bin/time -f '%U %S %e' -o "$out/cpu.time" "$bin" top --json --interval 0.1 --count 100 > "$out/cpu.jsonl" 2> "$out/cpu.err"
med=$(jq -s '[.[].sampler_cpu_ms] | sort | .[length / 2 | floor]' "$out/cpu.jsonl")
p95=$(jq -s '[.[].sampler_cpu_ms] | sort | .[(length * 0.95) | floor]' "$out/cpu.jsonl")
ngpu=$(jq -s '.[0].gpus | length' "$out/cpu.jsonl")
read -r u s e < "$out/cpu.time"
whole=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", (u + s) * 1000 / 100 }')
echo "cpu per sample: median $med ms, p95 $p95 ms (sampler thread), whole process $whole ms/sample incl. start, $ngpu GPU(s)" \
	| tee "$out/cpu.txt"
awk -v m="$med" -v n="$ngpu" 'BEGIN { exit !(m <= 1.0 * n) }' && ok "sampler CPU median $med ms per sample for $ngpu GPU(s)" ||
	notok "sampler CPU median $med ms per sample for $ngpu GPU(s)"

# the screen under load
if command -v "$tmux_bin" > /dev/null 2>&1; then
	"$tmux_bin" -L gputop -f /dev/null new-session -d -x 110 -y 32 "env -u LD_LIBRARY_PATH TERM=screen LANG=C.UTF-8 $bin top --interval 0.5"
	sleep 6
	"$tmux_bin" -L gputop capture-pane -p > "$out/screen.txt"
	"$tmux_bin" -L gputop send-keys q
	sleep 1
	"$tmux_bin" -L gputop kill-server 2> /dev/null
	grep -q '^GPU 0  NVIDIA' "$out/screen.txt" && ok "top screen captured under load" || notok "top screen captured under load"
else
	echo "ok top screen # SKIP no tmux"
fi
wait "$load"
echo "$pass passed, $fail failed"
