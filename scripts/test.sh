#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds gsparql and runs every test:
# first the Release build, then the same suite built with ASan and UBSan (the
# asan preset: -O1, no CUDA code, since sanitizers do not reach the GPU
# kernels; scripts/gpu-sanitizer-run.sh checks those on the GPU machine).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
for preset in default asan; do
  cmake --preset "$preset"
  cmake --build --preset "$preset" -j "$(nproc)"
  ctest --preset "$preset" -j "$(nproc)"
done
