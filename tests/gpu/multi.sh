#!/bin/sh
# tests/gpu/multi.sh - `gpudoctor bench --tests multi` on a real machine
# against PyTorch doing the same work in the same run
# (tests/gpu/multi_torch.py): with two GPUs or more, each pair's P2P copy
# and NCCL all-reduce's bus bandwidth at 1 GiB must reach 0.95 of
# PyTorch's (nvidia-smi topo -m and -p2p r are kept beside doctor -v's
# matrices, to compare); with one GPU, p2p_copy is skipped with its reason and
# the all-reduce (one rank: algorithm bandwidth) runs and is verified.
# Prints "ok"/"not ok" lines and "N passed, N failed".
#
#   sh tests/gpu/multi.sh [GPUDOCTOR] [OUTDIR]
set -u
bin=${1:-build/gpudoctor}
out=${2:-/tmp/gpudoctor-gpu}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
pass=0
fail=0
ok() { echo "ok $1"; pass=$((pass + 1)); }
notok() { echo "not ok $1"; fail=$((fail + 1)); }

"$bin" bench --tests multi --json > "$out/multi.json" 2> "$out/multi.err"
"$bin" bench --tests multi --color never > "$out/multi.txt" 2>&1
"$bin" doctor -v --color never > "$out/multi-doctor.txt" 2>&1
nvidia-smi topo -m > "$out/topo-m.txt" 2>&1
nvidia-smi topo -p2p r > "$out/topo-p2p-r.txt" 2>&1
python3 "$here/multi_torch.py" > "$out/multi_torch.json" 2> "$out/multi_torch.err"

n=$(jq -r '.tests[] | select(.name == "nccl_allreduce") | .gpus // 0' "$out/multi.json")
if jq -e '.tests[] | select(.name == "nccl_allreduce") | .state == "ok" and .verified == true' \
	"$out/multi.json" > /dev/null 2>&1; then
	ok "nccl_allreduce runs and sums right on $n GPU(s)"
else
	notok "nccl_allreduce runs and sums right: $(jq -c '.tests[] | select(.name == "nccl_allreduce") | {state, error}' "$out/multi.json" 2>/dev/null) $(head -c 300 "$out/multi.err")"
fi
# the largest message: ours (bus bandwidth; one GPU: algorithm bandwidth) against PyTorch's
ours=$(jq -r '.tests[] | select(.name == "nccl_allreduce") | .sizes[-1] | if '"${n:-1}"' > 1 then .busbw else .algbw end' "$out/multi.json" 2>/dev/null)
theirs=$(jq -r '.sizes[-1] | if '"${n:-1}"' > 1 then .busbw else .algbw end' "$out/multi_torch.json" 2>/dev/null)
echo "nccl_allreduce 1 GiB: gpudoctor ${ours:-?} GB/s, PyTorch ${theirs:-?} GB/s (${n:-?} GPUs)"
if [ "${n:-0}" -gt 1 ]; then
	if awk -v a="${ours:-0}" -v b="${theirs:-0}" 'BEGIN { exit !(b > 0 && a >= 0.95 * b) }'; then
		ok "nccl_allreduce busbw at least 0.95 of PyTorch's"
	else
		notok "nccl_allreduce busbw $ours below 0.95 of PyTorch's $theirs"
	fi
	bad=$(jq -r --slurpfile t "$out/multi_torch.json" '.tests[] | select(.name == "p2p_copy") | .pairs[] as $p |
		($t[0].pairs[] | select(.from == $p.from and .to == $p.to)) as $q |
		select($p.gbs < 0.95 * $q.gbs) | "GPU\($p.from)->GPU\($p.to) \($p.gbs) < 0.95 * \($q.gbs)"' "$out/multi.json")
	[ -z "$bad" ] && ok "p2p_copy: every pair at least 0.95 of PyTorch's copy" || notok "p2p_copy: $bad"
else
	# one rank: NCCL's out-of-place all-reduce is a device copy, PyTorch's in-place one nearly free
	ok "nccl_allreduce on one GPU (not compared: one rank)"
	if jq -e '.tests[] | select(.name == "p2p_copy") | .state == "skipped"' "$out/multi.json" > /dev/null 2>&1; then
		ok "p2p_copy skipped on one GPU: $(jq -r '.tests[] | select(.name == "p2p_copy") | .error' "$out/multi.json")"
	else
		notok "p2p_copy on one GPU is not skipped"
	fi
fi
echo "$pass passed, $fail failed"
