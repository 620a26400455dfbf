#!/bin/sh
# tests/scripts/width80.sh BUILD_DIR - `gpudoctor compat` and `gpudoctor
# plan` answers for people fit 80 columns, and `doctor -v`: every
# text-output compat/plan case of tests/cases, plus more questions that
# reach the other layouts (all releases of each framework, long GPU names,
# blocked plans, each --format, Windows and WSL2). Prints one "ok NAME" /
# "not ok NAME" line per command (run by tests/run.sh); a failure names
# the long lines with their width.
set -u
build=${1:?usage: width80.sh BUILD_DIR}
case "$build" in /*) ;; *) build=$(pwd)/$build ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$build/gpudoctor
work=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-w80.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
max=80

if [ ! -x "$bin" ]; then
	echo "not ok prerequisites"
	echo "#   no $bin"
	exit 1
fi

# check NAME DIR ARGS...: run the command in DIR, fail on any line over
# $max characters (UTF-8 aware: continuation bytes are not counted).
check() {
	name=$1 dir=$2
	shift 2
	(cd "$dir" && env -i PATH=/usr/bin:/bin LC_ALL=C "$bin" "$@") > "$work/out" 2>/dev/null
	# with PATHS=1 (doctor's reports) a row may pass the width only for what
	# is never broken: a path or URL of more than 40 characters, or a fix's
	# command (the indented lines under "  fix:")
	long=$(LC_ALL=C awk -v max=$max -v paths="${PATHS:-0}" '
		/^  fix:$/ { infix = 1; next }
		infix && !/^    / { infix = 0 }
		{
		s = $0; gsub(/[\200-\277]/, "", s)
		if (length(s) <= max) next
		if (paths && infix) next
		if (paths) { n = split(s, t, " "); ok = 0; for (i = 1; i <= n; i++) if (length(t[i]) > 40 && t[i] ~ /\//) ok = 1; if (ok) next }
		printf "line %d: %d columns: %s\n", NR, length(s), substr($0, 1, 60)
	}' "$work/out")
	if [ ! -s "$work/out" ] && [ "${name#case/}" != "$name" ]; then
		echo "ok $name # SKIP no answer on stdout (an error case)"
	elif [ ! -s "$work/out" ]; then
		echo "not ok $name"
		echo "#   no output"
	elif [ -n "$long" ]; then
		echo "not ok $name"
		printf '%s\n' "$long" | sed 's/^/#   /'
	else
		echo "ok $name"
	fi
}

# the cases: text answers only (no --json, no --help, no errors)
for d in "$here"/cases/*compat* "$here"/cases/*plan*; do
	[ -f "$d/cmd" ] || continue
	cmd=$(cat "$d/cmd")
	case "$cmd" in *--json*|*--help*) continue ;; esac
	[ -f "$d/expect.rc" ] && [ "$(cat "$d/expect.rc")" != 0 ] && [ "$(cat "$d/expect.rc")" != 1 ] && continue
	eval "set -- $cmd"
	check "case/$(basename "$d")" "$d" "$@"
done

# more questions
check compat/torch-all "$work" compat torch
check compat/jax-all "$work" compat jax
check compat/tf-2.16 "$work" compat tensorflow 2.16.1
check compat/tf-1.15 "$work" compat tensorflow 1.15.0
check compat/tf-2.10 "$work" compat tensorflow 2.10.0
check compat/jax-0.9 "$work" compat jax 0.9.0
check compat/gpu-h200 "$work" compat --gpu 0x2335
check compat/gpu-k80 "$work" compat --gpu "Tesla K80"
check compat/gpu-a16 "$work" compat --gpu 0x25b6
check compat/gpu-l40s "$work" compat --gpu "L40S"
check compat/gpu-rtx-a-laptop "$work" compat --gpu "RTX A5500 Laptop"
check compat/cuda-12.4 "$work" compat --cuda 12.4
check compat/cuda-13.0 "$work" compat --cuda 13.0
check compat/cuda-10.0 "$work" compat --cuda 10.0
check compat/driver-580 "$work" compat --driver 580.65.06
check compat/driver-390 "$work" compat --driver 390.157
check compat/kb-info "$work" compat --kb-info
for f in pip conda docker requirements; do
	check "plan/tf-linux-$f" "$work" plan tensorflow --no-probe --color never --driver 550.54.14 \
		--gpu "RTX 4090" --python 3.11 --os linux --format "$f"
	check "plan/torch-old-$f" "$work" plan torch==1.10.1 --no-probe --color never --driver 470.82.01 \
		--gpu "GeForce GTX 1080" --python 3.8 --format "$f"
	check "plan/jax-wsl2-$f" "$work" plan jax --no-probe --color never --driver 546.12 \
		--gpu "RTX 3060" --python 3.12 --os wsl2 --format "$f"
	check "plan/tf-windows-$f" "$work" plan tensorflow --no-probe --color never --driver 531.14 \
		--gpu 0x2503 --python 3.12 --os windows --format "$f"
done
check plan/tf-2.17-old-driver "$work" plan tensorflow==2.17.0 --no-probe --color never \
	--driver 450.80.02 --gpu "Tesla T4" --python 3.11
check plan/torch-kepler "$work" plan torch --no-probe --color never --driver 470.82.01 \
	--gpu "Tesla K80" --python 3.13
check plan/no-gpu-tf "$work" plan tensorflow --no-probe --color never --gpu none --driver none \
	--python 3.12
check plan/macos-jax "$work" plan jax --no-probe --color never --python 3.12 --os macos

# doctor -v on recorded machines (every library copy and probe note), and
# on this one
for m in "$here"/report/machines/*.json; do
	case "$m" in *.bench.json) continue ;; esac
	PATHS=1 check "doctor-v/$(basename "$m" .json)" "$work" doctor -v --color never --from "$m"
done
PATHS=1 check doctor-v/this-machine "$work" doctor -v --color never --no-load
exit 0
