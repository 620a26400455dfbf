#!/usr/bin/env python3
"""tests/gpu/compare.py - check gpudoctor's facts (OUTDIR/doctor.json) against
what nvidia-smi, /proc and PyTorch said on the same machine (tests/gpu/run.sh
collects them). Prints "ok NAME" / "not ok NAME: why" and "N passed, N failed"."""
import json
import os
import sys

out = sys.argv[1]
passed = failed = 0


def check(name, cond, why=""):
    global passed, failed
    if cond:
        passed += 1
        print("ok", name)
    else:
        failed += 1
        print("not ok", name + (": " + why if why else ""))


def read(name):
    try:
        with open(os.path.join(out, name)) as f:
            return f.read()
    except OSError:
        return ""


doc = json.loads(read("doctor.json") or "{}")
rc = int(read("doctor.rc").strip() or "3")
smi = [l.split(", ") for l in read("nvidia-smi.csv").strip().splitlines() if l.strip()]
check("doctor --json is a facts document", doc.get("schema") == "gpudoctor/facts/1")
check("doctor exits 0 or 1 on a healthy machine", rc in (0, 1), "exit %d" % rc)
errors = [f["id"] for f in doc.get("findings", []) if f["severity"] == "error"]
check("no error findings", not errors, ", ".join(errors))
gpus = doc.get("gpus", [])
check("GPU count agrees with nvidia-smi", len(gpus) == len(smi), "%d vs %d" % (len(gpus), len(smi)))
drv = doc.get("driver", {})
for i, row in enumerate(smi):
    name, version, mem, bus, cc, uuid = row[:6]
    g = next((g for g in gpus if g.get("pci_bus_id", "").lower() == bus.lower()[4:]), None)
    check("gpu %d found by bus id %s" % (i, bus), g is not None)
    if not g:
        continue
    check("gpu %d name" % i, g.get("name") == name, "%r vs %r" % (g.get("name"), name))
    check("gpu %d compute capability" % i, g.get("compute_capability") == cc, "%r vs %r" % (g.get("compute_capability"), cc))
    check("gpu %d memory MiB" % i, g.get("memory_total_mib") == int(mem), "%r vs %r" % (g.get("memory_total_mib"), mem))
    check("gpu %d uuid" % i, g.get("uuid") == uuid, "%r vs %r" % (g.get("uuid"), uuid))
    check("driver version", drv.get("version") == version, "%r vs %r" % (drv.get("version"), version))
smi_cuda = read("smi-cuda.txt").strip()
check("driver CUDA version agrees with nvidia-smi", drv.get("cuda_version") == smi_cuda, "%r vs %r" % (drv.get("cuda_version"), smi_cuda))
check("cuInit succeeded", drv.get("cuda_state") == "ok" and drv.get("cuinit_rc") == 0)
kver = read("proc-version.txt").split()
check("kernel module version", doc.get("kmod", {}).get("nvidia_version") in kver)
stubs = [l for l in drv.get("libs", []) if l.get("is_stub") and l.get("loader_pick")]
check("no stub libcuda is the loader's pick", not stubs)

libs = doc.get("libs", [])
cudnn = [l for l in libs if l.get("name") == "cudnn"]
files = read("cudnn-files.txt")
for l in cudnn:
    print("  cudnn", l.get("version"), l.get("origin"), l.get("path"))
if "/nvidia/cudnn/lib/libcudnn.so.9" in files:
    pip = [l for l in cudnn if l.get("origin") == "pip"]
    check("cuDNN pip wheel copy found", bool(pip))
    dist = [p for p in files.splitlines() if "nvidia_cudnn" in p and "site-packages" in p]
    if pip and dist:
        want = os.path.basename(dist[0]).split("-")[1]  # 9.19.0.56
        check("cuDNN pip version", want.startswith(pip[0].get("version", "?")), "%r vs %r" % (pip[0].get("version"), want))
sysfiles = [p for p in files.splitlines() if p.startswith(("/usr/lib/x86_64-linux-gnu/libcudnn.so.9.", "/lib/x86_64-linux-gnu/libcudnn.so.9."))]
if sysfiles:
    sysv = sysfiles[0].split("libcudnn.so.")[1]
    sysl = [l for l in cudnn if l.get("origin") == "system"]
    check("cuDNN system copy found", bool(sysl))
    if sysl:
        check("cuDNN system version", sysv.startswith(sysl[0].get("version", "?")), "%r vs %r" % (sysl[0].get("version"), sysv))

# --from re-diagnoses the recorded facts to the same findings
again = json.loads(read("doctor-from.json") or "{}")
ids = lambda d: sorted((f["id"], f["severity"]) for f in d.get("findings", []))
check("doctor --from gives the same findings", ids(again) == ids(doc), "%r vs %r" % (ids(again), ids(doc)))
check("doctor --from keeps the GPU facts", again.get("gpus") == doc.get("gpus"))
# --no-load reads files only: still finds the GPU, the module and the libraries
nl = json.loads(read("doctor-noload.json") or "{}")
check("--no-load loads no vendor code", nl.get("driver", {}).get("cuda_state") == "not_run")
check("--no-load still sees the GPU on PCI", len(nl.get("gpus", [])) == len(smi))
check("--no-load still lists the libraries", len(nl.get("libs", [])) == len(libs))

busy = read("doctor-busy.json")
apps = [l.split(", ") for l in read("smi-apps.csv").strip().splitlines() if l.strip() and "," in l]
if busy and apps:
    bdoc = json.loads(busy)
    procs = {p["pid"]: p for p in bdoc.get("procs", [])}
    for pid, used, bus in apps:
        p = procs.get(int(pid))
        check("process %s listed" % pid, p is not None)
        if p:
            check("process %s memory" % pid, abs((p.get("used_mib") or 0) - int(used)) <= 2, "%r vs %r" % (p.get("used_mib"), used))
            check("process %s alive" % pid, p.get("alive") is True)

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
