#!/usr/bin/env bash
# Installs every Debian package gsparql needs to build, test and benchmark,
# and the query page's npm packages (web/, from its package-lock.json).
# Idempotent: packages already present are skipped. Run as root.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libserd-dev serdi
  raptor2-utils  # rapper: RDF/XML files of the W3C conformance tests
  librocksdb-dev libsnappy-dev liblz4-dev libgflags-dev
  libantlr4-runtime-dev antlr4 uuid-dev default-jre-headless
  doctest-dev
  libtbb-dev
  libpcre2-dev libssl-dev
  libedit-dev
  zlib1g-dev libbz2-dev liblzma-dev libzstd-dev zstd libxxhash-dev
  clang libclang-rt-14-dev
  tmux less time
  libcpp-httplib-dev  # gsparql serve (docs/server.md)
  libapache-jena-java unzip  # rsparql, the server tests' independent client
  nodejs wrk  # the query page's packages; benchmarks/server_load.sh
  chromium  # the query page's test in a real browser (tests/server/query_page_test.mjs)
  gnuplot-nox  # benchmarks/plot_scaling.sh
)
# npm comes with nodejs from NodeSource; Debian ships it apart.
command -v npm > /dev/null || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
else
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# YASGUI for the query page, exactly as locked; skipped when installed from
# this very lock file.
web="$(cd "$(dirname "$0")/.." && pwd)/web"
if ! cmp -s "$web/package-lock.json" "$web/node_modules/.gsparql-installed-lock.json"; then
  (cd "$web" && npm ci --no-audit --no-fund && cp package-lock.json node_modules/.gsparql-installed-lock.json)
fi
