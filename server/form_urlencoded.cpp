#include "server/form_urlencoded.h"

#include <algorithm>
#include <optional>

namespace gsparql::server {
namespace {

std::optional<int> hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return std::nullopt;
}

std::string fieldDecoded(std::string_view text) {
  std::string plain(text);
  std::replace(plain.begin(), plain.end(), '+', ' ');
  return percentDecoded(plain);
}

}  // namespace

std::string percentDecoded(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const auto high = text[i] == '%' && i + 2 < text.size() ? hexValue(text[i + 1]) : std::nullopt;
    const auto low = high ? hexValue(text[i + 2]) : std::nullopt;
    if (!low) {
      out += text[i];
      continue;
    }
    out += static_cast<char>(*high * 16 + *low);
    i += 2;
  }
  return out;
}

std::multimap<std::string, std::string> formFields(std::string_view text) {
  std::multimap<std::string, std::string> fields;
  while (!text.empty()) {
    const size_t end = std::min(text.find('&'), text.size());
    const std::string_view pair = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    if (pair.empty()) continue;
    const size_t equals = std::min(pair.find('='), pair.size());
    const std::string_view value = equals < pair.size() ? pair.substr(equals + 1) : std::string_view();
    fields.emplace(fieldDecoded(pair.substr(0, equals)), fieldDecoded(value));
  }
  return fields;
}

RequestTarget targetOf(std::string_view target) {
  if (const size_t scheme = target.find("://"); scheme != std::string_view::npos && !target.starts_with('/')) {
    const size_t path = target.find('/', scheme + 3);
    target = path == std::string_view::npos ? std::string_view("/") : target.substr(path);
  }
  const size_t query = target.find('?');
  RequestTarget out{percentDecoded(target.substr(0, query)), {}};
  if (query != std::string_view::npos) out.params = formFields(target.substr(query + 1));
  return out;
}

}  // namespace gsparql::server
