# tests/lib.sh - shell helpers shared by tests/run.sh and tests/scripts/*.sh
# (sourced, POSIX sh). Variables it sets start with _pf_.

# fixture_prepare BUILD_DIR FIXTURE_DIR ROOT: build a fixture's root in ROOT
# (removed first): copy FIXTURE_DIR/root, give device nodes the modes of real
# ones, write etc/ld.so.cache from `ldcache`, copy the mock libraries named
# in `mocks` and write the ELF stand-ins of `elves` (tests/README.md).
# BUILD_DIR is absolute (its tests/tools and stubs are used). Returns 1 when
# a file cannot be made.
fixture_prepare() {
	_pf_b=$1 _pf_dir=$2 _pf_root=$3
	rm -rf "$_pf_root"
	cp -a "$_pf_dir/root" "$_pf_root" 2>/dev/null || mkdir -p "$_pf_root"
	# git keeps no modes: device nodes get the crw-rw-rw- of real ones
	for _pf_n in "$_pf_root"/dev/nvidiactl "$_pf_root"/dev/nvidia[0-9]* "$_pf_root"/dev/nvidia-uvm* "$_pf_root"/dev/dxg; do
		[ -f "$_pf_n" ] && chmod 666 "$_pf_n"
	done
	if [ -f "$_pf_dir/ldcache" ]; then
		mkdir -p "$_pf_root/etc"
		"$_pf_b/tests/tools/mk-ldcache" "$_pf_dir/ldcache" "$_pf_root/etc/ld.so.cache" || return 1
	fi
	if [ -f "$_pf_dir/mocks" ]; then
		while read -r _pf_path _pf_stub; do
			case "$_pf_path" in ''|\#*) continue ;; esac
			mkdir -p "$_pf_root/$(dirname "$_pf_path")"
			cp "$_pf_b/stubs/$_pf_stub.so" "$_pf_root/$_pf_path" || return 1
		done < "$_pf_dir/mocks"
	fi
	if [ -f "$_pf_dir/elves" ]; then
		# PATH-IN-ROOT [mk-elf options]; words split on blanks with no
		# globbing or expansion, so $ORIGIN reaches the file literally
		while read -r _pf_line; do
			case "$_pf_line" in ''|\#*) continue ;; esac
			set -f
			# shellcheck disable=SC2086
			set -- $_pf_line
			set +f
			_pf_path=$1
			shift
			mkdir -p "$_pf_root/$(dirname "$_pf_path")"
			rm -f "$_pf_root/$_pf_path"
			"$_pf_b/tests/tools/mk-elf" "$_pf_root/$_pf_path" "$@" || return 1
		done < "$_pf_dir/elves"
	fi
	return 0
}

# jq_failing FILE EXPR...: the expressions that are not true on the JSON
# document in FILE, one a line, into _pf_bad (empty: every one is true);
# returns 1 when FILE holds no JSON.
jq_failing() {
	_pf_file=$1
	shift
	jq -e . "$_pf_file" > /dev/null 2>&1 || return 1
	_pf_bad=""
	for _pf_e in "$@"; do
		jq -e "$_pf_e" "$_pf_file" > /dev/null 2>&1 || _pf_bad="$_pf_bad
$_pf_e"
	done
	return 0
}
