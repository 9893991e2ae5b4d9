"""The same queries over the same data in gsparql and in rdflib's own
in-memory engine (an independent implementation) give the same solutions."""
import pytest
from rdflib import Graph, Literal

from conftest import PEOPLE

PREFIXES = "PREFIX ex: <http://example.org/> PREFIX foaf: <http://xmlns.com/foaf/0.1/>\n"

QUERIES = [
    "SELECT ?a ?b WHERE { ?a foaf:knows ?b }",
    "SELECT ?a ?c WHERE { ?a foaf:knows ?b . ?b foaf:knows ?c }",
    "SELECT ?p ?age WHERE { ?p a foaf:Person OPTIONAL { ?p foaf:age ?age } }",
    "SELECT ?p WHERE { ?p foaf:age ?age FILTER(?age >= 30 && ?age < 40) }",
    "SELECT ?p ?name WHERE { ?p foaf:name ?name FILTER(lang(?name) = 'en') }",
    "SELECT ?x WHERE { ex:alice foaf:knows+ ?x }",
    "SELECT ?p (COUNT(?o) AS ?n) WHERE { ?p foaf:knows ?o } GROUP BY ?p",
    "SELECT ?name WHERE { ?p foaf:name ?name } ORDER BY ?name LIMIT 3",
    "SELECT ?p WHERE { ?p a foaf:Person MINUS { ?p foaf:age ?a } }",
    "SELECT ?p ?v WHERE { { ?p ex:height ?v } UNION { ?p ex:weight ?v } }",
    "SELECT (STRLEN(?n) AS ?len) WHERE { ex:carol ex:note ?n }",
]


def value(term):
    """A term as a comparable key: literals by value, as rdflib's parser
    normalises lexical forms ("7.5e1" to "75.0") and gsparql keeps them."""
    if isinstance(term, Literal):
        return ("literal", str(term.datatype), term.language, str(term) if term.value is None else term.value)
    return (type(term).__name__, str(term))


def values(rows):
    return [tuple(map(value, row)) for row in rows]


@pytest.fixture(scope="module")
def memory_graph():
    graph = Graph()
    graph.parse(PEOPLE)
    return graph


@pytest.mark.parametrize("query", QUERIES)
def test_select_as_rdflib(db, memory_graph, query):
    ours = db.query(PREFIXES + query, terms="rdflib")
    theirs = memory_graph.query(PREFIXES + query)
    assert list(ours.variables) == [str(v) for v in theirs.vars]
    if "ORDER BY" in query:
        assert values(ours) == values(theirs)
    else:
        assert sorted(values(ours)) == sorted(values(theirs))
    assert len(ours) > 0


def test_ask_and_construct_as_rdflib(db, memory_graph):
    for query in ["ASK { ex:dave foaf:knows ?x }", "ASK { ex:carol foaf:knows ex:dave }"]:
        assert db.query(PREFIXES + query) is memory_graph.query(PREFIXES + query).askAnswer
    construct = "CONSTRUCT { ?b ex:knownBy ?a } WHERE { ?a foaf:knows ?b }"
    assert set(db.query(PREFIXES + construct)) == set(memory_graph.query(PREFIXES + construct).graph)
