#!/bin/sh
# tools/gen-man.sh GPUDOCTOR OUTDIR - the man pages, from the help text (the
# one source): OUTDIR/gpudoctor.1 from `gpudoctor --help`, and
# OUTDIR/gpudoctor-CMD.1 from `gpudoctor CMD --help` for every command that
# `gpudoctor help` lists, each with a SEE ALSO naming the others. Written by
# help2man; the date is SOURCE_DATE_EPOCH's (else the last commit's), so a
# build gives the same pages each time.
set -eu
bin=${1:?usage: gen-man.sh GPUDOCTOR OUTDIR}
out=${2:?usage: gen-man.sh GPUDOCTOR OUTDIR}
case "$bin" in /*) ;; *) bin=$(pwd)/$bin ;; esac
command -v help2man > /dev/null 2>&1 || { echo "gen-man: help2man is missing (apt-get install help2man)" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-man.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git -C "$(dirname "$0")/.." log -1 --format=%ct 2>/dev/null || date +%s)
fi
export SOURCE_DATE_EPOCH

"$bin" help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit }
	on && /^  [a-z]/ { name = $1; sub(/^  [a-z]+ +/, ""); print name "\t" $0 }' > "$tmp/commands"
[ -s "$tmp/commands" ] || { echo "gen-man: no commands in '$bin help'" >&2; exit 1; }

# SEE ALSO: every page but the one it is in
see_also() { # PAGE
	{
		echo "[SEE ALSO]"
		first=1
		for p in gpudoctor $(cut -f1 "$tmp/commands" | sed 's/^/gpudoctor-/'); do
			[ "$p" = "$1" ] && continue
			[ $first = 1 ] || printf ',\n'
			printf '.BR %s (1)' "$p"
			first=0
		done
		printf '\n.PP\nThe documentation: /usr/share/doc/gpudoctor, or docs/ in the source tree.\n'
	} > "$tmp/see-$1"
}

see_also gpudoctor
help2man --no-info --no-discard-stderr --section=1 \
	--name="why a deep-learning framework does or does not use the NVIDIA GPU" \
	--include="$tmp/see-gpudoctor" --output="$out/gpudoctor.1" "$bin"

while IFS='	' read -r cmd summary; do
	page=gpudoctor-$cmd
	see_also "$page"
	# the version the page names: `gpudoctor --version`; the help: the command's
	help2man --no-info --no-discard-stderr --section=1 --name="$summary" \
		--help-option="$cmd --help" --version-option="--version" \
		--include="$tmp/see-$page" --output="$tmp/$page.1" "$bin"
	# help2man titles a page after the program: this one is the command's
	upper=$(printf '%s' "$page" | tr 'a-z' 'A-Z')
	sed -e "s/^\\.TH GPUDOCTOR /.TH $upper /" \
		-e "/^\\.SH NAME/{n;s/^gpudoctor \\\\-/gpudoctor\\\\-$cmd \\\\-/}" \
		"$tmp/$page.1" > "$out/$page.1"
done < "$tmp/commands"
