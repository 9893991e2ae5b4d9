#include "engine/physical/operator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "gsparql/error.h"

namespace gsparql::engine {
namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

void Operator::open(ExecutionContext& context) {
  context.run.limits.throwIfStopped();
  const auto start = Clock::now();
  profile_.ran = true;
  openImpl(context);
  profile_.milliseconds += millisecondsSince(start);
}

std::optional<Table> Operator::next(ExecutionContext& context) {
  context.run.limits.throwIfStopped();
  const auto start = Clock::now();
  std::optional<Table> batch = nextImpl(context);
  profile_.milliseconds += millisecondsSince(start);
  if (batch) {
    profile_.actualRows += batch->rows;
    ++profile_.batches;
  }
  return batch;
}

std::optional<size_t> Operator::columnOf(const std::string& variable) const {
  auto it = std::find(variables_.begin(), variables_.end(), variable);
  if (it == variables_.end()) return std::nullopt;
  return static_cast<size_t>(it - variables_.begin());
}

std::string rowNumbers(double estimated, std::optional<uint64_t> actual, double milliseconds) {
  char numbers[160];
  if (!actual) {
    std::snprintf(numbers, sizeof numbers, "estimated %.0f, not run", estimated);
  } else {
    std::snprintf(numbers, sizeof numbers, "estimated %.0f, actual %llu, q-error %.2f, %.3f ms", estimated,
                  static_cast<unsigned long long>(*actual), qError(estimated, static_cast<double>(*actual)),
                  milliseconds);
  }
  return numbers;
}

Table runToEnd(Operator& op, ExecutionContext& context) {
  op.open(context);
  std::vector<Table> batches;
  size_t rows = 0;
  while (auto batch = op.next(context)) {
    rows += batch->rows;
    context.run.limits.checkMemory(rows * op.variables().size() * sizeof(ValueId), "the rows of " + op.describe());
    batches.push_back(std::move(*batch));
  }
  if (batches.size() == 1) return std::move(batches.front());
  Table all(op.variables().size());
  all.reserve(rows);  // one copy of each batch, no regrowth
  for (Table& batch : batches) {
    context.run.limits.throwIfStopped();  // gigabytes are copied here, a batch at a time
    all.append(batch);
    batch = Table();
  }
  return all;
}

Table runToFirstRow(Operator& op, ExecutionContext& context) {
  op.readAtMost(1);
  op.open(context);
  while (auto batch = op.next(context)) {
    if (batch->rows > 0) return std::move(*batch);
  }
  return Table(op.variables().size());
}

std::optional<Table> BatchCursor::next() {
  if (position_ >= table_.rows) {
    return std::nullopt;
  }
  const size_t end = std::min(table_.rows, position_ + kBatchRows);
  if (position_ == 0 && end == table_.rows) {
    position_ = end;
    return std::move(table_);
  }
  Table batch = sliceRows(table_, position_, end);
  position_ = end;
  return batch;
}

}  // namespace gsparql::engine
