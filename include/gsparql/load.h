#pragma once
// Options and results of loading RDF into a database.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gsparql {

enum class RdfFormat { NTriples, Turtle, NQuads };

struct LoadProgress {
  std::string input;
  uint64_t bytesRead = 0;    // of the current input, before decompression
  uint64_t bytesTotal = 0;   // 0 when unknown (standard input)
  uint64_t triplesRead = 0;  // over all inputs so far
  double seconds = 0;
};

struct LoadOptions {
  bool lenient = false;              // skip bad statements instead of stopping
  std::optional<RdfFormat> format;   // else by extension; standard input defaults to N-Triples
  uint64_t sortBufferBytes = uint64_t{1} << 30;  // triples held in memory before spilling to disk
  std::function<void(const LoadProgress&)> onProgress;  // a few times a second
  std::function<void(const std::string&)> onWarning;
};

struct LoadSummary {
  uint64_t triplesRead = 0;
  uint64_t uniqueTriples = 0;  // in the database after the load
  uint64_t terms = 0;
  uint64_t predicates = 0;
  double seconds = 0;
  double parseSeconds = 0;   // reading and encoding the inputs
  double buildSeconds = 0;   // sorting, dictionary and adjacency files
  uint64_t skippedStatements = 0;        // with lenient
  std::vector<std::string> firstErrors;  // "file:line:column: message", at most five
};

}  // namespace gsparql
