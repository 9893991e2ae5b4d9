"""SPARQL Update through Database.update."""
import pytest

import gsparql
from conftest import EX, FOAF

PREFIXES = f"PREFIX ex: <{EX}> PREFIX foaf: <{FOAF}>\n"


def ages(db):
    rows = db.query(PREFIXES + "SELECT ?p ?age WHERE { ?p foaf:age ?age }", terms="python")
    return {row["p"].removeprefix(EX): row["age"] for row in rows}


def test_update_returns_a_summary_and_queries_see_its_effect(db):
    summary = db.update(PREFIXES + "INSERT DATA { ex:carol foaf:age 28 }")
    assert isinstance(summary, gsparql.UpdateSummary)
    assert (summary.operations, summary.changed, summary.triples_before, summary.triples_after) == (1, True, 26, 27)
    assert summary.snapshot.startswith("generation ")
    assert ages(db) == {"alice": 42, "bob": 35, "carol": 28, "dave": 19}


def test_delete_insert_where_in_one_request(db):
    summary = db.update(PREFIXES + """
        DELETE { ?p foaf:age ?age } INSERT { ?p foaf:age ?older }
        WHERE { ?p foaf:age ?age BIND(?age + 1 AS ?older) } ;
        DELETE WHERE { ex:dave foaf:age ?any }""")
    assert summary.operations == 2
    assert ages(db) == {"alice": 43, "bob": 36}


def test_an_update_that_changes_nothing(db):
    summary = db.update(PREFIXES + "DELETE DATA { ex:alice foaf:age 99 }")
    assert not summary.changed and summary.triples_after == summary.triples_before == 26


def test_a_failing_request_changes_nothing(db):
    with pytest.raises(gsparql.QueryError) as error:
        db.update(PREFIXES + "INSERT DATA { ex:carol foaf:age 28 } ;\nDELETE DATA { ?x foaf:age 42 }")
    assert error.value.line == 3
    assert "carol" not in ages(db)


def test_update_options(db):
    summary = db.update("INSERT DATA { <zed> <http://xmlns.com/foaf/0.1/age> 7 }", base_iri=EX, timeout=60)
    assert summary.changed and ages(db)["zed"] == 7
    with pytest.raises(TypeError, match="'backnd'"):
        db.update("INSERT DATA {}", backnd="cpu")
