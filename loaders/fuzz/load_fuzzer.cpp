// libFuzzer target for the RDF reader. The first byte picks the syntax
// (N-Triples, Turtle, N-Quads, TriG) and how many bytes each read returns (so that
// statements straddle buffer refills); the rest is the document.
// Findings: a crash, a sanitizer report, an exception other than LoadError,
// a term that is not valid UTF-8, a lenient read that disagrees with a
// strict one that succeeded, or a read in pieces of 1-64 bytes (as the
// loader reads N-Triples and N-Quads on all cores) that differs from the
// read as one stream: other triples, another skip count, another error.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "gsparql/error.h"
#include "loaders/batch_reader.h"
#include "loaders/fuzz/valid_utf8.h"
#include "loaders/rdf_reader.h"
#include "storage/named_graphs.h"

namespace {

using namespace gsparql;
using fuzz::validUtf8;

struct Outcome {
  bool accepted = true;
  std::string error;
  uint64_t skipped = 0;
  std::vector<std::string> triples;

  void add(std::string_view subject, std::string_view predicate, std::string_view object) {
    for (std::string_view term : {subject, predicate, object}) {
      if (!validUtf8(term)) std::abort();
    }
    triples.push_back(std::string(subject) + ' ' + std::string(predicate) + ' ' + std::string(object));
  }
};

RdfReadOptions readOptions(bool lenient) {
  RdfReadOptions options;
  options.lenient = lenient;
  options.baseIri = "http://base/";
  return options;
}

Outcome read(std::string_view document, RdfFormat format, size_t piece, bool lenient) {
  MemoryInput input(document, piece);
  Outcome outcome;
  try {
    outcome.skipped = readRdf(input, "fuzz", format, [&](const RdfStatementView& st) {
      // As a batch keys it: the predicate with its graph.
      outcome.add(st.subject, graphPredicateKey(st.predicate, st.graph), st.object);
    }, readOptions(lenient)).skipped;
  } catch (const LoadError& e) {
    outcome.accepted = false;
    outcome.error = e.what();
  }
  return outcome;
}

// The same document cut into pieces of about `pieceBytes` and read in
// parallel, as the loader reads N-Triples and N-Quads.
Outcome readInPieces(std::string_view document, RdfFormat format, size_t pieceBytes, bool lenient) {
  MemoryInput input(document);
  Outcome outcome;
  try {
    outcome.skipped = readInBatches(input, "fuzz", format, readOptions(lenient), [&](StatementBatch& batch, uint64_t) {
      const auto terms = batch.vertexTerms();
      for (size_t i = 0; i < batch.triples(); ++i) {
        outcome.add(terms[2 * i].spelling, batch.predicates()[batch.predicateOfTriple()[i]], terms[2 * i + 1].spelling);
      }
    }, pieceBytes).skipped;
  } catch (const LoadError& e) {
    outcome.accepted = false;
    outcome.error = e.what();
  }
  return outcome;
}

// A failed read stores nothing, so only its error counts.
bool same(const Outcome& a, const Outcome& b) {
  if (a.accepted != b.accepted || a.error != b.error) return false;
  return !a.accepted || (a.skipped == b.skipped && a.triples == b.triples);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const RdfFormat formats[] = {RdfFormat::NTriples, RdfFormat::Turtle, RdfFormat::NQuads, RdfFormat::TriG};
  const RdfFormat format = formats[data[0] % 4];
  const size_t piece = data[0] & 0x80 ? 1 + data[0] % 61 : size_t{1} << 20;
  const std::string_view document(reinterpret_cast<const char*>(data + 1), size - 1);
  const Outcome strict = read(document, format, piece, false);
  const Outcome lenient = read(document, format, piece, true);
  if (!lenient.accepted) std::abort();  // a lenient read skips, it never gives up
  if (strict.accepted && (lenient.skipped != 0 || lenient.triples != strict.triples)) std::abort();
  // Pieces of 1 to 64 bytes: every line end of a short document is a cut somewhere.
  const size_t pieceBytes = 1 + (data[0] >> 1) % 64;
  if (!same(strict, readInPieces(document, format, pieceBytes, false))) std::abort();
  if (!same(lenient, readInPieces(document, format, pieceBytes, true))) std::abort();
  return 0;
}
