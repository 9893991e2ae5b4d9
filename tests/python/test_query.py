"""Queries: SELECT rows and variables, ASK, CONSTRUCT, DESCRIBE, bindings and datasets."""
import pytest
from rdflib import Literal, URIRef

import gsparql
from conftest import EX, FOAF

PREFIXES = f"PREFIX ex: <{EX}> PREFIX foaf: <{FOAF}>\n"


def test_select_gives_rows_in_order_and_their_variables(db):
    rows = db.query(PREFIXES + "SELECT ?name ?age WHERE { ?p foaf:name ?name ; foaf:age ?age } ORDER BY ?age")
    assert isinstance(rows, gsparql.QuerySolutions)
    assert rows.variables == ("name", "age")
    assert len(rows) == 3
    assert [(str(row[0]), row[1].toPython()) for row in rows] == [("Dave", 19), ("Bob", 35), ("Alice", 42)]


def test_a_row_is_a_tuple_also_indexed_by_variable_name(db):
    (row,) = db.query(PREFIXES + "SELECT ?p ?age WHERE { ?p foaf:age ?age FILTER(?age > 40) }")
    assert isinstance(row, gsparql.QuerySolution) and isinstance(row, tuple)
    assert row == (URIRef(EX + "alice"), Literal(42))
    assert row["p"] == row["?p"] == row.get("p") == row[0] == URIRef(EX + "alice")
    assert row.variables == ("p", "age")
    assert row.asdict() == {"p": URIRef(EX + "alice"), "age": Literal(42)}
    with pytest.raises(KeyError):
        row["nope"]
    assert row.get("nope", "default") == "default"


def test_unbound_is_none(db):
    rows = db.query(PREFIXES + "SELECT ?p ?age WHERE { ?p a foaf:Person OPTIONAL { ?p foaf:age ?age } } ORDER BY ?p")
    assert [row["age"] is None for row in rows] == [False, False, True, False]
    carol = rows[2]
    assert carol.get("age", 0) == 0
    assert carol.asdict() == {"p": URIRef(EX + "carol")}


def test_results_index_and_slice_like_a_list(db):
    rows = db.query(PREFIXES + "SELECT ?p WHERE { ?p a foaf:Person } ORDER BY ?p", terms="python")
    assert [row["p"] for row in rows[1:3]] == [EX + "bob", EX + "carol"]
    assert rows[-1][0] == EX + "dave"
    assert "4 rows" in repr(rows)


def test_ask(db):
    assert db.query(PREFIXES + "ASK { ex:alice foaf:knows ex:bob }") is True
    assert db.query(PREFIXES + "ASK { ex:bob foaf:knows ex:alice }") is False


def test_construct_gives_triples(db):
    triples = db.query(PREFIXES + "CONSTRUCT { ?b ex:knownBy ?a } WHERE { ?a foaf:knows ?b }")
    assert sorted(triples) == sorted(
        (URIRef(EX + b), URIRef(EX + "knownBy"), URIRef(EX + a))
        for a, b in [("alice", "bob"), ("alice", "carol"), ("bob", "carol"), ("carol", "dave")])


def test_describe_gives_the_resources_triples(db):
    triples = db.query(PREFIXES + "DESCRIBE ex:bob", terms="python")
    assert (EX + "bob", FOAF + "age", 35) in triples
    assert {s for s, _, _ in triples} == {EX + "bob"}


def test_bindings_become_a_values_clause(db):
    query = PREFIXES + "SELECT ?p WHERE { ?p foaf:name ?name }"
    assert [row["p"] for row in db.query(query, bindings={"name": Literal("Bob")})] == [URIRef(EX + "bob")]
    assert [row["p"] for row in db.query(query, bindings={"?name": "Dave"}, terms="python")] == [EX + "dave"]
    ask = PREFIXES + "ASK { ?p foaf:age ?age }"
    assert db.query(ask, bindings={"p": gsparql.IRI(EX + "dave"), "age": 19}) is True
    assert db.query(ask, bindings={"p": URIRef(EX + "dave"), "age": 20}) is False


def test_named_graphs_and_the_dataset_options(tmp_path):
    db = gsparql.Database(tmp_path / "db")
    db.update(f"INSERT DATA {{ <{EX}a> <{EX}p> 1 . GRAPH <{EX}g1> {{ <{EX}b> <{EX}p> 2 }} "
              f"GRAPH <{EX}g2> {{ <{EX}c> <{EX}p> 3 }} }}")

    def values(query, **options):
        return sorted(row[0] for row in db.query(query, terms="python", **options))

    every = "SELECT ?o WHERE { ?s ?p ?o }"
    assert values(every) == [1]
    assert values(every, default_graphs=[EX + "g1", EX + "g2"]) == [2, 3]
    assert values(every, union_default_graph=True) == [2, 3]
    assert values("SELECT ?o WHERE { GRAPH ?g { ?s ?p ?o } }", named_graphs=[EX + "g2"]) == [3]


def test_base_iri_resolves_relative_iris(db):
    assert db.query("ASK { <alice> <http://xmlns.com/foaf/0.1/age> 42 }", base_iri=EX) is True


def test_max_rows(db):
    with pytest.raises(gsparql.QueryResultTooLarge, match="more than 2 rows"):
        db.query("SELECT * WHERE { ?s ?p ?o }", max_rows=2)
    assert len(db.query("SELECT * WHERE { ?s ?p ?o } LIMIT 2", max_rows=2)) == 2


def test_an_unknown_option_is_a_type_error(db):
    with pytest.raises(TypeError, match="'timout'"):
        db.query("ASK {}", timout=3)
