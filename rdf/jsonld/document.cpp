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

Position lineAndColumn(std::string_view text, size_t offset) {
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

// A step into a JSON value: an object's key or an array's index.
using Step = std::variant<std::string, size_t>;

// The steps from `node` to `target`, if it is inside it (arrays and objects
// only: a scalar's address says nothing).
bool pathTo(const Json& node, const Json* target, std::vector<Step>& path) {
  if (&node == target) return true;
  if (node.is_object()) {
    for (const auto& [key, value] : node.items()) {
      path.emplace_back(key);
      if (pathTo(value, target, path)) return true;
      path.pop_back();
    }
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i) {
      path.emplace_back(i);
      if (pathTo(node[i], target, path)) return true;
      path.pop_back();
    }
  }
  return false;
}

size_t skipSpace(std::string_view text, size_t at) {
  while (at < text.size() && std::string_view(" \t\r\n").find(text[at]) != std::string_view::npos) ++at;
  return at;
}

// Past the string whose '"' is at `at`.
size_t skipString(std::string_view text, size_t at) {
  for (++at; at < text.size() && text[at] != '"'; ++at) {
    if (text[at] == '\\') ++at;
  }
  return std::min(at + 1, text.size());
}

// Past the value that starts at `at` (the text is valid JSON).
size_t skipValue(std::string_view text, size_t at) {
  if (at >= text.size()) return at;
  if (text[at] == '"') return skipString(text, at);
  if (text[at] != '[' && text[at] != '{') return std::min(text.find_first_of(",]} \t\r\n", at), text.size());
  size_t depth = 0;
  do {
    if (text[at] == '"') {
      at = skipString(text, at);
      continue;
    }
    if (text[at] == '[' || text[at] == '{') ++depth;
    if (text[at] == ']' || text[at] == '}') --depth;
    ++at;
  } while (depth > 0 && at < text.size());
  return at;
}

// Where the value `step` names starts, inside the object or array at `at`; npos if absent.
size_t enter(std::string_view text, size_t at, const Step& step) {
  const bool object = text[at] == '{';
  at = skipSpace(text, at + 1);
  for (size_t index = 0; at < text.size() && text[at] != '}' && text[at] != ']'; ++index) {
    bool found = false;
    if (object) {
      const size_t keyEnd = skipString(text, at);
      found = std::holds_alternative<std::string>(step) &&
              Json::parse(text.substr(at, keyEnd - at)).get<std::string>() == std::get<std::string>(step);
      at = skipSpace(text, skipSpace(text, keyEnd) + 1);  // past ':'
    } else {
      found = std::holds_alternative<size_t>(step) && std::get<size_t>(step) == index;
    }
    if (found) return at;
    at = skipSpace(text, skipValue(text, at));
    if (at < text.size() && text[at] == ',') at = skipSpace(text, at + 1);
  }
  return std::string_view::npos;
}

}  // namespace

std::optional<std::pair<uint64_t, uint64_t>> positionOf(std::string_view text, const Json& document, const Json* element) {
  std::vector<Step> path;
  if (!pathTo(document, element, path)) return std::nullopt;
  size_t at = skipSpace(text, 0);
  for (const Step& step : path) {
    if (at >= text.size() || (text[at] != '{' && text[at] != '[')) return std::nullopt;
    at = enter(text, at, step);
    if (at == std::string_view::npos) return std::nullopt;
  }
  const Position position = lineAndColumn(text, at);
  return std::pair{position.line, position.column};
}

Json parseJson(std::string_view text) {
  if (const std::optional<Problem> problem = prescan(text)) {
    const Position at = lineAndColumn(text, problem->offset);
    throw JsonSyntaxError(at.line, at.column, problem->message);
  }
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    // nlohmann's byte is one past the character it stopped at.
    const Position at = lineAndColumn(text, e.byte > 0 ? e.byte - 1 : 0);
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
