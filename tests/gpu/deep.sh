#!/bin/sh
# tests/gpu/deep.sh - the framework layer on a real GPU machine: the static
# prediction (which library files each framework would load) beside what
# `doctor --deep` gets from each framework itself, and the findings.
#
#   sh tests/gpu/deep.sh [GPUDOCTOR] [OUTDIR]
set -u
bin=${1:-build/gpudoctor}
out=${2:-/tmp/gpudoctor-deep}
mkdir -p "$out"
t0=$(date +%s%N)
"$bin" doctor --deep --json --timeout 120 > "$out/deep.json" 2> "$out/deep.err"
echo "doctor --deep exit $? in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
"$bin" doctor --deep -v --color never --timeout 120 > "$out/deep.txt" 2>&1
python3 - "$out/deep.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["python"]:
    for f in e["frameworks"]:
        lv = f.get("live") or {}
        print(e["path"], f["name"], f["version"], "static: built for CUDA", f["built_cuda"])
        print("   live:", {k: lv.get(k) for k in ("state", "version", "cuda_available", "gpu_count",
              "devices", "cuda", "cudnn", "capability", "arch_list", "ms", "error")})
        sta = {r["soname"]: r["path"] for r in f["resolved"]}
        print("   static libcudnn.so.9:", sta.get("libcudnn.so.9"), " libcudart.so.13:", sta.get("libcudart.so.13"))
        print("   mapped:", lv.get("mapped"))
print("findings:", [(x["id"], x["severity"], x.get("env")) for x in d["findings"]])
PY
