// libFuzzer target for JSON-LD: the algorithms under the loader's reader
// (rdf/jsonld/: parsing with the nesting bound, context processing,
// expansion, toRdf) and the JSON-LD writer's way back (fromRdf and the
// compaction of engine/results/jsonld_writer.cpp). The input is the
// document; remote contexts are refused (no document loader), as the
// loader refuses them. It links rdf/jsonld alone, so that it builds in a
// minute (loaders/jsonld_reader.cpp around it only reads the input and
// words the errors).
// A JSON-LD error's objects are found again in the text, as the reader does
// to give its position.
// Findings: a crash, a sanitizer report, an exception other than a JSON
// syntax error or a JSON-LD error (a JSON type error in the algorithms), a
// term that is not valid UTF-8, or statements that, written as JSON-LD and
// read back, are not the same (compared without blank nodes, whose labels
// the round trip may change, and by count).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loaders/fuzz/valid_utf8.h"
#include "rdf/jsonld/compaction.h"
#include "rdf/jsonld/document.h"
#include "rdf/jsonld/expansion.h"
#include "rdf/jsonld/from_rdf.h"
#include "rdf/jsonld/to_rdf.h"

namespace {

using namespace gsparql;
using gsparql::fuzz::validUtf8;

// The statements of `document` (what the algorithm drops left out), or
// nullopt for a document with an error.
std::optional<std::vector<jsonld::Quad>> read(std::string_view document) {
  jsonld::Options options;
  options.base = "http://base/doc";
  std::vector<jsonld::Quad> quads;
  jsonld::RdfSink sink;
  sink.statement = [&](const jsonld::Statement& s) {
    for (std::string_view term : {s.subject, s.predicate, s.object, s.graph}) {
      if (!validUtf8(term)) std::abort();
    }
    quads.push_back({s.subject, s.predicate, s.object, s.graph});
  };
  jsonld::Json json;
  try {
    json = jsonld::parseJson(document);
  } catch (const jsonld::JsonSyntaxError&) {
    return std::nullopt;
  }
  try {
    jsonld::toRdf(jsonld::expand(json, options), options, sink);
  } catch (const jsonld::JsonLdError& e) {
    // The reader places the error: finding the objects again in the text must not fail.
    for (const jsonld::Json* element : e.elements()) jsonld::positionOf(document, json, element);
    return std::nullopt;
  }
  return quads;
}

// The statements without blank nodes, sorted and unique; and how many there are in all, unique.
std::pair<std::vector<std::string>, size_t> summary(const std::vector<jsonld::Quad>& quads) {
  std::vector<std::string> ground, all;
  for (const jsonld::Quad& q : quads) {
    const std::string line = q.subject + ' ' + q.predicate + ' ' + q.object + ' ' + q.graph;
    all.push_back(line);
    if (line.find("_:") == std::string::npos) ground.push_back(line);
  }
  for (auto* v : {&ground, &all}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  return {ground, all.size()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view document(reinterpret_cast<const char*>(data), size);
  const std::optional<std::vector<jsonld::Quad>> quads = read(document);
  if (!quads) return 0;
  // Written as the JSON-LD writer writes it and read back: the same statements.
  jsonld::Options options;
  options.parseJsonLiterals = false;
  const std::string written =
      jsonld::compactForOutput(jsonld::fromRdf(*quads, options), {{"ex", "http://base/"}, {"b", "http://b#"}}).dump();
  const std::optional<std::vector<jsonld::Quad>> back = read(written);
  if (!back || summary(*back) != summary(*quads)) std::abort();
  return 0;
}
