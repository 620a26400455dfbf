#!/bin/sh
# tests/scripts/monitor_mocks.sh BUILD_DIR - `gpudoctor top` and `watch` on
# fixture roots carrying the mock libnvidia-ml (BUILD_DIR/stubs/fake_nvml.so),
# which plays scripted timelines (tests/stubs/README.md): load rising, a
# thermal throttle, a process that dies while it holds memory, a GPU lost,
# 8 GPUs, MIG, Xid lines, a stalled sampler, NVML that cannot start; alert
# rules firing and clearing at the right samples; the --exec hook's
# variables and time limit; the screen driven in tmux; the usage errors.
# Prints "ok NAME" / "not ok NAME" lines.
set -u
. "$(dirname "$0")/../lib.sh"
build=${1:?usage: monitor_mocks.sh BUILD_DIR}
case "$build" in /*) ;; *) build=$(pwd)/$build ;; esac
bin=$build/gpudoctor
work=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-monitor.XXXXXX")
lib=usr/lib/x86_64-linux-gnu
tmux_sock=gpudoctor-test-$$
cleanup() {
	tmux -L "$tmux_sock" kill-server 2>/dev/null
	[ -f "$work/zombie.parent" ] && kill "$(cat "$work/zombie.parent")" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

pass() { echo "ok $1"; }
fail() { echo "not ok $1"; shift; [ $# -gt 0 ] && printf '#   %s\n' "$@"; return 0; }

for f in "$bin" "$build/stubs/fake_nvml.so" "$build/tests/tools/mk-ldcache"; do
	[ -e "$f" ] || { fail "prerequisites" "missing $f (make test-deps BUILD=$(basename "$build"))"; exit 0; }
done

# A root with the mock NVML installed as the driver installs it.
root=$work/root
mkdir -p "$root/$lib" "$root/etc"
cp "$build/stubs/fake_nvml.so" "$root/$lib/libnvidia-ml.so.580.95.05"
ln -s libnvidia-ml.so.580.95.05 "$root/$lib/libnvidia-ml.so.1"
printf 'libnvidia-ml.so.1 /%s/libnvidia-ml.so.1\n' "$lib" > "$work/ldcache"
"$build/tests/tools/mk-ldcache" "$work/ldcache" "$root/etc/ld.so.cache"

BUS=00000000:06:00.0
GPU="nvml_gpu $BUS|NVIDIA H200|GPU-0488de22-0688-4512-984a-a9517a925ed0|143771|1024|31|76000|700000|0|1|0|0|12|1980|1980|1|0|0x233510de"
FAST="--interval 0.05"
# a PID that is not running now (nor, in practice, for the test's length)
ghost=4194000
while [ -d "/proc/$ghost" ]; do ghost=$((ghost - 1)); done

# run NAME SCENARIO CMD [ARGS...]: stdout in $work/NAME.out, stderr in
# $work/NAME.err, exit status in $rc
run() {
	name=$1 scen=$2
	shift 2
	printf '%s\n' "$scen" > "$work/$name.scenario"
	env -i PATH=/usr/bin:/bin HOME="$work" ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} \
		${UBSAN_OPTIONS:+UBSAN_OPTIONS=$UBSAN_OPTIONS} GPUDOCTOR_FAKE_SCENARIO="$work/$name.scenario" \
		"$bin" "$@" --root "$root" --load-root > "$work/$name.out" 2> "$work/$name.err"
	rc=$?
}

# check LABEL FILE JQ-EXPR...: every expression true on the JSON-lines file
# slurped into one array
check() {
	label=$1 file=$2
	shift 2
	jq -s '.' "$file" > "$file.all" 2>/dev/null || { fail "$label" "not JSON lines: $(head -c 300 "$file")"; return; }
	if ! jq_failing "$file.all" "$@"; then
		fail "$label" "jq failed on $file"
	elif [ -n "$_pf_bad" ]; then
		fail "$label" "false:$_pf_bad" "got: $(head -c 1500 "$file")" "stderr: $(head -c 300 "${file%.out}.err")"
	else
		pass "$label"
	fi
}

# ---- rules fire and clear at the right samples -------------------------------

HEAT="$GPU
nvml_at 0|$BUS|pcie_gen=5,pcie_width=16
nvml_at 2|$BUS|temp=90,util=97,throttle=0x20
nvml_at 6|$BUS|temp=60,util=40,throttle=0
nvml_at 9|$BUS|throttle=0x4"
run heat "$HEAT" watch $FAST --count 12 --json --rule 'temp>=85 for 0.1s' --rule thermal_throttle \
	--rule 'power_throttle as error'
check "watch: temp>=85 for 0.1s fires at sample 4 and clears at sample 6" "$work/heat.out" \
	'[.[] | select(.rule == "temp>=85 for 0.1s")] | length == 2' \
	'[.[] | select(.rule == "temp>=85 for 0.1s")][0] | .state == "firing" and .sample == 4 and .value == 90 and .threshold == 85 and .unit == "C"' \
	'[.[] | select(.rule == "temp>=85 for 0.1s")][1] | .state == "cleared" and .sample == 6' \
	'[.[] | select(.rule == "temp>=85 for 0.1s")][0].gpu | .index == 0 and .uuid == "GPU-0488de22-0688-4512-984a-a9517a925ed0"'
check "watch: a thermal throttle is decoded, fires at once and clears" "$work/heat.out" \
	'[.[] | select(.kind == "thermal_throttle")] | map([.state, .sample]) == [["firing", 2], ["cleared", 6]]' \
	'[.[] | select(.kind == "thermal_throttle")][0].message | test("SW thermal slowdown")'
check "watch: power_throttle as error fires on the SW power cap only" "$work/heat.out" \
	'[.[] | select(.kind == "power_throttle")] | map([.state, .sample, .severity]) == [["firing", 9, "error"]]'
[ "$rc" -eq 2 ] && pass "watch: exit status 2 after an error rule fired" || fail "watch: exit status after an error rule" "rc=$rc"

run heat_top "$HEAT" top $FAST --count 4 --json
check "top --json: one object per sample with the figures and decoded reasons" "$work/heat_top.out" \
	'length == 4' 'map(.schema) | unique == ["gpudoctor/top/1"]' 'map(.sample) == [0, 1, 2, 3]' \
	'.[0].gpus[0] | .name == "NVIDIA H200" and .bus_id == "00000000:06:00.0" and .memory.total_mib == 143771 and .memory.used_mib == 1024' \
	'.[0].gpus[0] | .temperature.gpu_c == 31 and .temperature.slowdown_c == 87 and .power.draw_w == 76 and .power.limit_w == 700' \
	'.[0].gpus[0] | .utilization.gpu_pct == 12 and .clocks.sm_mhz == 1980 and .pstate == 0 and .fan_pct == null' \
	'.[0].gpus[0].pcie | .gen == 5 and .width == 16 and .gen_max == 5' \
	'.[2].gpus[0] | .temperature.gpu_c == 90 and .clock_event_reasons.active == ["SW thermal slowdown"]' \
	'.[0].gpus[0].ecc.uncorrected_volatile == 0' '.[0].sampler_cpu_ms >= 0'

run heat_csv "$HEAT" top $FAST --count 3 --csv
if [ "$(wc -l < "$work/heat_csv.out")" -eq 4 ] && head -1 "$work/heat_csv.out" | grep -q '^time,gpu,uuid,name,util_gpu_pct' &&
	sed -n 4p "$work/heat_csv.out" | grep -q ',0,"GPU-0488de22-0688-4512-984a-a9517a925ed0","NVIDIA H200",97,97,1024,143771,90,76.00,700.00,1980,,P0,,"SW thermal slowdown",0,5,16,0,ok$'; then
	pass "top --csv: a header and one row per GPU and sample"
else
	fail "top --csv: a header and one row per GPU and sample" "$(cat "$work/heat_csv.out" "$work/heat_csv.err")"
fi

run heat_lines "$HEAT" top $FAST --count 3
if [ "$(grep -c '^#' "$work/heat_lines.out")" -eq 2 ] && [ "$(grep -c '^  ' "$work/heat_lines.out")" -eq 3 ] &&
	grep -q ' 0    97    97      1024    90     76   1980 SW thermal slowdown$' "$work/heat_lines.out"; then
	pass "top without a terminal: plain lines, one per GPU and sample"
else
	fail "top without a terminal: plain lines" "$(cat "$work/heat_lines.out")"
fi

# ---- processes: stale, zombie, elsewhere ------------------------------------------

STALE="$GPU
nvml_proc $BUS|$$|2048|compute
nvml_proc $BUS|$ghost|4096|compute|3|7"
run stale "$STALE" watch $FAST --count 10 --json --rule stale_process --pid-namespace host
check "watch: a PID that is gone but holds memory fires stale_process at sample 3 and clears at 7" "$work/stale.out" \
	'map([.state, .sample]) == [["firing", 3], ["cleared", 7]]' \
	'.[0].process | .pid == '"$ghost"' and .state == "gone" and .memory_mib == 4096' \
	'.[0].process.hint | test("fuser -v /dev/nvidia")'
run stale_ns "$STALE" watch $FAST --count 6 --json --rule stale_process --pid-namespace private
if [ "$rc" -eq 0 ] && [ ! -s "$work/stale_ns.out" ]; then
	pass "watch: in a private PID namespace a missing PID is not called stale"
else
	fail "watch: private PID namespace" "rc=$rc" "$(cat "$work/stale_ns.out")"
fi
run stale_top "$STALE" top $FAST --count 5 --json --pid-namespace private
check "top --json: each process with its user, command and host state" "$work/stale_top.out" \
	'.[0].processes | length == 1' '.[4].processes | length == 2' \
	'.[4].processes[0] | .pid == '"$$"' and .state == "running" and .stale == false and .memory_mib == 2048 and .sm_pct == 12 and (.command | length > 0) and (.user | length > 0)' \
	'.[4].processes[1] | .state == "outside-this-container" and .stale == false and (.hint | test("--pid=host"))'

# a zombie: a child its parent (an exec'd sleep) never reaps
sh -c 'sleep 1 & echo $! > "$1/zombie.pid"; echo $$ > "$1/zombie.parent"; exec sleep 30' sh "$work" &
i=0
while [ ! -s "$work/zombie.pid" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
zpid=$(cat "$work/zombie.pid")
zparent=$(cat "$work/zombie.parent")
run zombie "$GPU
nvml_proc $BUS|$zpid|1000|compute" watch --interval 0.1 --count 30 --json --rule stale_process --pid-namespace host
check "watch: a process that dies while it holds memory is marked a zombie, with its parent to end" "$work/zombie.out" \
	'length == 1' '.[0] | .state == "firing" and .sample > 0' \
	'.[0].process | .pid == '"$zpid"' and .state == "zombie"' \
	'.[0].process.hint | test("kill '"$zparent"'")'
kill "$zparent" 2>/dev/null
rm -f "$work/zombie.parent"

# ---- a GPU lost, 8 GPUs, MIG -----------------------------------------------------------

LOST="$GPU
nvml_gpu 00000000:07:00.0|NVIDIA H200|GPU-2|143771|0|30|70000|700000|0|1|0|0|0|1980|1980|1|0|0x233510de
nvml_at 4|$BUS|lost=1"
run lost "$LOST" top $FAST --count 7 --json
check "top: a GPU lost mid-run is shown lost, the other keeps answering" "$work/lost.out" \
	'length == 7' '.[3].gpus[0].state == "ok"' \
	'.[4].gpus[0] | .state == "lost" and .error == "NVML_ERROR_GPU_IS_LOST"' '.[6].gpus[1].state == "ok"' \
	'[.[].alerts[] | select(.kind == "gpu_lost")] | map([.state, .sample, .severity, .gpu.index]) == [["firing", 4, "error", 0]]'
run lost_text "$LOST" top --interval 0.05 --count 6
if grep -q '^  .* 0 LOST$' "$work/lost_text.out" && grep -q 'FIRING \[error\] gpu_lost' "$work/lost_text.out"; then
	pass "top without a terminal: a lost GPU and its alert in the lines"
else
	fail "top lines: lost GPU" "$(cat "$work/lost_text.out")"
fi

EIGHT=""
for i in 0 1 2 3 4 5 6 7; do
	EIGHT="$EIGHT
nvml_gpu 00000000:0$i:00.0|NVIDIA H100 80GB HBM3|GPU-$i|81559|$((i * 1000))|$((30 + i))|100000|700000|0|1|0|0|$((i * 10))|1980|1980|1|0|0x233010de"
done
run eight "$EIGHT" top --once --json
check "top --once --json: 8 GPUs in NVML order" "$work/eight.out" \
	'length == 1' '.[0].gpus | length == 8' '.[0].gpus | map(.index) == [0,1,2,3,4,5,6,7]' \
	'.[0].gpus | map(.uuid) == ["GPU-0","GPU-1","GPU-2","GPU-3","GPU-4","GPU-5","GPU-6","GPU-7"]' \
	'.[0].gpus[7] | .memory.used_mib == 7000 and .temperature.gpu_c == 37 and .utilization.gpu_pct == 70'
run eight_text "$EIGHT" top --once
if [ "$(grep -c '^GPU [0-7]  NVIDIA H100 80GB HBM3' "$work/eight_text.out")" -eq 8 ] &&
	grep -q 'No process is using a GPU.' "$work/eight_text.out"; then
	pass "top --once: a block per GPU"
else
	fail "top --once: a block per GPU" "$(cat "$work/eight_text.out")"
fi

MIG="nvml_gpu $BUS|NVIDIA H200|GPU-m|143771|20000|40|200000|700000|0|1|0|1|50|1980|1980|1|0|0x233510de
nvml_proc $BUS|$$|-|compute"
run mig "$MIG" top --once --json
check "top: MIG mode shown, no per-process utilization or memory asked of it" "$work/mig.out" \
	'.[0].gpus[0].mig == true' '.[0].processes[0] | .memory_mib == null and .sm_pct == null'

# ---- Xid lines from the kernel log --------------------------------------------------------

printf '%s\n' '[ 1234.5678] NVRM: Xid (PCI:0000:06:00): 79, pid=2718, name=python, GPU has fallen off the bus.' \
	'[ 1234.6000] NVRM: Xid (PCI:0000:06:00): 79, pid=2718, name=python, GPU has fallen off the bus.' \
	'[ 1235.0000] NVRM: Xid (PCI:0000:07:00): 13, pid=1, Graphics SM Warp Exception' > "$work/kmsg"
run xid "$GPU" watch $FAST --count 3 --json --rule xid --rule 'xid==48 as warning' --kmsg "$work/kmsg"
check "watch: Xid lines fire one episode per GPU and code; xid==N only for N" "$work/xid.out" \
	'length == 2' '.[0] | .kind == "xid" and .state == "firing" and .value == 79 and .xid.code == 79 and .gpu.index == 0' \
	'.[0].xid.text | test("fallen off the bus")' '.[1] | .xid.code == 13 and .gpu == null and .xid.bus_id == "0000:07:00"'

# ---- hooks ----------------------------------------------------------------------------------

cat > "$work/hook.sh" <<'EOF'
#!/bin/sh
out=$HOOK_DIR/hook.$GPUDOCTOR_ALERT_KIND
# the first firing of each kind is kept
[ -f "$out.env" ] || env | grep '^GPUDOCTOR_' | sort > "$out.env"
if [ -f "$out.json" ]; then cat > /dev/null; else cat > "$out.json"; fi
echo x >> "$out.count"
EOF
HOOKS="$GPU
nvml_proc $BUS|$ghost|4096|compute|2
nvml_at 2|$BUS|temp=90,throttle=0x40
nvml_at 4|$BUS|temp=40,throttle=0
nvml_at 6|$BUS|temp=91
nvml_at 9|$BUS|lost=1"
mkdir -p "$work/hooks"
printf '%s\n' "$HOOKS" > "$work/hooks.scenario"
env -i PATH=/usr/bin:/bin HOOK_DIR="$work/hooks" ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} \
	GPUDOCTOR_FAKE_SCENARIO="$work/hooks.scenario" "$bin" watch $FAST --count 12 --root "$root" --load-root \
	--pid-namespace host --rule 'temp>=85' --rule hw_slowdown --rule stale_process --rule xid --rule gpu_lost \
	--kmsg "$work/kmsg" --exec "sh $work/hook.sh" > "$work/hooks.out" 2> "$work/hooks.err"
h=$work/hooks/hook
hook_ok=true
for kind in temp hw_slowdown stale_process xid gpu_lost; do
	[ -f "$h.$kind.env" ] || { hook_ok=false; fail "watch --exec: the hook runs for $kind" "$(cat "$work/hooks.out" "$work/hooks.err")"; }
done
if $hook_ok; then
	pass "watch --exec: the hook runs for a metric, a throttle, a stale process, an Xid and a lost GPU"
	missing=""
	for v in ALERT ALERT_KIND STATE SEVERITY MESSAGE TIME HOST VALUE THRESHOLD UNIT HELD_S GPU_INDEX GPU_NAME GPU_UUID GPU_BUS_ID; do
		grep -q "^GPUDOCTOR_$v=" "$h.temp.env" || missing="$missing $v"
	done
	grep -q '^GPUDOCTOR_VALUE=90$' "$h.temp.env" && grep -q '^GPUDOCTOR_THRESHOLD=85$' "$h.temp.env" &&
		grep -q '^GPUDOCTOR_GPU_BUS_ID=00000000:06:00.0$' "$h.temp.env" || missing="$missing values"
	[ -z "$missing" ] && pass "hook variables for a metric rule" || fail "hook variables for a metric rule" "missing:$missing" "$(cat "$h.temp.env")"
	missing=""
	for v in PID PROCESS PROCESS_USER PROCESS_STATE PROCESS_MEMORY_MIB HINT; do
		grep -q "^GPUDOCTOR_$v=" "$h.stale_process.env" || missing="$missing $v"
	done
	grep -q "^GPUDOCTOR_PID=$ghost\$" "$h.stale_process.env" && grep -q '^GPUDOCTOR_PROCESS_STATE=gone$' "$h.stale_process.env" || missing="$missing values"
	[ -z "$missing" ] && pass "hook variables for stale_process" || fail "hook variables for stale_process" "missing:$missing" "$(cat "$h.stale_process.env")"
	grep -q '^GPUDOCTOR_XID=\(79\|13\)$' "$h.xid.env" && grep -q '^GPUDOCTOR_XID_TEXT=NVRM: Xid' "$h.xid.env" &&
		pass "hook variables for xid" || fail "hook variables for xid" "$(cat "$h.xid.env")"
	grep -q '^GPUDOCTOR_SEVERITY=error$' "$h.gpu_lost.env" && grep -q '^GPUDOCTOR_STATE=firing$' "$h.gpu_lost.env" &&
		grep -q '^GPUDOCTOR_MESSAGE=.*fell off the bus' "$h.gpu_lost.env" &&
		pass "hook variables for gpu_lost" || fail "hook variables for gpu_lost" "$(cat "$h.gpu_lost.env")"
	grep -q 'HW thermal slowdown' "$h.hw_slowdown.env" && pass "hook variables for a throttle rule" ||
		fail "hook variables for a throttle rule" "$(cat "$h.hw_slowdown.env")"
	if jq -e '.schema == "gpudoctor/alert/1" and .state == "firing" and .kind == "temp" and .gpu.name == "NVIDIA H200" and .value == 90' "$h.temp.json" > /dev/null 2>&1; then
		pass "hook stdin: the event as JSON"
	else
		fail "hook stdin: the event as JSON" "$(cat "$h.temp.json")"
	fi
	# temp>=85 held at samples 2-3 and from 6: two episodes, two runs
	[ "$(wc -l < "$h.temp.count")" -eq 2 ] && [ "$(wc -l < "$h.gpu_lost.count")" -eq 1 ] &&
		pass "hook: once per episode (fire, clear, fire again)" ||
		fail "hook: once per episode" "temp runs: $(wc -l < "$h.temp.count")"
fi

start=$(date +%s)
run hook_slow "$HEAT" watch $FAST --count 20 --rule 'temp>=85' --exec 'exec sleep 31.25' --exec-timeout 0.3
end=$(date +%s)
if grep -q "killed after its time limit of 0.3 s" "$work/hook_slow.out" && [ $((end - start)) -lt 8 ] &&
	! pgrep -f 'sleep 31.25' > /dev/null; then
	pass "hook: killed at its time limit, the sampling goes on"
else
	fail "hook: time limit" "took $((end - start)) s" "$(cat "$work/hook_slow.out")"
fi

# ---- watch --once: a health check --------------------------------------------------------

run once_ok "$GPU" watch --once --rule 'temp>=85 for 30s'
[ "$rc" -eq 0 ] && grep -q 'no rule fired on 1 GPU in 1 sample' "$work/once_ok.out" &&
	pass "watch --once: healthy, exit 0" || fail "watch --once healthy" "rc=$rc" "$(cat "$work/once_ok.out")"
run once_hot "$GPU
nvml_at 0|$BUS|temp=95" watch --once --rule 'temp>=85 for 30s'
[ "$rc" -eq 1 ] && grep -q 'FIRING \[warning\] temp>=85 for 30s: GPU 0 (NVIDIA H200): temp 95C' "$work/once_hot.out" &&
	pass "watch --once: a warning rule holds now, exit 1 (durations count as met)" ||
	fail "watch --once hot" "rc=$rc" "$(cat "$work/once_hot.out" "$work/once_hot.err")"

# ---- NVML that cannot start, a sampler that stalls -------------------------------------------

run no_driver "nvml_init 9" top --once
[ "$rc" -eq 2 ] && grep -q 'no GPU can be sampled: nvmlInit_v2: NVML_ERROR_DRIVER_NOT_LOADED' "$work/no_driver.err" &&
	grep -q 'kernel module is not loaded' "$work/no_driver.err" &&
	pass "top: NVML without its kernel module, a clear message and exit 2" ||
	fail "top: driver not loaded" "rc=$rc" "$(cat "$work/no_driver.err")"
run mismatch "nvml_init 18" watch --once
[ "$rc" -eq 2 ] && grep -q 'NVML_ERROR_LIB_RM_VERSION_MISMATCH' "$work/mismatch.err" && grep -q 'reboot' "$work/mismatch.err" &&
	pass "watch: a driver/library mismatch, a clear message and exit 2" ||
	fail "watch: mismatch" "rc=$rc" "$(cat "$work/mismatch.err")"
run crash "nvml_behaviour crash" top --once --timeout 2
[ "$rc" -eq 2 ] && grep -q 'the NVML sampler failed 4 times in a row' "$work/crash.err" &&
	pass "top: NVML crashing in nvmlInit is restarted, then given up with a message" ||
	fail "top: nvml crash" "rc=$rc" "$(cat "$work/crash.err")"
start=$(date +%s)
run hang "nvml_behaviour hang" top --once --timeout 0.3
end=$(date +%s)
[ "$rc" -eq 2 ] && grep -q 'no sample for' "$work/hang.err" && [ $((end - start)) -lt 10 ] &&
	pass "top: NVML hanging in nvmlInit ends within its time limits" ||
	fail "top: nvml hang" "rc=$rc, $((end - start)) s" "$(cat "$work/hang.err")"
run stall "$GPU
nvml_at 3|$BUS|hang=1" top $FAST --count 5 --json
check "top: a sampler that stalls mid-run is restarted and the samples go on" "$work/stall.out" \
	'length == 5' 'map(.sample) == [0, 1, 2, 3, 4]' \
	'[.[].notes[]] | any(test("sampler restarted: no sample for"))'

# the toolkit's stub found first on the loader's path
mkdir -p "$work/cuda/lib64/stubs"
cp "$build/stubs/fake_nvml.so" "$work/cuda/lib64/stubs/libnvidia-ml.so.1"
env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="$work/cuda/lib64/stubs" ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} \
	"$bin" top --once > "$work/stub.out" 2> "$work/stub.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "stub library" "$work/stub.err" && grep -q 'LD_LIBRARY_PATH' "$work/stub.err" &&
	pass "top: the toolkit's NVML stub is named as such" || fail "top: stub" "rc=$rc" "$(cat "$work/stub.err")"

# ---- the screen, in tmux ------------------------------------------------------------------------

if ! command -v tmux > /dev/null 2>&1; then
	echo "ok top in tmux # SKIP tmux is not installed"
else
	SCREEN="$GPU
nvml_proc $BUS|$$|2048|compute
nvml_proc $BUS|$ghost|4096|compute
nvml_at 0|$BUS|pcie_gen=5,pcie_width=16,util=55,temp=80
nvml_at 1|$BUS|throttle=0x4"
	printf '%s\n' "$SCREEN" > "$work/screen.scenario"
	tmux -L "$tmux_sock" -f /dev/null new-session -d -x 120 -y 40 \
		"env -i PATH=/usr/bin:/bin TERM=screen LANG=C.UTF-8 HOME=$work GPUDOCTOR_FAKE_SCENARIO=$work/screen.scenario ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} $bin top --interval 0.2 --pid-namespace host --root $root --load-root; echo EXITED \$?; sleep 30"
	capture() { tmux -L "$tmux_sock" capture-pane -p > "$work/$1.txt"; }
	# wait_until NAME CHECK: capture the screen into NAME until CHECK NAME
	# holds (5 s): a whole redraw, not the first lines of one under way
	wait_until() {
		i=0
		while [ $i -lt 50 ]; do
			capture "$1"
			"$2" "$1" && return 0
			sleep 0.1
			i=$((i + 1))
		done
		return 1
	}
	first_screen() {
		grep -q 'clocks held down: SW power cap' "$work/$1.txt" &&
			grep -q '^gpudoctor top  .*driver 580.159.04' "$work/$1.txt" &&
			grep -q '^GPU 0  NVIDIA H200  00000000:06:00.0  P0  80 C  76 / 700 W  SM 1980 MHz$' "$work/$1.txt" &&
			grep -q '^  util \[|*  *\]  55 %' "$work/$1.txt" &&
			grep -q '^  mem  \[ *\] 1024 MiB / 140.4 GiB   memory util 55 %' "$work/$1.txt" &&
			grep -q 'PCIe gen5 x16' "$work/$1.txt" &&
			grep -q "^  0 *$ghost - *4096 MiB *55 *- *STALE gone" "$work/$1.txt" &&
			grep -q 'fuser -v /dev/nvidia' "$work/$1.txt" &&
			grep -q '(sorted by memory)' "$work/$1.txt"
	}
	if wait_until screen1 first_screen; then
		pass "top in tmux: the GPU block, bars, reasons and the stale process"
	else
		fail "top in tmux: the first screen" "$(cat "$work/screen1.txt")"
	fi
	# sorted by memory: the ghost (4096 MiB) above the shell (2048 MiB); by PID the other way
	first_pid() { grep -E '^ +0 +[0-9]+ ' "$work/$1.txt" | head -1 | awk '{print $2}'; }
	[ "$(first_pid screen1)" = "$ghost" ] && pass "top: processes sorted by memory" ||
		fail "top: sort by memory" "$(cat "$work/screen1.txt")"
	by_pid() { grep -q '(sorted by PID)' "$work/$1.txt" && [ "$(first_pid "$1")" = "$$" ]; }
	tmux -L "$tmux_sock" send-keys p
	if wait_until screen2 by_pid; then
		pass "top: p sorts by PID"
	else
		fail "top: p sorts by PID" "$(cat "$work/screen2.txt")"
	fi
	tmux -L "$tmux_sock" send-keys '?'
	help_shown() { grep -q 'gpudoctor top - keys' "$work/$1.txt" && grep -q 'it never sends a signal itself' "$work/$1.txt"; }
	wait_until screen3 help_shown && pass "top: ? shows the help" || fail "top: help" "$(cat "$work/screen3.txt")"
	tmux -L "$tmux_sock" send-keys x
	# the help closed first, then the terminal narrowed: the screen redrawn
	# to 70 columns, the long GPU line cut, nothing wrapped
	help_closed() { ! grep -q 'gpudoctor top - keys' "$work/$1.txt"; }
	wait_until screen3b help_closed
	tmux -L "$tmux_sock" resize-window -x 70 -y 20 2>/dev/null || tmux -L "$tmux_sock" resize-pane -x 70 -y 20
	# the whole redrawn screen, not the first lines of a redraw under way
	narrowed() {
		grep -q '^GPU 0  NVIDIA H200  00000000:06:00.0  P0  80 C  76 / 700 W  SM 1980 MH$' "$work/$1.txt" &&
			! grep -q 'gpudoctor top - keys' "$work/$1.txt" && grep -q '^  util \[' "$work/$1.txt" &&
			grep -q 'sorted by PID' "$work/$1.txt" && ! grep -q '^z' "$work/$1.txt"
	}
	if wait_until screen4 narrowed; then
		pass "top: a resized terminal is redrawn to its width"
	else
		fail "top: resize" "$(cat "$work/screen4.txt")"
	fi
	tmux -L "$tmux_sock" send-keys q
	# a warning rule (stale_process) fired: status 1, as documented
	exited_1() { grep -q '^EXITED 1' "$work/$1.txt"; }
	wait_until screen5 exited_1 && pass "top: q quits with the alerts' status" || fail "top: q" "$(cat "$work/screen5.txt")"
	# Ctrl-C in a second session: top ends its screen and exits
	tmux -L "$tmux_sock" new-session -d -s ctrlc -x 100 -y 30 \
		"env -i PATH=/usr/bin:/bin TERM=screen LANG=C.UTF-8 HOME=$work GPUDOCTOR_FAKE_SCENARIO=$work/screen.scenario ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} $bin top --interval 0.2 --rule 'temp>=99' --root $root --load-root; echo EXITED \$?; sleep 30"
	i=0
	while [ $i -lt 50 ] && ! tmux -L "$tmux_sock" capture-pane -p -t ctrlc | grep -q '^GPU 0  NVIDIA H200'; do
		sleep 0.1
		i=$((i + 1))
	done
	tmux -L "$tmux_sock" send-keys -t ctrlc C-c
	i=0
	while [ $i -lt 50 ] && ! tmux -L "$tmux_sock" capture-pane -p -t ctrlc | grep -q '^EXITED 0$'; do
		sleep 0.1
		i=$((i + 1))
	done
	[ $i -lt 50 ] && pass "top: Ctrl-C ends the screen and exits" ||
		fail "top: Ctrl-C" "$(tmux -L "$tmux_sock" capture-pane -p -t ctrlc)"
fi

# ---- usage errors: one line on stderr, exit 3 ----------------------------------------------------

usage() {
	label=$1 want=$2
	shift 2
	"$bin" "$@" > "$work/usage.out" 2> "$work/usage.err"
	rc=$?
	if [ $rc -eq 3 ] && [ "$(wc -l < "$work/usage.err")" -eq 1 ] && grep -q -- "$want" "$work/usage.err" && [ ! -s "$work/usage.out" ]; then
		pass "$label"
	else
		fail "$label" "rc=$rc" "$(cat "$work/usage.err")"
	fi
}
usage "watch: an unknown rule kind" "no rule kind 'tmp'" watch --rule 'tmp>=85'
usage "watch: a metric without a comparison" "temp needs a comparison" watch --rule 'temp'
usage "watch: a bad duration" "'for' needs a duration" watch --rule 'temp>=85 for soon'
usage "watch: a percentage where none applies" "temp cannot be a percentage" watch --rule 'temp>=85%'
usage "watch: trailing words" "unexpected 'please'" watch --rule 'gpu_lost please'
usage "watch: xid compared otherwise than ==" "an Xid rule is xid or xid==N" watch --rule 'xid>3'
usage "top: a bad interval" "--interval: '0' is not a number of seconds" top --interval 0
usage "top: a bad count" "--count: 'x' is not a whole number" top --count x
usage "top: --json with --csv" "choose one" top --json --csv
usage "watch: --csv is top's" "--csv is top's" watch --csv
usage "top: --once with --count" "choose one" top --once --count 3
usage "top: --root without --load-root" "go together" top --root "$root"
usage "top: --root that is not a directory" "is not a directory" top --root "$work/nope" --load-root
usage "top: a root without NVML" "no loadable libnvidia-ml" top --root "$work/hooks" --load-root
usage "watch: an empty --exec" "the command is empty" watch --exec ''
usage "watch: a bad --pid-namespace" "wants auto, host or private" watch --pid-namespace maybe
usage "top: an unexpected argument" "unexpected argument 'now'" top now
"$bin" top --frobnicate > "$work/usage.out" 2> "$work/usage.err"
rc=$?
[ $rc -eq 3 ] && grep -q "unknown option '--frobnicate'" "$work/usage.err" && pass "top: an unknown option" ||
	fail "top: an unknown option" "rc=$rc" "$(cat "$work/usage.err")"
"$bin" top --help > "$work/help.out" && grep -q '^usage: gpudoctor top' "$work/help.out" &&
	"$bin" watch --help > "$work/help2.out" && grep -q 'stale_process' "$work/help2.out" &&
	pass "top and watch --help" || fail "top and watch --help"
exit 0
