"""RDF terms as plain Python values (terms="python"), and Python values as terms.

A literal of a datatype Python has a type for becomes a value of that type:
xsd:integer and its derived types int, xsd:decimal Decimal, xsd:double and
xsd:float float, xsd:boolean bool, xsd:dateTime datetime, xsd:date date,
xsd:time time. Other literals, and ill-typed ones ("x"^^xsd:integer), become
their lexical form (str); a language tag is dropped. IRIs and blank nodes
become IRI and BlankNode, str subclasses, so that they go back as what they
were (bindings=). A triple term (RDF 1.2) becomes a Triple of the values of
its parts; a base direction is dropped with the language tag.
"""
import datetime
import re
from decimal import Decimal
from typing import Any, NamedTuple

from . import ntriples

XSD = "http://www.w3.org/2001/XMLSchema#"


class IRI(str):
    """An IRI, as a str."""

    __slots__ = ()

    def __repr__(self):
        return f"IRI({str.__repr__(self)})"


class BlankNode(str):
    """A blank node, as its label."""

    __slots__ = ()

    def __repr__(self):
        return f"BlankNode({str.__repr__(self)})"


class Triple(NamedTuple):
    """An RDF 1.2 triple term: its subject, predicate and object, each a value or term."""

    subject: Any
    predicate: Any
    object: Any


_INTEGER = re.compile(r"[+-]?[0-9]+")


def _integer(lexical):
    if not _INTEGER.fullmatch(lexical):  # int() would also take "1_000" and " 1"
        raise ValueError(lexical)
    return int(lexical)


def _boolean(lexical):
    if lexical in ("true", "1"):
        return True
    if lexical in ("false", "0"):
        return False
    raise ValueError(lexical)


_INTEGER_TYPES = ("integer int long short byte nonNegativeInteger positiveInteger nonPositiveInteger "
                  "negativeInteger unsignedLong unsignedInt unsignedShort unsignedByte").split()
_READERS = {
    **{XSD + name: _integer for name in _INTEGER_TYPES},
    XSD + "decimal": Decimal,
    XSD + "double": float,
    XSD + "float": float,
    XSD + "boolean": _boolean,
    XSD + "dateTime": datetime.datetime.fromisoformat,
    XSD + "date": datetime.date.fromisoformat,
    XSD + "time": datetime.time.fromisoformat,
}


def to_python(term: str):
    """The Python value of a term in N-Triples syntax."""
    parts = ntriples.parse(term)
    if parts.kind == "iri":
        return IRI(parts.value)
    if parts.kind == "blank":
        return BlankNode(parts.value)
    if parts.kind == "triple":
        return Triple(*map(to_python, ntriples.triple_parts(term)))
    read = _READERS.get(parts.datatype)
    if read is None:
        return parts.value
    try:
        return read(parts.value)
    except (ValueError, ArithmeticError):  # ill-typed: its lexical form
        return parts.value


def _double(value):
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "INF" if value > 0 else "-INF"
    return repr(value)


def _decimal(value):
    if not value.is_finite():
        raise ValueError(f"xsd:decimal has no {value}")
    return format(value, "f")


# The first type that a value is an instance of decides (bool is an int,
# datetime a date, IRI a str).
_WRITERS = (
    (Triple, lambda v: ntriples.triple(*map(from_python, v))),
    (IRI, ntriples.iri),
    (BlankNode, ntriples.blank),
    (str, ntriples.literal),
    (bool, lambda v: ntriples.literal("true" if v else "false", datatype=XSD + "boolean")),
    (int, lambda v: ntriples.literal(str(v), datatype=XSD + "integer")),
    (float, lambda v: ntriples.literal(_double(v), datatype=XSD + "double")),
    (Decimal, lambda v: ntriples.literal(_decimal(v), datatype=XSD + "decimal")),
    (datetime.datetime, lambda v: ntriples.literal(v.isoformat(), datatype=XSD + "dateTime")),
    (datetime.date, lambda v: ntriples.literal(v.isoformat(), datatype=XSD + "date")),
    (datetime.time, lambda v: ntriples.literal(v.isoformat(), datatype=XSD + "time")),
)


def from_python(value) -> str:
    """A Python value as a term in N-Triples syntax (a str is a simple literal; an IRI an IRI)."""
    for kind, write in _WRITERS:
        if isinstance(value, kind):
            return write(value)
    raise TypeError(f"no RDF term for a {type(value).__name__}: {value!r}")
