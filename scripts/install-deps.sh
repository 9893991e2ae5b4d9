#!/usr/bin/env bash
# Installs the Debian packages gsparql needs to build and run (with --test,
# also those its tests and benchmarks use) and the query page's npm packages
# (web/, from its package-lock.json).
# Idempotent: packages already present are skipped. Run as root.
set -euo pipefail

# What building and running gsparql need (scripts/demo.sh, the README's install).
packages=(
  build-essential cmake ninja-build pkg-config git
  libraptor2-dev libxml2-dev  # RDF/XML (loaders/rdfxml_reader.cpp)
  nlohmann-json3-dev  # JSON-LD (rdf/jsonld/), header only
  librocksdb-dev libsnappy-dev liblz4-dev libgflags-dev
  libantlr4-runtime-dev antlr4 uuid-dev default-jre-headless
  libtbb-dev
  libgeos-dev  # GeoSPARQL: geometries and their relations through GEOS's C API (engine/geo/)
  libproj-dev  # GeoSPARQL: EPSG CRSs and geodesic distances through PROJ (engine/geo/projection.cpp)
  doctest-dev  # the tests are configured with the build (BUILD_TESTING)
  libpcre2-dev libssl-dev
  libicu-dev  # the text index's words (storage/text_words.cpp)
  libstemmer-dev  # Snowball's stemmers: text searches with lang: (engine/text/stemmer.cpp)
  libcurl4-gnutls-dev  # SERVICE: its HTTP requests and JSON results (engine/service/)
  libedit-dev less
  zlib1g-dev libbz2-dev liblzma-dev libzstd-dev zstd libxxhash-dev
  libboost1.81-dev  # gsparql serve: Boost.Beast and Asio, headers only (docs/server.md)
  libcpp-httplib-dev  # the HTTP client of the server's tests, configured with the build
  nodejs  # the query page's packages (YASGUI)
  python3-dev pybind11-dev python3-rdflib  # the Python module and its rdflib store (docs/python.md)
)
# What only the tests, fuzzers and benchmarks use (--test; scripts/test.sh).
test_packages=(
  python3-pytest
  raptor2-utils  # rapper: RDF/XML files of the W3C conformance tests
  clang libclang-rt-14-dev  # the fuzzers
  tmux time  # the REPL's terminal tests; benchmarks
  libapache-jena-java unzip  # rsparql, the server tests' independent client
  wrk  # benchmarks/server_load.sh
  chromium  # the query page's test in a real browser (tests/server/query_page_test.mjs)
  gnuplot-nox  # benchmarks/plot_scaling.sh
  proj-bin  # cs2cs and geod: PROJ's own answers in the GeoSPARQL tests (tests/engine/geo_proj_test.cpp)
  geographiclib-tools  # Planimeter: GeographicLib's geodesic areas and lengths in the GeoSPARQL tests (same file)
  postgresql-15-postgis-3  # benchmarks/geo_postgis.sh: PostGIS on the same geometries
  openmpi-bin libopenmpi-dev  # gsparql-mpi, the partitioned prototype (docs/distributed.md), and its test
  liblucene++-dev  # Lucene++ (Lucene 3.0 in C++): the independent engine of benchmarks/text_lucene.sh and tests/text/lucene_compare.sh
)
if [ "${1:-}" = "--test" ]; then
  packages+=("${test_packages[@]}")
elif [ $# -gt 0 ]; then
  echo "usage: $0 [--test]" >&2
  exit 2
fi
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
