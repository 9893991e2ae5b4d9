# Sourced by the GPU machine's scripts that query WatDiv SF100 (gpu-optimizer-run.sh,
# gpu-plan-quality-run.sh): OUT (default /tmp/out, created), bin (.carry/gsparql,
# unpacked from .carry/gsparql.txz where only the archive was carried), db
# (/tmp/sf100db) and queries (.carry/watdiv-check/queries/sf100).
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
bin=$PWD/.carry/gsparql
[[ -x $bin/gsparql ]] || tar xJf .carry/gsparql.txz -C .carry
db=/tmp/sf100db
queries=.carry/watdiv-check/queries/sf100
