# gen-kb.awk - turn the knowledge-base tables data/kb/*.tsv into
# src/kb/kb_data.c (the typed, sorted C arrays that src/kb/kb.c searches).
#
#   awk -f tools/gen-kb.awk data/kb/cuda_driver.tsv data/kb/gpu_devices.tsv \
#       data/kb/arch_support.tsv > src/kb/kb_data.c
#
# Each table is tab-separated: '#' lines and blank lines are comments, the
# first other line is the header and must name exactly the columns below,
# in order. Every row must have that many fields, a unique key and a
# non-empty source. Rows are sorted by key (CUDA releases and compute
# capabilities as dotted versions, GPUs by device id) so the C side can
# binary-search. On any error it names file:line on stderr and exits 1
# without printing the C file. Plain POSIX awk: no gawk extensions.

BEGIN {
	FS = "\t"
	failed = 0

	# table name -> expected header, key column, and the emitted columns
	# with their C kinds: s string, u unsigned, x hex unsigned.
	hdr["cuda_driver"] = "cuda\trelease\tlinux_min\tlinux_minor_compat\twindows_min\tsource"
	key["cuda_driver"] = 1
	keykind["cuda_driver"] = "version"
	emit["cuda_driver"] = "cuda:s linux_min:s linux_minor_compat:s windows_min:s source:s"
	ctype["cuda_driver"] = "kb_cuda_driver"
	arrname["cuda_driver"] = "kb_cuda_driver_rows"
	cntname["cuda_driver"] = "kb_cuda_driver_count"

	hdr["gpu_devices"] = "device_id\tname\tarchitecture\tcompute_capability\tmemory_mib\tsegment\tsource"
	key["gpu_devices"] = 1
	keykind["gpu_devices"] = "hex"
	emit["gpu_devices"] = "device_id:x name:s architecture:s compute_capability:s memory_mib:u segment:s source:s"
	ctype["gpu_devices"] = "kb_gpu"
	arrname["gpu_devices"] = "kb_gpu_rows"
	cntname["gpu_devices"] = "kb_gpu_count"

	hdr["arch_support"] = "compute_capability\tarchitecture\tcuda_min\tcuda_max\tdriver_last_branch\tsource"
	key["arch_support"] = 1
	keykind["arch_support"] = "version"
	emit["arch_support"] = "compute_capability:s architecture:s cuda_min:s cuda_max:s driver_last_branch:s source:s"
	ctype["arch_support"] = "kb_arch"
	arrname["arch_support"] = "kb_arch_rows"
	cntname["arch_support"] = "kb_arch_count"

	# Output order of the tables in kb_data.c.
	ntab = split("cuda_driver gpu_devices arch_support", tabs, " ")

	# Columns that must hold a dotted version when non-empty.
	isvers["cuda"] = 1; isvers["linux_min"] = 1; isvers["linux_minor_compat"] = 1
	isvers["windows_min"] = 1; isvers["compute_capability"] = 1
	isvers["cuda_min"] = 1; isvers["cuda_max"] = 1; isvers["driver_last_branch"] = 1
	# Columns that must not be empty.
	required["cuda"] = 1; required["linux_min"] = 1; required["device_id"] = 1
	required["name"] = 1; required["architecture"] = 1
	required["compute_capability"] = 1; required["memory_mib"] = 1
	required["segment"] = 1; required["source"] = 1
	segments["datacenter"] = 1; segments["desktop"] = 1
	segments["laptop"] = 1; segments["workstation"] = 1
}

function fail(msg) {
	printf("%s:%d: %s\n", FILENAME, FNR, msg) > "/dev/stderr"
	failed = 1
}

function table_of(path,    n, parts, base) {
	n = split(path, parts, "/")
	base = parts[n]
	sub(/\.tsv$/, "", base)
	return base
}

# Dotted numeric version compare: <0, 0, >0.
function vcmp(a, b,    na, nb, pa, pb, i, n, x, y) {
	na = split(a, pa, ".")
	nb = split(b, pb, ".")
	n = na > nb ? na : nb
	for (i = 1; i <= n; i++) {
		x = (i <= na) ? pa[i] + 0 : 0
		y = (i <= nb) ? pb[i] + 0 : 0
		if (x != y)
			return x < y ? -1 : 1
	}
	return 0
}

function hexval(s,    i, c, v) {
	v = 0
	s = tolower(substr(s, 3))
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1)) - 1
		v = v * 16 + c
	}
	return v
}

function keycmp(t, a, b) {
	if (keykind[t] == "hex")
		return hexval(a) - hexval(b)
	return vcmp(a, b)
}

function cstr(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	return "\"" s "\""
}

FNR == 1 {
	cur = table_of(FILENAME)
	if (!(cur in hdr)) {
		fail("unknown table " cur)
		nextfile_skip = 1
	} else {
		nextfile_skip = 0
		seen_header = 0
		ntables++
		order[ntables] = cur
		if (cur in loaded)
			fail("table " cur " given twice")
		loaded[cur] = 1
		nrows[cur] = 0
	}
}

nextfile_skip { next }

{
	sub(/\r$/, "")
}

/^#/ || /^[ \t]*$/ { next }

!seen_header {
	if ($0 != hdr[cur]) {
		fail("header must be: " hdr[cur])
		nextfile_skip = 1
		next
	}
	seen_header = 1
	ncols[cur] = split($0, colnames, "\t")
	for (i = 1; i <= ncols[cur]; i++)
		col[cur, i] = colnames[i]
	next
}

{
	if (NF != ncols[cur]) {
		fail("expected " ncols[cur] " tab-separated fields, found " NF)
		next
	}
	ok = 1
	for (i = 1; i <= NF; i++) {
		name = col[cur, i]
		v = $i
		if (v ~ /^ | $/) {
			fail(name " has leading or trailing spaces")
			ok = 0
		}
		if (v ~ /[\001-\037]/) {
			fail(name " has a control character")
			ok = 0
		}
		if ((name in required) && v == "") {
			fail(name " is empty")
			ok = 0
			continue
		}
		if ((name in isvers) && v != "" && v !~ /^[0-9]+(\.[0-9]+)*$/) {
			fail(name " is not a dotted version: " v)
			ok = 0
		}
		if (name == "device_id" && v !~ /^0x[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]$/) {
			fail("device_id is not a 4-digit hex id like 0x2335: " v)
			ok = 0
		}
		if (name == "memory_mib" && v !~ /^[0-9]+$/) {
			fail("memory_mib is not a number: " v)
			ok = 0
		}
		if (name == "segment" && !(v in segments)) {
			fail("segment must be datacenter, desktop, laptop or workstation: " v)
			ok = 0
		}
	}
	if (!ok)
		next
	k = $(key[cur])
	if (keykind[cur] == "hex")
		k = tolower(k)
	if ((cur, k) in keyline) {
		fail("duplicate key " k " (first at line " keyline[cur, k] ")")
		next
	}
	keyline[cur, k] = FNR
	n = ++nrows[cur]
	rkey[cur, n] = k
	for (i = 1; i <= NF; i++)
		cell[cur, n, col[cur, i]] = $i
	cell[cur, n, col[cur, key[cur]]] = k
}

# Insertion sort of row indices; the tables hold hundreds of rows at most.
function sort_rows(t,    i, j, tmp) {
	for (i = 1; i <= nrows[t]; i++)
		idx[t, i] = i
	for (i = 2; i <= nrows[t]; i++) {
		tmp = idx[t, i]
		j = i - 1
		while (j >= 1 && keycmp(t, rkey[t, idx[t, j]], rkey[t, tmp]) > 0) {
			idx[t, j + 1] = idx[t, j]
			j--
		}
		idx[t, j + 1] = tmp
	}
}

function print_table(t,    i, r, nf, f, kv, j, line, v) {
	nf = split(emit[t], f, " ")
	printf("\n/* data/kb/%s.tsv */\nconst struct %s %s[] = {\n", t, ctype[t], arrname[t])
	for (i = 1; i <= nrows[t]; i++) {
		r = idx[t, i]
		line = "\t{"
		for (j = 1; j <= nf; j++) {
			split(f[j], kv, ":")
			v = cell[t, r, kv[1]]
			if (kv[2] == "s")
				v = cstr(v)
			else if (kv[2] == "u")
				v = (v + 0) "u"
			line = line (j > 1 ? ", " : "") "." kv[1] " = " v
		}
		print line "},"
	}
	printf("};\nconst size_t %s = %d;\n", cntname[t], nrows[t])
}

END {
	if (!failed) {
		for (t in hdr)
			if (!(t in loaded)) {
				printf("gen-kb.awk: table %s.tsv was not given\n", t) > "/dev/stderr"
				failed = 1
			} else if (nrows[t] == 0) {
				printf("gen-kb.awk: table %s.tsv has no rows\n", t) > "/dev/stderr"
				failed = 1
			}
	}
	if (failed)
		exit 1
	printf("/* generated by tools/gen-kb.awk from data/kb/{")
	for (i = 1; i <= ntab; i++)
		printf("%s%s", i > 1 ? "," : "", tabs[i])
	print "}.tsv, do not edit */"
	print "/*"
	print " * kb_data.c - the knowledge-base tables as sorted C arrays for kb/kb.c."
	print " * Regenerate with `make kb`; `make kb-check` fails when this file is stale."
	print " */"
	print "#include \"kb/kb.h\""
	for (i = 1; i <= ntab; i++) {
		sort_rows(tabs[i])
		print_table(tabs[i])
	}
}
