#!/bin/sh
# tests/gpu/targets.sh - the GPU code of the installed frameworks on a real
# GPU machine: what doctor reads from their fat binaries
# (.python[].frameworks[].targets) against what PyTorch says itself
# (torch.cuda.get_arch_list(), through doctor --deep) and what cuobjdump
# lists (jaxlib's plugin, CuPy's cub), and the time the reading costs, with
# a warm and a cold page cache. Prints "ok NAME" / "not ok NAME" lines and
# the figures; writes the raw outputs to OUTDIR.
#
#   sh tests/gpu/targets.sh [GPUDOCTOR] [OUTDIR]
set -u
bin=${1:-build/gpudoctor}
out=${2:-/tmp/gpudoctor-targets}
mkdir -p "$out"

"$bin" doctor --deep --json --timeout 120 > "$out/deep.json" 2> "$out/deep.err"
files=$(python3 -c 'import json,sys; [print(f["targets"]["file"]) for e in json.load(open(sys.argv[1]))["python"] for f in e["frameworks"] if f.get("targets")]' "$out/deep.json")
# warm: the libraries in the page cache (as after the framework ran once)
for f in $files; do cat "$f" > /dev/null; done
"$bin" doctor --json > "$out/warm.json" 2>/dev/null
# cold: drop the page cache (root only), then one run; the walk of each
# library stops after 25 ms and keeps what it read
if sync && echo 3 > /proc/sys/vm/drop_caches 2>/dev/null; then
	"$bin" doctor --json > "$out/cold.json" 2>/dev/null
fi
for f in $files; do
	echo "== $f" >> "$out/cuobjdump.txt"
	cuobjdump --list-elf "$f" 2>/dev/null | sed -E 's/.*\.(sm_[0-9]+[af]?)\.cubin$/\1/' | sort | uniq -c >> "$out/cuobjdump.txt"
	cuobjdump --list-ptx "$f" 2>/dev/null | sed -E 's/.*\.(sm_[0-9]+[af]?)\.ptx$/compute \1/' | sort | uniq -c >> "$out/cuobjdump.txt"
done

python3 - "$out" <<'PY'
import json, os, re, sys
out = sys.argv[1]
deep = json.load(open(os.path.join(out, "deep.json")))
warm = json.load(open(os.path.join(out, "warm.json")))
cold = None
if os.path.exists(os.path.join(out, "cold.json")):
    cold = json.load(open(os.path.join(out, "cold.json")))

def fws(doc):
    for e in doc["python"]:
        for f in e["frameworks"]:
            yield e["path"], f

def sm(cc):                      # "9.0a" -> "sm_90a"
    m = re.match(r"(\d+)\.(\d)([af]?)$", cc)
    return "sm_%s%s%s" % m.groups()

# cuobjdump's counts per file: {file: {"sm_90": n, "compute sm_120": n}}
dump, cur = {}, None
for line in open(os.path.join(out, "cuobjdump.txt")):
    line = line.rstrip("\n")
    if line.startswith("== "):
        cur = line[3:]
        dump[cur] = {}
    elif cur and line.strip():
        n, name = line.strip().split(None, 1)
        dump[cur][name] = int(n)

failed = 0
def check(name, ok, why):
    global failed
    print(("ok " if ok else "not ok ") + name)
    if not ok:
        failed += 1
        print("#   " + why)

for env, f in fws(warm):
    t = f.get("targets")
    if not t:
        continue
    sass = [sm(c) for c in t["sass"]]
    ptx = [sm(c) for c in t["ptx"]]
    print("# %s %s %s: sass %s, ptx %s (ISA %s), %s, %d fat binaries, %.2f ms" % (
        env, f["name"], f["version"], " ".join(sass), " ".join(ptx) or "-", t["ptx_isa"],
        os.path.basename(t["file"]), t["fat_binaries"], t["ms"]))
    lv = next((g.get("live") or {} for e2, g in fws(deep) if e2 == env and g["name"] == f["name"]), {})
    if f["name"] == "torch" and lv.get("arch_list"):
        live = lv["arch_list"].split()
        # get_arch_list() names machine code sm_XY and PTX compute_XY
        want = sorted(w for w in live if w.startswith("sm_"))
        wptx = sorted("sm_" + w[8:] for w in live if w.startswith("compute_"))
        check("torch-targets-equal-get_arch_list", sorted(sass) == want and sorted(ptx) == wptx,
              "static %s / %s, torch.cuda.get_arch_list() %s" % (sass, ptx, live))
    d = dump.get(t["file"], {})
    if d:
        most = max(v for k, v in d.items() if not k.startswith("compute")) if d else 0
        # cuobjdump drops the 'f' of family-specific targets: compare without it
        common = sorted(k for k, v in d.items() if not k.startswith("compute") and v * 2 >= most)
        cptx = sorted(k.split()[1] for k, v in d.items() if k.startswith("compute"))
        check("%s-targets-equal-cuobjdump" % f["name"],
              sorted(s.rstrip("f") for s in sass) == common and sorted(p.rstrip("f") for p in ptx) == cptx,
              "static %s / %s, cuobjdump %s" % (sass, ptx, d))

if cold:
    for env, f in fws(cold):
        w = next((g for e2, g in fws(warm) if e2 == env and g["name"] == f["name"]), None)
        if f.get("targets") and w and w.get("targets"):
            check("%s-cold-lists-equal-warm" % f["name"],
                  f["targets"]["sass"] == w["targets"]["sass"] and f["targets"]["ptx"] == w["targets"]["ptx"],
                  "cold %s / %s, warm %s / %s" % (f["targets"]["sass"], f["targets"]["ptx"],
                                                   w["targets"]["sass"], w["targets"]["ptx"]))

def ms(doc):
    return sum((f.get("targets") or {}).get("ms", 0) for _, f in fws(doc))
def sampled(doc):
    return [os.path.basename(f["targets"]["file"]) + " %d" % f["targets"]["fat_binaries"]
            for _, f in fws(doc) if f.get("targets") and f["targets"].get("sampled")]
print("# fat-binary reading, every framework: %.2f ms warm%s" % (
    ms(warm), ", %.2f ms cold (page cache dropped; sampled: %s)" % (ms(cold), sampled(cold) or "none") if cold else ""))
print("# doctor total_ms: %.1f warm%s" % (warm["total_ms"], ", %.1f cold" % cold["total_ms"] if cold else ""))
check("fatbin-reading-under-10ms-warm", ms(warm) <= 10, "%.2f ms" % ms(warm))
sys.exit(1 if failed else 0)
PY
