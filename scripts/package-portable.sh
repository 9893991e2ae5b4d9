#!/usr/bin/env bash
# Builds the portable preset and packs what the GPU machine needs into one
# git-ignored folder (default .carry/gsparql): the stripped gsparql and
# gpu_tests binaries and, in lib/, the shared libraries Debian ships without an
# archive (serd, oneTBB). Everything else is linked statically; the binaries
# find lib/ through their rpath.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.carry/gsparql}
cmake --preset portable
cmake --build --preset portable -j "$(nproc)" --target gsparql_cli gpu_tests lubm-generate estimate-quality
rm -rf "$out"
mkdir -p "$out/lib"
cp build/portable/cli/gsparql build/portable/tests/gpu/gpu_tests build/portable/benchmarks/lubm/lubm-generate \
  build/portable/benchmarks/estimates/estimate-quality "$out/"
strip "$out/gsparql" "$out/gpu_tests" "$out/lubm-generate" "$out/estimate-quality"
for lib in libserd-0.so.0 libtbb.so.12; do
  cp -L "/usr/lib/$(gcc -print-multiarch)/$lib" "$out/lib/"
done
echo "packed $out:"
ls -la "$out" "$out/lib"
echo "needs:"
ldd "$out/gsparql" | sed 's/^/  /'
