#pragma once
// SPARQL result writers: SELECT solutions and ASK answers in the W3C result
// formats (TSV, CSV, JSON, XML) and as a terminal table.
//
// Terms arrive in the textual form of rdf/term.h (canonical N-Triples). The
// TSV, JSON, XML and CSV writers reproduce what Apache Jena 4.5 writes; the
// exact rules and the few deliberate differences are in docs/result-formats.md.
//
// Writers buffer their output and write it to `out` in large blocks; `end()`
// and `boolean()` flush. The stream must outlive the writer.
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gsparql::results {

// NTriples and the ones after it are graph formats (GraphWriter), the others
// solution formats. The graph formats' names, media types and extensions are
// in rdf/rdf_formats.h.
enum class Format { Table, Tsv, Csv, Json, Xml, NTriples, Turtle, NQuads, TriG, RdfXml, JsonLd };
inline bool isGraphFormat(Format format) { return format >= Format::NTriples; }

// PREFIX declarations of the query ("ex" (for ex:) -> namespace IRI), for output that abbreviates IRIs.
using Prefixes = std::vector<std::pair<std::string, std::string>>;

// "table", "tsv", "csv", "json", "xml" (lower case only), or a graph syntax's
// name or alias in rdf/rdf_formats.h ("nt", "ttl", "nq", "trig", "rdfxml", ...); nullopt otherwise.
std::optional<Format> formatFromName(std::string_view name);
std::string_view formatName(Format format);

class ResultWriter {
 public:
  virtual ~ResultWriter() = default;
  // SELECT: header, then rows (one term per variable, std::nullopt = unbound), then end.
  virtual void begin(const std::vector<std::string>& variables) = 0;  // names without '?'
  virtual void row(std::span<const std::optional<std::string_view>> terms) = 0;
  virtual void end() = 0;
  // ASK: instead of begin/row/end.
  virtual void boolean(bool value) = 0;
};

// A solution format; the table abbreviates IRIs with `prefixes`.
std::unique_ptr<ResultWriter> makeResultWriter(Format format, std::ostream& out, const Prefixes& prefixes = {});

// What a graph writer cannot write: a quad in a syntax without named graphs,
// a predicate RDF/XML cannot name, a character XML 1.0 cannot carry.
class WriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// CONSTRUCT and DESCRIBE results, and dumps: triples of terms in rdf/term.h form.
class GraphWriter {
 public:
  virtual ~GraphWriter() = default;
  virtual void triple(std::string_view subject, std::string_view predicate, std::string_view object) = 0;
  // `graph` is a named graph's name (an IRI or blank node term), or empty for
  // the default graph. Syntaxes without named graphs throw WriteError for a
  // named graph's triple.
  virtual void quad(std::string_view subject, std::string_view predicate, std::string_view object,
                    std::string_view graph);
  virtual void end() = 0;
};

// A graph format: N-Triples, N-Quads, Turtle and TriG (with `prefixes`
// declared and used), RDF/XML (`prefixes` as XML namespaces where they fit),
// JSON-LD (`prefixes` as its context; engine/results/jsonld_writer.cpp).
std::unique_ptr<GraphWriter> makeGraphWriter(Format format, std::ostream& out, const Prefixes& prefixes = {});

}  // namespace gsparql::results
