# Sourced by the GPU machine's server scripts (scripts/gpu-server-load-run.sh,
# scripts/gpu-streams-run.sh) from the repository root: the carried gsparql
# (.carry/serve, with its shared libraries) and wrk (.carry/wrk) for
# benchmarks/server_load.sh.
root=$PWD
export GSPARQL=$root/.carry/serve/gsparql WRK=$root/.carry/wrk/wrk WRK_THREADS=4
export LD_LIBRARY_PATH=$root/.carry/serve/lib:$root/.carry/wrk/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
