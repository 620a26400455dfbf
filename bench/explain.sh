#!/bin/sh
# bench/explain.sh - how fast `gpudoctor explain` reads a log, and how much
# memory it holds, on this machine.
#
#   sh bench/explain.sh [GPUDOCTOR] [MIB] [RUNS]
#
# Builds a realistic training log of MIB MiB (default 1024) in $TMPDIR:
# TensorFlow start-up lines (harmless notices, a missing cuDNN, the GPU
# skipped), Keras progress bars redrawn with carriage returns, epoch
# summaries, a PyTorch out-of-memory traceback every few MiB. Then times
# `explain --json` on it RUNS times (default 5) and prints MB/s (10^6
# bytes per second) of the best and median run and the peak memory, next
# to the peak for a one-line log. Target (docs/performance.md): at least
# 200 MB/s, memory independent of the log's size. Then the same for a log
# of MIB/4 MiB where every line matches a row (a warning at every step):
# target at least 100 MB/s; and for one where every line names the GPU and
# nothing is wrong (a monitor's samples): at least 200 MB/s, as an
# ordinary log.
set -eu
bin=${1:-build/gpudoctor}
mib=${2:-1024}
runs=${3:-5}
maxrss=$(dirname "$bin")/tests/tools/maxrss
[ -x "$maxrss" ] || { echo "bench/explain.sh: build $maxrss first (make test-deps)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# one block of about 1 MiB
{
	cat <<'LOG'
2024-03-02 11:04:51.018233: I tensorflow/core/util/port.cc:113] oneDNN custom operations are on. You may see slightly different numerical results due to floating-point round-off errors from different computation orders. To turn them off, set the environment variable `TF_ENABLE_ONEDNN_OPTS=0`.
2024-03-02 11:04:51.251947: I tensorflow/core/platform/cpu_feature_guard.cc:210] This TensorFlow binary is optimized to use available CPU instructions in performance-critical operations.
2024-03-02 11:04:52.734128: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT
2024-03-02 11:04:53.918552: I external/local_xla/xla/stream_executor/cuda/cuda_executor.cc:998] successful NUMA node read from SysFS had negative value (-1), but there must be at least one NUMA node, so returning NUMA node zero.
2024-03-02 11:04:53.920129: W tensorflow/core/common_runtime/gpu/gpu_device.cc:2251] Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned above are installed properly if you would like to use GPU. Follow the guide at https://www.tensorflow.org/install/gpu for how to download and setup the required libraries for your platform.
2024-03-02 11:04:53.911001: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory
LOG
	i=0
	while [ $i -lt 1400 ]; do
		printf '%4d/1400 [====>.........................] - ETA: 1:02 - loss: 0.69%02d - accuracy: 0.51%02d\r' $i $((i % 100)) $((i % 97))
		i=$((i + 1))
	done
	printf '\n1400/1400 [==============================] - 71s 50ms/step - loss: 0.4519 - accuracy: 0.7914 - val_loss: 0.4101 - val_accuracy: 0.8122\n'
	i=0
	while [ $i -lt 1500 ]; do
		printf 'INFO:root:step %d: lr=0.000300 grad_norm=1.%03d throughput=812.4 samples/s data_time=0.0021 batch_time=0.1577\n' $i $((i % 1000))
		i=$((i + 1))
	done
	cat <<'LOG'
Traceback (most recent call last):
  File "/home/user/train.py", line 88, in <module>
    loss.backward()
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.10 GiB is free. Including non-PyTorch memory, this process has 77.98 GiB memory in use.
LOG
} > "$tmp/block"
blocksize=$(wc -c < "$tmp/block")
n=$(( (mib * 1048576 + blocksize - 1) / blocksize ))
i=0
: > "$tmp/log"
# double the block until it is big enough: few writes
cp "$tmp/block" "$tmp/chunk"
k=1
while [ $((k * 2)) -le "$n" ]; do
	cat "$tmp/chunk" "$tmp/chunk" > "$tmp/chunk2"
	mv "$tmp/chunk2" "$tmp/chunk"
	k=$((k * 2))
done
while [ $i -lt "$n" ]; do
	if [ $((n - i)) -ge $k ]; then
		cat "$tmp/chunk" >> "$tmp/log"
		i=$((i + k))
	else
		cat "$tmp/block" >> "$tmp/log"
		i=$((i + 1))
	fi
done
rm -f "$tmp/chunk"
bytes=$(wc -c < "$tmp/log")
lines=$(wc -l < "$tmp/log")
head -n 6 "$tmp/block" | tail -n 1 > "$tmp/one"

now() { date +%s%N; }
"$bin" explain --json "$tmp/log" > /dev/null 2>&1 || true      # warm the page cache
: > "$tmp/times"
r=0
while [ $r -lt "$runs" ]; do
	t0=$(now)
	"$maxrss" "$tmp/rss" "$bin" explain --json "$tmp/log" > "$tmp/out.json" || true
	t1=$(now)
	echo $(( (t1 - t0) / 1000 )) >> "$tmp/times"
	r=$((r + 1))
done
"$maxrss" "$tmp/rss1" "$bin" explain --json "$tmp/one" > /dev/null || true
sort -n "$tmp/times" | awk -v b="$bytes" -v l="$lines" -v rss="$(cat "$tmp/rss")" -v rss1="$(cat "$tmp/rss1")" '
	{ v[NR] = $1 }
	END {
		med = v[int((NR + 1) / 2)]
		printf "explain: %.0f MB log (%d lines), %d runs\n", b / 1e6, l, NR
		printf "  best   %8.1f ms  %7.0f MB/s\n", v[1] / 1000, b / v[1]
		printf "  median %8.1f ms  %7.0f MB/s\n", med / 1000, b / med
		printf "  peak memory %d KiB (one-line log: %d KiB)\n", rss, rss1
	}'
printf '  causes found: %s\n' "$(jq -r '[.causes[] | "\(.id) x\(.count)"] | join(", ")' "$tmp/out.json" 2>/dev/null || echo '?')"

# A log where every line matches a row: a TensorFlow warning at every
# step, its timestamp different on each line (target: 100 MB/s).
rmib=$(( mib / 4 ))
[ "$rmib" -ge 1 ] || rmib=1
awk -v n=$(( rmib * 1048576 / 330 )) 'BEGIN {
	for (i = 0; i < n; i++)
		printf "2024-03-02 11:%02d:%02d.%06d: W tensorflow/core/common_runtime/bfc_allocator.cc:290] Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.14GiB with freed_by_count=0. The caller indicates that this is not a failure, but may mean that there could be performance gains if more memory were available.\n", (i / 60000) % 60, (i / 1000) % 60, (i * 37) % 1000000
}' > "$tmp/repeat"
# time_log NAME FILE LABEL: RUNS timed runs of explain on FILE, best and
# median in MB/s
time_log() {
	bytes=$(wc -c < "$2")
	"$bin" explain --json "$2" > /dev/null 2>&1 || true
	: > "$tmp/$1.times"
	r=0
	while [ $r -lt "$runs" ]; do
		t0=$(now)
		"$bin" explain --json "$2" > "$tmp/$1.json" || true
		t1=$(now)
		echo $(( (t1 - t0) / 1000 )) >> "$tmp/$1.times"
		r=$((r + 1))
	done
	sort -n "$tmp/$1.times" | awk -v b="$bytes" -v what="$3" '
		{ v[NR] = $1 }
		END {
			med = v[int((NR + 1) / 2)]
			printf "explain, %s: %.0f MB log, %d runs\n", what, b / 1e6, NR
			printf "  best   %8.1f ms  %7.0f MB/s\n", v[1] / 1000, b / v[1]
			printf "  median %8.1f ms  %7.0f MB/s\n", med / 1000, b / med
		}'
	printf '  causes found: %s\n' "$(jq -r '[.causes[] | "\(.id) x\(.count)"] | join(", ")' "$tmp/$1.json" 2>/dev/null || echo '?')"
}
time_log repeat "$tmp/repeat" "every line matching"

# A monitor's log: every line names the GPU, with numbers that differ
# mid-line, and says nothing wrong (no cleaning, no cue scan: as fast as
# an ordinary log).
awk -v n=$(( rmib * 1048576 / 64 )) 'BEGIN {
	for (i = 0; i < n; i++)
		printf "step %d GPU %d util %d%% mem %d MiB temp %d C power %d W\n", i, i % 8, (i * 7) % 100,
			40000 + (i * 13) % 2000, 40 + i % 30, 200 + i % 400
}' > "$tmp/monitor"
time_log monitor "$tmp/monitor" "a GPU named on every line"
