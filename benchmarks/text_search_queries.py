#!/usr/bin/env python3
"""Keyword queries joined with a BGP, each in three forms, for benchmarks/text_search.sh.

    text_search_queries.py DATA PROPERTY JOIN OUT_FOLDER [WORDS_PER_BAND]

DATA: N-Triples (.nt, or .nt.zst/.nt.gz). PROPERTY: the IRI whose literals
are searched. JOIN: triple patterns joined with the literal's subject ?s,
binding ?x (e.g. "?s <http://purl.org/stuff/rev#reviewer> ?x ."). Words of
the property's literals (letters only, as a whole word and as a substring
in exactly the same literals, so that all three forms give the same rows)
are picked from three bands of document frequency, WORDS_PER_BAND each
(default 4): the most frequent words, words about a tenth as frequent, and
rare ones (2 to 5 literals); written as
  text_<band><n>_<word>.rq      ?s text:query (PROPERTY "word") . JOIN
  contains_<band><n>_<word>.rq  ?s PROPERTY ?l . JOIN FILTER(CONTAINS(LCASE(?l), "word"))
  regex_<band><n>_<word>.rq     ?s PROPERTY ?l . JOIN FILTER(REGEX(?l, "\\\\bword\\\\b", "i"))
  scan_<band><n>_<word>.rq      ?s PROPERTY ?l . JOIN FILTER(CONTAINS(LCASE(STR(?l)), "word"))
(CONTAINS of ?l or LCASE(?l) is narrowed through the text index; of STR(?l),
which may be an IRI's text, it is not: the scan form is CONTAINS's cost
without the index).
with words.tsv: word, literals holding it as a word, as a substring.
"""
import collections
import re
import subprocess
import sys
from pathlib import Path

LITERAL = re.compile(r'^(\S+)\s+(\S+)\s+"((?:[^"\\]|\\.)*)"(\S*)\s*\.\s*$')
WORD = re.compile(r"[^\W\d_]+|\d+|_", re.UNICODE)


ESCAPE = re.compile(r"\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)")
SIMPLE_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "b": "\b", "f": "\f"}


def unescape(text):
    """An N-Triples literal's lexical form."""
    def one(m):
        e = m.group(1)
        return chr(int(e[1:], 16)) if e[0] in "uU" and len(e) > 1 else SIMPLE_ESCAPES.get(e, e)
    return ESCAPE.sub(one, text)


def lines(path):
    if path.endswith(".zst"):
        proc = subprocess.Popen(["zstd", "-dc", path], stdout=subprocess.PIPE, text=True, encoding="utf-8")
        yield from proc.stdout
    elif path.endswith(".gz"):
        import gzip
        yield from gzip.open(path, "rt", encoding="utf-8")
    else:
        yield from open(path, encoding="utf-8")


def main():
    data, prop, join, out = sys.argv[1:5]
    per_band = int(sys.argv[5]) if len(sys.argv) > 5 else 4
    predicate = "<" + prop + ">"
    texts = []
    for line in lines(data):
        m = LITERAL.match(line)
        if m and m.group(2) == predicate and m.group(4) in ("", "^^<http://www.w3.org/2001/XMLSchema#string>") \
                or (m and m.group(2) == predicate and m.group(4).startswith("@")):
            texts.append(unescape(m.group(3)).lower())
    frequency = collections.Counter()
    for t in texts:
        frequency.update({w for w in re.findall(r"[a-z]+", t)})
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    top = max(n for w, n in frequency.items() if len(w) >= 4)
    bands = {"frequent": (max(2, top // 2), top + 1), "medium": (max(2, top // 20), max(3, top // 5)), "rare": (2, 6)}
    for band, (low, high) in bands.items():
        picked = 0
        # Evenly through the band, so it holds both ends.
        candidates = sorted((w for w, n in frequency.items() if low <= n < high and len(w) >= 4), key=lambda w: (-frequency[w], w))
        step = 1 if band == "frequent" else max(1, len(candidates) // (per_band * 4))
        for word in candidates[::step]:
            if picked == per_band:
                break
            # Every substring occurrence must be a whole word (with the
            # apostrophe a word character: "fox's" is one word).
            as_substring = sum(1 for t in texts if word in t)
            as_word = sum(1 for t in texts if re.search(r"(?<![\w'])" + word + r"(?![\w'])", t))
            if as_substring != as_word or as_word != frequency[word]:
                continue
            picked += 1
            name = f"{band}{picked}_{word}"
            head = f"SELECT ?s ?x WHERE {{\n"
            (folder / f"text_{name}.rq").write_text(
                f"PREFIX text: <http://jena.apache.org/text#>\n{head}  ?s text:query ({predicate} \"{word}\") .\n  {join}\n}}\n")
            (folder / f"contains_{name}.rq").write_text(
                f"{head}  ?s {predicate} ?l .\n  {join}\n  FILTER(CONTAINS(LCASE(?l), \"{word}\"))\n}}\n")
            (folder / f"regex_{name}.rq").write_text(
                f"{head}  ?s {predicate} ?l .\n  {join}\n  FILTER(REGEX(?l, \"\\\\b{word}\\\\b\", \"i\"))\n}}\n")
            (folder / f"scan_{name}.rq").write_text(
                f"{head}  ?s {predicate} ?l .\n  {join}\n  FILTER(CONTAINS(LCASE(STR(?l)), \"{word}\"))\n}}\n")
            rows.append(f"{word}\t{as_word}\t{as_substring}")
        print(f"{band}: {picked} words of {len(candidates)}", file=sys.stderr)
    (folder / "words.tsv").write_text("word\tliterals_word\tliterals_substring\n" + "\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
