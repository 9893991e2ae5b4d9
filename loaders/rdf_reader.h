#pragma once
// Streams the statements of one RDF document, with every term in the
// rdf/term.h form: N-Triples, Turtle, N-Quads and TriG (RDF 1.2) through
// loaders/turtle_reader.h, each statement with its graph; RDF/XML through
// Raptor (loaders/rdfxml_reader.h); JSON-LD by loaders/jsonld_reader.h.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gsparql/load.h"
#include "loaders/input_stream.h"

namespace gsparql {

struct RdfStatementView {
  std::string_view subject, predicate, object;
  std::string_view graph;  // the named graph's name; empty: the default graph
};
using StatementHandler = std::function<void(const RdfStatementView&)>;

struct RdfReadOptions {
  // Skip bad statements instead of stopping at the first one.
  bool lenient = false;
  // Prepended to every blank-node label, so that each input has its own.
  std::string blankNodePrefix;
  // Relative IRIs resolve against this; empty means the file's file:// URI.
  std::string baseIri;
  // The graph of statements that name none (all of N-Triples and Turtle), as
  // an N-Triples term; empty: the default graph.
  std::string defaultGraph;
  // The line number of the input's first byte, where it is a chunk of a larger input.
  uint64_t firstLine = 1;
  // JSON-LD: remote context URLs and the local files read for them (a URL
  // ending in '/' maps a folder); no other context is loaded.
  std::vector<std::pair<std::string, std::string>> jsonLdContexts;
};

struct RdfReadReport {
  static constexpr size_t kErrorsKept = 5;
  uint64_t statements = 0;
  uint64_t skipped = 0;                  // lenient mode only
  std::vector<std::string> firstErrors;  // "file:line:column: message", the first kErrorsKept

  bool keepsMoreErrors() const { return firstErrors.size() < kErrorsKept; }
  void keepError(std::string error) {
    if (keepsMoreErrors()) firstErrors.push_back(std::move(error));
  }
};

// Throws LoadError at the first bad statement unless options.lenient.
RdfReadReport readRdf(InputStream& input, const std::string& name, RdfFormat format,
                      const StatementHandler& onStatement, const RdfReadOptions& options = {});

// Opens (and decompresses) `file` and reads it strictly.
void readRdfFile(const std::filesystem::path& file, RdfFormat format,
                 const StatementHandler& onStatement);

// N-Triples and N-Quads: one statement a line.
inline bool isLineBased(RdfFormat format) { return format == RdfFormat::NTriples || format == RdfFormat::NQuads; }

// By extension, ignoring a compression suffix: .nt, .ttl, .nq, .trig, .rdf,
// .owl, .xml (rdf/rdf_formats.h). Names and media types: gsparql::rdfFormatFromName.
std::optional<RdfFormat> rdfFormatOfFileName(const std::string& name);

}  // namespace gsparql
