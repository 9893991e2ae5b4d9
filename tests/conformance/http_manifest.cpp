#include "http_manifest.h"

#include <map>

namespace gsparql::conformance {
namespace {

// A body's text in the encoding the manifest names (ASCII text: UTF-16 is
// each byte followed by a zero, after a little-endian byte order mark).
std::string encoded(const std::string& text, const std::string& encoding) {
  if (encoding != "UTF-16") return text;
  std::string out = "\xFF\xFE";
  for (char c : text) out += std::string{c, '\0'};
  return out;
}

// The statuses the manifests name: a class (StatusCode2xx) or one of these.
bool statusIs(const std::string& name, int status) {
  static const std::map<std::string, int> kNamed{{"OK", 200},       {"Created", 201},       {"NoContent", 204},
                                                 {"BadRequest", 400}, {"NotFound", 404},    {"MethodNotAllowed", 405},
                                                 {"UnsupportedMediaType", 415}};
  if (name.size() == 13 && name.starts_with("StatusCode")) return name[10] - '0' == status / 100;
  const auto named = kNamed.find(name);
  return named != kNamed.end() && named->second == status;
}

}  // namespace

httplib::Request manifestRequest(const RdfGraph& manifest, const std::string& request, const std::string& defaultPath) {
  httplib::Request req;
  req.method = lexicalForm(manifest.object(request, iriTerm(kHt + "methodName")).value_or("\"GET\""));
  req.path = lexicalForm(manifest.object(request, iriTerm(kHt + "absolutePath")).value_or('"' + defaultPath + '"'));
  if (auto headers = manifest.object(request, iriTerm(kHt + "headers"))) {
    for (const std::string& header : manifest.list(*headers)) {
      req.set_header(lexicalForm(manifest.object(header, iriTerm(kHt + "fieldName")).value_or("\"\"")),
                     lexicalForm(manifest.object(header, iriTerm(kHt + "fieldValue")).value_or("\"\"")));
    }
  }
  if (auto body = manifest.object(request, iriTerm(kHt + "body"))) {
    req.body = encoded(lexicalForm(manifest.object(*body, iriTerm(kCnt + "chars")).value_or("\"\"")),
                       lexicalForm(manifest.object(*body, iriTerm(kCnt + "characterEncoding")).value_or("\"UTF-8\"")));
  }
  return req;
}

std::optional<std::string> unexpectedStatus(const RdfGraph& manifest, const std::string& expected, int status) {
  std::string statuses;
  for (const std::string& term : manifest.objects(expected, iriTerm(kMf + "expectedStatus"))) {
    const std::string name = term.substr(kHts.size() + 1, term.size() - kHts.size() - 2);
    if (statusIs(name, status)) return std::nullopt;
    statuses += name + " ";
  }
  return statuses;
}

}  // namespace gsparql::conformance
