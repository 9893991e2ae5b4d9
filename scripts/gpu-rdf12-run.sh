#!/usr/bin/env bash
# RDF 1.2 on the GPU machine (issue 40), in two calls while the machine stays
# warm (the carry cannot hold both builds and the test binary at once):
#   tests: every GPU test (triple-term and reified-triple patterns against the
#          CPU executor among them); WatDiv SF100 generated into /tmp. Carry
#          .carry/gsparql-serve.txz (scripts/package-portable.sh) and
#          .carry/watdiv-tool (../shared/tools/watdiv).
#   loads: benchmarks/load_readers.sh on that SF100, the hand-written RDF 1.2
#          reader (the gsparql the first call unpacked) against the Serd build
#          before it, on all cores. Carry .carry/serd (its gsparql binary and
#          libserd, next to which the first call's lib/ is linked).
# Output under $OUT.
#   scripts/gpu-rdf12-run.sh tests|loads [SCALE] [ROUNDS]
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
phase=$1 scale=${2:-100} rounds=${3:-3}
if [ "$phase" = tests ]; then
  source scripts/carried-serve-env.sh
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > "$OUT/gpu.txt" 2>&1
  export GSPARQL_TEST_DATA=tests/data GSPARQL_OPERATOR_QUERIES=benchmarks/queries/operators
  { time timeout "${TEST_SECONDS:-300}" .carry/gsparql/gpu_tests; } > "$OUT/gpu-tests-all.txt" 2>&1
  tail -5 "$OUT/gpu-tests-all.txt"
  rm -rf /tmp/rdf12 && mkdir -p /tmp/rdf12 && cp -r .carry/gsparql /tmp/rdf12/new
  wd=/tmp/watdiv-tool && rm -rf "$wd" && cp -r .carry/watdiv-tool "$wd"
  t=$SECONDS; "$wd/generate.sh" data "$scale" > "/tmp/rdf12/sf$scale.nt"
  echo "generate SF$scale: $((SECONDS - t)) s" | tee "$OUT/generate.txt"
else
  [ -x /tmp/rdf12/new/gsparql ] || { echo "no /tmp/rdf12/new: run the tests phase first, on a warm machine"; exit 2; }
  mkdir -p /tmp/rdf12/serd/lib && cp /tmp/rdf12/new/lib/* /tmp/rdf12/serd/lib/ && cp .carry/serd/libserd-0.so.0 /tmp/rdf12/serd/lib/
  xz -dc .carry/serd/gsparql.xz > /tmp/rdf12/serd/gsparql && chmod +x /tmp/rdf12/serd/gsparql
  nproc > "$OUT/cores.txt"
  benchmarks/load_readers.sh /tmp/rdf12/serd/gsparql /tmp/rdf12/new/gsparql "/tmp/rdf12/sf$scale.nt" "$rounds" \
    > "$OUT/load-readers-sf$scale.txt" 2>&1
  tail -6 "$OUT/load-readers-sf$scale.txt"
fi
