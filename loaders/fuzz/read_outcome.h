#pragma once
// What the readers' fuzz targets compare: one read of a document, strict or
// lenient, handed to the reader in pieces of `piece` bytes. Aborts (a
// finding) on a term that is not valid UTF-8 and on an error without
// "name:line:column: ".
#include <cstdint>
#include <cstdlib>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "gsparql/error.h"
#include "loaders/fuzz/valid_utf8.h"
#include "loaders/rdf_reader.h"

namespace gsparql::fuzz {

struct Outcome {
  bool accepted = true;
  std::string error;
  uint64_t skipped = 0;
  std::vector<std::string> statements;
};

inline Outcome read(std::string_view document, RdfFormat format, size_t piece, bool lenient) {
  MemoryInput input(document, piece);
  Outcome outcome;
  RdfReadOptions options;
  options.lenient = lenient;
  options.baseIri = "http://base/doc";
  try {
    outcome.skipped = readRdf(input, "fuzz", format, [&](const RdfStatementView& st) {
      for (std::string_view term : {st.subject, st.predicate, st.object, st.graph}) {
        if (!validUtf8(term)) std::abort();
      }
      outcome.statements.push_back(std::string(st.subject) + ' ' + std::string(st.predicate) + ' ' +
                                   std::string(st.object) + ' ' + std::string(st.graph));
    }, options).skipped;
  } catch (const LoadError& e) {
    outcome.accepted = false;
    outcome.error = e.what();
    static const std::regex located("^fuzz:[0-9]+:[0-9]+: ");
    if (!std::regex_search(outcome.error, located)) std::abort();
  }
  return outcome;
}

// A lenient read agrees with a strict one that succeeded; a read in other
// pieces gives the same statements, or fails too.
inline void checkReads(std::string_view document, RdfFormat format, size_t piece) {
  const Outcome strict = read(document, format, piece, false);
  const Outcome lenient = read(document, format, piece, true);
  if (strict.accepted && (lenient.skipped != 0 || lenient.statements != strict.statements)) std::abort();
  const Outcome whole = read(document, format, SIZE_MAX, false);
  if (whole.accepted != strict.accepted || (whole.accepted && whole.statements != strict.statements)) std::abort();
}

}  // namespace gsparql::fuzz
