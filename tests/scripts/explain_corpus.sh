#!/bin/sh
# tests/scripts/explain_corpus.sh BUILD - `gpudoctor explain` on the corpus
# of real messages (tests/explain/corpus/*.log, format in its README):
# for each file, the first-ranked cause must be its `# expect:` ID, every
# `# also:` ID must be found (as a cause or as what one explains), and a
# log of harmless messages only must exit 0. Prints "ok NAME" / "not ok NAME".
b=${1:-build}
cd "$(dirname "$0")/../.." || exit 1
gd="$b/gpudoctor"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-explain.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
for f in tests/explain/corpus/*.log; do
	name=$(basename "$f" .log)
	expect=$(sed -n 's/^# expect: *//p' "$f" | head -1)
	also=$(sed -n 's/^# also: *//p' "$f" | head -1)
	sed '1,/^---$/d' "$f" > "$tmp/log"
	"$gd" explain --json "$tmp/log" > "$tmp/out.json" 2> "$tmp/err"
	rc=$?
	# one jq for both answers (a jq per question costs a third of the run)
	if [ $rc -eq 3 ] || ! ans=$(jq -r '(.causes[0].id // "none") + "|" +
			([.causes[] | .id, .also_explains[].id] | unique | join(" "))' "$tmp/out.json" 2>/dev/null); then
		echo "not ok explain $name: exit $rc, $(cat "$tmp/err")"
		continue
	fi
	first=${ans%%|*}
	found=${ans#*|}
	miss=""
	for id in $also; do
		case " $found " in *" $id "*) ;; *) miss="$miss $id" ;; esac
	done
	if [ "$first" != "$expect" ]; then
		echo "not ok explain $name: first $first, expected $expect (found: $found)"
	elif [ -n "$miss" ]; then
		echo "not ok explain $name: missing$miss (found: $found)"
	elif [ "$expect" = "rt.benign_warning" ] && [ $rc -ne 0 ]; then
		echo "not ok explain $name: a harmless log exits $rc"
	else
		echo "ok explain $name"
	fi
done

# tests/explain/hard: real logs whose root cause the log alone does not
# show (tests/explain/hard/README.md); explain must answer, and must not
# call the real cause harmless.
for f in tests/explain/hard/*.log; do
	name=$(basename "$f" .log)
	expect=$(sed -n 's/^# expect: *//p' "$f" | head -1)
	sed '1,/^---$/d' "$f" > "$tmp/log"
	"$gd" explain --json "$tmp/log" > "$tmp/out.json" 2> "$tmp/err"
	rc=$?
	harmless=$(jq -r --arg e "$expect" '[.causes[] | select(.role == "harmless" and .id == $e)] | length' "$tmp/out.json" 2>/dev/null)
	if [ $rc -eq 3 ] || [ "$harmless" != 0 ]; then
		echo "not ok explain hard/$name: exit $rc, harmless matches $harmless"
	else
		echo "ok explain hard/$name answers without calling $expect harmless"
	fi
done

# tests/explain/samples.tsv: one line per table row or cue (KEY<TAB>a line
# it must recognise); the row itself, or one of the same finding, must
# answer it, so a new row cannot silently take another's messages.
fails=0
n=0
while IFS="$(printf '\t')" read -r key line; do
	[ -n "$key" ] || continue
	n=$((n + 1))
	want=$(awk -F'\t' -v k="$key" '$1 == k { print $2 }' data/kb/log_patterns.tsv data/kb/log_cues.tsv)
	"$gd" explain --json -e "$line" > "$tmp/s.json" 2>/dev/null
	ans=$(jq -r '(.causes[0].id // "none") + "|" + ([.causes[] | .pattern] | join(" "))' "$tmp/s.json")
	first=${ans%%|*}
	got=${ans#*|}
	case " $got " in
	*" $key "*) ;;
	*) if [ "$first" != "$want" ]; then
		echo "not ok explain sample $key: answered $first ($got), row says $want"
		fails=$((fails + 1))
	fi ;;
	esac
done < tests/explain/samples.tsv
[ $fails -eq 0 ] && echo "ok explain samples: each of $n rows recognises its sample line"
# every cue has its sample line
nocue=$(awk -F'\t' 'FNR == NR { s[$1] = 1; next } /^cue\./ && !($1 in s) { printf " %s", $1 }' \
	tests/explain/samples.tsv data/kb/log_cues.tsv)
# every cue fires on a line of one word of each of its groups: the words
# that let a line reach the cues (explain.c, trigger_words) cover it
gate=$(awk -F'\t' '!/^#/ && $1 ~ /^cue\./ {
	n = split($5, g, / \+ /); line = ""
	for (i = 1; i <= n; i++) { split(g[i], a, / \| /); w = a[1]; sub(/\*$/, "", w); line = line (i > 1 ? " " : "") w }
	print $1 "\t" $2 "\t" line }' data/kb/log_cues.tsv | while IFS="$(printf '\t')" read -r key finding line; do
	first=$("$gd" explain --json -e "$line" 2>/dev/null | jq -r '.causes[0].id // "none"')
	[ "$first" = "$finding" ] || printf ' %s ("%s": %s)' "$key" "$line" "$first"
done)
if [ -n "$gate" ]; then
	echo "not ok explain cue words reach their cue:$gate"
else
	echo "ok explain cue words reach their cue: a line of one word per group fires each cue"
fi
if [ -n "$nocue" ]; then
	echo "not ok explain cue samples: no sample line for$nocue"
else
	echo "ok explain cue samples: every cue has a sample line"
fi
