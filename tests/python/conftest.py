"""Fixtures of the Python package's tests: databases built in a temporary
folder from data/people.ttl, and a long chain for queries that run for seconds."""
from pathlib import Path

import pytest

import gsparql

HERE = Path(__file__).parent
PEOPLE = HERE / "data" / "people.ttl"
REPOSITORY = HERE.parents[1]

EX = "http://example.org/"
FOAF = "http://xmlns.com/foaf/0.1/"

# Every pair of the chain's nodes, through any edge either way: about 9
# million rows, counted for seconds on one core.
SLOW_QUERY = "SELECT (COUNT(*) AS ?n) WHERE { ?x (!<http://x/none>|^!<http://x/none>)* ?y }"


@pytest.fixture
def db(tmp_path):
    """A database of data/people.ttl."""
    database = gsparql.Database(tmp_path / "people.db")
    database.load(PEOPLE)
    return database


@pytest.fixture(scope="session")
def chain_db(tmp_path_factory):
    """A database of a chain of 3,000 nodes, for SLOW_QUERY."""
    folder = tmp_path_factory.mktemp("chain")
    data = folder / "chain.nt"
    data.write_text("".join(f"<http://x/n{i}> <http://x/next> <http://x/n{i + 1}> .\n" for i in range(3000)))
    database = gsparql.Database(folder / "chain.db")
    database.load(data)
    return database
