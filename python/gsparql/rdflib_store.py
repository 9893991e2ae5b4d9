"""An rdflib Store over a gsparql database (docs/python.md, "rdflib store").

    graph = Graph(store="gsparql")
    graph.open("people.db", create=True)

Reads and writes run in gsparql as SPARQL: add and addN as INSERT DATA (addN
one request for all its triples), remove as DELETE DATA or DELETE WHERE,
triples() and len() as queries, and graph.query() and graph.update() too.

Graphs: a Graph with an IRI as its identifier is that named graph; an
anonymous one (Graph(store="gsparql"), a ConjunctiveGraph's default context)
and a Dataset's default graph are the database's default graph.

Blank nodes: gsparql gives each update's blank nodes a scope of their own, so
the same BNode written by two add() calls would become two nodes. The store
therefore writes a BNode as rdflib's skolem IRI for it, and reads such IRIs
back as the BNode. Blank nodes that came into the database otherwise (a
Database.load, a SPARQL update) read as BNodes of their stored labels; SPARQL
cannot name them, so a pattern with one matches by a scan of the blank nodes
in its place, and remove() cannot remove them.

Prefixes (bind, namespaces) are kept in memory, for this object's life.
"""
import shutil

from rdflib import BNode, Graph, URIRef, Variable
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID
from rdflib.query import Result
from rdflib.store import NO_STORE, VALID_STORE, Store

from . import _gsparql, conversion
from .database import Database
from .rdflib_terms import from_rdflib, to_rdflib

_SKOLEM_PREFIX = str(BNode("label").skolemize())[: -len("label")]


def _term(node) -> str:
    """An rdflib term as the store writes it in SPARQL: a BNode as its skolem IRI."""
    return from_rdflib(node.skolemize() if isinstance(node, BNode) else node)


def _node(term):
    """A term in N-Triples syntax as an rdflib term: a skolem IRI as its BNode."""
    node = to_rdflib(term)
    if isinstance(node, URIRef) and node.startswith(_SKOLEM_PREFIX):
        return BNode(node[len(_SKOLEM_PREFIX):])
    return node


def _is_open(node):
    return node is None or isinstance(node, Variable)


def _graph_name(context):
    """The named graph an rdflib context (a Graph or an identifier) stands for; None: the default graph."""
    identifier = getattr(context, "identifier", context)
    if identifier is None or isinstance(identifier, BNode) or identifier == DATASET_DEFAULT_GRAPH_ID:
        return None
    if isinstance(identifier, URIRef):
        return identifier
    raise ValueError(f"a graph of a gsparql store is named by an IRI, not {identifier!r}")


def _in_graph(name, group):
    """A group graph pattern inside the named graph `name`, or as it is for the default graph."""
    return group if name is None else f"{{ GRAPH {_term(name)} {group} }}"


class _Pattern:
    """A triple pattern of rdflib terms (None or a Variable: any term) in SPARQL.

    A BNode is a variable there, kept to blank nodes and its skolem IRI by a
    FILTER, and compared in Python (gsparql/rdflib_store.py, "Blank nodes")."""

    def __init__(self, triple):
        self.triple = tuple(triple)
        self.variables = []
        terms, filters = [], []
        for name, node in zip("spo", self.triple):
            if _is_open(node) or isinstance(node, BNode):
                self.variables.append(name)
                terms.append("?" + name)
            else:
                terms.append(_term(node))
            if isinstance(node, BNode):
                filters.append(f"FILTER(isBlank(?{name}) || ?{name} = {_term(node)})")
        self.group = "{ " + " ".join(terms) + " . " + " ".join(filters) + " }"
        self.scans_blank_nodes = bool(filters)

    def triple_of(self, row):
        """The triple a solution (N-Triples terms by variable) matches, None when a BNode of the pattern differs."""
        triple = list(self.triple)
        for name in self.variables:
            i = "spo".index(name)
            node = _node(row[name])
            if isinstance(triple[i], BNode) and node != triple[i]:
                return None
            triple[i] = node
        return tuple(triple)


class GsparqlStore(Store):
    """rdflib's Store API over a gsparql database; open(path) opens it."""

    context_aware = True
    formula_aware = False
    transaction_aware = False
    # gsparql keeps a named graph while it holds triples; the empty ones that
    # rdflib adds (Dataset.graph) are remembered in memory, as prefixes are.
    graph_aware = True

    def __init__(self, configuration=None, identifier=None):
        self._db = None
        self._namespaces = {}  # prefix -> namespace
        self._prefixes = {}  # namespace -> prefix
        self._added_graphs = set()  # the IRIs of named graphs added, maybe still empty
        self.identifier = identifier
        super().__init__(configuration)

    # Database management

    def open(self, configuration, create=False):
        if not create and not _gsparql.holds_database(configuration):
            return NO_STORE
        self._db = Database(configuration, create=create, terms="ntriples")
        return VALID_STORE

    def close(self, commit_pending_transaction=False):
        if self._db is not None:
            self._db.close()
            self._db = None

    def destroy(self, configuration):
        """Removes the database directory (only one that holds a database)."""
        self.close()
        if _gsparql.holds_database(configuration):
            shutil.rmtree(configuration)

    @property
    def _database(self):
        if self._db is None:
            raise _gsparql.Error("the gsparql store is not open: call graph.open(path) first")
        return self._db

    def _select(self, query):
        """The rows of a SELECT, as dicts of N-Triples terms (None: unbound) by variable."""
        solutions = self._database.query(query)
        return (row.asdict() for row in solutions)

    def _ask(self, query):
        return self._database.query(query)

    # Triples

    def add(self, triple, context, quoted=False):
        if quoted:
            raise ValueError("a gsparql store is not formula-aware: it holds no quoted statements")
        self.addN([(*triple, context)])

    def addN(self, quads):
        """One INSERT DATA for all the quads."""
        by_graph = {}
        for s, p, o, context in quads:
            by_graph.setdefault(_graph_name(context), []).append(f"{_term(s)} {_term(p)} {_term(o)} .")
        if by_graph:
            blocks = ("\n".join(lines) if name is None else f"GRAPH {_term(name)} {{\n" + "\n".join(lines) + "\n}"
                      for name, lines in by_graph.items())
            self._database.update("INSERT DATA {\n" + "\n".join(blocks) + "\n}")

    def remove(self, triple, context=None):
        """DELETE DATA for a triple in one graph, else DELETE WHERE (context None: in every graph)."""
        terms = ["?" + name if _is_open(node) else _term(node) for name, node in zip("spo", triple)]
        group = "{ " + " ".join(terms) + " }"
        if context is None:
            request = f"DELETE WHERE {group} ;\nDELETE WHERE {{ GRAPH ?g {group} }}"
        else:
            ground = not any(_is_open(node) for node in triple)
            request = f"DELETE {'DATA' if ground else 'WHERE'} {_in_graph(_graph_name(context), group)}"
        self._database.update(request)

    def triples(self, triple_pattern, context=None):
        """The matching triples, each with an iterator over the graphs that
        hold it: `context`'s, or with context None those of the whole dataset."""
        pattern = _Pattern(triple_pattern)
        if context is None:
            yield from self._triples_in_dataset(pattern)
            return
        where = _in_graph(_graph_name(context), pattern.group)
        if not pattern.variables:
            if self._ask(f"ASK {where}"):
                yield pattern.triple, iter((context,))
            return
        for row in self._select(f"SELECT {' '.join('?' + v for v in pattern.variables)} WHERE {where}"):
            triple = pattern.triple_of(row)
            if triple is not None:
                yield triple, iter((context,))

    def _triples_in_dataset(self, pattern):
        graphs = {}
        for row in self._select(f"SELECT * WHERE {{ {pattern.group} UNION {{ GRAPH ?g {pattern.group} }} }}"):
            triple = pattern.triple_of(row)
            if triple is not None:
                graphs.setdefault(triple, []).append(self._context(row.get("g")))
        for triple, contexts in graphs.items():
            yield triple, iter(contexts)

    def _context(self, graph_term):
        """The Graph of this store for a graph name in N-Triples syntax (None: the default graph)."""
        identifier = DATASET_DEFAULT_GRAPH_ID if graph_term is None else to_rdflib(graph_term)
        return Graph(store=self, identifier=identifier)

    def __len__(self, context=None):
        if context is None:
            every = "{ ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } }"
            query = f"SELECT (COUNT(*) AS ?n) WHERE {{ SELECT DISTINCT ?s ?p ?o WHERE {{ {every} }} }}"
        else:
            query = f"SELECT (COUNT(*) AS ?n) WHERE {_in_graph(_graph_name(context), '{ ?s ?p ?o }')}"
        (row,) = self._select(query)
        return int(_node(row["n"]))

    def contexts(self, triple=None):
        """The graphs holding `triple` (a pattern; None: any triple): the named
        graphs, and the default graph (as DATASET_DEFAULT_GRAPH_ID) when it
        holds one; with triple None, also the named graphs added empty."""
        graphs = list(self._graphs(_Pattern(triple or (None, None, None))))
        yield from graphs
        if triple is None:
            stored = {graph.identifier for graph in graphs}
            yield from (Graph(store=self, identifier=name) for name in self._added_graphs - stored)

    def _graphs(self, pattern):
        if pattern.scans_blank_nodes:
            yield from {c.identifier: c for _, cs in self._triples_in_dataset(pattern) for c in cs}.values()
            return
        if self._ask(f"ASK {pattern.group}"):
            yield self._context(None)
        for row in self._select(f"SELECT DISTINCT ?g WHERE {{ GRAPH ?g {pattern.group} }}"):
            yield self._context(row["g"])

    def add_graph(self, graph):
        name = _graph_name(graph)
        if name is not None:
            self._added_graphs.add(name)

    def remove_graph(self, graph):
        name = _graph_name(graph)
        self._added_graphs.discard(name)
        self._database.update("DROP SILENT DEFAULT" if name is None else f"DROP SILENT GRAPH {_term(name)}")

    # SPARQL, run by gsparql

    def query(self, query, initNs, initBindings, queryGraph, **kwargs):
        """Runs the query in gsparql. NotImplementedError (upon which rdflib
        runs it itself, over triples()) for a query object rdflib prepared,
        and for a dataset gsparql cannot give (_dataset)."""
        if not isinstance(query, str):
            raise NotImplementedError("gsparql runs SPARQL text, not rdflib's prepared queries")
        options = self._dataset(queryGraph)
        text = _with_prefixes(query, initNs) + query + _values_clause(initBindings)
        return _rdflib_result(self._database.query(text, **options))

    def update(self, update, initNs, initBindings, queryGraph, **kwargs):
        """Runs the request in gsparql; NotImplementedError (rdflib then runs it
        over triples(), add() and remove()) with initBindings, or for a named
        graph's Graph, whose writes gsparql would send to the default graph."""
        if not isinstance(update, str) or initBindings:
            raise NotImplementedError("gsparql runs SPARQL Update text without initBindings")
        if queryGraph not in (None, "__UNION__") and _graph_name(queryGraph) is not None:
            raise NotImplementedError("an update of a named graph's Graph runs in rdflib")
        options = self._dataset(queryGraph)
        self._database.update(_with_prefixes(update, initNs) + update, **options)

    def _dataset(self, query_graph):
        """Database.query options for rdflib's queryGraph: None, the query's
        own dataset; a graph's identifier, that graph as the default graph;
        "__UNION__" (a ConjunctiveGraph), the union of all graphs, which
        gsparql gives where the default graph or the named graphs are empty."""
        if query_graph is None:
            return {}
        if query_graph == "__UNION__":
            if not self._ask("ASK { GRAPH ?g { ?s ?p ?o } }"):
                return {}
            if not self._ask("ASK { ?s ?p ?o }"):
                return {"union_default_graph": True}
            raise NotImplementedError("gsparql's union default graph leaves out the stored default graph")
        name = _graph_name(query_graph)
        return {} if name is None else {"default_graphs": [str(name)]}

    # Namespaces, kept in memory

    def bind(self, prefix, namespace, override=True):
        if not override and (prefix in self._namespaces or namespace in self._prefixes):
            return
        self._prefixes.pop(self._namespaces.get(prefix), None)
        self._namespaces[prefix] = namespace
        self._prefixes[namespace] = prefix

    def namespace(self, prefix):
        return self._namespaces.get(prefix)

    def prefix(self, namespace):
        return self._prefixes.get(namespace)

    def namespaces(self):
        yield from self._namespaces.items()


def _with_prefixes(text, namespaces):
    """PREFIX lines for the namespaces whose prefix `text` seems to use (as rdflib's SPARQLStore does)."""
    return "".join(f"PREFIX {prefix}: <{namespace}>\n" for prefix, namespace in (namespaces or {}).items()
                   if f"{prefix}:" in text)


def _values_clause(bindings):
    """initBindings as a VALUES clause, blank nodes as the store writes them."""
    return conversion.with_bindings("", {name: _store_value(v) for name, v in (bindings or {}).items()})


def _store_value(node):
    return node.skolemize() if isinstance(node, BNode) else node


def _rdflib_result(answer):
    """An rdflib Result of what Database.query gave (terms in N-Triples syntax)."""
    if isinstance(answer, bool):
        result = Result("ASK")
        result.askAnswer = answer
        return result
    if isinstance(answer, list):
        result = Result("CONSTRUCT")
        result.graph = Graph()
        result.graph.addN((*map(_node, triple), result.graph) for triple in answer)
        return result
    result = Result("SELECT")
    result.vars = [Variable(name) for name in answer.variables]
    result.bindings = [{Variable(name): _node(term) for name, term in row.asdict().items()} for row in answer]
    return result
