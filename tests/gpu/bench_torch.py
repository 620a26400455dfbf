# tests/gpu/bench_torch.py - the work `gpudoctor bench` does, done with
# PyTorch in the same run: matrix multiplication at 8192^3 in fp32, tf32,
# fp16 and bf16 (torch.matmul, CUDA events, median of 30 after 5 warm-ups,
# random inputs), a 1 GiB device-to-device copy_ (read+write GB/s) and
# 256 MiB pinned copies each way. Prints one JSON object.
import json
import torch

N = 8192


def timed(fn, iterations=30, warmup=5):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    ms = []
    for _ in range(iterations):
        s = torch.cuda.Event(enable_timing=True)
        e = torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        ms.append(s.elapsed_time(e))
    ms.sort()
    return ms[len(ms) // 2]


def gemm(dtype, tf32=False):
    torch.backends.cuda.matmul.allow_tf32 = tf32
    a = torch.randn(N, N, device="cuda", dtype=dtype)
    b = torch.randn(N, N, device="cuda", dtype=dtype)
    ms = timed(lambda: torch.matmul(a, b))
    del a, b
    return 2 * N**3 / (ms / 1e3) / 1e12


out = {
    "torch": torch.__version__,
    "gemm_fp32": gemm(torch.float32),
    "gemm_tf32": gemm(torch.float32, tf32=True),
    "gemm_fp16": gemm(torch.float16),
    "gemm_bf16": gemm(torch.bfloat16),
}
torch.backends.cuda.matmul.allow_tf32 = False
x = torch.empty(1 << 30, dtype=torch.uint8, device="cuda")
y = torch.empty_like(x)
ms = timed(lambda: y.copy_(x), iterations=20, warmup=2)
out["d2d_read_write"] = 2 * (1 << 30) / (ms / 1e3) / 1e9
del x, y
h = torch.empty(256 << 20, dtype=torch.uint8).pin_memory()
d = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
ms = timed(lambda: d.copy_(h, non_blocking=True), iterations=20, warmup=2)
out["h2d_pinned"] = (256 << 20) / (ms / 1e3) / 1e9
ms = timed(lambda: h.copy_(d, non_blocking=True), iterations=20, warmup=2)
out["d2h_pinned"] = (256 << 20) / (ms / 1e3) / 1e9
print(json.dumps(out))
