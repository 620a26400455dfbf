#!/bin/sh
# tests/gpu/explain.sh - `gpudoctor explain` on errors produced for real on
# an NVIDIA machine: each case runs a small PyTorch / JAX / CuPy / CUDA
# program that fails in a known way, keeps its whole output (the command
# line first, as a shell trace shows it), and checks that explain ranks
# the expected cause first, with --here too (this machine's facts).
# Prints "ok NAME" / "not ok NAME" / "ok NAME # SKIP why" and
# "N passed, N failed"; the logs and answers go to OUTDIR.
#
#   sh tests/gpu/explain.sh [GPUDOCTOR] [OUTDIR]
set -u
bin=${1:-build/gpudoctor}
out=${2:-/tmp/gpudoctor-gpu-explain}
mkdir -p "$out"
passed=0
failed=0

has() { python3 -c "import $1" 2>/dev/null; }

# case NAME EXPECT PYMODULE COMMAND...: run it, keep "+ COMMAND" and its
# output as OUTDIR/NAME.log, explain it with and without --here.
case_() {
	name=$1 expect=$2 mod=$3
	shift 3
	if [ -n "$mod" ] && ! has "$mod"; then
		echo "ok $name # SKIP no $mod"
		return
	fi
	{ echo "+ $*"; sh -c "$*" 2>&1; } > "$out/$name.log"
	"$bin" explain --json "$out/$name.log" > "$out/$name.json" 2> "$out/$name.err"
	"$bin" explain --here --color never "$out/$name.log" > "$out/$name.here.txt" 2>> "$out/$name.err"
	first=$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["causes"]; print(c[0]["id"] if c else "none")' "$out/$name.json" 2>/dev/null)
	if [ "$first" = "$expect" ] && grep -q "$expect" "$out/$name.here.txt"; then
		echo "ok $name: $expect"
		passed=$((passed + 1))
	else
		echo "not ok $name: first ${first:-?}, expected $expect (see $out/$name.log)"
		failed=$((failed + 1))
	fi
}

case_ torch-oom mem.oom torch \
	"python3 -c 'import torch; x = torch.empty(400 * 1024**3, dtype=torch.uint8, device=\"cuda\")'"
case_ torch-hidden-gpus env.visible_devices_hides_all torch \
	"CUDA_VISIBLE_DEVICES=-1 python3 -c 'import torch; torch.zeros(1).cuda()'"
case_ torch-missing-gpu-index env.visible_devices_invalid torch \
	"CUDA_VISIBLE_DEVICES=7 python3 -c 'import torch; torch.zeros(1).cuda()'"
case_ torch-device-assert rt.kernel_fault torch \
	"python3 -c 'import torch; x = torch.zeros(3, device=\"cuda\"); i = torch.tensor([5], device=\"cuda\"); print(x[i].sum().item())'"
case_ jax-oom mem.oom jax \
	"XLA_PYTHON_CLIENT_PREALLOCATE=false python3 -c 'import jax.numpy as jnp; x = jnp.ones((400 * 1024**3 // 4,), dtype=jnp.float32); x.block_until_ready()'"
case_ cupy-oom mem.oom cupy \
	"python3 -c 'import cupy; x = cupy.empty(400 * 1024**3, dtype=cupy.uint8)'"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
