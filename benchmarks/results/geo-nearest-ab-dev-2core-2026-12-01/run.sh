#!/usr/bin/env bash
# Geo queries before and after this session's planning changes, same data, ABBA rounds of `gsparql bench`.
#   run.sh BEFORE_GSPARQL AFTER_GSPARQL DB ROUNDS [OUT]
# DB: the data of benchmarks/geo_postgis.sh, loaded; OUT (default: this
# folder) holds queries/ and gets the rows, the rounds and the summary.
# The script this folder's run used is now benchmarks/ab_queries.sh.
here=$(dirname "$0")
exec "$here/../../ab_queries.sh" "$1" "$2" "$3" "${4:-2}" "${5:-$here}"
