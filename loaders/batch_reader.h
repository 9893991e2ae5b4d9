#pragma once
// Reads one input into statement batches, prepared for encoding. N-Triples
// and N-Quads are cut at line ends and the pieces parsed on all cores; Turtle,
// whose statements span lines and depend on the prefixes before them, is
// parsed as one stream. Either way `consume` gets the batches one at a time,
// in input order, and a strict read stops at the first bad statement of the
// input, with its line and column in the whole input.
#include <functional>
#include <string>

#include "loaders/rdf_reader.h"
#include "loaders/statement_batch.h"

namespace gsparql {

using BatchConsumer = std::function<void(StatementBatch& batch, uint64_t sourceBytesRead)>;

// About 30,000 WatDiv triples: enough to keep a core busy for milliseconds.
inline constexpr size_t kPieceBytes = size_t{4} << 20;

// pieceBytes: the size of the pieces of line-based input (tests and the
// fuzzer cut them small).
RdfReadReport readInBatches(InputStream& input, const std::string& name, RdfFormat format,
                            const RdfReadOptions& options, const BatchConsumer& consume,
                            size_t pieceBytes = kPieceBytes);

}  // namespace gsparql
