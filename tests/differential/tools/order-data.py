#!/usr/bin/env python3
"""Writes tests/differential/data/order.nt: terms whose order is easy to get
wrong (issue 45), for the ORDER BY, MIN, MAX and GROUP_CONCAT queries
127-139. Deterministic: running it again gives the same file.

  tests/differential/tools/order-data.py > tests/differential/data/order.nt

- IRIs that share prefixes and go on with each character that sorts below
  or above '>' (an IRI's closing bracket in N-Triples), in groups (o:group),
  with the WatDiv names of the issue (Retailer0, Retailer1, Retailer10);
- strings that share prefixes and go on with characters around '"' (a
  literal's closing quote) and with characters that N-Triples escapes;
- language-tagged strings, numbers of every numeric type (equal values in
  different forms too), booleans, dates and dateTimes with time zones;
- blank nodes and literals of other datatypes beside them (o:mixed).
All of it hangs off predicates of its own namespace, so the other queries
do not see it.
"""

O = "http://example.net/order/"
XSD = "http://www.w3.org/2001/XMLSchema#"

# Characters around '>' (0x3E) and '"' (0x22), ASCII order: ' ' ! " # - . / 0 9 : ; = ? @ A _ a ~, then é.
AFTER_STEM = ["", "!", "#", "-x", ".x", "/x", "0", "00", "1", "10", "100", "2", "9", ":x", ";x", "=x", "?x",
              "@x", "A", "_x", "a", "~x", "\u00e9"]
STRING_TAILS = ["", " ", " b", "!", "\"", "\"b", "#", "\\", "\\b", "\n", "\t", "/", "0", "b", "B", "\u00e9", "\u00e9b"]


def iri(local):
    return "<" + O + local + ">"


def literal(lexical, suffix=""):
    escaped = lexical.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\t", "\\t")
    return "\"" + escaped + "\"" + suffix


def typed(lexical, datatype):
    return literal(lexical, "^^<" + XSD + datatype + ">")


def triple(s, p, o):
    print(s, iri(p), o, ".")


def subjects():
    groups = {"r": [], "Retailer": [], "a/b": []}
    for stem in groups:
        for tail in AFTER_STEM:
            groups[stem].append(stem + tail)
    return groups


def main():
    for rank, (stem, names) in enumerate(subjects().items()):
        for name in names:
            triple(iri(name), "group", literal(stem))
            triple(iri(name), "rank", typed(str(rank), "integer"))
    for n, tail in enumerate(STRING_TAILS):
        triple(iri("s" + str(n)), "string", literal("a" + tail))
        triple(iri("s" + str(n)), "lang", literal("a" + tail, "@en"))
    for n, tag in enumerate(["en", "en-GB", "EN-us", "fr", "de"]):
        triple(iri("t" + str(n)), "lang", literal("a", "@" + tag))
        triple(iri("t" + str(n)), "lang", literal("b", "@" + tag))
    numbers = [("-INF", "double"), ("-1e3", "double"), ("-7", "integer"), ("-0.5", "decimal"), ("0", "integer"),
               ("0.0", "decimal"), ("-0", "int"), ("1.5e-1", "float"), ("1", "int"), ("01", "integer"),
               ("1.0", "decimal"), ("1E0", "double"), ("2", "byte"), ("10", "long"), ("1e1", "double"),
               ("100", "unsignedShort"), ("99.99", "decimal"), ("1e300", "double"), ("INF", "float")]
    for n, (lexical, datatype) in enumerate(numbers):
        triple(iri("n" + str(n)), "number", typed(lexical, datatype))
    for n, value in enumerate(["true", "false", "1", "0"]):
        triple(iri("b" + str(n)), "boolean", typed(value, "boolean"))
    for n, value in enumerate(["2000-01-01T10:00:00+02:00", "2000-01-01T09:00:00Z", "2000-01-01T08:30:00-01:00",
                               "1999-12-31T23:59:59.5Z", "2000-01-01T00:00:00Z", "2000-01-01T01:00:00+01:00"]):
        triple(iri("d" + str(n)), "dateTime", typed(value, "dateTime"))
    for n, value in enumerate(["2000-01-02Z", "2000-01-01+05:00", "1999-12-31Z"]):
        triple(iri("e" + str(n)), "date", typed(value, "date"))
    # One group of every kind: blank nodes, IRIs sharing a prefix, strings.
    mixed = ["_:m1", "_:m2", iri("m"), iri("m1"), iri("m1/x"), iri("m10"), iri("m2"), literal("m"),
             literal("m1"), literal("m1 x"), literal("m10"), literal("m\"")]
    for term in mixed:
        triple(iri("mixed"), "v", term)
    # MIN and MAX over each kind by group (o:kind): one blank node with IRIs
    # and strings, so that MIN is that blank node and MAX a string.
    for term in ["_:k1", iri("k1"), iri("k1/x"), iri("k10"), literal("k"), literal("k!")]:
        triple(iri("kinds"), "v", term)


if __name__ == "__main__":
    main()
