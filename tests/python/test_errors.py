"""gsparql's errors as Python exceptions (include/gsparql/error.h)."""
import pytest

import gsparql


def test_the_hierarchy_mirrors_the_cpp_one():
    for name in ["LoadError", "StorageError", "QueryError"]:
        assert getattr(gsparql, name).__bases__ == (gsparql.Error,)
    for name in ["QueryCancelled", "QueryTimedOut", "QueryOutOfMemory", "QueryResultTooLarge"]:
        assert getattr(gsparql, name).__bases__ == (gsparql.QueryError,)
    assert gsparql.Error.__bases__ == (Exception,)
    assert gsparql.QueryError.__module__ == "gsparql"


def test_a_syntax_error_has_its_line_column_and_a_caret(db):
    with pytest.raises(gsparql.QueryError) as error:
        db.query("SELECT ?s\nWHERE { ?s ?p }")
    assert (error.value.line, error.value.column) == (2, 15)
    first, text, caret = str(error.value).splitlines()
    assert first.startswith("2:15: syntax error at '}', expected ")
    assert (text, caret) == ("  WHERE { ?s ?p }", " " * 16 + "^")


def test_an_unsupported_or_invalid_query_without_position_has_zero(db):
    with pytest.raises(gsparql.QueryError) as error:
        db.query("SELECT * WHERE { ?s ?p ?o }", default_graphs=["not absolute"])
    assert (error.value.line, error.value.column) == (0, 0)
    assert "absolute IRI" in str(error.value)


def test_query_error_from_python_has_the_attributes_too():
    error = gsparql.QueryError("made here")
    assert (error.line, error.column, str(error)) == (0, 0, "made here")


def test_memory_budget(chain_db):
    with pytest.raises(gsparql.QueryOutOfMemory, match="memory budget"):
        chain_db.query("SELECT * WHERE { ?a ?p ?b . ?c ?q ?d }", memory_budget=1 << 20)


def test_storage_error_for_a_directory_that_is_no_database(tmp_path):
    (tmp_path / "CURRENT").write_text("gen-000009\n")
    with pytest.raises(gsparql.StorageError, match="corrupt|gen-000009|no such"):
        gsparql.Database(tmp_path)


def test_value_errors_for_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="backend must be"):
        gsparql.Database(tmp_path / "db", backend="tpu")
    db = gsparql.Database(tmp_path / "db")
    with pytest.raises(ValueError, match="timeout"):
        db.query("ASK {}", timeout=-1)


@pytest.mark.parametrize("gpus, error, match", [
    (0, ValueError, "the first N GPUs"), (65, ValueError, "the first N GPUs"), ([], ValueError, "at least one"),
    ([-1], ValueError, "CUDA ordinals"), ([64], ValueError, "CUDA ordinals"), ([0, 2, 0], ValueError, "named twice"),
    ("all", TypeError, "whole number"), (True, TypeError, "whole number"), ([0.5], TypeError, "whole number")])
def test_bad_gpus_are_refused_before_opening(tmp_path, gpus, error, match):
    with pytest.raises(error, match=match):
        gsparql.Database(tmp_path / "db", gpus=gpus)
    assert not (tmp_path / "db").exists()


@pytest.mark.parametrize("size, error", [(-1, ValueError), (1.5, TypeError), ("1G", TypeError), (False, TypeError)])
def test_bad_gpu_peer_memory_is_refused_before_opening(tmp_path, size, error):
    with pytest.raises(error, match="gpu_peer_memory|whole number"):
        gsparql.Database(tmp_path / "db", gpu_peer_memory=size)
