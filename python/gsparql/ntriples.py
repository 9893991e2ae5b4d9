"""RDF terms in N-Triples syntax, the form gsparql gives and takes them in.

    <http://example.org/a>   _:label   "lexical"   "lexical"@lang   "lexical"^^<datatype>
    "lexical"@lang--dir   <<( subject predicate object )>>   (RDF 1.2: base directions, triple terms)

gsparql writes them with the canonical escapes of rdf/term.h: IRIs escape the
characters an IRI cannot hold as \\uXXXX; literals escape \\ " LF and CR.
SPARQL takes the same text, so the writers here serve queries and updates.
"""
import re
from typing import NamedTuple, Optional

XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


class Term(NamedTuple):
    """A term's parts, without escapes."""

    kind: str  # "iri", "blank", "literal" or "triple"
    value: str  # the IRI, the blank node's label, the literal's lexical form, or the triple term as written
    language: Optional[str] = None  # with its base direction, if any: "ar--rtl"
    datatype: Optional[str] = None  # None for a simple or language-tagged literal


_ESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))", re.DOTALL)
_CHARACTER_ESCAPES = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


def _unescaped_character(match):
    short, long, character = match.groups()
    if character is None:
        return chr(int(short or long, 16))
    return _CHARACTER_ESCAPES[character]


def _unescape(text):
    return _ESCAPE.sub(_unescaped_character, text) if "\\" in text else text


def _term_end(text: str, at: int) -> int:
    """One past the end of the term that starts at text[at]; -1 where none ends well."""
    if text.startswith("<<( ", at):
        at += 4
        for _ in range(3):
            at = _term_end(text, at)
            if at < 0 or text[at : at + 1] != " ":
                return -1
            at += 1
        return at + 3 if text.startswith(")>>", at) else -1
    if text[at : at + 1] == '"':
        i = at + 1
        while i < len(text) and text[i] != '"':
            i += 2 if text[i] == "\\" else 1
        if i >= len(text):
            return -1
        at = i + 1  # then a tag or a datatype, which hold no space
    space = text.find(" ", at)
    return len(text) if space < 0 else space


def triple_parts(term: str):
    """The subject, predicate and object of a triple term, in N-Triples syntax."""
    if not term.startswith("<<( ") or _term_end(term, 0) != len(term):
        raise ValueError(f"not a triple term: {term!r}")
    parts, at = [], 4
    for _ in range(3):
        end = _term_end(term, at)
        parts.append(term[at:end])
        at = end + 1
    return tuple(parts)


def parse(term: str) -> Term:
    """The parts of a term in N-Triples syntax."""
    if term.startswith("<<("):
        triple_parts(term)  # checks it
        return Term("triple", term)
    first = term[:1]
    if first == "<" and term.endswith(">"):
        return Term("iri", _unescape(term[1:-1]))
    if term.startswith("_:"):
        return Term("blank", term[2:])
    if first == '"':
        end = term.rfind('"')  # neither a language tag nor a datatype IRI holds a raw quote
        lexical = _unescape(term[1:end])
        suffix = term[end + 1 :]
        if suffix.startswith("@"):
            return Term("literal", lexical, language=suffix[1:])
        if suffix.startswith("^^<") and suffix.endswith(">"):
            return Term("literal", lexical, datatype=_unescape(suffix[3:-1]))
        if not suffix and end > 0:
            return Term("literal", lexical)
    raise ValueError(f"not an RDF term in N-Triples syntax: {term!r}")


_IRI_ESCAPED = re.compile(r'[\x00-\x20<>"{}|^`\\]')


def iri(value: str) -> str:
    return "<" + _IRI_ESCAPED.sub(lambda m: "\\u%04X" % ord(m.group()), value) + ">"


def blank(label: str) -> str:
    return "_:" + label


def triple(subject: str, predicate: str, object: str) -> str:
    return f"<<( {subject} {predicate} {object} )>>"


def literal(lexical: str, language: Optional[str] = None, datatype: Optional[str] = None) -> str:
    """A literal; xsd:string is left out, as RDF 1.1 makes "a"^^xsd:string the simple literal "a"."""
    text = '"' + lexical.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r") + '"'
    if language:
        return text + "@" + language
    if datatype and datatype != XSD_STRING:
        return text + "^^" + iri(datatype)
    return text
