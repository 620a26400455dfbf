#!/bin/sh
# tests/scripts/report_fixtures.sh BUILD_DIR - `gpudoctor report` on the
# recorded fixture machines of tests/report/machines/: the Markdown and
# HTML against the examples kept in docs/examples/ (exact), every report
# rendered by a CommonMark parser (cmark) and checked (fences closed, every
# finding present, every <details> closed, the marker last), the cut under
# GitHub's limit, redaction (nothing of a user, host, UUID, serial or
# address leaks by default; all kept with --no-redact), the HTML in
# headless Chromium (every finding and section in the DOM, no request
# leaves the page, nothing wider than a 375 px phone, screenshots), --json,
# -o, and every error path. Prints "ok NAME" / "not ok NAME" lines.
set -u
build=${1:?usage: report_fixtures.sh BUILD_DIR}
case "$build" in /*) ;; *) build=$(pwd)/$build ;; esac
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$build/gpudoctor
machines=$top/tests/report/machines
examples=$top/docs/examples
work=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-report.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

pass() { echo "ok $1"; }
fail() { echo "not ok $1"; shift; [ $# -gt 0 ] && printf '#   %s\n' "$@"; return 0; }

# name: the machine's facts, and its log when the example has one
report() {
	name=$1
	shift
	# paths relative to the tree: the examples name the log so
	(
		cd "$top" || exit 3
		[ -f "tests/report/machines/$name.bench.json" ] && set -- --bench "tests/report/machines/$name.bench.json" "$@"
		[ -f "tests/report/$name.log" ] && set -- --log "tests/report/$name.log" "$@"
		exec "$bin" report --from "tests/report/machines/$name.json" "$@"
	)
}

examples_list="h200 nouveau-gtx1080 fw-tf215-and-tf-gpu stopped-process-holds-memory redaction-shared-server"

# ---- the examples, exact ------------------------------------------------------
for m in $examples_list; do
	report "$m" > "$work/$m.md" 2> "$work/$m.err"
	rc=$?
	report "$m" --format html > "$work/$m.html" 2>> "$work/$m.err"
	if [ $rc -le 2 ] && [ ! -s "$work/$m.err" ] && cmp -s "$examples/$m.md" "$work/$m.md" &&
		cmp -s "$examples/$m.html" "$work/$m.html"; then
		pass "report: $m as in docs/examples (Markdown and HTML, exit $rc)"
	else
		fail "report: $m differs from docs/examples/$m.{md,html}" "$(cat "$work/$m.err")" \
			"$(diff "$examples/$m.md" "$work/$m.md" | head -20)" \
			"$(diff "$examples/$m.html" "$work/$m.html" | head -10)"
	fi
done
grep -q '^| gemm\\_bf16 | 803.8 TFLOP/s | 81 % | 101 % | ok |$' "$work/h200.md" &&
	grep -q '^| the benchmark (bench) | ok |$' "$work/h200.md" &&
	pass "report --bench: the H200's figures in a table, a row of the layers' verdicts" ||
	fail "report --bench" "$(grep -n 'gemm\\_bf16\|benchmark' "$work/h200.md" | head -3)"
# a bench document is a file anyone may have written: its texts are cleaned
jq '.tests[0].name = "d2d\u001b[2J\u001b]0;owned\u0007" | .tests[1].error = "bad\u001b[31m"
	| .tests[1].state = "failed"' "$machines/h200.bench.json" > "$work/evil-bench.json"
"$bin" report --from "$machines/h200.json" --bench "$work/evil-bench.json" > "$work/evil.md" 2>&1
if ! grep -q "$(printf '\033')" "$work/evil.md" && ! grep -q "$(printf '\007')" "$work/evil.md" &&
	grep -q '^| d2d' "$work/evil.md"; then
	pass "report --bench: escape sequences in a bench document never reach the output"
else
	fail "report --bench: escape sequences" "$(grep -n 'd2d' "$work/evil.md" | head -2 | od -c | head -5)"
fi
rcs=""
for m in nouveau-gtx1080 fw-tf215-and-tf-gpu h200; do
	report "$m" > /dev/null 2>&1
	rcs="$rcs $?"
done
[ "$rcs" = " 2 1 0" ] && pass "report: exit status 2 errors, 1 warnings, 0 healthy" ||
	fail "report: exit status" "got$rcs"

# ---- CommonMark: every report renders whole ------------------------------------------
# cmark --unsafe keeps raw HTML; an unclosed fence would swallow the marker
# comment into a code block, an unclosed <details> would leave the counts unequal.
cmark_check() {
	md=$1 label=$2
	cmark --unsafe "$md" > "$work/c.html" 2> "$work/c.err" || { fail "$label: cmark failed" "$(cat "$work/c.err")"; return; }
	opened=$(grep -c '^<details>' "$md")
	closed=$(grep -c '^</details>' "$md")
	hopen=$(grep -o '<details>' "$work/c.html" | wc -l)
	hclose=$(grep -o '</details>' "$work/c.html" | wc -l)
	fences=$(grep -c -E '^```' "$md")
	pres=$(grep -o '<pre>' "$work/c.html" | wc -l)
	why=""
	[ "$opened" -eq "$closed" ] && [ "$hopen" -eq "$opened" ] && [ "$hclose" -eq "$closed" ] ||
		why="details: $opened/$closed in the source, $hopen/$hclose rendered"
	[ $((fences % 2)) -eq 0 ] && [ "$pres" -eq $((fences / 2)) ] || why="$why; fences $fences, <pre> $pres"
	tail -n 1 "$work/c.html" | grep -q '^<!-- gpudoctor .* report' || why="$why; the marker is not the last thing, as HTML"
	[ "$(tail -c 1 "$md" | od -An -c | tr -d ' ')" = '\n' ] || why="$why; no final newline"
	# every finding's ID is in the rendered text (escapes undone)
	for id in $3; do
		grep -q -F "$id" "$work/c.html" || why="$why; $id missing"
	done
	[ -z "$why" ] && pass "$label: cmark renders it whole (fences closed, details closed, marker last, findings present)" ||
		fail "$label: cmark" "$why"
}
for m in $examples_list; do
	ids=$(jq -r '.findings[].id' "$machines/$m.json" | sort -u | tr '\n' ' ')
	cmark_check "$work/$m.md" "report: $m" "$ids"
done

# ---- GitHub's limit: a machine with a facts document too large to paste whole --------
jq '.python as $p | .python = [range(0; 22) | . as $i | $p[0] | .path = "/opt/envs/env\($i)" | .interpreter = "/opt/envs/env\($i)/bin/python3"]' \
	"$machines/fw-tf215-and-tf-gpu.json" > "$work/big.json"
"$bin" report --from "$work/big.json" > "$work/big.md" 2> "$work/big.err"
"$bin" report --from "$work/big.json" --no-limit > "$work/big-whole.md" 2>> "$work/big.err"
size=$(wc -c < "$work/big.md")
whole=$(wc -c < "$work/big-whole.md")
if [ "$size" -le 65536 ] && [ "$whole" -gt 65536 ] && grep -q "^\*Cut to stay under GitHub's 65,536 characters" "$work/big.md" &&
	grep -q 'more lines left out here' "$work/big.md" && ! grep -q 'Cut to stay' "$work/big-whole.md" &&
	grep -q '^### WARN fw.deprecated\\_gpu\\_package' "$work/big.md" && [ ! -s "$work/big.err" ]; then
	pass "report: cut to $size bytes under GitHub's 65,536 ($whole whole), the findings kept, the cut said"
else
	fail "report: the cut" "size $size, whole $whole" "$(tail -5 "$work/big.md")" "$(cat "$work/big.err")"
fi
cmark_check "$work/big.md" "report: the cut report" "fw.deprecated_gpu_package"

# ---- redaction ---------------------------------------------------------------------------
secrets="/home/ana dgx-lab-07 9f0e7c1a-2b3d 10.20.30.40 192.168.7.21 1654922001234"
leaks() {
	found=""
	for s in $secrets; do
		grep -q -F -- "$s" "$1" && found="$found $s"
	done
	# the user name as a word of its own
	grep -q -w 'ana' "$1" && found="$found ana"
	printf '%s' "$found"
}
m=redaction-shared-server
report "$m" --json > "$work/red.json" 2>/dev/null
leak_md=$(leaks "$work/$m.md") leak_html=$(leaks "$work/$m.html") leak_json=$(leaks "$work/red.json")
if [ -z "$leak_md$leak_html$leak_json" ] && grep -q '/home/<user>/proj/.venv' "$work/$m.md" &&
	grep -q 'GPU-<uuid-1> (Serial Number: <serial-1>)' "$work/$m.md" &&
	grep -q '<host>:4242:4290 .* Connect to <ip-1><43521>' "$work/$m.md" && grep -q 'on <host> (<ip-2>)' "$work/$m.md" &&
	grep -q 'cuDNN 8.9.4.25' "$work/$m.md"; then
	pass "report: redacted by default (user, host, UUID, addresses, serial; one placeholder per value, versions kept)"
else
	fail "report: redaction" "markdown:$leak_md" "html:$leak_html" "json:$leak_json"
fi
report "$m" --no-redact > "$work/raw.md" 2>/dev/null
kept=""
for s in $secrets; do grep -q -F -- "$s" "$work/raw.md" || kept="$kept $s"; done
[ -z "$kept" ] && ! grep -q '<uuid-\|<ip-\|<user>' "$work/raw.md" &&
	pass "report --no-redact: every value kept" || fail "report --no-redact" "missing:$kept"

# ---- --json and -o ---------------------------------------------------------------------------
if jq -e --rawfile md "$work/$m.md" '.schema == "gpudoctor/report/1" and .format == "markdown" and .redacted == true
	and .text == $md and ([.findings[].id] | index("fw.deprecated_gpu_package") != null)
	and (.log_causes[0].id == "lib.cudnn_version_mismatch")' "$work/red.json" > /dev/null; then
	pass "report --json: the report as .text, the findings' and the log's IDs"
else
	fail "report --json" "$(head -c 400 "$work/red.json")"
fi
report nouveau-gtx1080 -o "$work/out.md" > "$work/o.out" 2>&1
rc=$?
[ $rc -eq 2 ] && [ ! -s "$work/o.out" ] && cmp -s "$work/out.md" "$work/nouveau-gtx1080.md" &&
	pass "report -o FILE: the same report in the file, nothing on stdout" || fail "report -o" "rc=$rc"

# ---- errors: one line on stderr, exit 3, nothing on stdout --------------------------------------
ln -s "$work/elsewhere.md" "$work/link.md"
: > "$work/empty.log"
usage() {
	label=$1 want=$2
	shift 2
	"$bin" report "$@" > "$work/u.out" 2> "$work/u.err"
	rc=$?
	if [ $rc -eq 3 ] && [ "$(wc -l < "$work/u.err")" -eq 1 ] && grep -q -- "$want" "$work/u.err" && [ ! -s "$work/u.out" ]; then
		pass "report error: $label"
	else
		fail "report error: $label" "rc=$rc" "$(cat "$work/u.err")" "$(head -c 200 "$work/u.out")"
	fi
}
f=$machines/nouveau-gtx1080.json
usage "a format it does not write" "--format wants markdown or html, not 'pdf'" --from "$f" --format pdf
"$bin" report --bogus > "$work/u.out" 2> "$work/u.err"
rc=$?
[ $rc -eq 3 ] && head -n 1 "$work/u.err" | grep -q "unknown option '--bogus'" && [ ! -s "$work/u.out" ] &&
	pass "report error: an unknown option (and where the options are)" || fail "report error: unknown option" "rc=$rc" "$(cat "$work/u.err")"
usage "an argument" "a log goes with --log" --from "$f" train.log
usage "--json with --output" "not with --output" --from "$f" --json -o "$work/x.md"
usage "--output a symbolic link" "is a symbolic link" --from "$f" -o "$work/link.md"
usage "--output in a missing directory" "cannot write '$work/no/such/r.md'" --from "$f" -o "$work/no/such/r.md"
usage "--log that is missing" "cannot open '$work/missing.log'" --from "$f" --log "$work/missing.log"
usage "--log that is empty" "is empty: nothing to explain" --from "$f" --log "$work/empty.log"
usage "--from that is missing" "$work/none.json" --from "$work/none.json"
usage "--from with --no-load" "does not apply to it" --from "$f" --no-load
truncate -s 17M "$work/huge.json"
usage "--bench that is a device" "not a regular file" --from "$f" --bench /dev/zero
usage "--bench larger than any bench document" "more than 16 MiB" --from "$f" --bench "$work/huge.json"
usage "--bench that is no bench document" "--bench '$f': not a gpudoctor bench --json document" --from "$f" --bench "$f"
usage "--load-root without --root" "goes with --root" --load-root
usage "--python that is not there" "--python '$work/nopython'" --python "$work/nopython" --no-load
[ ! -e "$work/elsewhere.md" ] && pass "report -o: the link's target was not written" || fail "report -o followed the link"

# ---- the HTML in a browser --------------------------------------------------------------------------
case "$build" in *asan*) exit 0 ;; esac # the same HTML: the plain build's run checks it
if ! command -v chromium > /dev/null 2>&1; then
	fail "report: chromium is not installed (make check installs it: tools/deps.sh test)"
	exit 0
fi
chrome() {
	timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --disable-sync \
		--disable-background-networking --disable-component-update --disable-default-apps \
		--user-data-dir="$work/chrome-profile" --allow-file-access-from-files "$@" 2> /dev/null
}
# requests the page made: every URL in the net log but the browser's own services
page_requests() {
	grep -o '"url":"[^"]*"' "$1" | sed 's/"url":"//; s/"$//' | sort -u |
		grep -v -E '^(file:|data:|about:|chrome:)' |
		grep -v -E '^https?://([a-z0-9.-]+\.)?(google\.com|googleapis\.com|gvt1\.com|gstatic\.com)(/|$)'
}
# the control: a page that does fetch something is caught
printf '<!DOCTYPE html><html><body><img src="http://192.0.2.1/x.png"></body></html>\n' > "$work/fetches.html"
chrome --log-net-log="$work/net-control.json" --dump-dom "file://$work/fetches.html" > /dev/null
if page_requests "$work/net-control.json" | grep -q '192.0.2.1'; then
	pass "report html: the request check sees a page that fetches"
else
	fail "report html: the request check saw nothing on the control page"
fi
for m in $examples_list; do
	html=$work/$m.html
	why=""
	chrome --log-net-log="$work/net-$m.json" --dump-dom "file://$html" > "$work/dom-$m.html"
	grep -q '</html>' "$work/dom-$m.html" || why="no DOM"
	for id in $(jq -r '.findings[].id' "$machines/$m.json" | sort -u); do
		grep -q -F "$id" "$work/dom-$m.html" || why="$why; $id missing"
	done
	grep -q '<h2>Findings</h2>' "$work/dom-$m.html" || why="$why; no Findings"
	# every collapsed section of the Markdown is one in the page
	sed -n 's/^<details><summary>\(.*\)<\/summary>$/\1/p' "$work/$m.md" > "$work/sections"
	[ -s "$work/sections" ] || why="$why; no sections"
	while IFS= read -r s; do
		grep -q -F "<summary>$s</summary>" "$work/dom-$m.html" || why="$why; section '$s' missing"
	done < "$work/sections"
	grep -q -i -E '<script|<link|<img|<iframe|@import|url\(|src=' "$html" && why="$why; something that could fetch is in the page"
	req=$(page_requests "$work/net-$m.json")
	[ -n "$req" ] && why="$why; requests: $req"
	# a phone: the page in a 375 px frame; a script of the test (never of the
	# report) reads how wide the content is
	cat > "$work/phone-$m.html" <<EOF
<!DOCTYPE html><html><body style="margin:0"><iframe id="f" src="$m.html" style="width:375px;height:2400px;border:0"></iframe>
<script>document.getElementById('f').onload=function(){var d=this.contentDocument.documentElement;document.title='width '+d.scrollWidth+' of '+d.clientWidth;};</script></body></html>
EOF
	chrome --virtual-time-budget=3000 --window-size=420,2400 --dump-dom "file://$work/phone-$m.html" > "$work/phone-dom-$m.html"
	wd=$(sed -n 's/.*<title>width \([0-9]*\) of \([0-9]*\)<\/title>.*/\1 \2/p' "$work/phone-dom-$m.html")
	set -- $wd
	if [ $# -ne 2 ]; then
		why="$why; the phone frame did not load"
	elif [ "$1" -gt "$2" ]; then
		why="$why; $1 px wide in a $2 px phone"
	fi
	chrome --window-size=420,1600 --screenshot="$work/$m-phone.png" "file://$work/phone-$m.html" > /dev/null
	chrome --window-size=1280,1600 --screenshot="$work/$m-desktop.png" "file://$html" > /dev/null
	for png in "$work/$m-phone.png" "$work/$m-desktop.png"; do
		[ "$(head -c 4 "$png" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG' ] || why="$why; no screenshot $(basename "$png")"
	done
	[ -z "$why" ] && pass "report html: $m in Chromium (findings and sections in the DOM, no request, fits 375 px, screenshots)" ||
		fail "report html: $m in Chromium" "$why"
done
exit 0
