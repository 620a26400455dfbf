#!/bin/sh
# bench/python.sh - what the static framework layer costs: `doctor --no-load`
# on a copy of the H200 fixture machine (tests/fixtures/h200-reference-vm),
# once with its one torch venv and once with 19 more copies of that venv on
# PATH (20 environments with torch, JAX and CuPy and their nvidia-* wheels).
# Prints min / median / max ms of each and the difference per environment.
#
#   sh bench/python.sh [GPUDOCTOR] [RUNS]
set -eu
bin=${1:-build/gpudoctor}
runs=${2:-21}
top=$(cd "$(dirname "$0")/.." && pwd)
fx=$top/tests/fixtures/h200-reference-vm
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cp -a "$fx/root" "$tmp/one"
cp -a "$fx/root" "$tmp/twenty"
path=/opt/torch/.venv/bin
i=1
while [ $i -lt 20 ]; do
	mkdir -p "$tmp/twenty/opt/env$i"
	cp -a "$tmp/twenty/opt/torch/.venv" "$tmp/twenty/opt/env$i/.venv"
	path="$path:/opt/env$i/.venv/bin"
	i=$((i + 1))
done

now() { date +%s%N; }
run() { # root extra-path -> appends ms*1000 to file $3
	t0=$(now)
	env -i "PATH=$2:/usr/bin:/bin" "$bin" doctor --root "$1" --no-load --json > "$tmp/out.json" 2>/dev/null || true
	t1=$(now)
	echo $(( (t1 - t0) / 1000 )) >> "$3"
}
stats() {
	sort -n "$1" | awk '{v[NR]=$1} END {printf "min %6.1f  median %6.1f  max %6.1f ms", v[1]/1000, v[int((NR+1)/2)]/1000, v[NR]/1000}'
}
median() { sort -n "$1" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

: > "$tmp/t1"; : > "$tmp/t20"
run "$tmp/one" /opt/torch/.venv/bin "$tmp/warm"
run "$tmp/twenty" "$path" "$tmp/warm"
n=0
while [ $n -lt "$runs" ]; do
	run "$tmp/one" /opt/torch/.venv/bin "$tmp/t1"
	run "$tmp/twenty" "$path" "$tmp/t20"
	n=$((n + 1))
done
envs=$(jq '.python | length' "$tmp/out.json" 2>/dev/null || echo "?")
fws=$(jq '[.python[].frameworks[]] | length' "$tmp/out.json" 2>/dev/null || echo "?")
echo "doctor --no-load on the H200 fixture, $runs runs each"
printf '  %-30s %s\n' "1 environment" "$(stats "$tmp/t1")"
printf '  %-30s %s\n' "$envs environments, $fws frameworks" "$(stats "$tmp/t20")"
awk -v a="$(median "$tmp/t1")" -v b="$(median "$tmp/t20")" \
	'BEGIN { printf "  static analysis of 19 more environments: %.1f ms (target: 20 under 50 ms)\n", (b - a) / 1000 }'
