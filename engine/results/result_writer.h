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
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gsparql::results {

// NTriples and Turtle are graph formats (GraphWriter), the others solution formats.
enum class Format { Table, Tsv, Csv, Json, Xml, NTriples, Turtle };

// PREFIX declarations of the query ("ex" (for ex:) -> namespace IRI), for output that abbreviates IRIs.
using Prefixes = std::vector<std::pair<std::string, std::string>>;

// "table", "tsv", "csv", "json", "xml", "nt", "ttl" (lower case only); nullopt otherwise.
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

// CONSTRUCT and DESCRIBE results: triples of terms in rdf/term.h form.
class GraphWriter {
 public:
  virtual ~GraphWriter() = default;
  virtual void triple(std::string_view subject, std::string_view predicate, std::string_view object) = 0;
  virtual void end() = 0;
};

// NTriples, or Turtle with `prefixes` declared and used.
std::unique_ptr<GraphWriter> makeGraphWriter(Format format, std::ostream& out, const Prefixes& prefixes = {});

}  // namespace gsparql::results
