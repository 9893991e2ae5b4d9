#pragma once
// JSON text to a JSON value, with the byte offset of a syntax error made a
// line and column, and nesting bounded (a deeper document is refused before
// it is parsed, so no recursive algorithm runs out of stack); and the
// document loader that serves remote contexts from local files only.
#include <map>
#include <optional>
#include <utility>
#include <variant>
#include <vector>
#include <string>
#include <string_view>

#include "rdf/jsonld/common.h"

namespace gsparql::jsonld {

// Arrays and objects nested deeper than this are refused: expansion recurses
// once per level, a few kilobytes a level (more under ASan, where 512 levels
// of node objects overflowed the 8 MB stack).
inline constexpr size_t kMaxJsonNesting = 256;

// Throws JsonSyntaxError.
Json parseJson(std::string_view text);

class JsonSyntaxError : public std::runtime_error {
 public:
  JsonSyntaxError(uint64_t line, uint64_t column, const std::string& message)
      : std::runtime_error(message), line(line), column(column) {}
  uint64_t line, column;
};

// Where `element` (an array or object inside `document`, parsed from
// `text`) starts in the text: its line and column; nullopt if it is no part
// of the document.
std::optional<std::pair<uint64_t, uint64_t>> positionOf(std::string_view text, const Json& document, const Json* element);

// URLs mapped to local files: an exact URL to a file, or a URL ending in
// '/' to a folder (the rest of the URL is the path under it). Anything
// else is refused: nothing is fetched over a network.
class LocalDocumentLoader {
 public:
  void map(const std::string& url, const std::string& path) { paths_[url] = path; }
  bool empty() const { return paths_.empty(); }
  // Reads and parses the file (each once); throws JsonLdError.
  RemoteDocument load(const std::string& url);
  DocumentLoader asLoader();

 private:
  std::map<std::string, std::string> paths_;
  std::map<std::string, Json> cache_;
};

}  // namespace gsparql::jsonld
