#include "loaders/batch_reader.h"

#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <memory>

#include "loaders/line_chunker.h"
#include "loaders/pipeline_failure.h"
#include "loaders/vertex_term_shards.h"

namespace gsparql {
namespace {

constexpr size_t kStreamBatchTriples = size_t{1} << 16;

void addReport(RdfReadReport& total, const RdfReadReport& part) {
  total.statements += part.statements;
  total.skipped += part.skipped;
  for (const std::string& error : part.firstErrors) {
    total.keepError(error);
  }
}

struct Piece {
  LineChunk chunk;
  uint64_t sourceBytesRead = 0;
  StatementBatch batch;
};

// Parses a piece into its batch; its failure waits for its turn in input order.
void parse(Piece& piece, const std::string& name, RdfFormat format, RdfReadOptions options) {
  options.firstLine = piece.chunk.firstLine;
  MemoryInput input(piece.chunk.text);
  try {
    piece.batch.report = readRdf(input, name, format, [&](const RdfStatementView& s) { piece.batch.add(s); },
                                 options);
  } catch (...) {
    piece.batch.failure = std::current_exception();
  }
  piece.chunk.text = std::string();
  piece.batch.prepare(kVertexShardBits);
}

RdfReadReport readLinesInParallel(InputStream& input, const std::string& name, RdfFormat format,
                                  RdfReadOptions options, const BatchConsumer& consume, size_t pieceBytes) {
  LineChunker chunker(input, name, pieceBytes);
  RdfReadReport total;
  const auto piecesInFlight = static_cast<size_t>(2 * tbb::this_task_arena::max_concurrency());
  using PiecePtr = std::shared_ptr<Piece>;
  PipelineFailure failure;
  auto nextPiece = [&](tbb::flow_control& control) -> PiecePtr {
    auto piece = std::make_shared<Piece>();
    bool more = false;
    failure.guard([&] { more = chunker.next(piece->chunk); });
    if (!more) {
      control.stop();
      return nullptr;
    }
    piece->sourceBytesRead = input.sourceBytesRead();
    return piece;
  };
  auto parsePiece = [&](PiecePtr piece) {
    if (!failure.failed()) parse(*piece, name, format, options);
    return piece;
  };
  // In input order, so the first failure recorded is the input's first.
  auto consumePiece = [&](PiecePtr piece) {
    failure.guard([&] {
      if (piece->batch.failure) std::rethrow_exception(piece->batch.failure);
      addReport(total, piece->batch.report);
      consume(piece->batch, piece->sourceBytesRead);
    });
  };
  tbb::parallel_pipeline(piecesInFlight,
                         tbb::make_filter<void, PiecePtr>(tbb::filter_mode::serial_in_order, nextPiece) &
                             tbb::make_filter<PiecePtr, PiecePtr>(tbb::filter_mode::parallel, parsePiece) &
                             tbb::make_filter<PiecePtr, void>(tbb::filter_mode::serial_in_order, consumePiece));
  failure.rethrowIfFailed();
  return total;
}

RdfReadReport readStream(InputStream& input, const std::string& name, RdfFormat format,
                         const RdfReadOptions& options, const BatchConsumer& consume) {
  auto batch = std::make_unique<StatementBatch>();
  auto deliver = [&] {
    batch->prepare(kVertexShardBits);
    consume(*batch, input.sourceBytesRead());
    batch = std::make_unique<StatementBatch>();
  };
  RdfReadReport report = readRdf(input, name, format, [&](const RdfStatementView& statement) {
    batch->add(statement);
    if (batch->triples() == kStreamBatchTriples) deliver();
  }, options);
  deliver();
  return report;
}

}  // namespace

RdfReadReport readInBatches(InputStream& input, const std::string& name, RdfFormat format,
                            const RdfReadOptions& options, const BatchConsumer& consume, size_t pieceBytes) {
  if (!isLineBased(format)) return readStream(input, name, format, options, consume);
  return readLinesInParallel(input, name, format, options, consume, pieceBytes);
}

}  // namespace gsparql
