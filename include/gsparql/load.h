#pragma once
// Options and results of loading RDF into a database.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gsparql/export.h"

namespace gsparql {

enum class RdfFormat { NTriples, Turtle, NQuads, TriG, RdfXml, JsonLd };

// A syntax the loader reads, by name, alias or media type, case-insensitively:
// "nt", "ntriples", "ttl", "turtle", "nq", "trig", "rdfxml", "jsonld", "application/rdf+xml", ...
GSPARQL_API std::optional<RdfFormat> rdfFormatFromName(std::string_view name);
// The short names of the syntaxes the loader reads: "nt, ttl, nq, trig, rdfxml, jsonld".
GSPARQL_API std::string rdfFormatNames();

struct LoadProgress {
  std::string input;
  uint64_t bytesRead = 0;    // of the current input, before decompression
  uint64_t bytesTotal = 0;   // 0 when unknown (standard input)
  uint64_t triplesRead = 0;  // over all inputs so far
  double seconds = 0;
};

struct LoadOptions {
  bool lenient = false;              // skip bad statements instead of stopping
  std::optional<RdfFormat> format;   // else by extension (rdf/rdf_formats.h); standard input defaults to N-Triples
  // Working memory for the triples, sorted and spilled to disk when it is
  // full, and for the pieces of input being parsed. The terms' dictionary is
  // held in memory beside it: its text plus about 30 bytes a term.
  uint64_t memoryBudgetBytes = uint64_t{4} << 30;
  std::function<void(const LoadProgress&)> onProgress;  // a few times a second
  // The named graph that triples without a graph go to (N-Triples, Turtle,
  // N-Quads' default-graph lines), as an N-Triples IRI "<...>"; empty: the default graph.
  std::string graph;
  // JSON-LD: remote context URLs and the local files read for them, as
  // `--jsonld-context URL=FILE` gives them (a URL ending in '/' maps a
  // folder). Nothing is ever fetched; any other remote context is an error.
  std::vector<std::pair<std::string, std::string>> jsonLdContexts;
  // Whether the new generation has a text index (the words of its string
  // literals, for text:query); unset: as the database has (yes for a new one).
  std::optional<bool> textIndex;
};

struct LoadSummary {
  uint64_t triplesRead = 0;
  uint64_t triplesBefore = 0;  // in the database before the load
  uint64_t uniqueTriples = 0;  // in the database after the load
  uint64_t terms = 0;
  uint64_t predicates = 0;  // of each graph, as DatabaseStatistics::predicates counts them
  double seconds = 0;
  double parseSeconds = 0;      // reading, parsing and encoding the inputs (all cores)
  double encodeSeconds = 0;     // of parseSeconds: interning terms, which takes pieces in input order
  double sortSeconds = 0;       // sorting triples, while reading (spills) and after
  double buildSeconds = 0;      // after reading: sorting, merging, dictionary and adjacency files
  double adjacencySeconds = 0;  // of buildSeconds: merging and writing the adjacency
  double termFilesSeconds = 0;  // of buildSeconds, beside the adjacency: dictionary, term and value columns, text index
  double textIndexSeconds = 0;  // of termFilesSeconds, beside the others: the text index
  uint64_t peakMemoryBytes = 0;  // the process's peak resident memory
  uint64_t skippedStatements = 0;        // with lenient
  std::vector<std::string> firstErrors;  // "file:line:column: message", at most five
};

}  // namespace gsparql
