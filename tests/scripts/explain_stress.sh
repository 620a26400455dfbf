#!/bin/sh
# tests/scripts/explain_stress.sh BUILD - `gpudoctor explain` on hostile
# input: a 1 GB log generated on the fly (through a pipe, never on disk)
# with errors at its start, middle and end, whose peak memory must be
# that of a one-line log; a 10 MB line with a message inside; random
# binary bytes; colour codes and progress-bar carriage returns; a log
# without a final newline. Prints "ok NAME" / "not ok NAME".
b=${1:-build}
cd "$(dirname "$0")/../.." || exit 1
gd="$b/gpudoctor"
maxrss="$b/tests/tools/maxrss"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-stress.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
check() { # name condition-command...
	name=$1
	shift
	if "$@"; then echo "ok $name"; else echo "not ok $name"; fi
}
ids() { jq -r '[.causes[].id] | join(" ")' "$1"; }
line_of() { jq -r --arg id "$2" '[.causes[] | select(.id == $id) | .lines[0]][0] // 0' "$1"; }

# a 100-byte training-progress line, as Keras prints it
filler='Epoch 3/10  812/1000 [=======================>......] - ETA: 9s - loss: 0.2311 - accuracy: 0.931304'
[ ${#filler} -eq 99 ] || { echo "not ok stress filler is ${#filler} bytes"; exit 0; }
half=500000000                         # bytes: 5,000,000 lines of 100
cudnn="W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory"
oom="torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.10 GiB is free."
noDev="E cuda_driver.cc:266] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected"

printf '%s\n' "$cudnn" > "$tmp/small"
"$maxrss" "$tmp/rss.small" "$gd" explain --json "$tmp/small" > "$tmp/small.json"

{
	printf '%s\n' "$noDev"
	yes "$filler" | head -c $half
	printf '%s\n' "$cudnn"
	yes "$filler" | head -c $half
	printf '%s\n' "$oom"
} | "$maxrss" "$tmp/rss.big" "$gd" explain --json - > "$tmp/big.json"
rc=$?
check "stress 1 GB log: exit 2 with a valid answer" [ $rc -eq 2 ]
check "stress 1 GB log: 10000003 lines read" [ "$(jq .input.lines "$tmp/big.json")" = 10000003 ]
check "stress 1 GB log: the error on line 1" [ "$(line_of "$tmp/big.json" driver.no_visible_device)" = 1 ]
check "stress 1 GB log: the error on line 5000002" [ "$(line_of "$tmp/big.json" lib.cudnn_missing)" = 5000002 ]
check "stress 1 GB log: the error on line 10000003" [ "$(line_of "$tmp/big.json" mem.oom)" = 10000003 ]
small=$(cat "$tmp/rss.small")
big=$(cat "$tmp/rss.big")
check "stress 1 GB log: memory flat (${big} KiB peak vs ${small} KiB for one line)" \
	[ $((big - small)) -lt 4096 ]

{
	head -c 5000000 /dev/zero | tr '\0' x
	printf '%s' "$cudnn"
	head -c 5000000 /dev/zero | tr '\0' x
	printf '\nlast line\n'
} > "$tmp/longline"
"$gd" explain --json "$tmp/longline" > "$tmp/long.json"
check "stress 10 MB line: the message inside it found on line 1" \
	[ "$(line_of "$tmp/long.json" lib.cudnn_missing)" = 1 ]
check "stress 10 MB line: 2 lines" [ "$(jq .input.lines "$tmp/long.json")" = 2 ]

head -c 4000000 /dev/urandom > "$tmp/junk"
"$gd" explain --json "$tmp/junk" > "$tmp/junk.json"
rc=$?
check "stress binary junk: answered (exit $rc), valid JSON" \
	sh -c "[ $rc -lt 3 ] && jq -e .causes '$tmp/junk.json' > /dev/null"
"$gd" explain "$tmp/junk" > "$tmp/junk.txt"
check "stress binary junk: text answer is valid UTF-8" iconv -f UTF-8 -t UTF-8 "$tmp/junk.txt" -o /dev/null

printf '\033[1;31m%s\033[0m\r\n12%%|###  |\r55%%|##### |\r100%%|######|\r\n%s' "$oom" "$cudnn" > "$tmp/tty"
"$gd" explain --json "$tmp/tty" > "$tmp/tty.json"
both="$(line_of "$tmp/tty.json" mem.oom) $(line_of "$tmp/tty.json" lib.cudnn_missing)"
check "stress colour codes and CR: both found ($(ids "$tmp/tty.json"))" [ "$both" = "1 3" ]
check "stress colour codes removed from quoted lines" \
	sh -c "! grep -q '\\\\u001b' '$tmp/tty.json'"
