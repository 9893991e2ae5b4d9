"""The backend argument: where queries run."""
import pytest

import gsparql
from conftest import PEOPLE

QUERY = "SELECT ?s ?o WHERE { ?s <http://xmlns.com/foaf/0.1/knows> ?o } ORDER BY ?s ?o"


def test_cpu_and_auto_give_the_same_rows(db):
    cpu = list(db.query(QUERY, backend="cpu"))
    assert len(cpu) == 4
    assert list(db.query(QUERY, backend="auto")) == cpu
    assert list(db.query(QUERY)) == cpu


def test_the_database_default_and_a_query_override(tmp_path):
    db = gsparql.Database(tmp_path / "db", backend="cpu")
    db.load(PEOPLE)
    assert "backend='cpu'" in repr(db)
    assert len(db.query(QUERY)) == 4
    with pytest.raises(ValueError, match="backend must be 'auto', 'cpu' or 'gpu', not 'fast'"):
        db.query(QUERY, backend="fast")


def test_gpu_runs_there_or_says_there_is_none(db):
    """Where there is no GPU (or no GPU backend in this build) gpu is a
    QueryError that says so, as in the C++ API; auto then runs on the CPU."""
    try:
        rows = list(db.query(QUERY, backend="gpu"))
    except gsparql.QueryError as error:
        assert "CUDA" in str(error) or "GPU" in str(error)
    else:
        assert rows == list(db.query(QUERY, backend="cpu"))


@pytest.mark.parametrize("gpus", [None, 1, [0], (0,)])
def test_the_gpus_to_use_and_their_peer_memory(tmp_path, gpus):
    """The first GPU, named any way, with or without peer memory: the GPU's
    rows where there is one, else the error that says there is none."""
    gsparql.Database(tmp_path / "db").load(PEOPLE)
    for peer_memory in (None, 0, 1 << 20):
        db = gsparql.Database(tmp_path / "db", gpus=gpus, gpu_peer_memory=peer_memory)
        cpu = list(db.query(QUERY, backend="cpu"))
        assert len(cpu) == 4
        try:
            assert list(db.query(QUERY, backend="gpu")) == cpu
        except gsparql.QueryError as error:
            assert "CUDA" in str(error) or "GPU" in str(error)


def test_a_gpu_the_machine_lacks_is_named_in_the_error(tmp_path):
    db = gsparql.Database(tmp_path / "db", gpus=[63])
    db.load(PEOPLE)
    assert len(db.query(QUERY, backend="cpu")) == 4
    # "there is no GPU 63" where there are GPUs; else that there is none (no CUDA device, no GPU backend).
    with pytest.raises(gsparql.QueryError, match="no GPU 63|CUDA|GPU backend"):
        db.query(QUERY, backend="gpu")
