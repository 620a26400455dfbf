#!/bin/sh
# tests/scripts/plan_cases.sh BUILD_DIR - real cases from framework issue
# trackers (tests/arch/plan-cases.tsv, each naming the thread it comes from)
# through `gpudoctor plan ... --json`: the exit status, the release chosen
# (.version), its CUDA variant (.build.variant) and how the GPU runs it
# (.build.runs.how: native, jit). One "ok NAME" / "not ok NAME" line each.
set -u
build=${1:?usage: plan_cases.sh BUILD_DIR}
case "$build" in /*) ;; *) build=$(pwd)/$build ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$build/gpudoctor
table=$here/arch/plan-cases.tsv
work=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-pc.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

grep -v -e '^#' -e '^name	' "$table" | while IFS='	' read -r name source args rc version variant runs; do
	[ -n "$name" ] || continue
	eval "env -i PATH=/usr/bin:/bin \"\$bin\" plan $args --json" > "$work/out" 2> "$work/err"
	got_rc=$?
	got=$(jq -r '[.version // "-", .build.variant // "-", .build.runs.how // "-"] | join(" ")' "$work/out" 2>/dev/null)
	want="$version $variant $runs"
	if [ "$got_rc" = "$rc" ] && [ "$got" = "$want" ]; then
		echo "ok $name"
	else
		echo "not ok $name"
		echo "#   plan $args"
		echo "#   source: $source"
		echo "#   got exit $got_rc, $got; want exit $rc, $want"
		head -c 300 "$work/err" | sed 's/^/#   /'
	fi
done
