#pragma once
// What the JSON-LD 1.1 algorithms (https://www.w3.org/TR/json-ld11-api/)
// share: the JSON value type (nlohmann's, keys kept sorted, which is the
// order the algorithms process them in), the errors with the API's error
// codes, the options, and the keyword and IRI tests.
#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gsparql::jsonld {

// Whether an IRI ends in one of RFC 3987's gen-delims: what makes a term a
// prefix in JSON-LD 1.1 unless its definition says so.
inline bool endsWithGenDelim(std::string_view iri) {
  return !iri.empty() && std::string_view(":/?#[]@").find(iri.back()) != std::string_view::npos;
}

using Json = nlohmann::json;

inline constexpr std::string_view kRdfNs = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
inline constexpr std::string_view kXsdNs = "http://www.w3.org/2001/XMLSchema#";

// A JSON-LD error: `code` is the API's error code ("invalid context entry"),
// what() the code and what was found.
class JsonLdError : public std::runtime_error {
 public:
  JsonLdError(std::string code, std::string detail)
      : std::runtime_error(detail.empty() ? code : code + ": " + detail), code_(std::move(code)), detail_(std::move(detail)) {}
  const std::string& code() const { return code_; }
  const std::string& detail() const { return detail_; }
  // The input objects being expanded when it arose, innermost first (some
  // may be copies, not parts of the document): where to say it is.
  void locate(const Json* element) { elements_.push_back(element); }
  const std::vector<const Json*>& elements() const { return elements_; }

 private:
  std::string code_;
  std::string detail_;
  std::vector<const Json*> elements_;
};

// A document the processor asked for (a remote context, @import): its final
// URL, which relative IRIs in it resolve against, and its content.
struct RemoteDocument {
  std::string documentUrl;
  Json document;
};
// Throws JsonLdError ("loading document failed") for a URL it does not serve.
using DocumentLoader = std::function<RemoteDocument(const std::string& url)>;

struct Options {
  std::optional<std::string> base;  // the document's IRI; relative IRIs resolve against it
  bool processingMode10 = false;    // json-ld-1.0 instead of json-ld-1.1
  DocumentLoader documentLoader;    // none: every remote context is refused
  std::optional<Json> expandContext;
  // toRdf and fromRdf.
  bool produceGeneralizedRdf = false;
  std::optional<std::string> rdfDirection;  // "i18n-datatype", "compound-literal" or none
  bool useNativeTypes = false;
  bool useRdfType = false;
  // fromRdf: an rdf:JSON literal as a @json value (its lexical form is then
  // lost where it was not canonical), else as a typed string.
  bool parseJsonLiterals = true;
};

bool isKeyword(std::string_view s);
// "@" followed by letters only: reserved for future keywords, ignored.
bool looksLikeKeyword(std::string_view s);
bool isBlankNodeId(std::string_view s);
// A scheme followed by ':' (RFC 3987's absolute IRI, not checked further).
bool hasScheme(std::string_view s);
// An absolute IRI with no character an IRI may not hold (what toRdf keeps).
bool isWellFormedIri(std::string_view s);
// BCP 47's shape: letters, then '-'-separated runs of letters and digits.
bool isWellFormedLanguage(std::string_view s);

// `value` itself if an array, else [value] (null: []).
Json asArray(const Json& value);
// Appends `value` (each item, if an array) to the array at object[key].
void addValue(Json& object, const std::string& key, const Json& value, bool allowDuplicate = true);

bool isValueObject(const Json& v);
bool isListObject(const Json& v);
bool isGraphObject(const Json& v);

}  // namespace gsparql::jsonld
