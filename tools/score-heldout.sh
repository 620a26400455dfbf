#!/bin/sh
# tools/score-heldout.sh GPUDOCTOR DIR - score `gpudoctor explain` on a
# held-out set (files in the corpus format: "# expect:", optional
# "# alternative:", "---", the log): one line per log (OK, ALT when the
# first cause is the collector's alternative, MISS; the first cause; whether
# the expected cause was called harmless), then the totals.
set -eu
bin=${1:?usage: score-heldout.sh GPUDOCTOR DIR}
dir=${2:?usage: score-heldout.sh GPUDOCTOR DIR}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-score.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0 ok=0 alt=0 harm=0
for f in "$dir"/*.log; do
	exp=$(sed -n 's/^# expect: *\([^ ]*\).*/\1/p' "$f" | head -n 1)
	alt_id=$(sed -n 's/^# alternative: *\([^ ]*\).*/\1/p' "$f" | head -n 1)
	sed '1,/^---$/d' "$f" > "$tmp/log"
	"$bin" explain --json "$tmp/log" > "$tmp/json" 2>/dev/null || true
	first=$(jq -r '.causes[0].id // "none"' "$tmp/json" 2>/dev/null || echo none)
	# a log whose cause is a harmless message is right to be called harmless
	h=0
	[ "$exp" = rt.benign_warning ] ||
		h=$(jq -r --arg e "$exp" '[.causes[]? | select(.role == "harmless" and .id == $e)] | length' "$tmp/json" 2>/dev/null || echo 0)
	res=MISS
	[ "$first" = "$exp" ] && res=OK
	[ "$res" = MISS ] && [ -n "$alt_id" ] && [ "$first" = "$alt_id" ] && res=ALT
	n=$((n + 1))
	[ "$res" = OK ] && ok=$((ok + 1))
	[ "$res" = ALT ] && alt=$((alt + 1))
	[ "$h" != 0 ] && harm=$((harm + 1))
	echo "$res $(basename "$f") expect=$exp first=$first"
done
echo "$n logs: $ok first ($((ok * 100 / (n > 0 ? n : 1))) %), $((ok + alt)) with the alternatives, $harm real causes called harmless"
