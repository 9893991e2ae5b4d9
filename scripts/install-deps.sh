#!/usr/bin/env bash
# Installs every Debian package gsparql needs to build, test and benchmark.
# Idempotent: packages already present are skipped by apt. Run as root.
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
  zlib1g-dev libbz2-dev liblzma-dev libzstd-dev zstd
  clang libclang-rt-14-dev
  tmux less time
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
