#!/bin/sh
# tests/gpu/run.sh - the GPU suite: run on a real NVIDIA machine, compare
# gpudoctor's facts with nvidia-smi, PyTorch and the files on disk, and time
# doctor against a bare cuInit. Prints "ok NAME" / "not ok NAME" lines and a
# final "N passed, N failed" line; writes the raw outputs to OUTDIR.
#
#   sh tests/gpu/run.sh [GPUDOCTOR] [OUTDIR]
#
# Needs nvidia-smi and python3 on the machine; uses PyTorch when importable
# (to hold GPU memory in a second process, so the process list is tested).
set -u
bin=${1:-build/gpudoctor}
out=${2:-/tmp/gpudoctor-gpu}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"

"$bin" doctor --color never > "$out/doctor.txt" 2>&1
echo "doctor exit: $?" >> "$out/doctor.txt"
"$bin" doctor --json > "$out/doctor.json" 2> "$out/doctor.err"
echo "$?" > "$out/doctor.rc"
"$bin" doctor --from "$out/doctor.json" --json > "$out/doctor-from.json" 2>&1
"$bin" doctor --no-load --json > "$out/doctor-noload.json" 2>&1
nvidia-smi -q > "$out/nvidia-smi-q.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total,pci.bus_id,compute_cap,uuid,memory.used \
	--format=csv,noheader,nounits > "$out/nvidia-smi.csv" 2>&1
nvidia-smi | sed -n 's/.*CUDA Version: *\([0-9.]*\).*/\1/p' | head -1 > "$out/smi-cuda.txt"
cat /proc/driver/nvidia/version > "$out/proc-version.txt" 2>&1

# A second process that holds GPU memory, so doctor's process list is real.
holder=""
if python3 -c 'import torch' 2>/dev/null; then
	python3 -c 'import torch,time,sys; x=torch.empty(2*1024**3, dtype=torch.uint8, device="cuda"); print("ready", flush=True); time.sleep(60)' > "$out/holder.txt" 2>&1 &
	holder=$!
	i=0
	while [ $i -lt 200 ] && ! grep -q ready "$out/holder.txt" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	"$bin" doctor --json > "$out/doctor-busy.json" 2>/dev/null
	nvidia-smi --query-compute-apps=pid,used_memory,gpu_bus_id --format=csv,noheader,nounits > "$out/smi-apps.csv" 2>&1
	python3 - > "$out/torch.txt" 2>&1 <<'PY'
import torch
print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version())
PY
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
fi
# Where each cuDNN copy is, as files say (for the comparison below).
find / -xdev \( -name 'libcudnn.so.9*' -o -name 'nvidia_cudnn*dist-info' \) 2>/dev/null | sort > "$out/cudnn-files.txt"

python3 "$here/compare.py" "$out"
status=$?

# Timing: doctor against a bare process that loads libcuda and calls cuInit.
sh "$(dirname "$here")/../bench/doctor.sh" "$bin" 21 > "$out/bench.txt" 2>&1
cat "$out/bench.txt"
exit $status
