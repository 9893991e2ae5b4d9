#!/bin/bash
# Instructions (callgrind, main thread, inside Database::query) of each warm run of each query:
# one dump per timeOnce call; the first of each query is its warm-up.
# usage: cgparts.sh BINARY QUERYDIR REPEAT OUTPREFIX  (the database at /tmp/sf100db: WatDiv SF100)
b=$1; qd=$2; r=$3; out=$4
rm -f $out.*
valgrind --tool=callgrind --callgrind-out-file=$out --toggle-collect='gsparql::Database::query*' \
  --dump-before='gsparql::cli::*timeOnce*' $b bench --db /tmp/sf100db --queries $qd --repeat $r --backend cpu > $out.csv 2>$out.err
