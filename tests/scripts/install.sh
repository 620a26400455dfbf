#!/bin/sh
# tests/scripts/install.sh BUILD_DIR - installing like a tool: `make install`
# into a DESTDIR (binary, a man page per command rendered by groff, bash and
# zsh completion tried as the shells call them, the docs), `make uninstall`
# leaving nothing, and `make deb`: the package's control data, installed
# with dpkg into a root of its own, run from there and removed. Prints
# "ok NAME" / "not ok NAME" lines. The plain build only (the sanitizer
# build installs the same files).
set -u
build=${1:?usage: install.sh BUILD_DIR}
case "$build" in /*) ;; *) build=$(pwd)/$build ;; esac
top=$(cd "$(dirname "$0")/../.." && pwd)
case "$build" in *asan*) exit 0 ;; esac
rel=${build#"$top"/}
work=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-install.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

pass() { echo "ok $1"; }
fail() { echo "not ok $1"; shift; [ $# -gt 0 ] && printf '#   %s\n' "$@"; return 0; }
mk() { make -s --no-print-directory -C "$top" BUILD="$rel" "$@"; }

commands=$("$build/gpudoctor" help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on && /^  [a-z]/ { print $1 }')

# ---- make install -----------------------------------------------------------------
dest=$work/dest
if mk install DESTDIR="$dest" PREFIX=/usr > "$work/install.out" 2>&1; then
	pass "make install DESTDIR PREFIX=/usr"
else
	fail "make install" "$(tail -5 "$work/install.out")"
	exit 0
fi
v=$("$dest/usr/bin/gpudoctor" --version 2>&1)
[ "$v" = "$("$build/gpudoctor" --version)" ] && [ -f "$dest/usr/share/doc/gpudoctor/README.md" ] &&
	[ -f "$dest/usr/share/doc/gpudoctor/exit-status.md" ] &&
	pass "install: the binary runs from the DESTDIR ($v), the docs are there" || fail "install: binary" "$v"

# ---- man pages: one per command, from its help ------------------------------------------
why=""
for c in "" $commands; do
	page=gpudoctor${c:+-$c}
	f=$dest/usr/share/man/man1/$page.1
	[ -f "$f" ] || { why="$why; no $page.1"; continue; }
	groff -man -Tutf8 -P -c -P -b -P -u "$f" > "$work/man.txt" 2> "$work/man.err" || why="$why; groff failed on $page.1"
	grep -q "^NAME" "$work/man.txt" && grep -A1 "^NAME" "$work/man.txt" | grep -q -E "$page +-" ||
		why="$why; $page.1 has no NAME '$page -'"
	grep -q "SEE ALSO" "$work/man.txt" || why="$why; $page.1 has no SEE ALSO"
	# every long option of the help is in the page
	for o in $("$build/gpudoctor" ${c:-} --help | grep -o -E '^  (-[A-Za-z0-9], )?--[a-z0-9-]+' | grep -o -E -- '--[a-z0-9-]+'); do
		grep -q -- "$o" "$work/man.txt" || why="$why; $page.1 lacks $o"
	done
done
[ -z "$why" ] && pass "install: a man page per command ($(echo $commands | wc -w) and gpudoctor.1), every option of its help in it" ||
	fail "install: man pages" "$why"

# ---- bash completion -----------------------------------------------------------------------
bashcomp=$dest/usr/share/bash-completion/completions/gpudoctor
comp() { # WORDS...: what bash offers for the last word
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _gpudoctor; printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' \
		sh "$bashcomp" "$@" 2>&1
}
why=""
got=$(comp gpudoctor rep); [ "$got" = "report " ] || why="$why; 'rep' gave '$got'"
got=$(comp gpudoctor report --fo); [ "$got" = "--format " ] || why="$why; 'report --fo' gave '$got'"
got=$(comp gpudoctor report --format ""); [ "$got" = "html markdown " ] || why="$why; 'report --format' gave '$got'"
got=$(comp gpudoctor plan --format d); [ "$got" = "docker " ] || why="$why; 'plan --format d' gave '$got'"
got=$(comp gpudoctor plan t); [ "$got" = "tensorflow torch " ] || why="$why; 'plan t' gave '$got'"
got=$(comp gpudoctor doctor --color a); [ "$got" = "always auto " ] || why="$why; 'doctor --color a' gave '$got'"
got=$(comp gpudoctor --ver); [ "$got" = "--version " ] || why="$why; '--ver' gave '$got'"
mkdir -p "$work/files" && : > "$work/files/facts.json"
got=$(cd "$work/files" && comp gpudoctor doctor --from fa); [ "$got" = "facts.json " ] || why="$why; 'doctor --from fa' gave '$got'"
[ -z "$why" ] && pass "install: bash completion (commands, options, their values, file names)" || fail "install: bash completion" "$why"

# ---- zsh completion: its _arguments specs, as zsh's completion system is given them ----
zshcomp=$dest/usr/share/zsh/vendor-completions/_gpudoctor
if ! command -v zsh > /dev/null 2>&1; then
	fail "install: zsh completion (zsh is not installed; make check installs it)"
elif ! zsh -n "$zshcomp" 2> "$work/zsh.err"; then
	fail "install: zsh completion does not parse" "$(cat "$work/zsh.err")"
else
	# stand-ins for _describe and _arguments print what they are handed
	zsh -f -c '_describe() { print -r -l -- "${(@P)${@[-1]}}" }; _arguments() { print -r -l -- "$@" }
		words=(gpudoctor report ""); CURRENT=3; source "$1"' sh "$zshcomp" > "$work/zsh-report.txt" 2>&1
	zsh -f -c '_describe() { print -r -l -- "${(@P)${@[-1]}}" }; _arguments() { print -r -l -- "$@" }
		words=(gpudoctor ""); CURRENT=2; source "$1"' sh "$zshcomp" > "$work/zsh-cmds.txt" 2>&1
	if grep -q -F -- '--format[markdown (default\: for a GitHub or GitLab issue' "$work/zsh-report.txt" &&
		grep -q -F -- ':FORMAT:(markdown html)' "$work/zsh-report.txt" && grep -q -F -- '--root[' "$work/zsh-report.txt" &&
		grep -q -F -- ':DIR:_files -/' "$work/zsh-report.txt" && grep -q '^report:a report to paste' "$work/zsh-cmds.txt" &&
		[ "$(grep -c '^[a-z]*:' "$work/zsh-cmds.txt")" -eq "$(echo $commands | wc -w)" ]; then
		pass "install: zsh completion (every command described, report's options with their values)"
	else
		fail "install: zsh completion" "$(head -5 "$work/zsh-report.txt")" "$(head -3 "$work/zsh-cmds.txt")"
	fi
fi

# ---- make uninstall ---------------------------------------------------------------------------
mk uninstall DESTDIR="$dest" PREFIX=/usr > "$work/uninstall.out" 2>&1
left=$(find "$dest" -type f | head -5)
[ -z "$left" ] && pass "make uninstall: no file left" || fail "make uninstall" "$left"

# ---- make deb, installed with dpkg into a root of its own ----------------------------------------
if ! deb=$(mk deb 2> "$work/deb.err" | tail -n 1) || [ ! -f "$top/$deb" ] && [ ! -f "$deb" ]; then
	fail "make deb" "$(tail -5 "$work/deb.err")"
	exit 0
fi
[ -f "$deb" ] || deb=$top/$deb
dpkg-deb --field "$deb" Package Version Architecture Depends > "$work/fields"
arch=$(dpkg --print-architecture)
if grep -q '^Package: gpudoctor$' "$work/fields" && grep -q "^Version: $(cat "$top/VERSION")$" "$work/fields" &&
	grep -q "^Architecture: $arch$" "$work/fields" && grep -q -E '^Depends: libc6 \(>= 2\.[0-9]+\)$' "$work/fields" &&
	dpkg-deb --contents "$deb" > "$work/contents" && grep -q ' ./usr/share/man/man1/gpudoctor-report.1.gz$' "$work/contents"; then
	pass "make deb: $(basename "$deb") ($(grep Depends "$work/fields"))"
else
	fail "make deb: control data" "$(cat "$work/fields")"
fi
droot=$work/dpkgroot
mkdir -p "$droot/var/lib/dpkg/info" "$droot/var/lib/dpkg/updates"
: > "$droot/var/lib/dpkg/status"
: > "$droot/var/lib/dpkg/available"
dp() { dpkg --root="$droot" --log=/dev/null --force-not-root --force-depends --force-script-chrootless "$@"; }
if dp -i "$deb" > "$work/dpkg.out" 2>&1 && dp -s gpudoctor 2>/dev/null | grep -q '^Status: install ok installed' &&
	[ "$("$droot/usr/bin/gpudoctor" --version)" = "$("$build/gpudoctor" --version)" ] &&
	"$droot/usr/bin/gpudoctor" report --from "$top/tests/report/machines/h200.json" > "$work/deb-report.md"; then
	pass "dpkg -i: installed in a root of its own, runs (version, a report)"
else
	fail "dpkg -i" "$(tail -5 "$work/dpkg.out")"
fi
dp -r gpudoctor > "$work/dpkg-r.out" 2>&1
[ ! -e "$droot/usr/bin/gpudoctor" ] && ! dp -s gpudoctor 2>/dev/null | grep -q 'ok installed' &&
	pass "dpkg -r: removed" || fail "dpkg -r" "$(tail -3 "$work/dpkg-r.out")"
exit 0
