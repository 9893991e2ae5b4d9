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
#include <string_view>

#include "loaders/fuzz/read_outcome.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const size_t piece = data[0] & 0x80 ? 1 + data[0] % 64 : SIZE_MAX;
  const std::string_view document(reinterpret_cast<const char*>(data + 1), size - 1);
  // (the column libxml2 reports for a well-formedness error does not depend
  // on where a block ends)
  gsparql::fuzz::checkReads(document, gsparql::RdfFormat::RdfXml, piece);
  return 0;
}
