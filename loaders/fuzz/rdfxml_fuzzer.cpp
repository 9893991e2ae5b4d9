// libFuzzer target for the RDF/XML reader (loaders/rdfxml_reader.h, Raptor
// under it). The first byte picks how many bytes each read returns (1-64, or
// all at once), so that elements straddle the blocks handed to Raptor; the
// rest is the document.
// Findings: a crash, a sanitizer report (in our code; Raptor and libxml2 are
// Debian's uninstrumented libraries), an exception other than LoadError, an
// error without "name:line:column: ", a term that is not valid UTF-8, a read
// in small pieces that differs from the read at once (accepted or not, and
// the triples), or a lenient read that disagrees with a strict one that
// succeeded.
#include <cstdint>
#include <cstdlib>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "gsparql/error.h"
#include "loaders/fuzz/valid_utf8.h"
#include "loaders/rdf_reader.h"

namespace {

using namespace gsparql;
using fuzz::validUtf8;

struct Outcome {
  bool accepted = true;
  std::string error;
  uint64_t skipped = 0;
  std::vector<std::string> triples;
};

Outcome read(std::string_view document, size_t piece, bool lenient) {
  MemoryInput input(document, piece);
  Outcome outcome;
  RdfReadOptions options;
  options.lenient = lenient;
  options.baseIri = "http://base/doc";
  try {
    outcome.skipped = readRdf(input, "fuzz", RdfFormat::RdfXml, [&](const RdfStatementView& st) {
      for (std::string_view term : {st.subject, st.predicate, st.object}) {
        if (!validUtf8(term)) std::abort();
      }
      outcome.triples.push_back(std::string(st.subject) + ' ' + std::string(st.predicate) + ' ' + std::string(st.object));
    }, options).skipped;
  } catch (const LoadError& e) {
    outcome.accepted = false;
    outcome.error = e.what();
    static const std::regex located("^fuzz:[0-9]+:[0-9]+: ");
    if (!std::regex_search(outcome.error, located)) std::abort();
  }
  return outcome;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const size_t piece = data[0] & 0x80 ? 1 + data[0] % 64 : SIZE_MAX;
  const std::string_view document(reinterpret_cast<const char*>(data + 1), size - 1);
  const Outcome strict = read(document, piece, false);
  const Outcome lenient = read(document, piece, true);
  if (strict.accepted && (lenient.skipped != 0 || lenient.triples != strict.triples)) std::abort();
  // Blocks of another size give the same triples and the same first error
  // (the column libxml2 reports for a well-formedness error does not depend
  // on where a block ends).
  const Outcome whole = read(document, SIZE_MAX, false);
  if (whole.accepted != strict.accepted || (whole.accepted && whole.triples != strict.triples)) std::abort();
  return 0;
}
