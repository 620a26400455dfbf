#!/bin/sh
# bench/doctor.sh - how long `gpudoctor doctor` takes on this machine, and
# against the floor: a bare process that loads libcuda and calls cuInit
# (bench/cuinit_floor.c), timed in the same run, interleaved.
#
#   sh bench/doctor.sh [GPUDOCTOR] [RUNS]
#
# Prints min / median / max wall milliseconds of each, and the ratio of the
# medians when libcuda is loadable, and what reading the frameworks' fat
# binaries costs. Targets (docs/performance.md): under 30 ms on a machine
# without a driver; at most 1.15x the floor with one; the fat binaries at
# most 10 ms.
set -eu
bin=${1:-build/gpudoctor}
runs=${2:-21}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cc -O2 -o "$tmp/cuinit_floor" "$here/cuinit_floor.c" -ldl 2>/dev/null || cc -O2 -o "$tmp/cuinit_floor" "$here/cuinit_floor.c"
floor_ok=1
"$tmp/cuinit_floor" >/dev/null 2>&1 || { [ $? -eq 2 ] && floor_ok=0; }

now() { date +%s%N; }
time_once() { # command... ; prints ms
	t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now)
	echo $(( (t1 - t0) / 1000 ))
}
stats() { # file -> "min median max" in ms with one decimal
	sort -n "$1" | awk '{v[NR]=$1} END {m=v[int((NR+1)/2)]; printf "min %7.1f  median %7.1f  max %7.1f ms\n", v[1]/1000, m/1000, v[NR]/1000}'
}
median() { sort -n "$1" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

# warm the page cache once
"$bin" doctor --json >/dev/null 2>&1 || true
[ $floor_ok -eq 1 ] && "$tmp/cuinit_floor" >/dev/null 2>&1 || true

: > "$tmp/doctor"; : > "$tmp/json"; : > "$tmp/noload"; : > "$tmp/floor"
i=0
while [ $i -lt "$runs" ]; do
	time_once "$bin" doctor --color never >> "$tmp/doctor"
	time_once "$bin" doctor --json >> "$tmp/json"
	time_once "$bin" doctor --no-load --json >> "$tmp/noload"
	[ $floor_ok -eq 1 ] && time_once "$tmp/cuinit_floor" >> "$tmp/floor"
	i=$((i + 1))
done

echo "gpudoctor doctor, $runs runs each, $(uname -n), $(nproc) CPUs"
printf '  %-28s %s\n' "doctor (text)" "$(stats "$tmp/doctor")"
printf '  %-28s %s\n' "doctor --json" "$(stats "$tmp/json")"
printf '  %-28s %s\n' "doctor --no-load --json" "$(stats "$tmp/noload")"
if [ $floor_ok -eq 1 ]; then
	printf '  %-28s %s\n' "floor: dlopen + cuInit" "$(stats "$tmp/floor")"
	awk -v d="$(median "$tmp/doctor")" -v f="$(median "$tmp/floor")" \
		'BEGIN { printf "  doctor / floor (medians)     %.2fx (target <= 1.15x)\n", d / f }'
else
	echo "  floor: libcuda.so.1 cannot be loaded here (no driver): target is < 30 ms"
fi
# The fat-binary reading of the frameworks' CUDA libraries (part of the
# frameworks probe, overlapped with cuInit): target <= 10 ms warm.
if command -v python3 >/dev/null 2>&1; then
	"$bin" doctor --json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
t = [f["targets"] for e in d.get("python", []) for f in e["frameworks"] if f.get("targets")]
if t:
    print("  fat-binary reading           %.1f ms for %d libraries, %d fat binaries (target <= 10 ms)"
          % (sum(x["ms"] for x in t), len(t), sum(x["fat_binaries"] for x in t)))
else:
    print("  fat-binary reading           no framework CUDA library here")
' || true
fi
