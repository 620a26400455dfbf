#!/bin/sh
# tools/gen-completion.sh GPUDOCTOR OUTDIR - shell completion for bash
# (OUTDIR/gpudoctor.bash) and zsh (OUTDIR/_gpudoctor), generated from the
# help text, so the commands and options offered are always the ones the
# program takes. From the help it takes each command (`gpudoctor help`) and
# each option of each command (`gpudoctor CMD --help`: lines "  -x, --name
# ARG  what it does"); an option's ARG says what to offer after it (FILE,
# DIR, PATH: names from the file system; WHEN, FORMAT: the words below).
set -eu
bin=${1:?usage: gen-completion.sh GPUDOCTOR OUTDIR}
out=${2:?usage: gen-completion.sh GPUDOCTOR OUTDIR}
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-completion.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# "name<TAB>summary" per command
"$bin" help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit }
	on && /^  [a-z]/ { name = $1; sub(/^  [a-z]+ +/, ""); print name "\t" $0 }' > "$tmp/commands"
[ -s "$tmp/commands" ] || { echo "gen-completion: no commands in '$bin help'" >&2; exit 1; }

# "long US short US ARG US description" per option of each command (US, the
# unit separator: read keeps its empty fields, which it would not of tabs)
us=$(printf '\037')
while IFS='	' read -r cmd summary; do
	"$bin" "$cmd" --help 2>/dev/null | awk '
		function flush() { if (have) print long "\037" short "\037" arg "\037" desc; have = 0 }
		/^  -/ {
			flush()
			line = $0; sub(/^  /, "", line)
			short = ""; long = ""; arg = ""
			if (line ~ /^-[A-Za-z0-9], /) { short = substr(line, 1, 2); line = substr(line, 5) }
			if (line !~ /^--[a-z]/) {
				if (short == "" && line ~ /^-[A-Za-z0-9]( |$)/) { short = substr(line, 1, 2); line = substr(line, 3) }
				else if (short == "") next
			} else {
				n = match(line, /^--[a-z0-9-]+/); long = substr(line, 1, RLENGTH); line = substr(line, RLENGTH + 1)
			}
			if (line ~ /^ [A-Z][A-Z|_.]*( |$)/) { sub(/^ /, "", line); n = match(line, /^[A-Z][A-Z|_.]*/); arg = substr(line, 1, RLENGTH); line = substr(line, RLENGTH + 1) }
			sub(/^ +/, "", line)
			desc = line; have = 1
			next
		}
		/^          +[^ ]/ && have { line = $0; sub(/^ +/, "", line); desc = desc " " line; next }
		{ flush() }
		END { flush() }' > "$tmp/opts-$cmd"
done < "$tmp/commands"

# the words after an option taking ARG in command CMD
values() { # CMD LONG ARG
	case "$1 $2 $3" in
	"report --format "*) echo "markdown html" ;;
	"plan --format "*) echo "pip conda docker requirements" ;;
	*" --os "*) echo "linux wsl2 windows macos" ;;
	*" WHEN") echo "auto always never" ;;
	esac
}
kind() { # ARG: file, dir or words
	case "$1" in
	FILE|PATH|FILE...|LOG|CMD) echo file ;;
	DIR|DIR...) echo dir ;;
	*) echo words ;;
	esac
}
# the words a command takes where no option is
positional() {
	case "$1" in
	plan|compat) echo "tensorflow torch jax" ;;
	help) cut -f1 "$tmp/commands" | tr '\n' ' ' ;;
	esac
}

# ---- bash ------------------------------------------------------------------
{
	echo "# bash completion for gpudoctor, generated from its help text by"
	echo "# tools/gen-completion.sh: do not edit."
	echo "_gpudoctor() {"
	echo '	local cur prev cmd="" i'
	echo '	cur=${COMP_WORDS[COMP_CWORD]}'
	echo '	prev=${COMP_WORDS[COMP_CWORD-1]}'
	echo '	for ((i = 1; i < COMP_CWORD; i++)); do'
	echo '		case ${COMP_WORDS[i]} in -*) ;; *) cmd=${COMP_WORDS[i]}; break ;; esac'
	echo '	done'
	printf '\tif [[ -z $cmd ]]; then\n\t\tCOMPREPLY=($(compgen -W "%s -h --help -V --version" -- "$cur"))\n\t\treturn\n\tfi\n' \
		"$(cut -f1 "$tmp/commands" | tr '\n' ' ' | sed 's/ $//')"
	echo '	case "$cmd $prev" in'
	while IFS='	' read -r cmd summary; do
		while IFS=$us read -r long short arg desc; do
			[ -n "$arg" ] || continue
			for o in $long $short; do
				k=$(kind "$arg")
				v=$(values "$cmd" "$long" "$arg")
				if [ -n "$v" ]; then
					printf '\t"%s %s") COMPREPLY=($(compgen -W "%s" -- "$cur")); return ;;\n' "$cmd" "$o" "$v"
				elif [ "$k" = file ]; then
					printf '\t"%s %s") COMPREPLY=($(compgen -f -- "$cur")); return ;;\n' "$cmd" "$o"
				elif [ "$k" = dir ]; then
					printf '\t"%s %s") COMPREPLY=($(compgen -d -- "$cur")); return ;;\n' "$cmd" "$o"
				else
					printf '\t"%s %s") return ;;\n' "$cmd" "$o"
				fi
			done
		done < "$tmp/opts-$cmd"
	done < "$tmp/commands"
	echo '	esac'
	echo '	local opts="" words=""'
	echo '	case $cmd in'
	while IFS='	' read -r cmd summary; do
		opts=$(awk -F'\037' '{ if ($1 != "") printf "%s ", $1; if ($2 != "") printf "%s ", $2 }' "$tmp/opts-$cmd" | sed 's/ $//')
		printf '\t%s) opts="%s"; words="%s" ;;\n' "$cmd" "$opts" "$(positional "$cmd")"
	done < "$tmp/commands"
	echo '	esac'
	echo '	if [[ $cur == -* ]]; then'
	echo '		COMPREPLY=($(compgen -W "$opts" -- "$cur"))'
	echo '	elif [[ -n $words ]]; then'
	echo '		COMPREPLY=($(compgen -W "$words" -- "$cur"))'
	echo '	else'
	echo '		COMPREPLY=($(compgen -f -- "$cur"))'
	echo '	fi'
	echo "}"
	echo "complete -o filenames -F _gpudoctor gpudoctor"
} > "$out/gpudoctor.bash"

# ---- zsh -------------------------------------------------------------------
# zsh's _arguments: [ ] : and \ in a description are escaped, ' closes the quote
zq() { printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/\[/\\[/g' -e 's/\]/\\]/g' -e 's/:/\\:/g' -e "s/'/'\\\\''/g"; }
{
	echo "#compdef gpudoctor"
	echo "# zsh completion for gpudoctor, generated from its help text by"
	echo "# tools/gen-completion.sh: do not edit."
	echo "_gpudoctor() {"
	echo "	local -a commands"
	echo "	commands=("
	while IFS='	' read -r cmd summary; do
		printf "\t\t'%s:%s'\n" "$cmd" "$(zq "$summary")"
	done < "$tmp/commands"
	echo "	)"
	echo "	if (( CURRENT == 2 )); then"
	echo "		_describe -t commands 'gpudoctor command' commands"
	echo "		return"
	echo "	fi"
	echo "	local cmd=\$words[2]"
	echo "	shift words"
	echo "	(( CURRENT-- ))"
	echo "	case \$cmd in"
	while IFS='	' read -r cmd summary; do
		printf '\t%s)\n\t\t_arguments -s' "$cmd"
		while IFS=$us read -r long short arg desc; do
			d=$(zq "$desc")
			action=""
			if [ -n "$arg" ]; then
				v=$(values "$cmd" "$long" "$arg")
				case "$(kind "$arg")" in
				file) action=":$(zq "$arg"):_files" ;;
				dir) action=":$(zq "$arg"):_files -/" ;;
				*) if [ -n "$v" ]; then action=":$(zq "$arg"):($v)"; else action=":$(zq "$arg"): "; fi ;;
				esac
			fi
			for o in $long $short; do
				printf " \\\\\n\t\t\t'%s[%s]%s'" "$o" "$d" "$action"
			done
		done < "$tmp/opts-$cmd"
		p=$(positional "$cmd")
		if [ -n "$p" ]; then
			printf " \\\\\n\t\t\t'*:word:(%s)'" "$p"
		else
			printf " \\\\\n\t\t\t'*:file:_files'"
		fi
		printf '\n\t\t;;\n'
	done < "$tmp/commands"
	echo "	esac"
	echo "}"
	echo '_gpudoctor "$@"'
} > "$out/_gpudoctor"
