#!/bin/sh
# bench/serve.sh GPUDOCTOR [SECONDS] - what `gpudoctor serve` takes under
# load: 50 scrapers at once on loopback for SECONDS (default 30), each
# keeping its connection and asking again as soon as an answer is whole
# (tests/tools/http-load.c). Prints requests, errors, latency percentiles
# and the server's resident memory before, during and after. With the mock
# NVML when the test build has it (one H200), else this machine's GPUs.
set -u
bin=${1:-build/gpudoctor}
secs=${2:-30}
build=$(dirname "$bin")
load=$build/tests/tools/http-load
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-bench-serve.XXXXXX")
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
echo "serve: 50 scrapers for $secs s"
if [ ! -x "$load" ]; then
	echo "  $load is missing (make test-deps)"
	exit 0
fi
args=""
if [ -f "$build/stubs/fake_nvml.so" ] && [ -x "$build/tests/tools/mk-ldcache" ]; then
	lib=usr/lib/x86_64-linux-gnu
	mkdir -p "$tmp/root/$lib" "$tmp/root/etc"
	cp "$build/stubs/fake_nvml.so" "$tmp/root/$lib/libnvidia-ml.so.1"
	printf 'libnvidia-ml.so.1 /%s/libnvidia-ml.so.1\n' "$lib" > "$tmp/ldcache"
	"$build/tests/tools/mk-ldcache" "$tmp/ldcache" "$tmp/root/etc/ld.so.cache"
	echo 'nvml_gpu 00000000:06:00.0|NVIDIA H200|GPU-1|143771|1024|31|76000|700000|0|1|0|0|12|1980|1980|1|0|0x233510de' > "$tmp/scenario"
	export GPUDOCTOR_FAKE_SCENARIO=$tmp/scenario
	args="--root $tmp/root --load-root"
fi
port=$(( 40000 + $$ % 10000 ))
# shellcheck disable=SC2086
"$bin" serve --listen "127.0.0.1:$port" --interval 1 $args 2> "$tmp/serve.err" &
pid=$!
i=0
while [ $i -lt 100 ] && ! curl -s "http://127.0.0.1:$port/metrics" | grep -q gpudoctor_build_info; do
	sleep 0.1
	i=$((i + 1))
done
rss() { awk '/^VmRSS/ {print $2}' "/proc/$pid/status"; }
r0=$(rss)
half=$((secs / 2))
"$load" 127.0.0.1 "$port" /metrics 50 "$half" > "$tmp/a.json"
r1=$(rss)
"$load" 127.0.0.1 "$port" /metrics 50 "$((secs - half))" > "$tmp/b.json"
r2=$(rss)
size=$(curl -s "http://127.0.0.1:$port/metrics" | wc -c)
jq -rs --arg s "$secs" --arg size "$size" '
	(.[0].requests + .[1].requests) as $n |
	"  \($n) scrapes of \($size) bytes in \($s) s (\($n / ($s | tonumber) | floor)/s), \(.[0].errors + .[1].errors) errors",
	"  latency p50 \([.[0].p50_ms, .[1].p50_ms] | max) ms, p99 \([.[0].p99_ms, .[1].p99_ms] | max) ms, max \([.[0].max_ms, .[1].max_ms] | max) ms"
' "$tmp/a.json" "$tmp/b.json"
echo "  resident memory ${r0} KiB at start, ${r1} KiB after half, ${r2} KiB at the end"
