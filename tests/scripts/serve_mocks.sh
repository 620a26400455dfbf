#!/bin/sh
# tests/scripts/serve_mocks.sh BUILD_DIR - `gpudoctor serve` on fixture roots
# with the mock libnvidia-ml: /metrics under dcgm-exporter's names (checked
# against tests/serve/dcgm-default-counters.csv and by promtool), /facts,
# /, the HTTP rules (GET only, no body, small headers, 404), basic auth and
# TLS from a web-config file, the textfile mode, 50 scrapers at once, a
# real Prometheus scraping three instances, and the usage errors. Prints
# "ok NAME" / "not ok NAME" lines.
set -u
. "$(dirname "$0")/../lib.sh"
build=${1:?usage: serve_mocks.sh BUILD_DIR}
case "$build" in /*) ;; *) build=$(pwd)/$build ;; esac
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$build/gpudoctor
work=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-serve.XXXXXX")
lib=usr/lib/x86_64-linux-gnu
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

pass() { echo "ok $1"; }
fail() { echo "not ok $1"; shift; [ $# -gt 0 ] && printf '#   %s\n' "$@"; return 0; }
skip() { echo "ok $1 # SKIP $2"; }

for f in "$bin" "$build/stubs/fake_nvml.so" "$build/tests/tools/mk-ldcache" "$build/tests/tools/http-load" \
	"$build/tests/tools/http-raw"; do
	[ -e "$f" ] || { fail "prerequisites" "missing $f (make test-deps BUILD=$(basename "$build"))"; exit 0; }
done
command -v curl > /dev/null || { skip "serve" "curl is not installed"; exit 0; }

# mkroot NAME DRIVER: a root with the mock NVML as a driver installs it
mkroot() {
	r=$work/$1
	mkdir -p "$r/$lib" "$r/etc"
	cp "$build/stubs/fake_nvml.so" "$r/$lib/libnvidia-ml.so.$2"
	ln -s "libnvidia-ml.so.$2" "$r/$lib/libnvidia-ml.so.1"
	printf 'libnvidia-ml.so.1 /%s/libnvidia-ml.so.1\n' "$lib" > "$work/$1.ldcache"
	"$build/tests/tools/mk-ldcache" "$work/$1.ldcache" "$r/etc/ld.so.cache"
}

# a free loopback port. The ranges sit below Linux's ephemeral ports (32768
# and up), where curl's and Prometheus's own outgoing connections would take
# a port between the probe and serve's bind; the plain and the sanitizer
# build's runs (side by side in make check) draw from ranges of their own.
# Anything but "connection refused" (curl's 7) counts as taken, TLS and
# non-HTTP listeners included.
port() {
	p=$((PORT_BASE + $1 * 7))
	while curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$p/" 2>/dev/null; [ $? -ne 7 ]; do p=$((p + 1)); done
	echo "$p"
}
case "$build" in
*asan*) PORT_BASE=$((20000 + $$ % 9000)) ;;
*) PORT_BASE=$((10000 + $$ % 9000)) ;;
esac

# start NAME ROOT SCENARIO PORT [ARGS...]: serve in the background, its pid in $spid
start() {
	name=$1 root=$2 scen=$3 sport=$4
	shift 4
	printf '%s\n' "$scen" > "$work/$name.scenario"
	env -i PATH=/usr/bin:/bin ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} ${UBSAN_OPTIONS:+UBSAN_OPTIONS=$UBSAN_OPTIONS} \
		GPUDOCTOR_FAKE_SCENARIO="$work/$name.scenario" "$bin" serve --root "$root" --load-root \
		--listen "127.0.0.1:$sport" --interval 0.2 --kmsg /dev/null "$@" > "$work/$name.out" 2> "$work/$name.err" &
	spid=$!
	pids="$pids $spid"
	i=0
	while [ $i -lt 100 ]; do
		curl -s ${start_auth:+-u "$start_auth"} "http://127.0.0.1:$sport/metrics" 2>/dev/null | grep -q '^DCGM_FI_DEV_GPU_TEMP' && \
			curl -s ${start_auth:+-u "$start_auth"} "http://127.0.0.1:$sport/facts" 2>/dev/null | grep -q schema && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

BUS=00000000:06:00.0
H200="nvml_gpu $BUS|NVIDIA H200|GPU-0488de22-0688-4512-984a-a9517a925ed0|143771|1024|31|76000|700000|0|1|0|0|12|1980|1980|1|0|0x233510de
nvml_at 0|$BUS|pcie_gen=5,pcie_width=16,throttle=0x4"

mkroot a 580.95.05
P1=$(port 1)
if ! start a "$work/a" "$H200" "$P1"; then
	fail "serve starts and answers" "$(cat "$work/a.err")"
	exit 0
fi
pass "serve starts and answers"
curl -s -D "$work/m.head" "http://127.0.0.1:$P1/metrics" > "$work/m.txt"

# ---- the metrics ---------------------------------------------------------------------

if grep -q '^DCGM_FI_DEV_GPU_TEMP{gpu="0",UUID="GPU-0488de22-0688-4512-984a-a9517a925ed0",pci_bus_id="00000000:06:00.0",device="nvidia0",modelName="NVIDIA H200",Hostname="[^"]*",DCGM_FI_DRIVER_VERSION="580.159.04"} 31$' "$work/m.txt" &&
	grep -q '^DCGM_FI_DEV_POWER_USAGE{.*} 76$' "$work/m.txt" && grep -q '^DCGM_FI_DEV_FB_USED{.*} 1024$' "$work/m.txt" &&
	grep -q '^DCGM_FI_DEV_GPU_UTIL{.*} 12$' "$work/m.txt" && grep -q '^DCGM_FI_DEV_SM_CLOCK{.*} 1980$' "$work/m.txt" &&
	grep -qi '^content-type: text/plain; version=0.0.4' "$work/m.head"; then
	pass "/metrics: the GPU under dcgm-exporter's names, labels and units"
else
	fail "/metrics: dcgm-exporter names" "$(head -40 "$work/m.txt")"
fi
bad=""
for name in $(grep '^# TYPE DCGM_' "$work/m.txt" | awk '{print $3}'); do
	type=$(grep "^# TYPE $name " "$work/m.txt" | awk '{print $4}')
	help=$(grep "^# HELP $name " "$work/m.txt" | sed "s/^# HELP $name //")
	line=$(grep "^$name, " "$top/tests/serve/dcgm-default-counters.csv")
	[ "$line" = "$name, $type, $help" ] || bad="$bad $name"
done
[ -z "$bad" ] && [ "$(grep -c '^# TYPE DCGM_' "$work/m.txt")" -ge 10 ] &&
	pass "/metrics: every DCGM_* name, type and help as in dcgm-exporter's list" ||
	fail "/metrics: DCGM names against dcgm-exporter's list" "differ:$bad" "$(grep -c '^# TYPE DCGM_' "$work/m.txt") families"
if grep -q 'gpudoctor_clock_event_active{.*reason="SW power cap"} 1$' "$work/m.txt" &&
	grep -q '^gpudoctor_gpus 1$' "$work/m.txt" && grep -q '^gpudoctor_sampler_up 1$' "$work/m.txt" &&
	grep -q '^gpudoctor_findings{severity="error"} [0-9]' "$work/m.txt" &&
	grep -q '^gpudoctor_build_info{version="' "$work/m.txt" && grep -q '^gpudoctor_pcie_link_gen{.*} 5$' "$work/m.txt"; then
	pass "/metrics: gpudoctor's finding counts, reasons and health under gpudoctor_*"
else
	fail "/metrics: gpudoctor_* families" "$(grep '^gpudoctor_\(finding\|gpus\|sampler_up\|build\)' "$work/m.txt" | head -30)"
fi
! grep -q '922337203685477\|4294967295\|18446744073709551615' "$work/m.txt" && ! grep -q 'DCGM_FI_DEV_FAN\|nan\|NaN' "$work/m.txt" &&
	pass "/metrics: no sentinel values, nothing for what NVML cannot give" || fail "/metrics: sentinels" "$(grep -n 'nan\|9223' "$work/m.txt")"
if command -v promtool > /dev/null; then
	promtool check metrics < "$work/m.txt" > "$work/lint.txt" 2>&1
	# the only lint allowed: dcgm-exporter's own camelCase labels and counters without _total
	if ! grep -v "label names should be written in 'snake_case' not 'camelCase'\|counter metrics should have \"_total\" suffix" "$work/lint.txt" | grep -q .; then
		pass "/metrics: promtool parses it (lint only on dcgm-exporter's own naming)"
	else
		fail "/metrics: promtool" "$(cat "$work/lint.txt" | head -10)"
	fi
else
	skip "/metrics: promtool" "promtool is not installed"
fi

# ---- the other paths, the HTTP rules ----------------------------------------------------

code() { curl -s -o "$work/body" -w '%{http_code}' "$@"; }
[ "$(code "http://127.0.0.1:$P1/facts")" = 200 ] && jq -e '.schema == "gpudoctor/facts/1" and (.findings | type == "array")' "$work/body" > /dev/null &&
	pass "/facts: the doctor --json document" || fail "/facts" "$(head -c 300 "$work/body")"
[ "$(code "http://127.0.0.1:$P1/")" = 200 ] && grep -q '<h2>GPUs now</h2>' "$work/body" && grep -q '<summary>Facts (gpudoctor doctor --json)</summary>' "$work/body" && grep -q 'NVIDIA H200' "$work/body" &&
	! grep -q '<script' "$work/body" && pass "/: a page for people, no script" || fail "/" "$(head -c 300 "$work/body")"
[ "$(code "http://127.0.0.1:$P1/-/healthy")" = 200 ] && pass "/-/healthy" || fail "/-/healthy"
c=$(curl -s -o /dev/null -D "$work/h405" -w '%{http_code}' -X POST "http://127.0.0.1:$P1/metrics")
[ "$c" = 405 ] && grep -qi '^allow: GET, HEAD' "$work/h405" && pass "POST: 405 with Allow" || fail "POST" "$c"
[ "$(code -X DELETE "http://127.0.0.1:$P1/")" = 405 ] && pass "DELETE: 405" || fail "DELETE"
[ "$(code "http://127.0.0.1:$P1/nope")" = 404 ] && pass "an unknown path: 404" || fail "unknown path"
c=$(curl -s -o /dev/null -w '%{http_code}' -X GET --data-binary 'x=1' "http://127.0.0.1:$P1/metrics")
[ "$c" = 413 ] && pass "a request body: 413" || fail "a request body" "$c"
big=$(head -c 40000 /dev/zero | tr '\0' 'a')
c=$(curl -s -o /dev/null -w '%{http_code}' -H "X-Big: $big" "http://127.0.0.1:$P1/metrics")
case "$c" in 4*) pass "headers over the limit: $c" ;; *) fail "oversized headers" "$c" ;; esac
c=$(curl -s -I -o /dev/null -w '%{http_code}' "http://127.0.0.1:$P1/metrics")
[ "$c" = 200 ] && pass "HEAD: 200" || fail "HEAD" "$c"
raw() { "$build/tests/tools/http-raw" "$P1" "$1"; }
for req in 'GARBAGE\r\n\r\n' 'GET /metrics HTTP/9.9\r\n\r\n' 'GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n' \
	'GET /metrics HTTP/1.1\r\nHost: x\r\nBad header line\r\n\r\n'; do
	r=$(raw "$req")
	case "$r" in "HTTP/1."*" 4"* | "HTTP/1."*" 505 "* | closed) ;; *) bad_raw="${bad_raw:-} [$req -> $r]" ;; esac
done
[ -z "${bad_raw:-}" ] && pass "malformed requests: a 4xx or the connection closed, nothing else" || fail "malformed requests" "$bad_raw"
curl -s "http://127.0.0.1:$P1/metrics" | grep -q '^DCGM_FI_DEV_GPU_TEMP' && pass "still serving after the refused requests" ||
	fail "serving after refusals"

# ---- many scrapers at once ------------------------------------------------------------------

rss() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
r0=$(rss "$spid")
"$build/tests/tools/http-load" 127.0.0.1 "$P1" /metrics 50 2 > "$work/load1.json"
r1=$(rss "$spid")
"$build/tests/tools/http-load" 127.0.0.1 "$P1" /metrics 50 2 > "$work/load2.json"
r2=$(rss "$spid")
# under ASan freed memory waits in its quarantine (256 MiB): memory is
# judged on the plain build only
flat=true
[ -z "${ASAN_OPTIONS:-}" ] && [ $((r2 - r1)) -ge 2048 ] && flat=false
if jq -e '.errors == 0 and .requests > 1000' "$work/load1.json" > /dev/null && jq -e '.errors == 0' "$work/load2.json" > /dev/null &&
	$flat; then
	pass "50 scrapers for 2 x 2 s: no error, memory flat ($(jq -c . "$work/load2.json"), RSS ${r0}/${r1}/${r2} KiB)"
else
	fail "50 scrapers" "$(cat "$work/load1.json" "$work/load2.json")" "RSS $r0 $r1 $r2 KiB"
fi

# ---- basic auth and TLS ----------------------------------------------------------------------

cat > "$work/web.yml" <<'EOF'
# a web configuration as Prometheus exporters read it
basic_auth_users:
  prometheus: $2b$04$Cl47mar339oHKkBflq1T7ePQArNt6.eP7gGqCBBpLNz2iVzLOLVaq
EOF
P2=$(port 2)
mkroot b 550.54.15
start_auth=prometheus:gpu-secret start auth "$work/b" "$H200" "$P2" --web-config "$work/web.yml" 2>/dev/null
auth_pid=$spid
c1=$(code "http://127.0.0.1:$P2/metrics")
c2=$(code -u prometheus:wrong "http://127.0.0.1:$P2/metrics")
c3=$(code -u prometheus:gpu-secret "http://127.0.0.1:$P2/metrics")
[ "$c1" = 401 ] && [ "$c2" = 401 ] && [ "$c3" = 200 ] && grep -q '^DCGM_FI_DEV_GPU_TEMP' "$work/body" &&
	pass "basic auth: 401 without or with a wrong password, 200 with the right one" ||
	fail "basic auth" "codes $c1 $c2 $c3" "$(cat "$work/auth.err")"
if command -v openssl > /dev/null && [ -e /usr/lib/x86_64-linux-gnu/libgnutls.so.30 ]; then
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/tls.key" -out "$work/tls.crt" -days 2 \
		-subj /CN=127.0.0.1 -addext "subjectAltName=IP:127.0.0.1" > /dev/null 2>&1
	printf 'tls_server_config:\n  cert_file: %s\n  key_file: %s\n' "$work/tls.crt" "$work/tls.key" > "$work/tls.yml"
	P3=$(port 3)
	printf '%s\n' "$H200" > "$work/tls.scenario"
	env -i PATH=/usr/bin:/bin GPUDOCTOR_FAKE_SCENARIO="$work/tls.scenario" "$bin" serve --root "$work/a" --load-root \
		--listen "127.0.0.1:$P3" --interval 0.2 --kmsg /dev/null --web-config "$work/tls.yml" > /dev/null 2> "$work/tls.err" &
	pids="$pids $!"
	i=0
	while [ $i -lt 50 ] && ! curl -s --cacert "$work/tls.crt" "https://127.0.0.1:$P3/metrics" | grep -q '^DCGM_FI_DEV_GPU_TEMP'; do
		sleep 0.1
		i=$((i + 1))
	done
	[ $i -lt 50 ] && [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$P3/metrics")" != 200 ] &&
		pass "TLS from the web-config (GnuTLS loaded at run time)" || fail "TLS" "$(cat "$work/tls.err")"
else
	skip "TLS" "openssl or libgnutls30 is missing"
fi

# ---- the textfile mode --------------------------------------------------------------------------

mkdir -p "$work/textfile"
printf '%s\n' "$H200" > "$work/tf.scenario"
env -i PATH=/usr/bin:/bin ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} GPUDOCTOR_FAKE_SCENARIO="$work/tf.scenario" \
	"$bin" serve --root "$work/a" --load-root --textfile "$work/textfile" --once --kmsg /dev/null > /dev/null 2> "$work/tf.err"
rc=$?
if [ $rc -eq 0 ] && [ "$(ls -A "$work/textfile")" = gpudoctor.prom ] && grep -q '^DCGM_FI_DEV_GPU_TEMP{' "$work/textfile/gpudoctor.prom" &&
	! grep -q '} [0-9.]* [0-9]\{10,\}$' "$work/textfile/gpudoctor.prom"; then
	pass "--textfile --once: gpudoctor.prom written atomically, no timestamps, nothing left behind"
else
	fail "--textfile" "rc=$rc" "$(ls -A "$work/textfile")" "$(cat "$work/tf.err")"
fi

# ---- a real Prometheus scraping three instances --------------------------------------------------

if command -v prometheus > /dev/null; then
	mkroot c 535.183.01
	P4=$(port 4)
	echo '{"schema": "gpudoctor/bench/1", "tests": [{"name": "gemm_bf16", "unit": "TFLOP/s", "value": 712.5, "of_reference": 0.98}, {"name": "d2d_copy", "unit": "GB/s", "value": 1800}]}' > "$work/bench-a100.json"
	start third "$work/c" "nvml_driver 535.183.01
nvml_gpu 00000000:3b:00.0|NVIDIA A100-SXM4-80GB|GPU-3|81920|40000|71|300000|400000|0|1|0|0|88|1410|1410|1|0|0x20b210de
nvml_proc 00000000:3b:00.0|$$|30000|compute
nvml_proc 00000000:3b:00.0|1|9000|compute" "$P4" --bench "$work/bench-a100.json" ||
		fail "the third serve instance starts" "$(cat "$work/third.err")"
	curl -s "http://127.0.0.1:$P4/metrics" > "$work/m3.txt"
	if grep -q '^gpudoctor_finding{id="mem.held_by_other_process",severity="warning",env="",Hostname="[^"]*"} 1$' "$work/m3.txt" &&
		[ "$(grep -c '^gpudoctor_finding{id="mem.held_by_other_process"' "$work/m3.txt")" = 1 ]; then
		pass "/metrics: a finding as gpudoctor_finding, once however many processes raise it"
		grep -q '^gpudoctor_bench_result{test="gemm_bf16",unit="TFLOP/s"} 712.5$' "$work/m3.txt" &&
			grep -q '^gpudoctor_bench_of_reference{test="gemm_bf16"} 0.98$' "$work/m3.txt" &&
			pass "/metrics: the results of a bench document (--bench)" || fail "/metrics: --bench" "$(grep bench "$work/m3.txt")"
	else
		fail "/metrics: gpudoctor_finding" "$(grep '^gpudoctor_finding' "$work/m3.txt")"
	fi
	PP=$(port 5)
	cat > "$work/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: gpudoctor
    static_configs:
      - targets: ['127.0.0.1:$P1', '127.0.0.1:$P4']
  - job_name: gpudoctor-auth
    basic_auth:
      username: prometheus
      password: gpu-secret
    static_configs:
      - targets: ['127.0.0.1:$P2']
EOF
	prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
		--web.listen-address="127.0.0.1:$PP" > "$work/prom.log" 2>&1 &
	pids="$pids $!"
	q() { curl -s "http://127.0.0.1:$PP/api/v1/query" --data-urlencode "query=$1"; }
	i=0
	while [ $i -lt 150 ]; do
		[ "$(q 'count(up == 1)' | jq -r '.data.result[0].value[1] // 0' 2>/dev/null)" = 3 ] &&
			[ "$(q 'count(DCGM_FI_DEV_GPU_TEMP)' | jq -r '.data.result[0].value[1] // 0' 2>/dev/null)" = 3 ] && break
		sleep 0.2
		i=$((i + 1))
	done
	q 'DCGM_FI_DEV_GPU_TEMP' > "$work/q.json"
	if jq -e '[.data.result[] | {t: .metric.instance, v: .value[1], m: .metric.modelName}] | sort_by(.v) | map(.v) == ["31", "31", "71"]' "$work/q.json" > /dev/null &&
		jq -e '[.data.result[] | .metric.DCGM_FI_DRIVER_VERSION] | sort == ["535.183.01", "580.159.04", "580.159.04"]' "$work/q.json" > /dev/null; then
		pass "Prometheus scrapes three serve instances (one with basic auth): the series and labels"
	else
		fail "Prometheus scrape" "$(jq -c '.data.result[] | .metric' "$work/q.json" 2>/dev/null | head -5)" "$(tail -5 "$work/prom.log")"
	fi
	[ "$(q 'count(count by (instance) (gpudoctor_finding))' | jq -r '.data.result[0].value[1]')" = 1 ] &&
		[ "$(q 'gpudoctor_finding{id="mem.held_by_other_process"}' | jq -r '.data.result[0].metric.instance')" = "127.0.0.1:$P4" ] &&
		pass "Prometheus: the finding of the one instance that has it" || fail "Prometheus: findings" "$(q 'gpudoctor_finding' | jq -c '.data.result')"
	# the fleet from Prometheus: three nodes, the one on another driver marked
	"$bin" fleet --prom "http://127.0.0.1:$PP" --json > "$work/fleet.json" 2> "$work/fleet.err"
	rc=$?
	if [ $rc -eq 1 ] && jq -e '(.nodes | length == 3) and .driver == "580.159.04"
		and ([.nodes[] | select(.driver == "535.183.01")][0] | .model == "NVIDIA A100-SXM4-80GB" and .gpus == 1
		     and .cuda == "" and .temperature_max_c == 71 and .findings.warning >= 1 and .bench_bf16_tflops == 712.5
		     and .outliers == ["driver differs"])
		and ([.nodes[] | select(.driver == "580.159.04") | .outliers] == [[], []])
		and ([.nodes[] | .up] | all) and ([.nodes[] | .pcie_link] | index("gen5 x16"))' "$work/fleet.json" > /dev/null; then
		pass "fleet --prom: three nodes from Prometheus, the driver skew marked, exit 1"
	else
		fail "fleet --prom" "rc=$rc" "$(cat "$work/fleet.err")" "$(jq -c '.nodes[] | {host, driver, gpus, outliers, up}' "$work/fleet.json" 2>&1)"
	fi
	kill "$auth_pid" 2>/dev/null
	i=0
	while [ $i -lt 100 ] && [ "$(q 'count(up == 0)' | jq -r '.data.result[0].value[1] // 0')" != 1 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	"$bin" fleet --prom "http://127.0.0.1:$PP" --color never > "$work/fleet.txt" 2> "$work/fleet.err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "^127.0.0.1:$P2 .* not answering$" "$work/fleet.txt" &&
		pass "fleet --prom: a node that stopped answering is marked, exit 2" ||
		fail "fleet --prom: node down" "rc=$rc" "$(cat "$work/fleet.txt" "$work/fleet.err")"
	if command -v promtool > /dev/null; then
		promtool check rules "$top/deploy/prometheus/gpudoctor-rules.yml" > "$work/rules.txt" 2>&1 &&
			pass "promtool check rules on the shipped alert rules" || fail "promtool check rules" "$(cat "$work/rules.txt")"
		promtool test rules "$top/deploy/prometheus/gpudoctor-rules-test.yml" > "$work/rtest.txt" 2>&1 &&
			pass "promtool test rules on the shipped alert rules" || fail "promtool test rules" "$(tail -20 "$work/rtest.txt")"
	fi
else
	skip "Prometheus scrape" "prometheus is not installed"
fi

# ---- the shipped deployment files -------------------------------------------------------------------

sed -n '/^groups:/,$p' "$top/deploy/prometheus/gpudoctor-rules.yml" > "$work/rules.a"
sed -n '/^  groups:/,$p' "$top/deploy/kubernetes/prometheusrule.yaml" | sed 's/^  //' > "$work/rules.b"
cmp -s "$work/rules.a" "$work/rules.b" && pass "deploy: the PrometheusRule carries the same rule groups as the rules file" ||
	fail "deploy: PrometheusRule out of date" "$(diff "$work/rules.a" "$work/rules.b" | head)"
jq -e '[.panels[].targets[].expr] | length > 5' "$top/deploy/grafana/gpudoctor-dashboard.json" > /dev/null &&
	pass "deploy: the Grafana dashboard is valid JSON" || fail "deploy: Grafana dashboard"
bad=""
for m in $(grep -o '\(gpudoctor_[a-z_]*\|DCGM_FI_[A-Z_]*\)' "$top/deploy/grafana/gpudoctor-dashboard.json" "$top/deploy/prometheus/gpudoctor-rules.yml" | sed 's/.*://' | sort -u); do
	"$bin" serve --list-metrics | grep -q "^$m " || bad="$bad $m"
done
[ -z "$bad" ] && pass "deploy: every metric the dashboard and rules use is one serve writes" || fail "deploy: unknown metrics" "$bad"

# ---- usage errors --------------------------------------------------------------------------------

usage() {
	label=$1 want=$2 wantrc=$3
	shift 3
	"$bin" serve "$@" > "$work/usage.out" 2> "$work/usage.err"
	rc=$?
	if [ $rc -eq "$wantrc" ] && grep -q -- "$want" "$work/usage.err" && [ "$(wc -l < "$work/usage.err")" -le 2 ]; then
		pass "$label"
	else
		fail "$label" "rc=$rc" "$(cat "$work/usage.err")"
	fi
}
usage "serve: a bad --listen" "not ADDRESS:PORT" 3 --listen nowhere
usage "serve: a port in use" "cannot listen on 127.0.0.1:$P1" 3 --listen "127.0.0.1:$P1"
usage "serve: --once without --textfile" "--once goes with --textfile" 3 --once
usage "serve: --textfile that is no directory" "is not a directory" 3 --textfile "$work/nope"
usage "serve: --textfile with --listen" "serves nothing" 3 --textfile "$work" --listen :9999
printf 'tls_server_config:\n  cert_file: /nope.crt\n  key_file: /nope.key\n' > "$work/bad1.yml"
usage "serve: a web-config whose certificate is missing" "cannot read '/nope.crt'" 3 --web-config "$work/bad1.yml"
printf 'http_server_config:\n  http2: true\n' > "$work/bad2.yml"
usage "serve: a web-config setting it does not support" "'http_server_config' is not supported" 3 --web-config "$work/bad2.yml"
printf 'basic_auth_users:\n  alice: plaintext\n' > "$work/bad3.yml"
usage "serve: a password that is not bcrypt" "a bcrypt hash" 3 --web-config "$work/bad3.yml"
echo '{}' > "$work/bench.json"
usage "serve: --bench that is not a bench document" "not a gpudoctor bench --json document" 3 --bench "$work/bench.json"
usage "serve: a bad --interval" "--interval: '0' is not a number of seconds" 3 --interval 0
usage "serve: --max-connections 0" "not a whole number from 1" 3 --max-connections 0
usage "serve: an unexpected argument" "unexpected argument 'now'" 3 now
"$bin" serve --help | grep -q '^usage: gpudoctor serve' && pass "serve --help" || fail "serve --help"
exit 0
