#!/usr/bin/env bash
# gsparql's text:query against Lucene++ (Lucene 3.0's StandardAnalyzer with no
# stop words and its classic QueryParser: benchmarks/text_lucene/lucene_search.cpp)
# on a corpus generated here (fixed seed): words of ASCII and Latin-1 letters,
# numbers and letter-digit words, separated by spaces and punctuation that
# both tokenizers cut at, so that the two tokenizations agree. Every search
# (single words, OR, +a +b, a -b, AND, NOT, &&, ||, phrases, prefixes, upper
# case, groups) must match the same literals in both. Then literals where the
# tokenizations are documented to differ (docs/text-search.md: fox's; Lucene
# 3.0's NUM tokens x86-64, utf-8; UAX #29's db_file) must differ as
# documented, so that the comparison is seen to tell rows apart. Last,
# searches with lang:en against Lucene++'s SnowballAnalyzer("english") over
# the English-tagged literals of a corpus of inflected words (the same
# stems, found through another Snowball build; prefixes left out: Lucene's
# match the index's stems, gsparql's the words as written).
#
#   tests/text/lucene_compare.sh GSPARQL SOURCE_DIR
set -euo pipefail
gsparql=$1 source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${CXX:-g++}" -std=c++20 -O1 -o "$work/lucene_search" "$source/benchmarks/text_lucene/lucene_search.cpp" \
  $(pkg-config --cflags --libs liblucene++ liblucene++-contrib icu-uc icu-i18n)
exec python3 - "$work" "$gsparql" <<'PY'
import os
import random
import subprocess
import sys

work, gsparql = sys.argv[1], sys.argv[2]
rnd = random.Random(43)
words = ("apple banana cherry river stone cloud forest engine library module network packet signal "
         "window kernel driver format parser viewer editor player server client shell python "
         "café naïve über straße façade mp3 x11 ipv6 2024 42 utf8 data base").split()
weights = [1 + (i * 7) % 13 for i in range(len(words))]
seps = [" ", " ", " ", " ", ", ", "; ", " (", ") ", " - ", ". ", "! ", ": "]
texts = set()
while len(texts) < 2000:
    ws = rnd.choices(words, weights, k=rnd.randint(2, 10))
    ws = [w.upper() if rnd.random() < 0.05 else w.capitalize() if rnd.random() < 0.15 else w for w in ws]
    t = ws[0]
    for w in ws[1:]:
        t += rnd.choice(seps) + w
    texts.add(t)
texts = sorted(texts)
# Literals where the tokenizations differ: (search, literal, gsparql's rows, Lucene's rows).
diffs = [
    ("fox", "The Quick-brown FOX's den", 0, 1),  # fox's one word (UAX #29); 's stripped (StandardFilter)
    ("x86", "an x86-64 build", 1, 0),            # x86 and 64 (UAX #29); one NUM token x86-64
    ('"utf 8"', "text in UTF-8 only", 1, 0),     # utf and 8; one NUM token utf-8
    ("file", "the DB_File module", 0, 1),        # db_file one word (ExtendNumLet); db and file
]
with open(f"{work}/data.nt", "w", encoding="utf-8") as f:
    for i, t in enumerate(texts):
        f.write(f'<http://example.org/s{i}> <http://example.org/p> "{t}" .\n')
        if i % 3 == 0:  # a literal of two subjects: the rows compared are literals
            f.write(f'<http://example.org/t{i}> <http://example.org/p> "{t}" .\n')
    for i, (_, t, _, _) in enumerate(diffs):
        f.write(f'<http://example.org/d{i}> <http://example.org/q> "{t}" .\n')
# Inflected English words: tagged @en (what lang:en searches), the same texts
# also @de and untagged (what it must leave out).
inflected = ("run runs running runner connect connected connecting connection connections happy happiness "
             "happily fly flies flying library libraries generous generously argue argued arguing argument "
             "cat cats dog dogs walk walked walking").split()
stem_texts = sorted({" ".join(rnd.choices(inflected, k=rnd.randint(1, 6))).capitalize() for _ in range(600)})
with open(f"{work}/data.nt", "a", encoding="utf-8") as f:
    for i, t in enumerate(stem_texts):
        f.write(f'<http://example.org/e{i}> <http://example.org/e> "{t}"@en .\n')
        if i % 4 == 0:
            f.write(f'<http://example.org/f{i}> <http://example.org/e> "{t}"@de .\n')
            f.write(f'<http://example.org/g{i}> <http://example.org/e> "{t} " .\n')
searches = {"absentword"} | set(words)
for _ in range(40):
    a, b, c = rnd.sample(words, 3)
    searches |= {f"{a} {b}", f"+{a} +{b}", f"{a} -{b}", f"{a} AND {b}", f"{a} NOT {b}", f"{a} && {b}",
                 f"{a} || {b}", f"({a} OR {b}) AND {c}", f"+({a} {b}) -{c}", f'"{a} {b}"', f'"{a} {b} {c}"',
                 f"{a.upper()} {b.capitalize()}", f"{a[:rnd.randint(1, min(4, len(a)))]}*",
                 f"+{a[:2]}* -{b}", f'"{a} {b}" {c}', f"{a.capitalize()[:3]}*"}
searches = sorted(searches)


def lucene(literals, queries, snowball=None):
    with open(f"{work}/literals.tsv", "w", encoding="utf-8") as f:
        f.writelines(f"{i}\t{t}\n" for i, t in enumerate(literals))
    with open(f"{work}/searches.txt", "w", encoding="utf-8") as f:
        f.writelines(q + "\n" for q in queries)
    env = dict(os.environ, LUCENE_SNOWBALL=snowball) if snowball else None
    subprocess.run([f"{work}/lucene_search", "search", f"{work}/literals.tsv", f"{work}/searches.txt",
                    f"{work}/matches.tsv", "0"], check=True, stderr=subprocess.DEVNULL, env=env)
    rows = []
    for line in open(f"{work}/matches.tsv", encoding="utf-8"):
        n, count, ids = line.rstrip("\n").split("\t")
        if count == "error":
            sys.exit(f"Lucene++ refused {queries[int(n)]!r}: {ids}")
        rows.append({literals[int(i)] for i in ids.split()})
    return rows


def text_queries(prop, searches, option=""):
    """The literals each search matches, all searches in one query (a union of them, tagged)."""
    parts = []
    for n, search in enumerate(searches):
        s = search.replace("\\", "\\\\").replace('"', '\\"')
        parts.append(f'{{ (?s ?score ?l) text:query (<{prop}> "{s}" {option}) BIND({n} AS ?q) }}')
    out = subprocess.run([gsparql, "query", "--db", f"{work}/db", "--format", "tsv",
                          "PREFIX text: <http://jena.apache.org/text#> SELECT DISTINCT ?q ?l WHERE { "
                          + " UNION ".join(parts) + " }"],
                         check=True, capture_output=True, text=True, encoding="utf-8").stdout
    rows = [set() for _ in searches]
    for line in out.split("\n")[1:]:
        if line:
            q, literal = line.split("\t", 1)
            rows[int(q)].add(literal[1:literal.rindex('"')])  # "text"@en -> text (no escapes in this corpus)
    return rows


subprocess.run([gsparql, "load", "--quiet", "--db", f"{work}/db", f"{work}/data.nt"], check=True,
               stdout=subprocess.DEVNULL)


def compare(label, searches, lucene_rows, gsparql_rows):
    """Searches whose rows differ (each printed), searches with rows, and rows in all."""
    differ, nonempty, rows = 0, 0, 0
    for search, expected, got in zip(searches, lucene_rows, gsparql_rows):
        nonempty += bool(expected)
        rows += len(expected)
        if got != expected:
            differ += 1
            print(f"{label}{search!r}: gsparql {len(got)} rows, Lucene++ {len(expected)}; only gsparql: "
                  f"{sorted(got - expected)[:3]}, only Lucene++: {sorted(expected - got)[:3]}")
    return differ, nonempty, rows


failures, nonempty, rows = compare("", searches, lucene(texts, searches), text_queries("http://example.org/p", searches))
print(f"{len(searches)} searches on {len(texts)} literals, {nonempty} with rows ({rows} in all): "
      f"{len(searches) - failures} the same as Lucene++'s")
if nonempty < len(searches) * 3 // 4:
    failures += 1
    print("too few searches match anything: the corpus no longer tests much")
for (search, literal, gsparql_rows, lucene_rows), matched, found in zip(
        diffs, lucene([d[1] for d in diffs], [d[0] for d in diffs]),
        text_queries("http://example.org/q", [d[0] for d in diffs])):
    got = len(found & {literal})
    lu = len(matched & {literal})
    if (got, lu) != (gsparql_rows, lucene_rows):
        failures += 1
        print(f"{search!r} on {literal!r}: gsparql {got}, Lucene++ {lu}; documented: {gsparql_rows}, {lucene_rows}")
stem_searches = set(inflected)
for _ in range(60):
    a, b, c = rnd.sample(inflected, 3)
    stem_searches |= {f"{a} {b}", f"+{a} +{b}", f"{a} -{b}", f'"{a} {b}"', f"({a} OR {b}) AND {c}"}
stem_searches = sorted(stem_searches)
stem_failures, _, stem_rows = compare("lang:en ", stem_searches, lucene(stem_texts, stem_searches, "english"),
                                      text_queries("http://example.org/e", stem_searches, '"lang:en"'))
print(f"lang:en: {len(stem_searches)} searches on {len(stem_texts)} English literals ({stem_rows} rows in all): "
      f"{len(stem_searches) - stem_failures} the same as Lucene++'s SnowballAnalyzer")
plain = text_queries("http://example.org/e", ["run"])[0]  # without lang:, words as written, every tag
as_written = all("run" in t.lower().split() for t in plain)
if stem_failures or stem_rows < len(stem_searches) * 5 or not plain or not as_written:
    failures += 1
    print("lang:en: stemmed rows differ, too few, or a search without lang: stemmed")
sys.exit(1 if failures else 0)
PY
