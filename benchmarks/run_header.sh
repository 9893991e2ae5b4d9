# Sourced by the benchmark scripts: the lines that say where a run was made.
#   print_run_header "what else to say about the run"
print_run_header() {
  echo "# machine: $(uname -n), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "# commit: $(git rev-parse --short HEAD) $(git diff --quiet || echo '(with local changes)')"
  echo "# date: $(date -u +%FT%TZ)${1:+; $1}"
}
