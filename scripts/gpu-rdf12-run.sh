#!/usr/bin/env bash
# RDF 1.2 on the GPU machine (issue 40), in two calls while the machine stays
# warm (the carry cannot hold both builds and the test binary at once):
#   tests: every GPU test (triple-term and reified-triple patterns against the
#          CPU executor among them); WatDiv SF100 generated into /tmp. Carry
#          .carry/gsparql-serve.txz (gpu_tests and lib/ of
#          scripts/package-portable.sh) and .carry/watdiv-tool (../shared/tools/watdiv).
#   loads: benchmarks/load_readers.sh on that SF100, the hand-written RDF 1.2
#          reader against the Serd build before it, on all cores. Carry
#          .carry/rdf12-loads: new.xz and serd.xz (the two gsparql binaries, xz)
#          and libserd-0.so.0; both use the lib/ the first call unpacked.
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
  rm -rf /tmp/rdf12 && mkdir -p /tmp/rdf12 && cp -r .carry/gsparql/lib /tmp/rdf12/lib
  wd=/tmp/watdiv-tool && rm -rf "$wd" && cp -r .carry/watdiv-tool "$wd"
  t=$SECONDS; "$wd/generate.sh" data "$scale" > "/tmp/rdf12/sf$scale.nt"
  echo "generate SF$scale: $((SECONDS - t)) s" | tee "$OUT/generate.txt"
else
  [ -d /tmp/rdf12/lib ] || { echo "no /tmp/rdf12/lib: run the tests phase first, on a warm machine"; exit 2; }
  cp .carry/rdf12-loads/libserd-0.so.0 /tmp/rdf12/lib/
  for build in new serd; do
    mkdir -p "/tmp/rdf12/$build" && ln -sfn /tmp/rdf12/lib "/tmp/rdf12/$build/lib"
    xz -dc ".carry/rdf12-loads/$build.xz" > "/tmp/rdf12/$build/gsparql" && chmod +x "/tmp/rdf12/$build/gsparql"
  done
  nproc > "$OUT/cores.txt"
  benchmarks/load_readers.sh /tmp/rdf12/serd/gsparql /tmp/rdf12/new/gsparql "/tmp/rdf12/sf$scale.nt" "$rounds" \
    > "$OUT/load-readers-sf$scale.txt" 2>&1
  tail -6 "$OUT/load-readers-sf$scale.txt"
fi
