#!/bin/sh
# tools/make-examples.sh GPUDOCTOR - write docs/examples/NAME.md and .html:
# `gpudoctor report` on each recorded machine of tests/report/machines/
# (with tests/report/NAME.log and machines/NAME.bench.json when there are). `make examples` runs it;
# tests/scripts/report_fixtures.sh checks the files stay what it writes.
set -eu
bin=${1:?usage: make-examples.sh GPUDOCTOR}
case "$bin" in /*) ;; *) bin=$(pwd)/$bin ;; esac
cd "$(dirname "$0")/.."
for m in tests/report/machines/*.json; do
	case "$m" in *.bench.json) continue ;; esac
	name=$(basename "$m" .json)
	set -- --from "$m"
	[ -f "tests/report/$name.log" ] && set -- "$@" --log "tests/report/$name.log"
	[ -f "tests/report/machines/$name.bench.json" ] && set -- "$@" --bench "tests/report/machines/$name.bench.json"
	rc=0
	"$bin" report "$@" > "docs/examples/$name.md" || rc=$?
	[ $rc -le 2 ] || exit 1
	rc=0
	"$bin" report "$@" --format html > "docs/examples/$name.html" || rc=$?
	[ $rc -le 2 ] || exit 1
	echo "docs/examples/$name.md, .html"
done
