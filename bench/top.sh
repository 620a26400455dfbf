#!/bin/sh
# bench/top.sh GPUDOCTOR - what `gpudoctor top` costs: the CPU each NVML
# call of its sampler takes (bench/nvml_calls.c), and the sampler's CPU per
# sample over 100 samples (its own figure, sampler_cpu_ms in top --json)
# beside the whole process's. Target: at most 1 ms of CPU per sample and
# GPU. Without a driver it says so and stops.
set -u
bin=${1:-build/gpudoctor}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-bench-top.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "top: CPU per sample"
if ! "$bin" top --once --json > "$tmp/once.json" 2> "$tmp/once.err"; then
	echo "  no GPU to sample here: $(head -1 "$tmp/once.err")"
	exit 0
fi
if cc -O2 -o "$tmp/nvml_calls" "$here/nvml_calls.c" -ldl 2> "$tmp/cc.err"; then
	"$tmp/nvml_calls" | sed 's/^/  /'
fi
/usr/bin/time -f '%U %S' -o "$tmp/time" "$bin" top --json --interval 0.1 --count 100 > "$tmp/run.jsonl" 2>/dev/null
read -r u s < "$tmp/time"
jq -rs --arg u "$u" --arg s "$s" '
	([.[].sampler_cpu_ms] | sort) as $c | (.[0].gpus | length) as $g |
	"  sampler thread     median \($c[length / 2 | floor]) ms, p95 \($c[(length * 0.95) | floor]) ms per sample, \($g) GPU(s) (target <= \($g) ms)",
	"  whole process      \((($u | tonumber) + ($s | tonumber)) * 10 | . * 100 | round / 100) ms per sample, with NVML start and the process table"
' "$tmp/run.jsonl"
