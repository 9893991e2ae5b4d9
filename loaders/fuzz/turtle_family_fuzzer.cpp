// libFuzzer target for the RDF 1.2 reader of the Turtle family
// (loaders/turtle_reader.h, through loaders/rdf_reader.h): the first byte
// picks the format (N-Triples, N-Quads, Turtle, TriG) and how many bytes each
// read returns (1-32, or all at once), so that statements straddle the
// blocks; the rest is the document.
// Findings: a crash, a sanitizer report, an exception other than LoadError,
// an error without "name:line:column: ", a term that is not valid UTF-8, a
// read in small pieces that differs from the read at once, or a lenient read
// that disagrees with a strict one that succeeded.
#include <cstdint>
#include <string_view>

#include "loaders/fuzz/read_outcome.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  using gsparql::RdfFormat;
  const RdfFormat formats[] = {RdfFormat::NTriples, RdfFormat::NQuads, RdfFormat::Turtle, RdfFormat::TriG};
  const size_t piece = data[0] & 0x80 ? 1 + data[0] % 32 : SIZE_MAX;
  const std::string_view document(reinterpret_cast<const char*>(data + 1), size - 1);
  gsparql::fuzz::checkReads(document, formats[(data[0] >> 5) & 3], piece);
  return 0;
}
