#!/usr/bin/env bash
# Builds the portable preset and packs what the GPU machine needs into one
# git-ignored folder (default .carry/gsparql): the stripped gsparql and
# gpu_tests binaries, the optimizer's benchmarks (estimate-quality,
# plan-quality, walk-throughput) and, in lib/, the shared libraries Debian ships without an
# archive (oneTBB, found by ldd below) and the libraries opened on first use (Raptor for RDF/XML,
# PROJ, GEOS, libcurl, libcrypto) with every library they load but glibc's (libxml2, libxslt, libyajl and theirs: Debian's
# libraptor2.a would need libxslt's and libyajl's archives, which Debian does
# not ship). Everything else is linked statically; the binaries find lib/
# through their rpath, a DT_RPATH (cmake/Dependencies.cmake), which also
# serves the libraries' own dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.carry/gsparql}
cmake --preset portable
cmake --build --preset portable -j "$(nproc)" --target gsparql_cli gpu_tests lubm-generate \
  estimate-quality plan-quality walk-throughput
rm -rf "$out"
mkdir -p "$out/lib"
cp build/portable/cli/gsparql build/portable/tests/gpu/gpu_tests build/portable/benchmarks/lubm/lubm-generate \
  build/portable/benchmarks/optimizer/{estimate-quality,plan-quality,walk-throughput} "$out/"
find "$out" -maxdepth 1 -type f -exec strip {} +
cp -L "/usr/lib/$(gcc -print-multiarch)/libtbb.so.12" "$out/lib/"
# What a binary or library loads, but glibc's, into lib/.
copy_needs() {
  ldd "$1" | awk '/=>/ {print $3}' |
    { grep -v -E '/(libc|libm|libpthread|libdl|librt|libresolv|libgcc_s)\.so' || true; } |  # none: libcrypto
    xargs -I{} cp -L -n {} "$out/lib/"
}
copy_needs "$out/gsparql"
# PROJ, Raptor, libcurl and libcrypto are opened on first use
# (platform/shared_library.h), not linked: ldd of the binary does not list them.
while read -r library; do
  cp -L -n "$library" "$out/lib/"
  copy_needs "$library"
done < build/portable/libraries-on-first-use.txt
# Over the carry's 64 MiB as they are: also packed into one xz archive
# beside the folder, to carry instead and unpack there.
tar cJf "$out.txz" -C "$(dirname "$out")" "$(basename "$out")"
echo "packed $out and $out.txz:"
ls -la "$out" "$out/lib" "$out.txz"
echo "needs:"
ldd "$out/gsparql" | sed 's/^/  /'
