#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, -DGSPARQL_FUZZ=ON) and packs them for
# a machine without the project's libraries (the GPU machine, which has 16
# cores for scripts/fuzz-parallel.sh) into one git-ignored folder, default
# .carry/fuzz: the binaries without debug sections and, in lib/, every shared
# library they need but glibc's.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.carry/fuzz}
build=build/fuzz
[ -f "$build/CMakeCache.txt" ] || CXX=clang++ CC=clang cmake -S . -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGSPARQL_FUZZ=ON -DGSPARQL_CUDA=OFF
cmake --build "$build" -j "$(nproc)" --target load_fuzzer rdfxml_fuzzer jsonld_fuzzer query_fuzzer text_query_fuzzer parse_fuzzer cost_model_fuzzer delta_fuzzer http_request_fuzzer
rm -rf "$out"
mkdir -p "$out/lib"
cp "$build/loaders/load_fuzzer" "$build/loaders/rdfxml_fuzzer" "$build/loaders/jsonld_fuzzer" "$build/engine/query_fuzzer" "$build/engine/text_query_fuzzer" "$build/parser/parse_fuzzer" "$build/api/cost_model_fuzzer" "$build/storage/delta_fuzzer" "$build/server/http_request_fuzzer" "$out/"
strip --strip-debug "$out"/*_fuzzer
for f in "$out"/*_fuzzer; do ldd "$f" | awk '/=>/ {print $3}'; done | sort -u |
  grep -v -E '/(libc|libm|libpthread|libdl|librt)\.so' | xargs -I{} cp -L {} "$out/lib/"
du -sh "$out"/*
