"""examples/embed.py, run as a user would."""
import os
import subprocess
import sys

from conftest import PEOPLE, REPOSITORY

EXAMPLE = REPOSITORY / "examples" / "embed.py"


def run(*args):
    return subprocess.run([sys.executable, str(EXAMPLE), *map(str, args)], capture_output=True, text=True,
                          env=os.environ)


def test_the_example_loads_and_prints_rows(tmp_path):
    query = "SELECT ?p ?age WHERE { ?p <http://xmlns.com/foaf/0.1/age> ?age } ORDER BY ?age"
    done = run(tmp_path / "db", PEOPLE, query)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "loaded 26 triples\n"
        "?p\t?age\t\n"
        '<http://example.org/dave>\t"19"^^<http://www.w3.org/2001/XMLSchema#integer>\t\n'
        '<http://example.org/bob>\t"35"^^<http://www.w3.org/2001/XMLSchema#integer>\t\n'
        '<http://example.org/alice>\t"42"^^<http://www.w3.org/2001/XMLSchema#integer>\t\n'
        "3 rows\n")


def test_the_example_reports_a_query_error(tmp_path):
    done = run(tmp_path / "db", PEOPLE, "SELECT ?p WHERE {")
    assert done.returncode == 1
    assert done.stderr.startswith("query error at 1:18: ")
