#pragma once
// Query strings and form bodies as the URL Standard reads them
// (application/x-www-form-urlencoded parsing, WHATWG URL 5.1): pairs split
// at '&' and at the first '=', '+' a space, percent-escapes decoded and a
// '%' that starts none kept as it is. It refuses nothing: a raw '?', '/',
// '{' or space in a query (Apache Jena's clients, curl -g, a URL pasted in
// a terminal) reads as the client meant it. (Boost.URL's parser is RFC
// 3986's, which refuses '{' and spaces.)
#include <map>
#include <string>
#include <string_view>

namespace gsparql::server {

// The percent-decoded text (RFC 3986 2.1; '+' stays '+').
std::string percentDecoded(std::string_view text);

// The name=value pairs of a query string (without its '?') or a form body.
std::multimap<std::string, std::string> formFields(std::string_view text);

// A request target in origin form ("/sparql?query=...") or absolute form
// ("http://host/sparql?query=...", RFC 9112 3.2.2): its decoded path and
// its query's fields.
struct RequestTarget {
  std::string path;
  std::multimap<std::string, std::string> params;
};
RequestTarget targetOf(std::string_view target);

}  // namespace gsparql::server
