#include "engine/physical/slice.h"

#include <algorithm>

namespace gsparql::engine {

Slice::Slice(OperatorPtr child, uint64_t offset, std::optional<uint64_t> limit)
    : Operator(child->variables(),
               std::max(0.0, std::min(child->estimatedRows() - static_cast<double>(offset),
                                      limit ? static_cast<double>(*limit) : child->estimatedRows())),
               child->estimatedCost()),
      child_(std::move(child)), offset_(offset), limit_(limit) {
  if (limit_) child_->readAtMost(offset_ + *limit_);
}

void Slice::readAtMost(uint64_t rows) { child_->readAtMost(offset_ + rows); }

std::string Slice::describe() const {
  std::string text = "Slice";
  if (offset_ > 0) text += " offset " + std::to_string(offset_);
  if (limit_) text += " limit " + std::to_string(*limit_);
  return text;
}

void Slice::openImpl(ExecutionContext& context) {
  skipped_ = emitted_ = 0;
  if (limit_ && *limit_ == 0) return;
  child_->open(context);
}

std::optional<Table> Slice::nextImpl(ExecutionContext& context) {
  while (!limit_ || emitted_ < *limit_) {
    auto batch = child_->next(context);
    if (!batch) return std::nullopt;
    const size_t skip = static_cast<size_t>(std::min<uint64_t>(batch->rows, offset_ - skipped_));
    skipped_ += skip;
    size_t end = batch->rows;
    if (limit_) end = static_cast<size_t>(std::min<uint64_t>(end, skip + (*limit_ - emitted_)));
    if (end <= skip) continue;
    emitted_ += end - skip;
    if (skip == 0 && end == batch->rows) return batch;
    return sliceRows(*batch, skip, end);
  }
  return std::nullopt;
}

}  // namespace gsparql::engine
