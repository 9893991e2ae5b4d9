#include "loaders/jsonld_reader.h"

#include <memory>

#include "gsparql/error.h"
#include "rdf/jsonld/document.h"
#include "rdf/jsonld/expansion.h"
#include "rdf/jsonld/to_rdf.h"

namespace gsparql {
namespace {

constexpr size_t kBlockBytes = size_t{1} << 20;

std::string readAll(InputStream& input) {
  std::string text;
  std::unique_ptr<char[]> block(new char[kBlockBytes]);
  while (const size_t n = input.read(block.get(), kBlockBytes)) text.append(block.get(), n);
  return text;
}

jsonld::Json parse(const std::string& text, const std::string& name) {
  try {
    return jsonld::parseJson(text);
  } catch (const jsonld::JsonSyntaxError& e) {
    throw LoadError(name + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": " + e.what());
  }
}

// "name:line:column: " of the innermost object of the document the error
// arose in, else "name: ".
std::string where(const std::string& name, const std::string& text, const jsonld::Json& document,
                  const jsonld::JsonLdError& error) {
  for (const jsonld::Json* element : error.elements()) {
    if (const auto at = jsonld::positionOf(text, document, element)) {
      return name + ":" + std::to_string(at->first) + ":" + std::to_string(at->second) + ": ";
    }
  }
  return name + ": ";
}

}  // namespace

RdfReadReport readJsonLd(InputStream& input, const std::string& name, const std::string& baseIri,
                         const StatementHandler& onStatement, const RdfReadOptions& options) {
  const std::string text = readAll(input);
  const jsonld::Json document = parse(text, name);
  jsonld::LocalDocumentLoader contexts;
  for (const auto& [url, file] : options.jsonLdContexts) contexts.map(url, file);
  jsonld::Options jsonLdOptions;
  jsonLdOptions.base = baseIri;
  jsonLdOptions.documentLoader = contexts.asLoader();
  RdfReadReport report;
  jsonld::RdfSink sink;
  sink.blankNodePrefix = options.blankNodePrefix;
  sink.statement = [&](const jsonld::Statement& s) {
    ++report.statements;
    onStatement(RdfStatementView{s.subject, s.predicate, s.object, s.graph.empty() ? options.defaultGraph : s.graph});
  };
  sink.dropped = [&](const std::string& why) {
    const std::string message = name + ": " + why;
    if (!options.lenient) throw LoadError(message + " (JSON-LD leaves its statements out; --lenient skips them)");
    ++report.skipped;
    report.keepError(message);
  };
  try {
    jsonld::toRdf(jsonld::expand(document, jsonLdOptions), jsonLdOptions, sink);
  } catch (const jsonld::JsonLdError& e) {
    throw LoadError(where(name, text, document, e) + e.what());
  }
  return report;
}

}  // namespace gsparql
