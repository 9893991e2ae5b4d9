"""Opening, creating and loading databases."""
import pytest

import gsparql
from conftest import EX, PEOPLE


def count(db):
    return db.query("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", terms="python")[0]["n"]


def test_a_missing_directory_gets_an_empty_database(tmp_path):
    db = gsparql.Database(tmp_path / "new" / "db")
    assert db.path == tmp_path / "new" / "db"
    assert count(db) == 0


def test_create_false_wants_an_existing_database(tmp_path):
    with pytest.raises(gsparql.StorageError, match="no database"):
        gsparql.Database(tmp_path / "missing", create=False)
    gsparql.Database(tmp_path / "made")
    assert count(gsparql.Database(tmp_path / "made", create=False)) == 0


def test_load_reports_and_the_same_object_sees_the_new_triples(tmp_path):
    db = gsparql.Database(tmp_path / "db")
    summary = db.load(PEOPLE)
    assert summary.triples_read == 26
    assert summary.unique_triples == 26
    assert summary.skipped_statements == 0
    assert count(db) == 26
    more = tmp_path / "more.nt"
    more.write_text(f"<{EX}erin> <{EX}likes> <{EX}alice> .\n")
    assert db.load([more]).unique_triples == 27
    assert count(db) == 27


def test_another_object_sees_loads_and_updates(tmp_path):
    reader = gsparql.Database(tmp_path / "db")
    writer = gsparql.Database(tmp_path / "db")
    writer.load(str(PEOPLE))
    assert count(reader) == 26
    writer.update(f"INSERT DATA {{ <{EX}erin> <{EX}likes> <{EX}alice> }}")
    assert count(reader) == 27


def test_load_into_a_named_graph(tmp_path):
    db = gsparql.Database(tmp_path / "db")
    db.load(PEOPLE, graph=EX + "people")
    assert count(db) == 0
    rows = db.query("SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g", terms="python")
    assert [tuple(row) for row in rows] == [(gsparql.IRI(EX + "people"), 26)]


def test_format_overrides_the_extension(tmp_path):
    data = tmp_path / "data.txt"
    data.write_text(f"@prefix ex: <{EX}> . ex:a ex:b ex:c .\n")
    db = gsparql.Database(tmp_path / "db")
    with pytest.raises(gsparql.LoadError):
        db.load(data, format="nt")
    assert db.load(data, format="turtle").unique_triples == 1
    with pytest.raises(ValueError, match="format must be"):
        db.load(data, format="yaml")


def test_a_bad_file_loads_nothing_unless_lenient(tmp_path):
    data = tmp_path / "bad.nt"
    data.write_text(f"<{EX}a> <{EX}b> <{EX}c> .\nnot a triple\n<{EX}d> <{EX}e> <{EX}f> .\n")
    db = gsparql.Database(tmp_path / "db")
    with pytest.raises(gsparql.LoadError, match="bad.nt:2"):
        db.load(data)
    assert count(db) == 0
    summary = db.load(data, lenient=True)
    assert summary.skipped_statements == 1
    assert len(summary.first_errors) == 1 and "bad.nt:2" in summary.first_errors[0]
    assert count(db) == 2


def test_json_ld_loads_with_its_remote_context_read_from_a_local_file(tmp_path):
    data = tmp_path / "d.jsonld"
    data.write_text('{"@context": "https://schema.example/ctx", "@id": "%sa", "name": "x"}' % EX)
    (tmp_path / "ctx.jsonld").write_text('{"@context": {"name": "%sname"}}' % EX)
    db = gsparql.Database(tmp_path / "db")
    with pytest.raises(gsparql.LoadError, match="loading remote context failed"):
        db.load(data)
    assert db.load(data, jsonld_contexts={"https://schema.example/ctx": tmp_path / "ctx.jsonld"}).unique_triples == 1
    assert count(db) == 1


def test_a_missing_file_is_a_load_error(tmp_path):
    db = gsparql.Database(tmp_path / "db")
    with pytest.raises(gsparql.LoadError, match="missing.nt"):
        db.load(tmp_path / "missing.nt")


def test_close_lets_the_snapshot_go_and_a_later_query_reopens(tmp_path):
    with gsparql.Database(tmp_path / "db") as db:
        db.load(PEOPLE)
    assert count(db) == 26
    assert repr(db) == f"<gsparql.Database {str(tmp_path / 'db')!r} backend='auto'>"
