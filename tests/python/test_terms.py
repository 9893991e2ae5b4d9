"""Terms from gsparql to rdflib terms, Python values and N-Triples text, and back."""
import datetime
from decimal import Decimal

import pytest
from rdflib import BNode, Literal, Namespace, URIRef

import gsparql
from conftest import EX, FOAF
from gsparql import ntriples, values

# An open Namespace: pytest's look for fixtures in this module would make
# rdflib's closed XSD namespace warn.
XSD = Namespace("http://www.w3.org/2001/XMLSchema#")
PREFIXES = f"PREFIX ex: <{EX}> PREFIX foaf: <{FOAF}>\n"


def objects(db, subject, predicate, terms):
    query = f"SELECT ?o WHERE {{ <{subject}> <{predicate}> ?o }}"
    return sorted((row[0] for row in db.query(query, terms=terms)), key=str)


@pytest.mark.parametrize("subject, predicate, rdflib_terms, python_values", [
    (EX + "alice", FOAF + "age", [Literal("42", datatype=XSD.integer)], [42]),
    (EX + "alice", EX + "height", [Literal("1.68", datatype=XSD.decimal)], [Decimal("1.68")]),
    (EX + "bob", EX + "weight", [Literal("7.5e1", datatype=XSD.double, normalize=False)], [75.0]),
    (EX + "alice", EX + "member", [Literal("true", datatype=XSD.boolean)], [True]),
    (EX + "alice", EX + "born", [Literal("1982-03-04", datatype=XSD.date)], [datetime.date(1982, 3, 4)]),
    (EX + "bob", EX + "seen", [Literal("2024-05-06T07:08:09+00:00", datatype=XSD.dateTime)],
     [datetime.datetime(2024, 5, 6, 7, 8, 9, tzinfo=datetime.timezone.utc)]),
    (EX + "bob", FOAF + "name", [Literal("Bob")], ["Bob"]),
    (EX + "carol", FOAF + "name", [Literal("Carol", lang="fr"), Literal("Caroline", lang="en")], ["Carol", "Caroline"]),
    (EX + "carol", EX + "note", [Literal('a "quoted"\nline, tab\tand é')], ['a "quoted"\nline, tab\tand é']),
    (EX + "alice", FOAF + "knows", [URIRef(EX + "bob"), URIRef(EX + "carol")],
     [gsparql.IRI(EX + "bob"), gsparql.IRI(EX + "carol")]),
])
def test_literals_and_iris_as_rdflib_terms_and_python_values(db, subject, predicate, rdflib_terms, python_values):
    got = objects(db, subject, predicate, "rdflib")
    assert got == rdflib_terms
    assert [(type(t), t.language, t.datatype) for t in got if isinstance(t, Literal)] == \
        [(type(t), t.language, t.datatype) for t in rdflib_terms if isinstance(t, Literal)]
    got = objects(db, subject, predicate, "python")
    assert got == python_values and [type(v) for v in got] == [type(v) for v in python_values]


def test_auto_is_rdflib_where_rdflib_imports(db):
    assert objects(db, EX + "alice", FOAF + "age", "auto") == [Literal(42)]
    assert objects(db, EX + "alice", FOAF + "age", "ntriples") == [f'"42"^^<{XSD.integer}>']
    with pytest.raises(ValueError, match="terms must be one of"):
        db.query("ASK {}", terms="json")


def test_blank_nodes_keep_one_label_within_a_result(db):
    rows = db.query(PREFIXES + "SELECT ?a ?b WHERE { ?p ex:address ?a . ?b ex:city 'Paris' }")
    (a, b), = rows
    assert isinstance(a, BNode) and a == b
    ((a, b),) = db.query(PREFIXES + "SELECT ?a ?b WHERE { ?p ex:address ?a . ?b ex:city 'Paris' }", terms="python")
    assert isinstance(a, gsparql.BlankNode) and a == b


def test_terms_go_back_as_the_terms_they_came_from(db):
    """Every triple, read as rdflib terms and given back as bindings, finds itself."""
    query = "SELECT ?s ?p ?o WHERE { ?s ?p ?o FILTER(!isBlank(?s) && !isBlank(?o)) }"
    rows = db.query(query, terms="rdflib")
    assert len(rows) == 23
    for s, p, o in rows:
        assert db.query("ASK { ?s ?p ?o }", bindings={"s": s, "p": p, "o": o}), (s, p, o)


def test_python_values_go_back_as_the_same_term_where_their_lexical_form_is_canonical(db):
    """Python values drop language tags and lexical forms: "7.5e1"^^xsd:double
    comes back as 75.0, which goes back as "75.0"^^xsd:double, another term."""
    query = "SELECT ?s ?p ?o WHERE { ?s ?p ?o FILTER(!isBlank(?s) && !isBlank(?o) && lang(?o) = '') }"
    missed = [o for s, p, o in db.query(query, terms="python")
              if not db.query("ASK { ?s ?p ?o }", bindings={"s": s, "p": p, "o": o})]
    assert missed == [75.0]


@pytest.mark.parametrize("value, term", [
    ("plain", '"plain"'),
    ('say "hi"\\\n\r', '"say \\"hi\\"\\\\\\n\\r"'),
    (True, f'"true"^^<{XSD.boolean}>'),
    (-7, f'"-7"^^<{XSD.integer}>'),
    (2.5, f'"2.5"^^<{XSD.double}>'),
    (float("-inf"), f'"-INF"^^<{XSD.double}>'),
    (Decimal("1.50"), f'"1.50"^^<{XSD.decimal}>'),
    (datetime.datetime(2020, 1, 2, 3, 4, 5), f'"2020-01-02T03:04:05"^^<{XSD.dateTime}>'),
    (datetime.date(2020, 1, 2), f'"2020-01-02"^^<{XSD.date}>'),
    (datetime.time(10, 30), f'"10:30:00"^^<{XSD.time}>'),
    (gsparql.IRI("http://example.org/a b"), "<http://example.org/a\\u0020b>"),
    (gsparql.BlankNode("b1"), "_:b1"),
])
def test_python_values_as_terms(value, term):
    assert values.from_python(value) == term
    if not isinstance(value, float):  # -INF reads back as a float, which compares equal anyway
        assert values.to_python(term) == value


def test_other_python_values_have_no_term():
    with pytest.raises(TypeError, match="no RDF term for a list"):
        values.from_python([1])
    with pytest.raises(ValueError):
        values.from_python(Decimal("NaN"))


def test_ill_typed_and_unknown_literals_read_as_their_lexical_form():
    assert values.to_python(f'"x1"^^<{XSD.integer}>') == "x1"
    assert values.to_python(f'"1_000"^^<{XSD.integer}>') == "1_000"
    assert values.to_python('"a"^^<http://example.org/type>') == "a"
    assert values.to_python('"chat"@fr') == "chat"


def test_ntriples_parse_and_escapes():
    assert ntriples.parse("<http://a/\\u0020b>") == ntriples.Term("iri", "http://a/ b")
    assert ntriples.parse("_:x") == ntriples.Term("blank", "x")
    assert ntriples.parse('"a\\"b\\\\c\\nd\\U0001F600"@en-GB') == \
        ntriples.Term("literal", 'a"b\\c\nd\U0001F600', language="en-GB")
    assert ntriples.parse('"1"^^<http://x/t>') == ntriples.Term("literal", "1", datatype="http://x/t")
    assert ntriples.literal("a", datatype=str(XSD.string)) == '"a"'
    for bad in ["", "x", '"open', "<a"]:
        with pytest.raises(ValueError):
            ntriples.parse(bad)


def test_escaped_text_survives_a_round_trip_through_the_database(tmp_path):
    db = gsparql.Database(tmp_path / "db")
    text = 'quote " backslash \\ newline \n return \r tab \t unicode é \U0001F600'
    db.update(f"INSERT DATA {{ <{EX}s> <{EX}p> {values.from_python(text)} }}")
    assert objects(db, EX + "s", EX + "p", "python") == [text]
    assert db.query(f"ASK {{ <{EX}s> <{EX}p> ?o }}", bindings={"o": Literal(text)}) is True


def test_triple_terms_and_base_directions(tmp_path):
    """RDF 1.2: a triple term comes back as a Triple of its parts' values or rdflib terms, and goes back as the term."""
    db = gsparql.Database(tmp_path / "db")
    db.update(PREFIXES + 'INSERT DATA { ex:r ex:says <<( ex:a ex:p <<( _:b ex:q "x y"@ar--rtl )>> )>> }')
    term = db.query(PREFIXES + "SELECT ?t { ex:r ex:says ?t }", terms="ntriples")[0][0]
    assert ntriples.parse(term).kind == "triple"
    subject, predicate, inner = ntriples.triple_parts(term)
    assert (subject, predicate) == (f"<{EX}a>", f"<{EX}p>")
    assert ntriples.triple_parts(inner)[2] == '"x y"@ar--rtl'
    value = values.to_python(term)
    assert value == gsparql.Triple(gsparql.IRI(EX + "a"), gsparql.IRI(EX + "p"),
                                   gsparql.Triple(value.object.subject, gsparql.IRI(EX + "q"), "x y"))
    assert isinstance(value.object.subject, gsparql.BlankNode)
    # rdflib has no base directions: refused, not changed.
    with pytest.raises(ValueError, match="base direction"):
        db.query(PREFIXES + "SELECT ?t { ex:r ex:says ?t }", terms="rdflib")[0]
    # A Triple goes back as the triple term (bindings=).
    outer = gsparql.Triple(URIRef(EX + "a"), URIRef(EX + "p"), Literal("z"))
    assert gsparql.conversion.to_term(outer) == f'<<( <{EX}a> <{EX}p> "z" )>>'
    db.update(PREFIXES + 'INSERT DATA { ex:r2 ex:says <<( ex:a ex:p "z" )>> }')
    rows = list(db.query(PREFIXES + "SELECT ?r { ?r ex:says ?t }", bindings={"t": outer}, terms="python"))
    assert [row[0] for row in rows] == [gsparql.IRI(EX + "r2")]
    for bad in ["<<( <a> <b> )>>", "<<( <a> <b> <c>", '<<( <a> <b> "c )>>']:
        with pytest.raises(ValueError):
            ntriples.parse(bad)
