#!/bin/sh
# tools/deps.sh - install the Debian packages gpudoctor needs, when missing.
#   tools/deps.sh build   compiler, make, jansson, ncurses and libmicrohttpd
#                         (linked statically), the GnuTLS and libcurl headers
#                         (both are loaded at run time, only when used)
#   tools/deps.sh install the build's plus help2man (make install writes the
#                         man pages from the help text)
#   tools/deps.sh test    the above plus cmocka (unit tests), jq, clang
#                         with its libFuzzer runtime (the fuzz smoke run),
#                         OpenBLAS (bench's CPU test runs for real), tmux
#                         (top's screen is driven in it), curl and Prometheus
#                         with promtool (serve is scraped by a real one),
#                         cmark and Chromium (reports are rendered and
#                         opened headless), help2man (the man pages),
#                         zsh and bash-completion (completion is tried)
# Uses apt-get as root or through sudo; otherwise prints the exact command.
set -e
what=${1:-build}
pkgs="gcc make libc6-dev libjansson-dev libncurses-dev libmicrohttpd-dev libgnutls28-dev libcurl4-openssl-dev"
[ "$what" = install ] && pkgs="$pkgs help2man"
[ "$what" = test ] && pkgs="$pkgs groff-base libcmocka-dev jq clang libopenblas0 tmux curl prometheus cmark chromium help2man zsh bash-completion"

# install_missing PACKAGE...: those not installed yet
install_missing() {
	missing=""
	for p in "$@"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
			missing="$missing $p"
		fi
	done
	[ -z "$missing" ] && return 0

	if ! command -v apt-get >/dev/null 2>&1; then
		echo "gpudoctor: missing build dependencies:$missing" >&2
		echo "gpudoctor: this is not a Debian-like system; install their equivalents" >&2
		exit 1
	fi
	if [ "$(id -u)" = 0 ]; then
		sudo=""
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		sudo="sudo"
	else
		echo "gpudoctor: missing build dependencies:$missing" >&2
		echo "gpudoctor: run: sudo apt-get update && sudo apt-get install -y$missing" >&2
		exit 1
	fi
	echo "gpudoctor: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq
	$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

install_missing $pkgs

# libFuzzer ships apart from clang (libclang-rt-N-dev, only recommended),
# named after clang's major version, known once clang is there.
if [ "$what" = test ]; then
	case $(clang -print-file-name=libclang_rt.fuzzer-$(uname -m).a 2>/dev/null) in
	/*) ;;
	*)
		major=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
		[ -n "$major" ] && install_missing "libclang-rt-$major-dev"
		;;
	esac
fi
exit 0
