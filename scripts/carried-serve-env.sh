# Sourced by the GPU machine's server scripts (scripts/gpu-server-load-run.sh,
# scripts/gpu-streams-run.sh) from the repository root: the carried portable
# gsparql (.carry/gsparql, scripts/package-portable.sh; unpacked from
# .carry/gsparql.txz, or from .carry/gsparql-serve.txz holding only the
# gsparql binary and lib/, when only that was carried) and wrk (.carry/wrk:
# Debian's wrk and its libluajit) for benchmarks/server_load.sh.
root=$PWD
for archive in gsparql.txz gsparql-serve.txz; do
  [ -x "$root/.carry/gsparql/gsparql" ] || [ ! -f "$root/.carry/$archive" ] || tar xJf "$root/.carry/$archive" -C "$root/.carry"
done
export GSPARQL=$root/.carry/gsparql/gsparql WRK=$root/.carry/wrk/wrk WRK_THREADS=4
export LD_LIBRARY_PATH=$root/.carry/wrk/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
