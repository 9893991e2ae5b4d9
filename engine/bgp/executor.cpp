#include "engine/bgp/executor.h"

#include <algorithm>
#include <cstddef>
#include <limits>

#include "engine/bgp/distinct_vertices.h"
#include "gsparql/error.h"
#include "storage/graph_store.h"

namespace gsparql::engine {
namespace {

// The table `table_` returns, computed at the first next(), handed out in
// batches of at most kBatchRows rows: the operators above check for a
// timeout or a cancellation between batches, so a huge table must not be one.
class WholeTableCursor final : public RowCursor {
 public:
  explicit WholeTableCursor(std::function<IdColumns()> table) : compute_(std::move(table)) {}

  std::optional<IdColumns> next() override {
    if (!table_) {
      table_ = compute_();
      if (table_->rows() <= kBatchRows) {
        first_ = table_->rows();
        return std::move(*table_);
      }
    }
    if (first_ >= table_->rows()) return std::nullopt;
    const size_t end = std::min(first_ + kBatchRows, table_->rows());
    IdColumns batch = table_->slice(first_, end);
    first_ = end;
    return batch;
  }

 private:
  static constexpr size_t kBatchRows = size_t{1} << 20;
  std::function<IdColumns()> compute_;
  std::optional<IdColumns> table_;
  size_t first_ = 0;  // the next row to hand out
};

constexpr uint64_t kLargestCount = std::numeric_limits<int64_t>::max();

[[noreturn]] void throwCountTooLarge() {
  throw QueryError("the count of solutions exceeds 9223372036854775807, the largest integer gsparql writes");
}

}  // namespace

uint64_t checkedAdd(uint64_t a, uint64_t b) {
  if (b > kLargestCount - a) throwCountTooLarge();
  return a + b;
}

uint64_t checkedMultiply(uint64_t a, uint64_t b) {
  if (a != 0 && b > kLargestCount / a) throwCountTooLarge();
  return a * b;
}

namespace {

// The rows of a cursor that reads no columns. Streamed: an executor that
// finds rows a chunk at a time counts in bounded memory.
uint64_t countRows(Executor& executor, const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                   const BgpCall& options, ExecutionProfile& profile) {
  BgpCall counting = options;
  counting.outputColumns = std::vector<uint32_t>{};
  counting.streamRows = true;
  counting.rowLimit.reset();
  std::unique_ptr<RowCursor> cursor = executor.open(plan, bgp, store, counting, profile);
  uint64_t total = 0;
  while (std::optional<IdColumns> batch = cursor->next()) total = checkedAdd(total, batch->rows());
  return total;
}

}  // namespace

// Components share no variable: the count of their product is the product
// of their counts, so no product is made. Injective matching compares
// vertices across components: it counts the product's rows.
uint64_t Executor::count(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                         const BgpCall& options, ExecutionProfile& profile) {
  if (options.injective) return countRows(*this, plan, bgp, store, options, profile);
  uint64_t total = 1;
  for (uint32_t c = 0; c < plan.components.size() && total > 0; ++c) {
    total = checkedMultiply(total, countComponent(plan, c, bgp, store, options, profile));
  }
  return total;
}

void addComponentProfile(ExecutionProfile& profile, uint32_t component, const ExecutionProfile& part) {
  for (const StepProfile& step : part.steps) {
    profile.steps.push_back({component, step.vertex, step.estimatedRows, step.actualRows, step.milliseconds});
  }
  if (!part.note.empty()) profile.note = profile.note.empty() ? part.note : profile.note + "; " + part.note;
  profile.copiedBytes += part.copiedBytes;
  profile.countedLeaves += part.countedLeaves;
}

namespace {

// The distinct values of `column` in a streamed cursor's rows.
uint64_t distinctInRows(Executor& executor, const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                        const BgpCall& options, ExecutionProfile& profile, uint32_t column) {
  BgpCall reading = options;
  reading.outputColumns = std::vector<uint32_t>{column};
  reading.streamRows = true;
  reading.rowLimit.reset();
  std::unique_ptr<RowCursor> cursor = executor.open(plan, bgp, store, reading, profile);
  DistinctVertices values(store.catalog().vertexCount);
  while (std::optional<IdColumns> batch = cursor->next()) values.add(batch->column(0));
  return values.count();
}

// Whether component `c` has a row, found by a cursor that stops at the first.
bool hasRows(Executor& executor, const BgpPlan& plan, uint32_t c, const BoundBgp& bgp, const GraphStore& store,
             const BgpCall& options) {
  BgpCall first = options;
  first.outputColumns = std::vector<uint32_t>{};
  first.streamRows = true;
  first.rowLimit = 1;
  ExecutionProfile ignored;
  const BgpPlan component{{plan.components[c]}};  // outlives the cursor, as open() asks
  std::unique_ptr<RowCursor> cursor = executor.open(component, bgp, store, first, ignored);
  while (std::optional<IdColumns> batch = cursor->next()) {
    if (batch->rows() > 0) return true;
  }
  return false;
}

bool bindsVertex(const ComponentPlan& component, uint32_t column) {
  return std::any_of(component.steps.begin(), component.steps.end(),
                     [&](const PlanStep& step) { return step.vertex == column; });
}

}  // namespace

uint64_t Executor::countComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp,
                                  const GraphStore& store, const BgpCall& options,
                                  ExecutionProfile& profile) {
  ExecutionProfile part;
  const uint64_t rows = countRows(*this, BgpPlan{{plan.components[component]}}, bgp, store, options, part);
  addComponentProfile(profile, component, part);
  return rows;
}

// Injective matching compares vertices across components: it reads the
// product's rows.
uint64_t Executor::countDistinct(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                 const BgpCall& options, ExecutionProfile& profile, uint32_t column) {
  if (options.injective) return distinctInRows(*this, plan, bgp, store, options, profile, column);
  std::optional<uint32_t> binding;
  for (uint32_t c = 0; c < plan.components.size(); ++c) {
    if (bindsVertex(plan.components[c], column)) {
      binding = c;
    } else if (!hasRows(*this, plan, c, bgp, store, options)) {
      return 0;
    }
  }
  return binding ? countDistinctInComponent(plan, *binding, bgp, store, options, profile, column) : 0;
}

uint64_t Executor::countDistinctInComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp,
                                            const GraphStore& store, const BgpCall& options,
                                            ExecutionProfile& profile, uint32_t column) {
  ExecutionProfile part;
  const uint64_t distinct =
      distinctInRows(*this, BgpPlan{{plan.components[component]}}, bgp, store, options, part, column);
  addComponentProfile(profile, component, part);
  return distinct;
}

namespace {

// The rows per value of `column` in a streamed cursor's rows.
VertexCounts countsInRows(Executor& executor, const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                          const BgpCall& options, ExecutionProfile& profile, uint32_t column) {
  const uint64_t vertices = store.catalog().vertexCount;
  options.checkMemory(VertexCounter::bytesFor(vertices), "the counts per value of a BGP's variable");
  BgpCall reading = options;
  reading.outputColumns = std::vector<uint32_t>{column};
  reading.streamRows = true;
  reading.rowLimit.reset();
  std::unique_ptr<RowCursor> cursor = executor.open(plan, bgp, store, reading, profile);
  VertexCounter counter(vertices);
  while (std::optional<IdColumns> batch = cursor->next()) counter.add(batch->column(0));
  return counter.counted();
}

}  // namespace

// Injective matching compares vertices across components: it reads the
// product's rows.
VertexCounts Executor::countByVertex(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                     const BgpCall& options, ExecutionProfile& profile, uint32_t column) {
  if (options.injective) return countsInRows(*this, plan, bgp, store, options, profile, column);
  std::optional<uint32_t> binding;
  uint64_t others = 1;
  for (uint32_t c = 0; c < plan.components.size() && others > 0; ++c) {
    if (bindsVertex(plan.components[c], column)) {
      binding = c;
    } else {
      others = checkedMultiply(others, countComponent(plan, c, bgp, store, options, profile));
    }
  }
  if (!binding || others == 0) return {};
  VertexCounts counts = countByVertexInComponent(plan, *binding, bgp, store, options, profile, column);
  for (VertexCount& count : counts) count.rows = checkedMultiply(count.rows, others);
  return counts;
}

VertexCounts Executor::countByVertexInComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp,
                                                const GraphStore& store, const BgpCall& options,
                                                ExecutionProfile& profile, uint32_t column) {
  ExecutionProfile part;
  VertexCounts counts = countsInRows(*this, BgpPlan{{plan.components[component]}}, bgp, store, options, part, column);
  addComponentProfile(profile, component, part);
  return counts;
}

std::unique_ptr<RowCursor> wholeTableCursor(std::function<IdColumns()> table) {
  return std::make_unique<WholeTableCursor>(std::move(table));
}

std::unique_ptr<RowCursor> Executor::open(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                          const BgpCall& options, ExecutionProfile& profile) {
  return wholeTableCursor([this, &plan, &bgp, &store, &options, &profile] {
    return execute(plan, bgp, store, options, profile);
  });
}

}  // namespace gsparql::engine
