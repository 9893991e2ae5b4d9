"""RDF terms as rdflib terms (terms="rdflib"), and back: URIRef, BNode and
Literal with its language or datatype. Literals keep their lexical form as
stored ("01"^^xsd:integer stays "01": rdflib would normalise it to "1", which
is another term to gsparql)."""
from rdflib import BNode, Literal, URIRef

from . import ntriples


def to_rdflib(term: str):
    """The rdflib term of a term in N-Triples syntax."""
    parts = ntriples.parse(term)
    if parts.kind == "iri":
        return URIRef(parts.value)
    if parts.kind == "blank":
        return BNode(parts.value)
    datatype = URIRef(parts.datatype) if parts.datatype else None
    return Literal(parts.value, lang=parts.language, datatype=datatype, normalize=False)


def from_rdflib(node) -> str:
    """An rdflib term in N-Triples syntax."""
    if isinstance(node, URIRef):
        return ntriples.iri(str(node))
    if isinstance(node, BNode):
        return ntriples.blank(str(node))
    if isinstance(node, Literal):
        return ntriples.literal(str(node), node.language, node.datatype and str(node.datatype))
    raise TypeError(f"no RDF term for a {type(node).__name__}: {node!r}")
