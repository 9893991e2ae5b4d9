"""The rdflib store: Graph(store="gsparql") over a gsparql database."""
import importlib.metadata

import pytest
import rdflib
from rdflib import BNode, ConjunctiveGraph, Dataset, Graph, Literal, Namespace, URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID
from rdflib.plugins.sparql.processor import SPARQLProcessor, SPARQLUpdateProcessor
from rdflib.store import NO_STORE, VALID_STORE

import gsparql
from conftest import PEOPLE
from gsparql.rdflib_store import GsparqlStore

EX = Namespace("http://example.org/")
FOAF = Namespace("http://xmlns.com/foaf/0.1/")


@pytest.fixture
def graph(tmp_path):
    graph = Graph(store="gsparql")
    assert graph.open(str(tmp_path / "store"), create=True) == VALID_STORE
    yield graph
    graph.close()


@pytest.fixture
def only_gsparql_runs_sparql(monkeypatch):
    """rdflib's own SPARQL engine fails: what runs, ran in gsparql."""
    def refuse(*args, **kwargs):
        raise AssertionError("rdflib's SPARQL engine ran")

    monkeypatch.setattr(SPARQLProcessor, "query", refuse)
    monkeypatch.setattr(SPARQLUpdateProcessor, "update", refuse)


def test_the_dist_info_registers_the_store_with_rdflib():
    entry_points = importlib.metadata.entry_points(group="rdf.plugins.store")
    assert [e.value for e in entry_points if e.name == "gsparql"] == ["gsparql.rdflib_store:GsparqlStore"]
    assert rdflib.plugin.get("gsparql", rdflib.store.Store) is GsparqlStore


def test_open_without_create_needs_a_database(tmp_path):
    graph = Graph(store="gsparql")
    assert graph.open(str(tmp_path / "none"), create=False) == NO_STORE
    assert not (tmp_path / "none").exists()
    with pytest.raises(gsparql.Error, match="not open"):
        len(graph)


def test_add_len_and_triples_with_patterns(graph):
    graph.add((EX.alice, FOAF.knows, EX.bob))
    graph.add((EX.alice, FOAF.age, Literal(42)))
    graph.addN([(EX.bob, FOAF.knows, EX.carol, graph), (EX.bob, FOAF.name, Literal("Bob", lang="en"), graph)])
    assert len(graph) == 4
    assert set(graph.triples((EX.alice, None, None))) == {(EX.alice, FOAF.knows, EX.bob),
                                                          (EX.alice, FOAF.age, Literal(42))}
    assert set(graph.subjects(FOAF.knows, None)) == {EX.alice, EX.bob}
    assert list(graph.objects(EX.bob, FOAF.name)) == [Literal("Bob", lang="en")]
    assert list(graph.subjects(None, Literal(42))) == [EX.alice]
    assert (EX.alice, FOAF.knows, EX.bob) in graph
    assert (EX.bob, FOAF.knows, EX.alice) not in graph
    assert {o for _, _, o in graph.triples_choices((None, [FOAF.age, FOAF.name], None))} == \
        {Literal(42), Literal("Bob", lang="en")}


def test_a_blank_node_stays_one_node_across_adds(graph):
    node = BNode()
    graph.add((EX.alice, EX.address, node))
    graph.add((node, EX.city, Literal("Paris")))
    assert list(graph.objects(EX.alice, EX.address)) == [node]
    assert list(graph.objects(node, EX.city)) == [Literal("Paris")]
    assert graph.value(graph.value(EX.alice, EX.address), EX.city) == Literal("Paris")
    graph.remove((node, None, None))
    assert len(graph) == 1


def test_blank_nodes_of_loaded_data_can_be_followed(tmp_path):
    gsparql.Database(tmp_path / "db").load(PEOPLE)
    graph = Graph(store="gsparql")
    graph.open(str(tmp_path / "db"))
    address = graph.value(EX.dave, EX.address)
    assert isinstance(address, BNode)
    assert graph.value(address, EX.city) == Literal("Paris")
    assert set(graph.predicate_objects(address)) == {(EX.city, Literal("Paris")), (EX.zip, Literal("75001"))}


def test_remove_patterns_and_triples(graph):
    graph.addN((EX[s], EX.p, Literal(i), graph) for i, s in enumerate("abc"))
    graph.add((EX.a, EX.q, EX.b))
    graph.remove((EX.a, EX.p, Literal(0)))
    assert len(graph) == 3
    graph.remove((None, EX.p, None))
    assert list(graph) == [(EX.a, EX.q, EX.b)]
    graph.remove((EX.a, EX.q, EX.b))
    assert len(graph) == 0


def test_reopening_sees_the_data(tmp_path):
    graph = Graph(store="gsparql")
    graph.open(str(tmp_path / "db"), create=True)
    graph.add((EX.a, EX.p, EX.b))
    graph.close()
    again = Graph(store="gsparql")
    assert again.open(str(tmp_path / "db")) == VALID_STORE
    assert list(again) == [(EX.a, EX.p, EX.b)]
    assert gsparql.Database(tmp_path / "db").query("ASK { ?s ?p ?o }") is True
    again.destroy(str(tmp_path / "db"))
    assert not (tmp_path / "db").exists()


def test_graph_query_runs_in_gsparql(graph, only_gsparql_runs_sparql):
    graph.parse(PEOPLE)
    result = graph.query("SELECT ?name WHERE { ?p foaf:age ?age ; foaf:name ?name } ORDER BY DESC(?age)")
    assert result.vars == [rdflib.Variable("name")]
    assert [row.name for row in result] == [Literal("Alice", lang="en"), Literal("Bob"), Literal("Dave")]
    assert graph.query("ASK { ex:alice foaf:knows ex:bob }", initNs={"ex": EX, "foaf": FOAF}).askAnswer is True
    rows = graph.query("SELECT ?p WHERE { ?p foaf:age ?age }", initBindings={"age": Literal(35)})
    assert [row.p for row in rows] == [EX.bob]
    constructed = graph.query("CONSTRUCT { ?b ex:knownBy ?a } WHERE { ?a foaf:knows ?b }",
                              initNs={"ex": EX, "foaf": FOAF}).graph
    assert isinstance(constructed, Graph) and (EX.dave, EX.knownBy, EX.carol) in constructed
    assert len(constructed) == 4


def test_graph_update_runs_in_gsparql(graph, only_gsparql_runs_sparql):
    graph.parse(PEOPLE)
    graph.update("DELETE { ?p foaf:age ?age } INSERT { ?p foaf:age ?n } "
                 "WHERE { ?p foaf:age ?age BIND(?age * 2 AS ?n) }", initNs={"foaf": FOAF})
    assert graph.value(EX.dave, FOAF.age) == Literal(38)
    with pytest.raises(gsparql.QueryError) as error:
        graph.update("INSERT DATA {\n  <a> <b> }")
    assert error.value.line == 2


def test_what_gsparql_cannot_run_falls_back_to_rdflib(graph):
    graph.add((EX.a, EX.p, Literal(1)))
    graph.update("INSERT { ?s ex:q ?v } WHERE { ?s ex:p ?o }", initNs={"ex": EX}, initBindings={"v": Literal(2)})
    assert graph.value(EX.a, EX.q) == Literal(2)


def test_bind_and_namespaces(graph):
    graph.bind("ex", EX)
    assert graph.store.namespace("ex") == URIRef(EX)
    assert graph.store.prefix(URIRef(EX)) == "ex"
    assert ("ex", URIRef(EX)) in list(graph.namespaces())
    graph.add((EX.a, EX.p, EX.b))
    assert "ex:a ex:p ex:b" in graph.serialize(format="turtle")


def test_named_graphs_of_a_dataset(tmp_path, only_gsparql_runs_sparql):
    dataset = Dataset(store="gsparql")
    dataset.open(str(tmp_path / "db"), create=True)
    people = dataset.graph(EX.people)
    people.add((EX.alice, FOAF.knows, EX.bob))
    dataset.add((EX.alice, FOAF.age, Literal(42)))
    empty = dataset.graph(EX.empty)
    assert (len(people), len(dataset.graph(DATASET_DEFAULT_GRAPH_ID)), len(empty)) == (1, 1, 0)
    assert {g.identifier for g in dataset.contexts()} == {EX.people, EX.empty, DATASET_DEFAULT_GRAPH_ID}
    assert {c.identifier for c in dataset.store.contexts((EX.alice, FOAF.knows, EX.bob))} == {EX.people}
    assert {c.identifier for c in dataset.store.contexts((EX.alice, None, Literal(42)))} == {DATASET_DEFAULT_GRAPH_ID}
    rows = dataset.query("SELECT ?g ?o WHERE { GRAPH ?g { ex:alice ?p ?o } }", initNs={"ex": EX})
    assert [(row.g, row.o) for row in rows] == [(EX.people, EX.bob)]
    assert [row.o for row in people.query("SELECT ?o WHERE { ?s ?p ?o }")] == [EX.bob]
    assert [row.o for row in dataset.query("SELECT ?o WHERE { ?s ?p ?o }")] == [Literal(42)]
    dataset.remove_graph(people)
    assert len(people) == 0 and len(dataset.graph(DATASET_DEFAULT_GRAPH_ID)) == 1


def test_a_conjunctive_graph_reads_every_graph(tmp_path):
    graph = ConjunctiveGraph(store="gsparql")
    graph.open(str(tmp_path / "db"), create=True)
    graph.get_context(EX.g1).add((EX.a, EX.p, Literal(1)))
    graph.get_context(EX.g2).add((EX.a, EX.p, Literal(1)))
    assert len(graph) == 1
    assert {(s, p, o, c.identifier) for s, p, o, c in graph.quads((None, None, None))} == \
        {(EX.a, EX.p, Literal(1), EX.g1), (EX.a, EX.p, Literal(1), EX.g2)}
    # Named graphs alone: gsparql's union of the named graphs, a set of triples.
    assert [row.o for row in graph.query("SELECT ?o WHERE { ?s ?p ?o }")] == [Literal(1)]
    # With the default graph too, rdflib runs it over the store's triples.
    graph.add((EX.b, EX.p, Literal(2)))
    assert len(graph) == 2
    assert sorted(row.o for row in graph.query("SELECT ?o WHERE { ?s ?p ?o }")) == [Literal(1), Literal(2)]
