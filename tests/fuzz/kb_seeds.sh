#!/bin/sh
# tests/fuzz/kb_seeds.sh DATA_DIR OUT_DIR - seeds for fuzz_kb: every table
# of the knowledge base cut to its header and a spread of rows, one seed
# per table ("<file>\n<rows>") and one with every table (joined by "\n---\n",
# FUZZ_SEP in tests/fuzz/fuzz.h), so the fuzzer starts from tables that
# load and queries that find rows.
set -e
data=$1
out=$2
mkdir -p "$out"
cut_table() { # FILE ROWS: header and ROWS rows spread over the table
	awk -v want="$2" '
		/^#/ { next }
		!hdr { print; hdr = 1; next }
		{ row[n++] = $0 }
		END { step = n > want ? n / want : 1
		      for (i = 0; i < n; i += step) print row[int(i)] }' "$1"
}
all="$out/all"
: > "$all"
first=1
for f in "$data"/*.tsv; do
	name=$(basename "$f")
	{ echo "$name"; cut_table "$f" 16; } > "$out/$name"
	[ $first = 1 ] || printf '\n---\n' >> "$all"
	first=0
	{ echo "$name"; cut_table "$f" 6; } >> "$all"
done
