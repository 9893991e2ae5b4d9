"""How terms reach Python (the terms= argument) and how Python values become
SPARQL terms (the bindings= argument).

terms= "rdflib": rdflib terms (URIRef, BNode, Literal); "python": plain
values (gsparql/values.py); "ntriples": the N-Triples strings gsparql gives;
"auto": "rdflib" where rdflib can be imported, else "python". Unbound is None.
"""
import functools
import importlib.util
import sys

from . import values

TERMS = ("auto", "rdflib", "python", "ntriples")


def check_terms(terms):
    if terms not in TERMS:
        raise ValueError(f"terms must be one of {', '.join(map(repr, TERMS))}, not {terms!r}")


@functools.cache
def _rdflib_importable():
    return importlib.util.find_spec("rdflib") is not None


def _memoized(convert):
    """`convert` for one result, each distinct term converted once (results repeat terms)."""
    done = {None: None}

    def converted(term):
        try:
            return done[term]
        except KeyError:
            value = done[term] = convert(term)
            return value

    return converted


def converter(terms):
    """The function that turns a result's N-Triples terms (None: unbound) into what `terms` asks for."""
    check_terms(terms)
    if terms == "auto":
        terms = "rdflib" if _rdflib_importable() else "python"
    if terms == "ntriples":
        return lambda term: term
    if terms == "rdflib":
        from .rdflib_terms import to_rdflib

        return _memoized(to_rdflib)
    return _memoized(values.to_python)


def to_term(value) -> str:
    """An rdflib term or a Python value (gsparql/values.py) in SPARQL syntax."""
    if "rdflib" in sys.modules:  # an rdflib term can only come from a loaded rdflib
        from rdflib.term import Node

        if isinstance(value, Node) or (isinstance(value, values.Triple) and isinstance(value.subject, Node)):
            from .rdflib_terms import from_rdflib

            return from_rdflib(value)
    return values.from_python(value)


def with_bindings(sparql: str, bindings) -> str:
    """The query with `bindings` ({variable: value}; None: unbound) as its VALUES clause."""
    if not bindings:
        return sparql
    names = " ".join("?" + str(name).lstrip("?$") for name in bindings)
    row = " ".join("UNDEF" if value is None else to_term(value) for value in bindings.values())
    return f"{sparql}\nVALUES ({names}) {{ ({row}) }}"
