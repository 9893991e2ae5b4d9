#include "rdf/jsonld/document.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

namespace gsparql::jsonld {
namespace {

struct Position {
  uint64_t line = 1, column = 1;
};

Position positionOf(std::string_view text, size_t offset) {
  Position at;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++at.line;
      at.column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++at.column;
    }
  }
  return at;
}

struct Problem {
  size_t offset;
  std::string message;
};

// What nlohmann's parser would not say well, found before it runs: an
// array or object nested deeper than kMaxJsonNesting (its DOM would be
// walked by recursive algorithms), a number too large for a double (its
// parser throws that without a position). Strings are stepped over.
std::optional<Problem> prescan(std::string_view text) {
  size_t depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        inString = false;
      }
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonNesting) {
        return Problem{i, "arrays and objects nested deeper than " + std::to_string(kMaxJsonNesting) + " levels"};
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const size_t end = std::min(text.find_first_not_of("0123456789+-.eE", i), text.size());
      const std::string number(text.substr(i, end - i));
      if (std::isinf(std::strtod(number.c_str(), nullptr))) return Problem{i, "the number " + number + " is too large"};
      i = end - 1;
    }
  }
  return std::nullopt;
}

}  // namespace

Json parseJson(std::string_view text) {
  if (const std::optional<Problem> problem = prescan(text)) {
    const Position at = positionOf(text, problem->offset);
    throw JsonSyntaxError(at.line, at.column, problem->message);
  }
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    // nlohmann's byte is one past the character it stopped at.
    const Position at = positionOf(text, e.byte > 0 ? e.byte - 1 : 0);
    std::string message = e.what();
    if (const size_t colon = message.find(": ", message.find("parse error")); colon != std::string::npos) {
      message.erase(0, colon + 2);
    }
    throw JsonSyntaxError(at.line, at.column, "invalid JSON: " + message);
  }
}

RemoteDocument LocalDocumentLoader::load(const std::string& url) {
  std::string path;
  for (const auto& [mapped, file] : paths_) {
    if (url == mapped) path = file;
    // Under a mapped folder, but never above it.
    const std::string rest = url.substr(std::min(mapped.size(), url.size()));
    if (mapped.ends_with('/') && url.starts_with(mapped) && path.empty() && rest.find("..") == std::string::npos) {
      path = file + "/" + rest;
    }
  }
  if (path.empty()) {
    throw JsonLdError("loading document failed",
                      url + " is not fetched: remote documents are read only from local files (--jsonld-context URL=FILE)");
  }
  if (auto cached = cache_.find(path); cached != cache_.end()) return {url, cached->second};
  std::ifstream in(path, std::ios::binary);
  if (!in) throw JsonLdError("loading document failed", url + ": cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return {url, cache_[path] = parseJson(text.str())};
  } catch (const JsonSyntaxError& e) {
    throw JsonLdError("loading document failed", path + ":" + std::to_string(e.line) + ":" +
                                                     std::to_string(e.column) + ": " + e.what());
  }
}

DocumentLoader LocalDocumentLoader::asLoader() {
  return [this](const std::string& url) { return load(url); };
}

}  // namespace gsparql::jsonld
