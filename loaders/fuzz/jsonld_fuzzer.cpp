// libFuzzer target for the JSON-LD reader (loaders/jsonld_reader.h, the
// algorithms of rdf/jsonld/ under it) and the writer's way back (fromRdf and
// the compaction of engine/results/jsonld_writer.cpp). The input is the
// document; remote contexts are refused (no document loader).
// Findings: a crash, a sanitizer report, an exception other than LoadError,
// a syntax error without "name:line:column: ", a JSON-LD error without its
// error code, a term that is not valid UTF-8, a lenient read that disagrees
// with a strict one that succeeded, or statements that written as JSON-LD
// and read back are not the same (compared without blank nodes, whose
// labels the round trip may change, and by count).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "gsparql/error.h"
#include "loaders/fuzz/valid_utf8.h"
#include "loaders/rdf_reader.h"
#include "rdf/jsonld/compaction.h"
#include "rdf/jsonld/from_rdf.h"

namespace {

using namespace gsparql;
using fuzz::validUtf8;

struct Outcome {
  bool accepted = true;
  uint64_t skipped = 0;
  std::vector<jsonld::Quad> quads;
};

Outcome read(std::string_view document, bool lenient) {
  MemoryInput input(document);
  Outcome outcome;
  RdfReadOptions options;
  options.lenient = lenient;
  options.baseIri = "http://base/doc";
  try {
    outcome.skipped = readRdf(input, "fuzz", RdfFormat::JsonLd, [&](const RdfStatementView& st) {
      for (std::string_view term : {st.subject, st.predicate, st.object, st.graph}) {
        if (!validUtf8(term)) std::abort();
      }
      outcome.quads.push_back({std::string(st.subject), std::string(st.predicate), std::string(st.object), std::string(st.graph)});
    }, options).skipped;
  } catch (const LoadError& e) {
    outcome.accepted = false;
    // A JSON syntax error has its position; every other error names the document.
    static const std::regex located("^fuzz(:[0-9]+:[0-9]+)?: ");
    if (!std::regex_search(e.what(), located)) std::abort();
  }
  return outcome;
}

// The statements without blank nodes, sorted and unique; and how many there are in all.
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
  const Outcome strict = read(document, false);
  const Outcome lenient = read(document, true);
  if (strict.accepted && (lenient.skipped != 0 || lenient.quads.size() != strict.quads.size())) std::abort();
  if (!lenient.accepted) return 0;
  // Written as the JSON-LD writer writes it and read back: the same statements.
  jsonld::Options options;
  options.parseJsonLiterals = false;
  const std::string written =
      jsonld::compactForOutput(jsonld::fromRdf(lenient.quads, options), {{"ex", "http://base/"}, {"b", "http://b#"}}).dump();
  const Outcome back = read(written, false);
  if (!back.accepted || summary(back.quads) != summary(lenient.quads)) std::abort();
  return 0;
}
