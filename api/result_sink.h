#pragma once
// Writes a SELECT query's rows as the engine hands them over (queryTo), and
// the format rule that it shares with QueryResult::write.
#include <cstdint>
#include <memory>
#include <ostream>

#include "engine/query/query_runner.h"
#include "engine/results/result_writer.h"
#include "gsparql/query.h"

namespace gsparql {

// Throws QueryError when `format` cannot hold the result: solutions formats
// for SELECT and ASK, graph formats (or Table) for CONSTRUCT and DESCRIBE.
void checkFormatFits(ResultFormat format, bool graph, bool boolean);

class ResultSink final : public engine::RowSink {
 public:
  // maxRows: past it the sink takes no more rows and stops the query
  // (rowLimitReached); 0: no limit.
  ResultSink(std::ostream& out, ResultFormat format, const results::Prefixes& prefixes, uint64_t maxRows = 0)
      : out_(out), format_(format), prefixes_(prefixes), maxRows_(maxRows) {}

  void begin(const std::vector<std::string>& variables) override;
  bool rows(const engine::Table& batch, engine::TermCodec& terms) override;
  void end();

  uint64_t rowsWritten() const { return rows_; }
  uint64_t cellsWritten() const { return cells_; }
  // Time spent decoding and writing rows, so far.
  double writeMilliseconds() const { return writeSeconds_ * 1e3; }
  bool outputFailed() const { return !out_; }
  bool rowLimitReached() const { return rowLimitReached_; }

 private:
  std::ostream& out_;
  ResultFormat format_;
  const results::Prefixes& prefixes_;
  std::unique_ptr<results::ResultWriter> writer_;
  uint64_t maxRows_;
  bool rowLimitReached_ = false;
  uint64_t rows_ = 0;
  uint64_t cells_ = 0;
  double writeSeconds_ = 0;
};

}  // namespace gsparql
