#include "api/result_sink.h"

#include <chrono>
#include <string>

#include "gsparql/error.h"

#include "engine/query/term_decoder.h"

namespace gsparql {

void checkFormatFits(ResultFormat format, bool graph, bool boolean) {
  const bool graphFormat = results::isGraphFormat(static_cast<results::Format>(format));
  if (graph && !graphFormat && format != ResultFormat::Table) {
    throw QueryError("a graph result is written as nt, ttl, nq, trig, rdfxml or jsonld, not " +
                     std::string(results::formatName(static_cast<results::Format>(format))));
  }
  if (!graph && graphFormat) {
    throw QueryError(std::string("nt, ttl, nq, trig, rdfxml and jsonld are for CONSTRUCT and DESCRIBE results; this query gives ") +
                     (boolean ? "a boolean" : "solutions"));
  }
}

void ResultSink::begin(const std::vector<std::string>& variables) {
  checkFormatFits(format_, false, false);
  writer_ = results::makeResultWriter(static_cast<results::Format>(format_), out_, prefixes_);
  writer_->begin(variables);
}

bool ResultSink::rows(const engine::Table& batch, engine::TermCodec& terms) {
  if (maxRows_ > 0 && rows_ + batch.rows > maxRows_) {
    rowLimitReached_ = true;
    return false;
  }
  constexpr size_t kRowsPerDecode = 4096;
  const auto start = std::chrono::steady_clock::now();
  engine::TermDecoder decoder(terms, batch);
  std::vector<Term> cells;
  const size_t width = batch.width();
  for (size_t begin = 0; begin < batch.rows && out_; begin += kRowsPerDecode) {
    const size_t end = std::min(batch.rows, begin + kRowsPerDecode);
    decoder.decode(begin, end, cells);
    for (size_t r = 0; r < end - begin; ++r) writer_->row(std::span<const Term>(cells.data() + r * width, width));
    rows_ += end - begin;
  }
  cells_ += batch.rows * width;
  writeSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return static_cast<bool>(out_);
}

void ResultSink::end() {
  if (writer_) writer_->end();
}

}  // namespace gsparql
