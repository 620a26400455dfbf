"""tests/gpu/multi_torch.py - what PyTorch reaches on this machine's GPUs for
the work `gpudoctor bench --tests multi` measures: a copy from each GPU to
each other one (tensor.copy_ across devices, the copy engine with peer
access where the pair has it), and torch.distributed's NCCL all-reduce of
float32 with one process per GPU, timed as nccl-tests does (algbw = bytes /
time, busbw = algbw * 2(n-1)/n). Prints one JSON object."""
import json
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

SIZES_MIB = (8, 64, 512, 1024)
ITERATIONS = 20
WARMUP = 3
P2P_MIB = 256
P2P_ITERATIONS = 10


def p2p():
    n = torch.cuda.device_count()
    pairs = []
    for a in range(n):
        for b in range(n):
            if a == b:
                continue
            src = torch.ones(P2P_MIB << 18, dtype=torch.float32, device=f"cuda:{a}")
            dst = torch.empty_like(src, device=f"cuda:{b}")
            dst.copy_(src)
            torch.cuda.synchronize(a)
            torch.cuda.synchronize(b)
            t = time.perf_counter()
            for _ in range(P2P_ITERATIONS):
                dst.copy_(src, non_blocking=True)
            torch.cuda.synchronize(a)
            torch.cuda.synchronize(b)
            sec = (time.perf_counter() - t) / P2P_ITERATIONS
            pairs.append({"from": a, "to": b, "gbs": (P2P_MIB << 20) / sec / 1e9,
                          "peer_access": torch.cuda.can_device_access_peer(a, b)})
    return pairs


def worker(rank, n, port, q):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=n, device_id=torch.device(f"cuda:{rank}"))
    out = []
    for mib in SIZES_MIB:
        x = torch.ones((mib << 20) // 4, dtype=torch.float32, device=f"cuda:{rank}")
        for _ in range(WARMUP):
            dist.all_reduce(x)
        torch.cuda.synchronize()
        dist.barrier()
        t = time.perf_counter()
        for _ in range(ITERATIONS):
            dist.all_reduce(x)
        torch.cuda.synchronize()
        sec = (time.perf_counter() - t) / ITERATIONS
        algbw = (mib << 20) / sec / 1e9
        out.append({"bytes": mib << 20, "algbw": algbw, "busbw": algbw * 2 * (n - 1) / n})
    if rank == 0:
        q.put({"sizes": out, "nccl": ".".join(map(str, torch.cuda.nccl.version()))})
    dist.destroy_process_group()


def main():
    n = torch.cuda.device_count()
    doc = {"gpus": n, "torch": torch.__version__, "pairs": p2p() if n > 1 else []}
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    procs = [ctx.Process(target=worker, args=(r, n, 29531, q)) for r in range(n)]
    for p in procs:
        p.start()
    doc.update(q.get(timeout=300))
    for p in procs:
        p.join()
    json.dump(doc, sys.stdout)


if __name__ == "__main__":
    main()
