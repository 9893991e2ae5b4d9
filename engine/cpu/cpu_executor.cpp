#include "engine/cpu/cpu_executor.h"

#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <optional>
#include <ranges>
#include <string>
#include <unordered_set>

#include "engine/bgp/component_product.h"
#include "engine/bgp/distinct_vertices.h"
#include "engine/bgp/set_operations.h"
#include "gsparql/error.h"
#include "storage/graph_store.h"

namespace gsparql::engine {
namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kRowsPerTask = 256;
// Waking the thread pool costs tens of microseconds, more than most steps of
// selective queries take: a step runs here while the rest of it, at the pace
// of its tasks so far, would take at most this long.
constexpr auto kInlineTime = std::chrono::microseconds(30);

// Runs task(0) .. task(tasks - 1): on this thread while the tasks left look
// short, the rest on the thread pool.
template <typename Task>
void runTasks(size_t tasks, const Task& task) {
  const auto start = Clock::now();
  size_t t = 0;
  while (t < tasks) {
    task(t++);
    if ((Clock::now() - start) * (tasks - t) > kInlineTime * t) break;
  }
  if (t < tasks) tbb::parallel_for(t, tasks, task);
}

// Extends rows by one query vertex, following one plan step.
class StepRunner {
 public:
  // `first`: the component's first step, where this is not it.
  StepRunner(const PlanStep& step, const PlanStep* first, const BoundBgp& bgp, const GraphStore& store,
             const std::vector<uint32_t>& earlierVertices, const std::vector<uint32_t>& predicateVertex,
             bool injective)
      : step_(step), bgp_(bgp), store_(store), earlier_(earlierVertices),
        predicateVertex_(predicateVertex), injective_(injective),
        followsDriverKeys_(first != nullptr && earlierVertices.size() == 1 && followsKeysOf(*first)) {
    for (const auto& check : step.checks) {
      if (check.bindsPredicate) boundHere_.push_back(bgp.predicateColumn(edgeOf(check)));
    }
    for (const auto& check : step.checks) {
      (isListCheck(check) ? listChecks_ : rowChecks_).push_back(check);
    }
    // The checks that bind a predicate variable come before those that read it.
    std::stable_partition(rowChecks_.begin(), rowChecks_.end(), [](const EdgeUse& u) { return u.bindsPredicate; });
    if (step.source == CandidateSource::AllVertices) {
      allVertices_.resize(store.catalog().vertexCount);
      std::iota(allVertices_.begin(), allVertices_.end(), 0u);
    }
  }

  // Marks the columns the step reads from a row: both ends of its edges
  // (its own vertex too, unbound before it), their predicate variables and
  // the predicates compared with vertices.
  void markColumnsRead(std::vector<bool>& read) const {
    const auto mark = [&](const EdgeUse& use) {
      const BoundEdge& e = edgeOf(use);
      read[e.from] = read[e.to] = true;
      if (e.predicateIsVariable) read[bgp_.predicateColumn(e)] = true;
    };
    if (step_.source == CandidateSource::Neighbours || step_.source == CandidateSource::PredicateKeys) {
      mark(step_.driver);
    }
    for (const auto& check : step_.checks) mark(check);
    for (const auto& check : step_.predicateVertexChecks) read[check.predicateColumn] = read[check.vertex] = true;
  }
  // The columns the step binds: its vertex and the predicate variables its edges bind.
  std::vector<uint32_t> columnsBound() const {
    std::vector<uint32_t> bound(boundHere_.begin(), boundHere_.end());
    bound.push_back(step_.vertex);
    if (step_.driver.bindsPredicate) bound.push_back(bgp_.predicateColumn(edgeOf(step_.driver)));
    return bound;
  }
  // How many rows extend() would make of `row` (countable steps only).
  uint64_t candidateCount(std::span<const uint32_t> row, std::vector<uint32_t>& a, std::vector<uint32_t>& b) const {
    std::span<const uint32_t> current = lookup(step_.driver, predicateOf(step_.driver, row), row[step_.driver.boundVertex]);
    for (const auto& check : listChecks_) {
      if (current.empty()) return 0;
      intersectSorted(current, lookup(check, predicateOf(check, row), row[check.boundVertex]), a);
      std::swap(a, b);
      current = b;
    }
    return current.size();
  }

  // What extend() reuses from one row to the next (one per task): the row
  // being extended and the intersections' buffers.
  struct Workspace {
    std::vector<uint32_t> row, a, b;
    size_t stopAt = SIZE_MAX;  // the output's size at which extend() may stop early
    // The driver's key index the next row is expected at (driverNeighbours).
    bool cursorPlaced = false;
    size_t cursor = 0;
  };
  static constexpr size_t kNoCursor = SIZE_MAX;

  void extend(std::span<const uint32_t> input, std::vector<uint32_t>& out, Workspace& scratch) const {
    std::vector<uint32_t>& row = scratch.row;
    row.assign(input.begin(), input.end());
    switch (step_.source) {
      case CandidateSource::Constant: {
        uint32_t id = bgp_.vertices[step_.vertex].id;
        filterAndEmit(row, std::span<const uint32_t>(&id, 1), scratch, out);
        return;
      }
      case CandidateSource::Constants:
        filterAndEmit(row, bgp_.vertices[step_.vertex].constants, scratch, out);
        return;
      case CandidateSource::AllVertices:
        filterAndEmit(row, allVertices_, scratch, out);
        return;
      case CandidateSource::PredicateKeys:
        filterAndEmit(row, adjacency(step_.driver.direction, predicateOf(step_.driver, row)).keys(), scratch, out);
        return;
      case CandidateSource::Neighbours:
        forEachPredicate(step_.driver, row, [&](uint32_t p) {
          filterAndEmit(row, driverNeighbours(p, row[step_.driver.boundVertex], scratch), scratch, out);
        });
        return;
    }
  }

 private:
  const BoundEdge& edgeOf(const EdgeUse& use) const { return bgp_.edges[use.edge]; }

  // Checks done on whole candidate lists: a predicate known before this step
  // and another vertex. A predicate variable that another check of this step
  // binds is known only per row.
  bool isListCheck(const EdgeUse& use) const {
    if (use.bindsPredicate || use.boundVertex == step_.vertex) return false;
    const BoundEdge& e = edgeOf(use);
    return !e.predicateIsVariable ||
           std::find(boundHere_.begin(), boundHere_.end(), bgp_.predicateColumn(e)) == boundHere_.end();
  }

  // Whether `first` listed the keys of this step's driver adjacency, in order.
  bool followsKeysOf(const PlanStep& first) const {
    return step_.source == CandidateSource::Neighbours && first.source == CandidateSource::PredicateKeys &&
           first.driver.edge == step_.driver.edge && first.driver.direction == step_.driver.direction &&
           step_.driver.boundVertex == first.vertex && !edgeOf(step_.driver).predicateIsVariable;
  }

  const PredicateAdjacency& adjacency(pcsr::Direction d, uint32_t p) const {
    return store_.adjacency(d).predicate(p);
  }

  uint32_t predicateOf(const EdgeUse& use, std::span<const uint32_t> row) const {
    const BoundEdge& e = edgeOf(use);
    return e.predicateIsVariable ? row[bgp_.predicateColumn(e)] : e.predicate;
  }

  std::span<const uint32_t> lookup(const EdgeUse& use, uint32_t p, uint32_t from) const {
    return adjacency(use.direction, p).neighbours(from);
  }

  // The driver's neighbours of `from`. Where the step follows the
  // component's first step, which listed the keys of this step's own
  // adjacency (`?o` from the objects of <p>, then `?s` from its neighbours
  // via <p>: a BGP of one pattern), the rows come in the keys' order: a
  // binary search puts a cursor at a task's first row, and while the rows
  // meet the cursor's key (or one a few keys on: keys the first step's
  // checks dropped) their lists are read from the plain CSR in order rather
  // than through the hashed groups (a cache miss or two a row). A row that
  // misses turns the cursor off for the task. The same list either way, read
  // checked.
  std::span<const uint32_t> driverNeighbours(uint32_t p, uint32_t from, Workspace& s) const {
    const PredicateAdjacency& a = adjacency(step_.driver.direction, p);
    if (!followsDriverKeys_ || s.cursor == kNoCursor) return a.neighbours(from);
    constexpr size_t kSkips = 4;
    if (!s.cursorPlaced) {
      s.cursorPlaced = true;
      const auto indices = std::views::iota(size_t{0}, size_t{a.keyCount()});
      s.cursor = static_cast<size_t>(
          std::ranges::partition_point(indices, [&](size_t k) { return a.key(k) < from; }) - indices.begin());
    }
    for (size_t skip = 0; s.cursor < a.keyCount() && skip <= kSkips; ++skip) {
      const uint32_t key = a.key(s.cursor);
      if (key == from) return a.neighboursAt(s.cursor++);
      if (key > from) break;
      ++s.cursor;
    }
    s.cursor = kNoCursor;
    return a.neighbours(from);
  }

  // Calls f once per value of the use's predicate: the known one, or every
  // predicate of the BGP's graph when this use binds the variable (written into `row`).
  template <typename F>
  void forEachPredicate(const EdgeUse& use, std::vector<uint32_t>& row, F f) const {
    if (!use.bindsPredicate) return f(predicateOf(use, row));
    const uint32_t column = bgp_.predicateColumn(edgeOf(use));
    for (uint32_t p : bgp_.graphPredicates) {
      row[column] = p;
      f(p);
    }
  }

  void filterAndEmit(std::vector<uint32_t>& row, std::span<const uint32_t> candidates, Workspace& s,
                     std::vector<uint32_t>& out) const {
    std::span<const uint32_t> current = candidates;
    for (const auto& check : listChecks_) {
      if (current.empty()) return;
      auto other = lookup(check, predicateOf(check, row), row[check.boundVertex]);
      intersectSorted(current, other, s.a);
      std::swap(s.a, s.b);
      current = s.b;
    }
    for (uint32_t c : current) {
      if (out.size() >= s.stopAt) return;
      row[step_.vertex] = c;
      if (injective_ && usedEarlier(row, c)) continue;
      emitAfterRowChecks(row, 0, out);
    }
  }

  bool usedEarlier(std::span<const uint32_t> row, uint32_t c) const {
    for (uint32_t v : earlier_) {
      if (row[v] == c) return true;
    }
    return false;
  }

  // Self-loops and edges whose predicate variable is bound here: checked per
  // row, possibly producing one row per matching predicate.
  void emitAfterRowChecks(std::vector<uint32_t>& row, size_t i, std::vector<uint32_t>& out) const {
    if (i == rowChecks_.size()) {
      if (predicateVertexChecksHold(row)) out.insert(out.end(), row.begin(), row.end());
      return;
    }
    const EdgeUse& check = rowChecks_[i];
    const uint32_t target = row[check.boundVertex == step_.vertex ? otherEnd(check) : step_.vertex];
    forEachPredicate(check, row, [&](uint32_t p) {
      if (containsSorted(lookup(check, p, row[check.boundVertex]), target)) {
        emitAfterRowChecks(row, i + 1, out);
      }
    });
  }

  uint32_t otherEnd(const EdgeUse& use) const {
    const BoundEdge& e = edgeOf(use);
    return e.from == use.boundVertex ? e.to : e.from;
  }

  bool predicateVertexChecksHold(std::span<const uint32_t> row) const {
    for (const auto& check : step_.predicateVertexChecks) {
      if (predicateVertex_[row[check.predicateColumn]] != row[check.vertex]) return false;
    }
    return true;
  }

  const PlanStep& step_;
  const BoundBgp& bgp_;
  const GraphStore& store_;
  const std::vector<uint32_t>& earlier_;
  const std::vector<uint32_t>& predicateVertex_;
  bool injective_;
  bool followsDriverKeys_;  // the rows come in the order of the driver adjacency's keys (driverNeighbours)
  std::vector<uint32_t> boundHere_;  // predicate columns that checks of this step bind
  std::vector<EdgeUse> listChecks_, rowChecks_;
  std::vector<uint32_t> allVertices_;
};

// The cells a step's tasks produced so far, checked against the memory
// budget as they grow (with the step's input, which lives as long).
class StepMemory {
 public:
  StepMemory(const IdRows& input, const BgpCall& options)
      : inputBytes_(input.data().size() * sizeof(uint32_t)), options_(options) {}
  // Adds what a task produced since its last report; false once over budget.
  bool report(size_t cells) {
    const uint64_t bytes = inputBytes_ + (cells_ += cells) * sizeof(uint32_t);
    if (bytes > options_.memoryBudgetBytes) over_ = true;
    return !over_;
  }
  void throwIfOver() const {
    if (over_) throw QueryOutOfMemory("a join step's intermediate rows", options_.memoryBudgetBytes);
  }

 private:
  uint64_t inputBytes_;
  const BgpCall& options_;
  std::atomic<uint64_t> cells_{0};
  std::atomic<bool> over_{false};
};

// Each row's extensions through one step, or with `firstOnly` its first
// extension (where the caller needs only to know that one exists).
IdRows runStep(const StepRunner& runner, const IdRows& input, const BgpCall& options,
               bool firstOnly = false) {
  constexpr size_t kCellsPerReport = 1 << 16;
  const size_t tasks = (input.rows() + kRowsPerTask - 1) / kRowsPerTask;
  std::vector<std::vector<uint32_t>> pieces(tasks);
  StepMemory memory(input, options);
  auto runTask = [&](size_t t) {
    if (options.stopRequested()) return;
    size_t reported = 0;
    size_t end = std::min(input.rows(), (t + 1) * kRowsPerTask);
    StepRunner::Workspace workspace;
    for (size_t r = t * kRowsPerTask; r < end; ++r) {
      if (firstOnly) workspace.stopAt = pieces[t].size() + input.width();
      runner.extend(input.row(r), pieces[t], workspace);
      if (firstOnly) pieces[t].resize(std::min(pieces[t].size(), workspace.stopAt));
      if (pieces[t].size() - reported < kCellsPerReport) continue;
      if (!memory.report(pieces[t].size() - reported) || options.stopRequested()) return;
      reported = pieces[t].size();
    }
  };
  runTasks(tasks, runTask);
  options.throwIfStopped();
  memory.throwIfOver();
  IdRows output(input.width());
  if (tasks == 1) {
    output.data() = std::move(pieces[0]);
    return output;
  }
  size_t total = 0;
  for (const auto& piece : pieces) total += piece.size();
  options.checkMemory((input.data().size() + 2 * total) * sizeof(uint32_t), "a join step's intermediate rows");
  output.data().reserve(total);
  for (const auto& piece : pieces) output.data().insert(output.data().end(), piece.begin(), piece.end());
  return output;
}

// Rows [begin, end) of a table.
IdRows rowsOf(const IdRows& table, size_t begin, size_t end) {
  IdRows out(table.width());
  out.data().assign(table.data().begin() + static_cast<std::ptrdiff_t>(begin * table.width()),
                    table.data().begin() + static_cast<std::ptrdiff_t>(end * table.width()));
  return out;
}

// The vertex id of each predicate, when a step compares the two.
std::vector<uint32_t> predicateVerticesFor(const BgpPlan& plan, const GraphStore& store) {
  for (const auto& component : plan.components) {
    for (const auto& step : component.steps) {
      if (!step.predicateVertexChecks.empty()) return predicateVertexIds(store);
    }
  }
  return {};
}

// One connected component's steps, run level by level or depth-first over
// chunks of rows, so that the work (and the memory) stops when the caller
// has read what it needs: under a row limit, and for a cursor.
class ComponentRun {
 public:
  ComponentRun(uint32_t component, const ComponentPlan& plan, const BoundBgp& bgp, const GraphStore& store,
               const std::vector<uint32_t>& predicateVertex, const BgpCall& options)
      : component_(component), plan_(plan), options_(options), width_(bgp.columnCount()),
        vertexColumns_(bgp.vertices.size()) {
    std::vector<uint32_t> earlier;
    earlier_.reserve(plan.steps.size());  // runners keep references to these lists
    runners_.reserve(plan.steps.size());
    for (const PlanStep& step : plan.steps) {
      earlier_.push_back(earlier);
      runners_.emplace_back(step, runners_.empty() ? nullptr : &plan.steps.front(), bgp, store, earlier_.back(),
                            predicateVertex, options.injective);
      earlier.push_back(step.vertex);
    }
    depth_ = plan.steps.size();
    times_.assign(plan.steps.size(), 0);
    rows_.assign(plan.steps.size(), 0);
    restart();
  }

  // Breadth-first (level by level, as SGSI) unless a row limit asks for
  // the first rows, or the plan's estimates say a level before the last
  // would not fit the memory budget: then depth-first over chunks of rows
  // (DGSM), which holds a chunk per level. A level that outgrows the budget
  // the estimates did not foresee starts the component again depth-first.
  IdRows run() {
    if (options_.rowLimit) return runDepthFirst(*options_.rowLimit);
    if (levelsOutgrowBudget()) return depthFirstBecause("its estimated rows");
    if (std::optional<IdRows> rows = extendLevelByLevel(std::move(pending_.front().rows))) return std::move(*rows);
    restart();
    return depthFirstBecause("its rows");
  }

  // Why the component ran depth-first, for EXPLAIN; empty if it did not.
  const std::string& strategyNote() const { return strategyNote_; }

  // Depth-first: the next rows through the first depth_ steps (all of
  // them, unless counting), from the deepest level that still has
  // unextended rows; nullopt once all are extended.
  std::optional<IdRows> nextChunk() {
    while (const std::optional<Chunk> chunk = nextPending()) {
      IdRows rows = chunkRows(*chunk);
      if (chunk->step == depth_) return rows;  // no steps to run: the one start row
      IdRows extended = step(chunk->step, rows);
      if (chunk->step + 1 == depth_) return extended;
      if (extended.rows() > 0) pending_.push_back({std::move(extended), 0});
    }
    return std::nullopt;
  }

  // The component's rows, counted in bounded memory: the steps before the
  // leaves its plan counts (ComponentPlan::countedLeavesFrom) run depth-first
  // a chunk at a time, and each of their rows adds the product of the
  // leaves' candidate counts.
  uint64_t count() {
    depth_ = plan_.countedLeavesFrom.value_or(runners_.size());
    countedLeaves_ = runners_.size() - depth_;
    uint64_t total = 0;
    while (std::optional<IdRows> chunk = nextChunk()) {
      total = checkedAdd(total, depth_ == runners_.size() ? chunk->rows() : countLeaves(*chunk));
      options_.throwIfStopped();
    }
    return total;
  }

  // The component's rows per value of vertex `column`, in bounded memory
  // beside a counter per vertex: as count(), the steps before the leaves
  // run depth-first a chunk at a time, the leaves counted as products (the
  // planner marks none that binds the column: a plan that did is run to its
  // full rows).
  VertexCounts countByVertex(uint32_t column, uint64_t vertexCount) {
    options_.checkMemory(VertexCounter::bytesFor(vertexCount), "the counts per value of a BGP's variable");
    depth_ = plan_.countedLeavesFrom.value_or(runners_.size());
    if (bindingStep(column) >= depth_) depth_ = runners_.size();
    countedLeaves_ = runners_.size() - depth_;
    std::vector<uint64_t> counts(vertexCount, 0);
    while (std::optional<IdRows> chunk = nextChunk()) {
      if (depth_ == runners_.size()) {
        for (size_t r = 0; r < chunk->rows(); ++r) ++counts[chunk->at(r, column)];
      } else {
        const std::vector<uint64_t> products = leafProducts(*chunk);
        for (size_t r = 0; r < chunk->rows(); ++r) {
          uint64_t& count = counts[chunk->at(r, column)];
          count = checkedAdd(count, products[r]);
        }
      }
      options_.throwIfStopped();
    }
    return VertexCounter::counted(counts);
  }

  // The distinct values of vertex `column` among the component's rows. Two
  // rows that agree on the counted column and on every column a later step
  // reads have the same extensions, and so reach the same values: after
  // each step, a row goes on only the first time its kept columns are seen.
  // Until the column is bound, the steps run depth-first a chunk of rows at
  // a time. From then on, each row whose value is not counted yet is
  // followed depth-first, one candidate at a time, until one full row shows
  // that the value is there. So a path is followed once per distinct vertex
  // it reaches, not once per solution.
  uint64_t countDistinct(uint32_t column, uint64_t vertexCount) {
    DistinctSearch search = distinctSearch(column, vertexCount);
    const size_t binding = bindingStep(column);
    while (const std::optional<Chunk> chunk = nextPending()) {
      const size_t s = chunk->step;
      const IdRows rows = chunkRows(*chunk);
      if (s > binding) {
        for (size_t r = 0; r < rows.rows(); ++r) {
          const uint32_t value = rows.row(r)[column];
          if (!search.counted.contains(value) && completes(rows.row(r), s, search)) search.counted.insert(value);
        }
      } else {
        // A step that binds nothing read after it (?a of a path's far end)
        // only has to show that a row extends: its first extension will do.
        IdRows fresh = search.firstSeen(s, step(s, rows, search.existence[s]));
        if (s + 1 == runners_.size()) {
          for (size_t r = 0; r < fresh.rows(); ++r) search.counted.insert(fresh.at(r, column));
        }
        if (s + 1 < runners_.size() && fresh.rows() > 0) pending_.push_back({std::move(fresh), 0});
      }
      options_.checkMemory(search.seenBytes, "COUNT(DISTINCT)'s rows seen");
      options_.throwIfStopped();
    }
    return search.counted.count();
  }

  void addProfile(ExecutionProfile& profile) const {
    for (size_t s = 0; s < runners_.size() && s < ran_; ++s) {
      profile.steps.push_back({component_, plan_.steps[s].vertex, plan_.steps[s].estimatedRows, rows_[s], times_[s]});
    }
    profile.countedLeaves += countedLeaves_;
  }

 private:
  static constexpr size_t kChunkRows = 4096;

  // Rows entering one step, and how many of them it has extended.
  struct Level {
    IdRows rows;
    size_t next = 0;
  };
  // Rows [begin, end) of pending_[step].
  struct Chunk {
    size_t step, begin, end;
  };

  // Depth-first: the next rows of the deepest level that has rows left;
  // nullopt once every level is extended.
  std::optional<Chunk> nextPending() {
    while (!pending_.empty()) {
      Level& level = pending_.back();
      if (level.next == level.rows.rows()) {
        pending_.pop_back();
        continue;
      }
      const size_t begin = level.next, end = std::min(level.rows.rows(), begin + kChunkRows);
      level.next = end;
      return Chunk{pending_.size() - 1, begin, end};
    }
    return std::nullopt;
  }
  IdRows chunkRows(const Chunk& chunk) const { return rowsOf(pending_[chunk.step].rows, chunk.begin, chunk.end); }

  IdRows step(size_t s, const IdRows& input, bool firstOnly = false) {
    const auto start = Clock::now();
    IdRows output = runStep(runners_[s], input, options_, firstOnly);
    times_[s] += std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    rows_[s] += output.rows();
    ran_ = std::max(ran_, s + 1);
    return output;
  }

  // The rows that the leaf steps (from depth_ on) would make of `rows`.
  uint64_t countLeaves(const IdRows& rows) {
    uint64_t total = 0;
    for (const uint64_t product : leafProducts(rows)) total = checkedAdd(total, product);
    return total;
  }

  // Per row of `rows`, the rows the leaf steps (from depth_ on) would make of it.
  std::vector<uint64_t> leafProducts(const IdRows& rows) {
    const auto start = Clock::now();
    const size_t leaves = runners_.size() - depth_;
    std::vector<uint64_t> products(rows.rows(), 1);
    tbb::combinable<std::vector<uint64_t>> stepRows([&] { return std::vector<uint64_t>(leaves, 0); });
    runTasks((rows.rows() + kRowsPerTask - 1) / kRowsPerTask, [&](size_t t) {
      std::vector<uint64_t>& partial = stepRows.local();
      std::vector<uint32_t> a, b;
      for (size_t r = t * kRowsPerTask; r < std::min(rows.rows(), (t + 1) * kRowsPerTask); ++r) {
        uint64_t& product = products[r];
        for (size_t l = 0; l < leaves && product > 0; ++l) {
          product = checkedMultiply(product, runners_[depth_ + l].candidateCount(rows.row(r), a, b));
          partial[l] = saturatingAdd(partial[l], product);
        }
      }
    });
    stepRows.combine_each([&](const std::vector<uint64_t>& partial) {
      for (size_t l = 0; l < leaves; ++l) rows_[depth_ + l] = saturatingAdd(rows_[depth_ + l], partial[l]);
    });
    times_[depth_] += std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    ran_ = runners_.size();
    return products;
  }


  // The first `limit` rows depth-first. Without a limit the result grows
  // under the memory budget, counted twice as a growing table may hold it
  // while it moves.
  IdRows runDepthFirst(uint64_t limit) {
    IdRows out(width_);
    while (out.rows() < limit) {
      std::optional<IdRows> chunk = nextChunk();
      if (!chunk) break;
      const size_t take = static_cast<size_t>(std::min<uint64_t>(chunk->rows(), limit - out.rows()));
      out.append(take == chunk->rows() ? *chunk : rowsOf(*chunk, 0, take));
      if (!options_.rowLimit) options_.checkMemory(2 * out.data().size() * sizeof(uint32_t), "a BGP's rows");
    }
    return out;
  }

  IdRows depthFirstBecause(const std::string& what) {
    strategyNote_ = "component " + std::to_string(component_ + 1) + " ran depth-first: " + what +
                    " outgrew the memory budget level by level";
    return runDepthFirst(UINT64_MAX);
  }

  static constexpr size_t kSeenEntryBytes = 64;  // a hash set's node and bucket, beside the key

  // The rows seen after one step, by the columns that tell them apart
  // there: those bound so far that a later step reads, or the counted one.
  // None where every bound column is kept (each row is new); one vertex
  // column, as bits over the vertices; two, as one 64-bit key; more, as bytes.
  class SeenRows {
   public:
    SeenRows(std::vector<uint32_t> columns, bool allKept, std::optional<uint64_t> vertexBits)
        : columns_(std::move(columns)), allKept_(allKept), bits_(vertexBits.value_or(0)), useBits_(vertexBits) {}

    // True the first time a row with these values of the columns comes; `bytes` grows by what it keeps.
    bool firstTime(std::span<const uint32_t> row, uint64_t& bytes) {
      if (allKept_) return true;
      if (useBits_) {
        if (bits_.contains(row[columns_[0]])) return false;
        bits_.insert(row[columns_[0]]);
        return true;
      }
      bool inserted = false;
      if (columns_.size() == 2) {
        inserted = pairs_.insert(uint64_t{row[columns_[0]]} << 32 | row[columns_[1]]).second;
      } else {
        std::string key;
        for (uint32_t c : columns_) key.append(reinterpret_cast<const char*>(&row[c]), sizeof(uint32_t));
        inserted = keys_.insert(std::move(key)).second;
      }
      bytes += inserted ? kSeenEntryBytes + 4 * columns_.size() : 0;
      return inserted;
    }

   private:
    std::vector<uint32_t> columns_;
    bool allKept_;
    DistinctVertices bits_;
    bool useBits_;
    std::unordered_set<uint64_t> pairs_;
    std::unordered_set<std::string> keys_;
  };

  // What countDistinct keeps: per step, the rows seen after it, and the values counted.
  struct DistinctSearch {
    std::vector<bool> existence;  // per step: only whether a row extends matters
    std::vector<SeenRows> seen;
    std::vector<StepRunner::Workspace> workspaces;
    std::vector<std::vector<uint32_t>> extended;  // per step: the rows completes() made there
    DistinctVertices counted;
    uint64_t seenBytes = 0;

    bool firstTime(size_t s, std::span<const uint32_t> row) { return seen[s].firstTime(row, seenBytes); }
    IdRows firstSeen(size_t s, const IdRows& rows) {
      IdRows fresh(rows.width());
      for (size_t r = 0; r < rows.rows(); ++r) {
        if (firstTime(s, rows.row(r))) fresh.appendRow(rows.row(r));
      }
      return fresh;
    }
  };

  // Per step, from the columns each later step reads and the counted one:
  // what tells rows apart after it, and whether it only has to show that a
  // row extends (it binds nothing read after it).
  DistinctSearch distinctSearch(uint32_t column, uint64_t vertexCount) const {
    DistinctSearch search{std::vector<bool>(runners_.size()), {}, std::vector<StepRunner::Workspace>(runners_.size()),
                          std::vector<std::vector<uint32_t>>(runners_.size()), DistinctVertices(vertexCount)};
    std::vector<bool> read(width_, false), bound(width_, false);
    read[column] = true;
    std::vector<std::vector<bool>> readAfter(runners_.size());
    for (size_t s = runners_.size(); s-- > 0;) {
      readAfter[s] = read;
      runners_[s].markColumnsRead(read);
    }
    for (size_t s = 0; s < runners_.size(); ++s) {
      const std::vector<uint32_t> boundHere = runners_[s].columnsBound();
      search.existence[s] = std::none_of(boundHere.begin(), boundHere.end(), [&](uint32_t c) { return readAfter[s][c]; });
      for (uint32_t c : boundHere) bound[c] = true;
      std::vector<uint32_t> key;
      size_t boundColumns = 0;
      for (uint32_t c = 0; c < width_; ++c) {
        boundColumns += bound[c];
        if (bound[c] && readAfter[s][c]) key.push_back(c);
      }
      const bool allKept = key.size() == boundColumns;
      const bool oneVertex = key.size() == 1 && key[0] < vertexColumns_;
      search.seen.emplace_back(std::move(key), allKept, oneVertex ? std::optional(vertexCount) : std::nullopt);
    }
    return search;
  }

  // Whether `row`, entering step s, extends through the last step: depth
  // first, stopping at the first full row (the last step makes only one).
  // Each depth reuses its own buffer.
  bool completes(std::span<const uint32_t> row, size_t s, DistinctSearch& search) {
    const bool last = s + 1 == runners_.size();
    std::vector<uint32_t>& extended = search.extended[s];
    extended.clear();
    search.workspaces[s].stopAt = last ? width_ : SIZE_MAX;
    runners_[s].extend(row, extended, search.workspaces[s]);
    rows_[s] += extended.size() / width_;
    ran_ = std::max(ran_, s + 1);
    if (last) return !extended.empty();
    for (size_t i = 0; i < extended.size(); i += width_) {
      const std::span<const uint32_t> next(extended.data() + i, width_);
      if (search.firstTime(s, next) && completes(next, s + 1, search)) return true;
    }
    return false;
  }

  // The step that binds vertex `column`.
  size_t bindingStep(uint32_t column) const {
    size_t s = 0;
    while (s + 1 < plan_.steps.size() && plan_.steps[s].vertex != column) ++s;
    return s;
  }

  // A level before the last whose estimated rows, with the level before
  // it, would not fit the budget (as runStep counts a step's memory).
  bool levelsOutgrowBudget() const {
    const double rowBytes = static_cast<double>(width_ * sizeof(uint32_t));
    for (size_t s = 0; s + 1 < plan_.steps.size(); ++s) {
      if (2 * plan_.steps[s].estimatedRows * rowBytes > static_cast<double>(options_.memoryBudgetBytes)) return true;
    }
    return false;
  }

  // Back to the one start row, with nothing counted.
  void restart() {
    IdRows start(width_);
    start.appendRow(std::vector<uint32_t>(width_, 0));
    pending_.clear();
    pending_.push_back({std::move(start), 0});
    times_.assign(times_.size(), 0);
    rows_.assign(rows_.size(), 0);
    ran_ = 0;
  }

  // Level by level; nullopt where a level before the last outgrew the
  // memory budget. The last level's error stands: its rows are the result,
  // which depth-first would not fit either.
  std::optional<IdRows> extendLevelByLevel(IdRows table) {
    for (size_t s = 0; s < runners_.size() && table.rows() > 0; ++s) {
      try {
        table = step(s, table);
      } catch (const QueryOutOfMemory&) {
        if (s + 1 == runners_.size()) throw;
        return std::nullopt;
      }
    }
    return table;
  }

  uint32_t component_;
  const ComponentPlan& plan_;
  const BgpCall& options_;
  size_t width_;  // the BGP's columns
  size_t vertexColumns_;  // the first of them: one per query vertex
  std::vector<std::vector<uint32_t>> earlier_;  // per step: the vertices bound before it
  std::vector<StepRunner> runners_;
  std::vector<double> times_;
  std::vector<uint64_t> rows_;
  size_t ran_ = 0;              // steps that ran at least once
  size_t depth_ = 0;            // steps that make rows: all, or those before the leaves counted
  size_t countedLeaves_ = 0;    // steps counted as products (count())
  std::vector<Level> pending_;  // depth-first: pending_[s] enters step s
  std::string strategyNote_;
};

// A one-component BGP's rows, found a chunk at a time as they are asked for.
class ComponentCursor final : public RowCursor {
 public:
  ComponentCursor(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const BgpCall& options,
                  ExecutionProfile& profile)
      : predicateVertex_(predicateVerticesFor(plan, store)),
        run_(0, plan.components.front(), bgp, store, predicateVertex_, options), options_(options),
        profile_(profile) {}

  std::optional<IdColumns> next() override {
    std::optional<IdRows> chunk = run_.nextChunk();
    profile_.steps.clear();
    run_.addProfile(profile_);
    if (chunk) return toColumns(std::move(*chunk), options_.outputColumns);
    return std::nullopt;
  }

 private:
  std::vector<uint32_t> predicateVertex_;
  ComponentRun run_;
  const BgpCall& options_;
  ExecutionProfile& profile_;
};

class CpuExecutor final : public Executor {
 public:
  std::string name() const override { return "cpu"; }

  IdColumns execute(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                    const BgpCall& options, ExecutionProfile& profile) override {
    const std::vector<uint32_t> predicateVertex = predicateVerticesFor(plan, store);
    std::vector<IdRows> tables;
    for (uint32_t c = 0; c < plan.components.size(); ++c) {
      ComponentRun run(c, plan.components[c], bgp, store, predicateVertex, options);
      tables.push_back(run.run());
      run.addProfile(profile);
      if (!run.strategyNote().empty()) profile.note += (profile.note.empty() ? "" : "; ") + run.strategyNote();
      if (tables.back().rows() == 0) break;  // the product is empty
    }
    return componentProduct(std::move(tables), bgp, options);
  }

  // Streamed, one component is found depth-first, a chunk at a time; a
  // product of several, and any BGP not streamed, is computed whole.
  std::unique_ptr<RowCursor> open(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                  const BgpCall& options, ExecutionProfile& profile) override {
    if (!options.streamRows || plan.components.size() != 1) return Executor::open(plan, bgp, store, options, profile);
    return std::make_unique<ComponentCursor>(plan, bgp, store, options, profile);
  }

 protected:
  // Injective matching compares each new vertex with every earlier one, so
  // no column may be merged away: it marks the rows as every executor does.
  uint64_t countDistinctInComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp,
                                    const GraphStore& store, const BgpCall& options,
                                    ExecutionProfile& profile, uint32_t column) override {
    if (options.injective) {
      return Executor::countDistinctInComponent(plan, component, bgp, store, options, profile, column);
    }
    const std::vector<uint32_t> predicateVertex = predicateVerticesFor(plan, store);
    ComponentRun run(component, plan.components[component], bgp, store, predicateVertex, options);
    const uint64_t distinct = run.countDistinct(column, store.catalog().vertexCount);
    run.addProfile(profile);
    return distinct;
  }

  // Counted per value without making the component's leaves' rows (but those binding the value).
  VertexCounts countByVertexInComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp,
                                        const GraphStore& store, const BgpCall& options, ExecutionProfile& profile,
                                        uint32_t column) override {
    if (options.injective) {
      return Executor::countByVertexInComponent(plan, component, bgp, store, options, profile, column);
    }
    const std::vector<uint32_t> predicateVertex = predicateVerticesFor(plan, store);
    ComponentRun run(component, plan.components[component], bgp, store, predicateVertex, options);
    VertexCounts counts = run.countByVertex(column, store.catalog().vertexCount);
    run.addProfile(profile);
    return counts;
  }

  // Counted without making the component's leaves' rows.
  uint64_t countComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp, const GraphStore& store,
                          const BgpCall& options, ExecutionProfile& profile) override {
    const std::vector<uint32_t> predicateVertex = predicateVerticesFor(plan, store);
    ComponentRun run(component, plan.components[component], bgp, store, predicateVertex, options);
    const uint64_t rows = run.count();
    run.addProfile(profile);
    return rows;
  }
};

}  // namespace

std::unique_ptr<Executor> makeCpuExecutor() { return std::make_unique<CpuExecutor>(); }

}  // namespace gsparql::engine
