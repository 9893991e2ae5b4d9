#!/usr/bin/env python3
"""The steps of benchmarks/text_lucene.sh that are not gsparql's nor Lucene++'s.

    compare.py literals LITERALS_TSV OUT_TSV
        gsparql's TSV of ?l (one term a line after the header) to the tool's
        input: "ID<TAB>TEXT" (the lexical form, \\ \n \r \t escaped), ID the
        line's number; string literals only (simple, xsd:string, language-tagged).
    compare.py searches TOKENS_TSV LITERALS OUT_SEARCHES
        search texts picked from the data (deterministically): words frequent,
        medium and rare, with digits, hyphens, apostrophes, dots, underscores,
        non-ASCII letters; two words (OR), +a +b, a -b, AND, NOT, phrases,
        prefixes, groups. TOKENS_TSV: lucene_search tokens over all literals.
        OUT_SEARCHES: "KIND<TAB>SEARCH" lines.
    compare.py query SEARCHES PROPERTY FOLDER
        one .rq file per search: SELECT DISTINCT ?l WHERE { (?s ?score ?l)
        text:query (<PROPERTY> "SEARCH") }, named sNN_KIND.rq.
    compare.py compare SEARCHES LITERALS IDS_FOLDER LUCENE_MATCHES TOKENS_TSV
        per search, the literals gsparql matched (IDS_FOLDER/sNN.tsv, its TSV
        output) against Lucene++'s; each literal only one side matched is put
        down to what makes its words differ, from the two tokenizations of
        the literal and of the search's words (TOKENS_TSV); one whose words
        are the same in both is "unexplained". With DIFFERENCES set in the
        environment, every such literal is written there (TSV: search number,
        search, side, cause, literal, Lucene's tokens, UAX #29's words).
    compare.py times SEARCHES GSPARQL_BENCH_CSV... -- LUCENE_CSV...
        per search the median over rounds of each engine's median.
"""
import collections
import re
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from text_search_queries import unescape  # noqa: E402  (an N-Triples literal's lexical form)

TERM = re.compile(r'^"(.*)"(@[A-Za-z0-9-]+(--(ltr|rtl))?|\^\^<([^>]*)>)?$', re.S)
XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


def escape_line(text):
    return text.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")


def read_terms(path):
    """gsparql's TSV of one column: the terms, in order, header skipped."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    return [line for line in lines[1:] if line]


def literals(tsv, out):
    kept = 0
    with open(out, "w", encoding="utf-8") as o:
        for n, term in enumerate(read_terms(tsv), 1):
            m = TERM.match(term)
            if not m or (m.group(5) is not None and m.group(5) != XSD_STRING):
                continue
            o.write(f"{n}\t{escape_line(unescape(m.group(1)))}\n")
            kept += 1
    print(f"{kept} string literals", file=sys.stderr)


def read_tokens(path):
    tokens = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            i, lucene, uax = line.rstrip("\n").split("\t")
            # Split on U+0020 alone: a word may hold other spaces (UAX #29 joins
            # letters across U+202F, an ExtendNumLet).
            tokens[i] = ([t for t in lucene.split(" ") if t], [t for t in uax.split(" ") if t])
    return tokens


def read_literal_texts(path):
    texts = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            i, text = line.rstrip("\n").split("\t", 1)
            texts[i] = text
    return texts


LETTERS = re.compile(r"^[^\W\d_]+$")


def searches(tokens_path, literals_path, out):
    tokens = read_tokens(tokens_path)
    texts = read_literal_texts(literals_path)
    df_u = collections.Counter()     # literals holding a word (UAX #29)
    df_l = collections.Counter()     # literals holding a token (Lucene)
    bigrams = collections.Counter()
    for lucene, uax in tokens.values():
        df_u.update(set(uax))
        df_l.update(set(lucene))
        bigrams.update({(a, b) for a, b in zip(uax, uax[1:]) if LETTERS.match(a) and LETTERS.match(b)
                        and len(a) >= 4 and len(b) >= 4})
    plain = [w for w in df_u if LETTERS.match(w) and len(w) >= 4 and w.isascii()]
    by_df = sorted(plain, key=lambda w: (-df_u[w], w))
    top = df_u[by_df[0]]
    medium = [w for w in by_df if top // 40 <= df_u[w] <= top // 20]
    rare = [w for w in by_df if 2 <= df_u[w] <= 5]
    picked = []

    def add(kind, text):
        if text and text not in (t for _, t in picked):
            picked.append((kind, text))

    def most(predicate, counter=df_u, minimum=2):
        words = sorted((w for w in counter if counter[w] >= minimum and predicate(w)), key=lambda w: (-counter[w], w))
        return words

    f1, f2, f3 = by_df[0], by_df[1], by_df[2]
    m1 = medium[len(medium) // 3] if medium else by_df[10]
    m2 = medium[2 * len(medium) // 3] if medium else by_df[11]
    r1, r2 = rare[len(rare) // 4], rare[3 * len(rare) // 4]
    for kind, w in (("frequent", f1), ("frequent", f2), ("medium", m1), ("medium", m2), ("rare", r1), ("rare", r2)):
        add(kind, w)
    # Words whose two tokenizations disagree in the data, each the most frequent of its form.
    digits = most(lambda w: re.match(r"^(?=.*\d)(?=.*[a-z])[a-z0-9]+$", w) is not None)
    add("letters+digits", digits[0] if digits else None)
    add("letters+digits", digits[len(digits) // 2] if digits else None)
    numbers = most(lambda w: w.isdigit())
    add("number", numbers[0] if numbers else None)
    dotted = most(lambda w: "." in w and re.search(r"[a-z]", w) is not None)
    add("dotted word", dotted[0] if dotted else None)
    decimal = most(lambda w: re.match(r"^\d+\.\d+$", w) is not None)
    add("decimal", decimal[0] if decimal else None)
    apostrophe = most(lambda w: w.endswith("'s") and LETTERS.match(w[:-2]) is not None)
    if apostrophe:
        add("apostrophe 's", apostrophe[0])
        add("apostrophe 's base", apostrophe[0][:-2])
    contraction = most(lambda w: "'" in w and not w.endswith("'s"))
    add("apostrophe", contraction[0] if contraction else None)
    underscore = most(lambda w: "_" in w)
    add("underscore", underscore[0] if underscore else None)
    non_ascii = most(lambda w: not w.isascii() and LETTERS.match(w) is not None)
    add("non-ASCII", non_ascii[0] if non_ascii else None)
    add("non-ASCII", non_ascii[len(non_ascii) // 2] if non_ascii else None)
    # Hyphenated search texts, as written in the literals: letters only, and with a digit.
    raw = collections.Counter()
    for text in texts.values():
        raw.update({m.lower() for m in re.findall(r"\b[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+\b", text)})
    hyph_letters = sorted((w for w in raw if not re.search(r"\d", w)), key=lambda w: (-raw[w], w))
    hyph_digits = sorted((w for w in raw if re.search(r"\d", w)), key=lambda w: (-raw[w], w))
    add("hyphen", hyph_letters[0] if hyph_letters else None)
    add("hyphen+digit", hyph_digits[0] if hyph_digits else None)
    add("hyphen+digit", hyph_digits[1] if len(hyph_digits) > 1 else None)
    slash = collections.Counter()
    for text in texts.values():
        slash.update({m.lower() for m in re.findall(r"\b[A-Za-z]+[0-9]*/[A-Za-z0-9]+\b", text) if re.search(r"\d", m)})
    add("slash+digit", min(slash, key=lambda w: (-slash[w], w)) if slash else None)
    # Operators.
    add("two words (OR)", f"{m1} {r1}")
    add("two words (OR)", f"{f2} {m2}")
    pair = next(((a, b) for (a, b), n in bigrams.most_common() if a != b and df_u[a] < top and df_u[b] < top), None)
    add("+a +b", f"+{f1} +{f3}")
    add("+a +b", f"+{m1} +{f2}")
    add("a AND b", f"{f2} AND {f3}")
    add("a -b", f"{f1} -{f2}")
    add("a NOT b", f"{f3} NOT {f1}")
    if pair:
        add("phrase", f'"{pair[0]} {pair[1]}"')
    add("phrase", f'"{bigrams.most_common(1)[0][0][0]} {bigrams.most_common(1)[0][0][1]}"')
    if hyph_digits:
        add("phrase+digit", '"' + hyph_digits[0].replace("-", " ") + '"')
    add("prefix", f1[:4] + "*")
    add("prefix", m1[:5] + "*")
    add("prefix", r1[:3] + "*")
    if digits:
        add("prefix+digit", re.match(r"^[a-z]*\d", digits[0]).group(0) + "*")
    if apostrophe:
        add("prefix", apostrophe[0][:-2] + "*")
    acronym = most(lambda w: re.match(r"^([a-z]\.)+[a-z]$", w) is not None)
    add("acronym", acronym[0] + "." if acronym else None)
    company = collections.Counter()
    for text in texts.values():
        company.update({m.lower() for m in re.findall(r"\b[A-Za-z]+[&@][A-Za-z]+\b", text)})
    add("company/e-mail", min(company, key=lambda w: (-company[w], w)) if company else None)
    curly = most(lambda w: "\u2019" in w)
    add("curly apostrophe", curly[0] if curly else None)
    nnbsp = most(lambda w: "\u202f" in w, minimum=1)
    add("U+202F inside", nnbsp[0].split("\u202f")[0] if nnbsp else None)
    cjk = most(lambda w: re.search(r"[\u3040-\u30ff\u3400-\u9fff]", w) is not None, minimum=1)
    add("ideographs", cjk[0] if cjk else None)
    add("upper case", f1.upper())
    add("prefix, upper case", f2[:5].capitalize() + "*")
    add("a && b", f"{f2} && {f3}")
    add("a || b", f"{m1} || {m2}")
    add("+a -b c", f"+{f1} -{f2} {m1}")
    add("group", f"({m1} OR {m2}) AND {f1}")
    add("group", f"({f1} OR {m1}) NOT ({f2} OR {f3})")
    add("group", f"({f2} {f3}) -{f1}")
    add("group", f"+({m1} {r1} {r2}) +({f1} {f2})")
    with open(out, "w", encoding="utf-8") as o:
        for kind, text in picked:
            o.write(f"{kind}\t{text}\n")


def read_searches(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t", 1) for line in f if line.strip()]


def query(searches_path, prop, folder):
    import pathlib
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for n, (kind, text) in enumerate(read_searches(searches_path)):
        s = text.replace("\\", "\\\\").replace('"', '\\"')
        (folder / f"s{n:02d}_{re.sub(r'[^a-z0-9]+', '-', kind)}.rq").write_text(
            "PREFIX text: <http://jena.apache.org/text#>\n"
            f'SELECT DISTINCT ?l WHERE {{ (?s ?score ?l) text:query (<{prop}> "{s}") }}\n', encoding="utf-8")


QUERY_WORDS = re.compile(r"[^\s\"()+\-*]+(?:-[^\s\"()+\-*]+)*\*?")
OPERATORS = {"AND", "OR", "NOT", "&&", "||"}


def search_words(text):
    """The search text's terms and phrases' words, operators left out (the tool's
    tokenizations of them come from a second tokens run)."""
    words = []
    for m in re.finditer(r'"([^"]*)"|(\S+)', text):
        if m.group(1) is not None:
            words.append(m.group(1))
        else:
            w = m.group(2).lstrip("+-(").rstrip(")")
            if w and w not in OPERATORS:
                words.append(w)
    return words


def cause(literal_lucene, literal_uax, query_lucene, query_uax, prefixes):
    """Why a literal's words give different answers in the two engines: the
    differing tokens that touch the search's words."""
    if literal_lucene == literal_uax and query_lucene == query_uax:
        return "unexplained: the same words in both tokenizations"
    keys = set(query_lucene) | set(query_uax) | set(prefixes)
    only_l = [t for t in literal_lucene if t not in literal_uax]
    only_u = [t for t in literal_uax if t not in literal_lucene]

    def touches(t):
        return any(k and k in t for k in keys) or any(t in k for k in keys if len(t) >= 2)
    rel_l = [t for t in only_l if touches(t)] or only_l
    rel_u = [t for t in only_u if touches(t)] or only_u
    if query_lucene != query_uax and not (rel_l or rel_u):
        return "search text tokenized differently"
    for u in rel_u:
        if u.endswith("'s") and u[:-2] in rel_l + literal_lucene:
            return "'s: UAX#29 keeps fox's one word; Lucene drops the 's (StandardFilter, or a token ending before it)"
        if "." in u and u.replace(".", "") in rel_l:
            return "Lucene ACRONYM: dots dropped (e.g -> eg, u.s.a -> usa)"
        if "\u202f" in u:
            return "UAX#29 joins letters across U+202F (narrow no-break space, ExtendNumLet); Lucene splits"
        if "_" in u:
            return "UAX#29 keeps _ inside a word (ExtendNumLet); Lucene splits without a digit"
    for t in rel_l:
        if "@" in t and "." in t:
            return "Lucene EMAIL token"
        if "&" in t or "@" in t:
            return "Lucene COMPANY token (at&t)"
        if re.search(r"[-_/,.]", t) and re.search(r"\d", t):
            return "Lucene NUM token: letters/digits joined by - _ / , . with a digit (x86-64, utf-8, mp3/ogg)"
        if "." in t:
            return "Lucene HOST token (dotted words)"
        if "'" in t:
            return "apostrophe forms"
    for u in rel_u:
        if "." in u or "," in u:
            return "UAX#29 joins across . or , (MidNumLet/MidNum); Lucene splits"
        if "'" in u:
            return "apostrophe forms"
    if any(not t.isascii() for t in rel_l + rel_u):
        return "non-ASCII letters: Lucene 3.0's LETTER class (combining marks, ideographs one by one)"
    if query_lucene != query_uax:
        return "search text tokenized differently"
    return "unexplained: tokens differ elsewhere in the literal"


def compare(searches_path, literals_path, ids_folder, lucene_matches, tokens_path, query_tokens_path):
    import pathlib
    terms_by_text = {}
    texts = read_literal_texts(literals_path)
    tokens = read_tokens(tokens_path)
    qtokens = read_tokens(query_tokens_path)
    id_of_term = {}
    lucene = {}
    with open(lucene_matches, encoding="utf-8") as f:
        for line in f:
            n, rows, ids = line.rstrip("\n").split("\t")
            lucene[int(n)] = None if rows == "error" else set(ids.split())
    all_terms = pathlib.Path(ids_folder) / "all.tsv"
    for n, term in enumerate(read_terms(all_terms), 1):
        id_of_term[term] = str(n)
    import csv
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["n", "kind", "search", "rows_gsparql", "rows_lucene", "same", "only_gsparql", "only_lucene", "causes"])
    import os
    differences = open(os.environ["DIFFERENCES"], "w", encoding="utf-8") if os.environ.get("DIFFERENCES") else None
    if differences:
        differences.write("n\tsearch\tside\tcause\tliteral\tlucene_tokens\tuax29_words\n")
    cause_examples = collections.defaultdict(list)
    cause_counts = collections.Counter()
    totals = collections.Counter()
    for n, (kind, text) in enumerate(read_searches(searches_path)):
        path = pathlib.Path(ids_folder) / f"s{n:02d}.tsv"
        g = {id_of_term[t] for t in read_terms(path)} if path.stat().st_size else None
        lu = lucene.get(n)
        if g is None or lu is None:
            out.writerow([n, kind, text, "error" if g is None else len(g), "error" if lu is None else len(lu), "no", "", "", ""])
            sys.stdout.flush()
            continue
        words = search_words(text)
        q_l, q_u, prefixes = [], [], []
        for k, w in enumerate(words):
            if w.endswith("*"):
                prefixes.append(w[:-1].lower())
                continue
            a, b = qtokens.get(f"{n}.{k}", ([], []))
            q_l += a
            q_u += b
        causes = collections.Counter()
        for side, ids in (("only gsparql", g - lu), ("only Lucene", lu - g)):
            for i in sorted(ids, key=int):
                lit_l, lit_u = tokens[i]
                c = cause(lit_l, lit_u, q_l, q_u, prefixes)
                causes[c] += 1
                cause_counts[c] += 1
                if differences:
                    differences.write("\t".join([str(n), text, side, c, texts[i], " ".join(lit_l), " ".join(lit_u)]) + "\n")
                if len(cause_examples[c]) < 6 and all(e[1] != text for e in cause_examples[c][-1:]):
                    cause_examples[c].append((side, text, texts[i], " ".join(lit_l), " ".join(lit_u)))
        same = g == lu
        totals["same" if same else "different"] += 1
        cs = "; ".join(f"{c} ({k})" for c, k in causes.most_common())
        out.writerow([n, kind, text, len(g), len(lu), "yes" if same else "no", len(g - lu), len(lu - g), cs])
        sys.stdout.flush()
    print(f"\n# searches with the same rows: {totals['same']}, different: {totals['different']}")
    print("\n# causes of the differing literals (literals counted once per search), with examples")
    for c, k in cause_counts.most_common():
        print(f"\n## {c}: {k} literal(s)")
        for side, text, lit, lit_l, lit_u in cause_examples[c]:
            print(f"  search {text!r}, {side}: {lit!r}\n      Lucene: {lit_l}\n      UAX#29: {lit_u}")


def times(args):
    split = args.index("--")
    gsparql_files, lucene_files, searches_path = args[1:split], args[split + 1:], args[0]
    g = collections.defaultdict(list)
    for path in gsparql_files:
        for line in open(path, encoding="utf-8"):
            m = re.match(r"^s(\d+)_[^,]*,[^,]*,(\d+),[^,]*,([^,]*),", line)
            if m:
                g[int(m.group(1))].append(float(m.group(3)))
    lu = collections.defaultdict(list)
    for path in lucene_files:
        for line in open(path, encoding="utf-8"):
            r = line.strip().split(",")
            if r[0].isdigit():
                lu[int(r[0])].append((float(r[3]), float(r[6])))
    import csv
    import math
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["n", "kind", "search", "gsparql_ms", "lucene_hits_ms", "lucene_docs_ms", "gsparql/hits", "gsparql/docs"])
    hits_ratios, docs_ratios = [], []
    for n, (kind, text) in enumerate(read_searches(searches_path)):
        if n not in g or n not in lu:
            continue
        a = statistics.median(g[n])
        b = statistics.median(x for x, _ in lu[n])
        c = statistics.median(y for _, y in lu[n])
        hits_ratios.append(max(a, 1e-4) / max(b, 1e-4))
        docs_ratios.append(max(a, 1e-4) / max(c, 1e-4))
        out.writerow([n, kind, text, f"{a:.3f}", f"{b:.3f}", f"{c:.3f}", f"{hits_ratios[-1]:.2f}", f"{docs_ratios[-1]:.2f}"])

    def gm(v):
        return math.exp(sum(map(math.log, v)) / len(v))
    print(f"# geometric means over {len(hits_ratios)} searches: gsparql/hits {gm(hits_ratios):.2f}, "
          f"gsparql/docs {gm(docs_ratios):.2f}")


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "literals":
        literals(*args)
    elif command == "searches":
        searches(*args)
    elif command == "query":
        query(*args)
    elif command == "search-words":
        # "N.K<TAB>WORD" lines for the tool's tokens mode: each search's words.
        for n, (kind, text) in enumerate(read_searches(args[0])):
            for k, w in enumerate(search_words(text)):
                print(f"{n}.{k}\t{escape_line(w.rstrip('*'))}")
    elif command == "compare":
        compare(*args)
    elif command == "times":
        times(args)
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
