"""RDF terms as rdflib terms (terms="rdflib"), and back: URIRef, BNode and
Literal with its language or datatype. Literals keep their lexical form as
stored ("01"^^xsd:integer stays "01": rdflib would normalise it to "1", which
is another term to gsparql). rdflib 6 has no RDF 1.2 terms: a triple term
becomes a gsparql.Triple of rdflib terms, and a literal with a base direction
is refused (rdflib would drop the direction) rather than changed."""
from rdflib import BNode, Literal, URIRef

from . import ntriples
from .values import Triple


def to_rdflib(term: str):
    """The rdflib term of a term in N-Triples syntax."""
    parts = ntriples.parse(term)
    if parts.kind == "iri":
        return URIRef(parts.value)
    if parts.kind == "blank":
        return BNode(parts.value)
    if parts.kind == "triple":
        return Triple(*map(to_rdflib, ntriples.triple_parts(term)))
    if parts.language and "--" in parts.language:
        raise ValueError(f"rdflib has no base directions: {term} (ask for terms='ntriples' or 'python')")
    datatype = URIRef(parts.datatype) if parts.datatype else None
    return Literal(parts.value, lang=parts.language, datatype=datatype, normalize=False)


def from_rdflib(node) -> str:
    """An rdflib term (or a Triple of them) in N-Triples syntax."""
    if isinstance(node, Triple):
        return ntriples.triple(*map(from_rdflib, node))
    if isinstance(node, URIRef):
        return ntriples.iri(str(node))
    if isinstance(node, BNode):
        return ntriples.blank(str(node))
    if isinstance(node, Literal):
        return ntriples.literal(str(node), node.language, node.datatype and str(node.datatype))
    raise TypeError(f"no RDF term for a {type(node).__name__}: {node!r}")
