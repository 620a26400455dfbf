#!/bin/sh
# tools/make-deb.sh BUILD_DIR - the Debian package of an installed tree:
# BUILD_DIR/deb/root holds `make install DESTDIR=... PREFIX=/usr`; this adds
# DEBIAN/control (the version from VERSION, the architecture from dpkg,
# the newest glibc symbol version the binary needs as its one dependency),
# compresses the man pages as Debian does, and writes
# BUILD_DIR/gpudoctor_VERSION_ARCH.deb with dpkg-deb. `make deb` runs it.
set -eu
build=${1:?usage: make-deb.sh BUILD_DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
root=$build/deb/root
[ -x "$root/usr/bin/gpudoctor" ] || { echo "make-deb: no $root/usr/bin/gpudoctor (make install first)" >&2; exit 1; }
version=$(cat "$top/VERSION")
arch=$(dpkg --print-architecture)
# the one library the binary links: glibc, at the newest symbol version it uses
glibc=$(objdump -T "$root/usr/bin/gpudoctor" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -t. -k1,1n -k2,2n -k3,3n | tail -n 1)
[ -n "$glibc" ] || { echo "make-deb: cannot read the glibc versions the binary needs" >&2; exit 1; }

gzip -9nf "$root"/usr/share/man/man1/*.1
size=$(du -sk "$root/usr" | cut -f1)
mkdir -p "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<EOF
Package: gpudoctor
Version: $version
Architecture: $arch
Maintainer: ${MAINTAINER:-gpudoctor developers <root@localhost>}
Installed-Size: $size
Depends: libc6 (>= $glibc)
Suggests: libgnutls30, libcurl4, libcrypt1
Section: utils
Priority: optional
Description: why a deep-learning framework does or does not use the NVIDIA GPU
 gpudoctor walks every layer from the PCI device to the CUDA libraries and
 the Python frameworks (TensorFlow, PyTorch, JAX), says what stops the GPU
 from being used and the exact commands that fix it. It explains error
 logs, plans installs that will work, benchmarks the GPU, monitors it live,
 exports metrics for Prometheus and writes reports to paste into a bug
 tracker. GnuTLS (serve over TLS), libcurl (fleet --prom) and libcrypt
 (serve's basic auth) are loaded only when those features are used.
EOF
chmod 0644 "$root/DEBIAN/control"
out=$build/gpudoctor_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$out" > /dev/null
echo "$out"
