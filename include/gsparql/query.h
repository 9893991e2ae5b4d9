#pragma once
// Running SPARQL queries through the embedding API.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstddef>
#include <iosfwd>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gsparql/export.h"

namespace gsparql {

enum class Backend { Auto, Cpu, Gpu };  // Auto: the GPU where one is present
enum class Semantics {
  Homomorphism,  // SPARQL: two variables may match the same term
  Isomorphism,   // injective, for comparisons with subgraph-isomorphism systems
};

// How each BGP's join order and row estimates are chosen.
enum class Optimizer {
  Statistics,  // per-predicate statistics alone pick each next vertex (SGSI's heuristic)
  // Random walks over the data (Wander Join) pick each next vertex and
  // estimate its rows; dynamic programming searches the orders where the
  // plan runs long enough, on the executor that runs it, to pay for it.
  Walks,
  // The walks' plan, and where the calibrated cost model
  // (gsparql/cost_model.h) prices it at 100 us or more, the cheapest plan of
  // dynamic programming over connected sub-patterns; from 1 ms, estimated
  // again by many walks (on the GPU where it runs the query).
  Thorough,
  // The names of 0.1, for code written against them.
  Sampling = Walks,
  Cost = Thorough,
};

// Where SERVICE (SPARQL 1.1 Federated Query) may send a query's patterns:
// http and https endpoints only, and of those every one (`any`, the API's
// and `gsparql query`'s default) or those `allowed` lists. `gsparql serve`
// allows none unless told (--service-allow): a query must not make a server
// fetch URLs of its choosing (SSRF). An endpoint refused here is a QueryError
// naming it, SILENT or not; a redirect is followed only to an allowed one.
struct ServiceAccess {
  bool any = true;
  // An endpoint is allowed when it equals an entry, or starts with it and
  // goes on after a '/' or '?' ("http://a/sparql" allows "http://a/sparql/x", not
  // "http://a/sparqlx"; "http://a/" allows all of host a).
  std::vector<std::string> allowed{};
  // Each request may take this long (and no longer than the query's timeout
  // leaves) and send this many bytes back; past either it fails.
  std::chrono::milliseconds requestTimeout{60000};
  uint64_t maxResponseBytes = 64ull << 20;
  // curl's --connect-to: "HOST:PORT:CONNECT-HOST:CONNECT-PORT" entries (an
  // empty HOST or PORT matches any; the first match wins). A request to
  // HOST:PORT connects to the other address instead, its URL and Host
  // unchanged: endpoints named by IRIs that are not where they are served
  // (the W3C tests' http://example.org/sparql, a staging copy).
  std::vector<std::string> connectTo{};

  static ServiceAccess none() { return {.any = false}; }
};

// What a triple pattern matches: the stored triples (Simple), or also those
// the schema's rdfs:subClassOf, rdfs:subPropertyOf, rdfs:domain and
// rdfs:range entail (Rdfs; SPARQL 1.1 Entailment Regimes, section 4).
enum class Entailment { Simple, Rdfs };

struct QueryOptions {
  Backend backend = Backend::Auto;
  Semantics semantics = Semantics::Homomorphism;
  // When set (from another thread or a signal handler) while the query runs,
  // the query stops soon after and throws QueryCancelled.
  const std::atomic<bool>* cancel = nullptr;
  // Time each join step on its own for explain() (on the GPU, device time
  // between events around each kernel); off, steps fused on the GPU share one time.
  bool stepTimes = false;
  // Fill QuerySummary::explain (Database::queryTo). Off by default: the
  // plan's text reads the terms of its constants from the dictionary.
  bool explain = false;
  // The query stops with QueryTimedOut once it has run this long (checked
  // inside every operator's loops, within a few milliseconds of work; a GPU
  // kernel runs to its end).
  std::optional<std::chrono::milliseconds> timeout{};
  // The most its intermediate results may hold at once; past it the query
  // stops with QueryOutOfMemory. 0: defaultMemoryBudgetBytes().
  uint64_t memoryBudgetBytes = 0;
  Optimizer optimizer = Optimizer::Walks;
  // The most rows (a graph: triples) the result may have; a query that
  // would give more stops with QueryResultTooLarge. 0: no limit.
  uint64_t maxRows = 0;
  // The RDF dataset, as absolute IRIs, in place of the query's FROM and
  // FROM NAMED (the Protocol's default-graph-uri and named-graph-uri); both
  // empty: the query's own. For an update: the USING and USING NAMED of each
  // operation with a WHERE pattern (the Protocol's using-graph-uri and
  // using-named-graph-uri); such an operation may then name none itself,
  // nor WITH (a QueryError).
  std::vector<std::string> defaultGraphs{}, namedGraphs{};
  // Without FROM (or defaultGraphs), the default graph is the union of the
  // named graphs, as Fuseki's unionDefaultGraph; updates still write the
  // stored default graph.
  bool unionDefaultGraph = false;
  // The base IRI of the text before its own BASE (empty: none): relative
  // IRIs resolve against it. `gsparql serve` gives its endpoint's URL, as
  // SPARQL 1.1 Protocol 2.1.4 allows.
  std::string baseIri{};
  ServiceAccess service{};
  // GeoSPARQL's query rewrite (docs/geosparql.md): a topological property
  // such as geo:sfWithin in a pattern also matches where the two ends'
  // geometries stand in the relation, not only where the triple is stored.
  bool geosparqlRewrite = true;
  // The entailment regime the patterns match under (docs/engine.md#rdfs-entailment).
  Entailment entailment = Entailment::Simple;
};

// Half of the machine's memory: a runaway query stops with an error while
// the rest of the machine (and the process) carries on.
GSPARQL_API uint64_t defaultMemoryBudgetBytes();

// What a query returns: solutions, a boolean or a graph.
enum class QueryForm { Select, Ask, Construct, Describe };

enum class ResultFormat {
  Table,  // for people at a terminal
  Tsv,    // SPARQL 1.1 TSV; for ordered queries byte for byte what Jena's arq writes
  Csv,    // SPARQL 1.1 CSV
  Json,   // SPARQL 1.1 Query Results JSON
  Xml,    // SPARQL Query Results XML
  NTriples,  // CONSTRUCT and DESCRIBE results
  Turtle,    // CONSTRUCT and DESCRIBE results, with the query's prefixes
  NQuads,    // graphs: N-Triples lines, or quads for a dataset's dump
  TriG,      // graphs: Turtle, or graph blocks for a dataset's dump
  RdfXml,    // graphs: RDF/XML, one rdf:Description a triple
  JsonLd,    // graphs: JSON-LD 1.1, compacted with the query's prefixes (named graphs as @graph)
};
// "table", "tsv", "csv", "json", "xml", and the graph syntaxes' names and
// aliases ("nt", "ttl", "nq", "trig", "rdfxml", "turtle", ...); nullopt for anything else.
GSPARQL_API std::optional<ResultFormat> resultFormatFromName(std::string_view name);
// The short name of a format ("tsv", "ttl", "rdfxml").
GSPARQL_API std::string_view resultFormatName(ResultFormat format);
// NTriples, Turtle, NQuads, TriG, RdfXml, JsonLd: the formats of CONSTRUCT and DESCRIBE results.
GSPARQL_API bool isGraphFormat(ResultFormat format);

// The SPARQL algebra of a query and the query graph of each of its basic
// graph patterns, as `gsparql parse` prints them; no database needed. A
// syntax error is a QueryError with its position.
GSPARQL_API std::string describeParsedQuery(std::string_view text);

struct QueryTimings {
  double parseMilliseconds = 0;
  double planMilliseconds = 0;
  double executeMilliseconds = 0;  // the operator tree, solution modifiers included
};

// What a query written as it runs (Database::queryTo) reports at its end.
struct QuerySummary {
  uint64_t rows = 0;      // SELECT rows written (ASK: 1; a graph: its triples)
  QueryTimings timings;   // for a SELECT, execution includes writing its rows
  // SELECT: the part of execution spent turning ids into terms and writing
  // them, and the cells (rows times variables) written.
  double writeMilliseconds = 0;
  uint64_t cells = 0;
  std::string explain;    // as QueryResult::explain(), where QueryOptions::explain asked for it
  bool stopped = false;   // the output failed (a closed pipe, a full disk): the query stopped there
};

// An operator's or a BGP join step's estimated and actual rows (what
// EXPLAIN shows), to judge the planner's estimates by.
struct RowEstimate {
  std::string what;  // the operator, or "join step K of" it
  double estimated = 0;
  uint64_t actual = 0;
  double qError = 1;  // max(estimated/actual, actual/estimated), each at least 1 row; 1 is exact
};

// One result cell: a term in N-Triples syntax (<iri>, _:b, "lex"@lang,
// "lex"^^<dt>), or nullopt where the variable is unbound.
using Term = std::optional<std::string_view>;

// The answer to a query. Rows stay as ids until they are read, and are
// decoded a batch at a time. Valid while its Database is.
class GSPARQL_API QueryResult {
 public:
  class Impl;
  explicit QueryResult(std::unique_ptr<Impl> impl);
  ~QueryResult();
  QueryResult(QueryResult&&) noexcept;
  QueryResult& operator=(QueryResult&&) noexcept;

  bool isBoolean() const;  // ASK
  bool booleanValue() const;
  bool isGraph() const;  // CONSTRUCT, DESCRIBE
  size_t tripleCount() const;
  // Calls `visit` with each triple of a graph result (terms in N-Triples syntax).
  void forEachTriple(const std::function<void(std::string_view, std::string_view, std::string_view)>& visit) const;
  const std::vector<std::string>& variables() const;  // without '?'
  size_t rowCount() const;
  // Calls `visit` with each row in order; the terms are valid during the call.
  void forEachRow(const std::function<void(std::span<const Term>)>& visit) const;
  // Writes the whole result (SELECT rows, the ASK boolean, or the graph) in
  // `format`. A graph is written as N-Triples or Turtle (Turtle for Table);
  // asking for a solutions format for a graph, or the reverse, throws QueryError.
  void write(std::ostream& out, ResultFormat format) const;
  // Every row, copied: convenient for small results.
  std::vector<std::vector<std::optional<std::string>>> rows() const;

  const QueryTimings& timings() const;
  std::string explain() const;  // plan, estimated and actual rows per step
  // Every operator and join step that ran, as explain() lists them.
  std::vector<RowEstimate> rowEstimates() const;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace gsparql
