"""gsparql: a SPARQL 1.1 engine for CPUs and GPUs (docs/python.md).

    import gsparql
    db = gsparql.Database("people.db")
    db.load("people.ttl")
    for row in db.query("SELECT ?name WHERE { ?p <http://xmlns.com/foaf/0.1/name> ?name }"):
        print(row["name"])

With rdflib, Graph(store="gsparql") keeps a graph in a gsparql database
(gsparql/rdflib_store.py).
"""
from ._gsparql import (
    Cancel,
    Error,
    LoadError,
    LoadSummary,
    QueryCancelled,
    QueryError,
    QueryOutOfMemory,
    QueryResultTooLarge,
    QueryTimedOut,
    StorageError,
    UpdateSummary,
    __version__,
)
from .database import Database
from .results import QuerySolution, QuerySolutions
from .values import IRI, BlankNode, Triple

__all__ = [
    "BlankNode", "Cancel", "Database", "Error", "IRI", "LoadError", "LoadSummary", "QueryCancelled", "QueryError",
    "QueryOutOfMemory", "QueryResultTooLarge", "QuerySolution", "QuerySolutions", "QueryTimedOut", "StorageError",
    "Triple", "UpdateSummary",
]


def _register_rdflib_store():
    """Graph(store="gsparql"): rdflib finds the store through the entry point of
    gsparql's dist-info; this registers it too, for a copy of the package
    without one."""
    try:
        from rdflib import plugin
        from rdflib.store import Store
    except ImportError:
        return
    plugin.register("gsparql", Store, "gsparql.rdflib_store", "GsparqlStore")


_register_rdflib_store()
