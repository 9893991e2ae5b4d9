#!/usr/bin/env bash
# RDF 1.2 on the GPU machine (issue 40), in one call: every GPU test (the
# triple-term and reified-triple patterns against the CPU executor among
# them), then benchmarks/load_readers.sh on WatDiv SF100 generated here: the
# hand-written RDF 1.2 reader against the Serd build before it, on all cores.
# Carry .carry/gsparql-serve.txz (this build, scripts/package-portable.sh),
# .carry/serd-serve.txz (the same package of the build before, with Serd) and
# .carry/watdiv-tool (../shared/tools/watdiv). Output under $OUT.
#   scripts/gpu-rdf12-run.sh [SCALE] [ROUNDS]
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
source scripts/carried-serve-env.sh
scale=${1:-100} rounds=${2:-3}
serd=/tmp/serd && rm -rf "$serd" && mkdir -p "$serd" && tar xJf .carry/serd-serve.txz -C "$serd"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > "$OUT/gpu.txt" 2>&1
export GSPARQL_TEST_DATA=tests/data GSPARQL_OPERATOR_QUERIES=benchmarks/queries/operators
{ time timeout "${TEST_SECONDS:-300}" .carry/gsparql/gpu_tests; } > "$OUT/gpu-tests-all.txt" 2>&1
tail -5 "$OUT/gpu-tests-all.txt"

wd=/tmp/watdiv-tool && rm -rf "$wd" && cp -r .carry/watdiv-tool "$wd"
t=$SECONDS; "$wd/generate.sh" data "$scale" > "/tmp/sf$scale.nt"
echo "generate SF$scale: $((SECONDS - t)) s" | tee "$OUT/generate.txt"
benchmarks/load_readers.sh "$serd/gsparql/gsparql" .carry/gsparql/gsparql "/tmp/sf$scale.nt" "$rounds" \
  > "$OUT/load-readers-sf$scale.txt" 2>&1
tail -6 "$OUT/load-readers-sf$scale.txt"
