#pragma once
// The executor interface shared by the CPU and GPU backends: a plan and the
// store in, columns of ids (one per query vertex and predicate variable,
// chosen by BgpCall::outputColumns) out, plus what --explain shows per step.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/bgp/bound_bgp.h"
#include "engine/bgp/id_columns.h"
#include "engine/bgp/plan.h"
#include "engine/bgp/query_limits.h"
#include "engine/bgp/vertex_counts.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

class WalkEstimator;
namespace geo {
class PointLocator;
struct RingSet;
}

// What one executor call asks for, under its query's limits (a call is
// made within them: the executor checks them as it goes).
struct BgpCall : QueryLimits {
  bool injective = false;  // --semantics iso: distinct query vertices match distinct terms
  // The columns the caller reads, in the order the result has them; nullopt:
  // every column. Executors that keep tables elsewhere (the GPU) copy only these.
  std::optional<std::vector<uint32_t>> outputColumns;
  // The caller reads at most this many rows (LIMIT, ASK): executors may stop
  // once they have them.
  std::optional<uint64_t> rowLimit;
  // The result is written as it comes: an executor that can find the rows a
  // chunk at a time hands them out so (Executor::open).
  bool streamRows = false;
  bool stepTimes = false;  // time fused GPU steps one by one, for --explain
};

struct StepProfile {
  uint32_t component = 0;
  uint32_t vertex = 0;
  double estimatedRows = 0;
  uint64_t actualRows = 0;
  double milliseconds = 0;
};

struct ExecutionProfile {
  std::vector<StepProfile> steps;
  std::string note;  // e.g. why the GPU executor handed a BGP to the CPU
  uint64_t copiedBytes = 0;  // adjacency copied to the executor's device for the BGP (calibrate prices it)
  // Steps a count multiplied instead of making their rows, summed over the
  // components (the plan's ComponentPlan::countedLeaves() where it obeyed it).
  size_t countedLeaves = 0;
};

// A BGP's rows a batch at a time, found as they are asked for.
class RowCursor {
 public:
  virtual ~RowCursor() = default;
  virtual std::optional<IdColumns> next() = 0;  // nullopt once done; a batch may be empty
};

// An executor's "cannot, because what()" for one call, thrown before it
// hands out any row: a BGP it cannot run (its shape) or would run badly (a
// reader that takes a few of very many rows), found before any work; or one
// its device ran out of memory for, after it freed what it held. The placer
// (placement/fallback_executor.h) runs the call on the CPU executor instead
// and says why in the profile's note.
class ExecutorDeclined : public std::exception {
 public:
  enum class When { BeforeWork, OutOfMemory };
  ExecutorDeclined(std::string reason, When when) : reason_(std::move(reason)), when_(when) {}
  const char* what() const noexcept override { return reason_.c_str(); }
  bool ranOutOfMemory() const { return when_ == When::OutOfMemory; }

 private:
  std::string reason_;
  When when_;
};

class Executor {
 public:
  virtual ~Executor() = default;
  virtual std::string name() const = 0;
  virtual IdColumns execute(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                            const BgpCall& options, ExecutionProfile& profile) = 0;
  // The same rows through a cursor, found at its first next(). By default
  // one batch, execute()'s table; an executor that can find rows a chunk at
  // a time may hand them out as it goes when options.streamRows asks for it.
  // Everything passed in must outlive the cursor, which keeps `profile` up
  // to date after each batch.
  virtual std::unique_ptr<RowCursor> open(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                          const BgpCall& options, ExecutionProfile& profile);
  // The number of rows execute() would return (COUNT(*) over the BGP),
  // without handing rows out: by default the rows of a cursor that reads no
  // columns; an executor that can count without making rows does so.
  virtual uint64_t count(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                         const BgpCall& options, ExecutionProfile& profile);
  // The number of distinct values of vertex column `column` among the rows
  // execute() would return (COUNT(DISTINCT ?v) over the BGP), without
  // handing rows out. Components without the column only need a row each.
  virtual uint64_t countDistinct(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                 const BgpCall& options, ExecutionProfile& profile, uint32_t column);
  // The rows execute() would return per value of vertex column `column`
  // (GROUP BY ?v with COUNT(*) over the BGP), in vertex order, without
  // handing rows out. Each other component multiplies the counts by its rows.
  virtual VertexCounts countByVertex(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                     const BgpCall& options, ExecutionProfile& profile, uint32_t column);
  // The bytes this executor would copy to its device before running the
  // plan: adjacency it does not hold yet. Placement prices them
  // (ExecutorCosts::perCopiedMegabyte); none by default.
  virtual uint64_t bytesToCopy(const BgpPlan& /*plan*/, const BoundBgp& /*bgp*/, const GraphStore& /*store*/) {
    return 0;
  }
  // Copies ahead of the queries what the executor's device would copy for
  // them (a server's or a benchmark's warm start): every predicate's
  // adjacency that fits its cache. Nothing by default.
  virtual void preload(const GraphStore& /*store*/) {}
  // Random walks over the graph this executor holds, for the optimizer
  // (optimizer/walk_estimator.h); nullptr where it offers none of its own.
  virtual WalkEstimator* walkEstimator() { return nullptr; }
  // `shapes` kept on this executor's device, to place many points in them
  // at once (a spatial join's, geo/point_locator.h); nullptr where it has
  // no device of its own, or no room there.
  virtual std::shared_ptr<geo::PointLocator> pointLocator(const geo::RingSet& /*shapes*/) { return nullptr; }

 protected:
  // The rows of one component of `plan` (count() multiplies them): by
  // default the rows of a cursor over that component alone.
  virtual uint64_t countComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp,
                                  const GraphStore& store, const BgpCall& options,
                                  ExecutionProfile& profile);
  // The distinct values of `column` in one component that binds it
  // (countDistinct): by default the values of a streamed cursor over that
  // component alone, marked in a bitset over the vertices.
  virtual uint64_t countDistinctInComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp,
                                            const GraphStore& store, const BgpCall& options,
                                            ExecutionProfile& profile, uint32_t column);
  // The rows per value of `column` in one component that binds it
  // (countByVertex): by default those of a streamed cursor over that
  // component alone, counted per vertex.
  virtual VertexCounts countByVertexInComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp,
                                                const GraphStore& store, const BgpCall& options,
                                                ExecutionProfile& profile, uint32_t column);
};

// A cursor over the table `table` returns at the first next(), handed out
// in batches (Executor::open's default, over execute()).
std::unique_ptr<RowCursor> wholeTableCursor(std::function<IdColumns()> table);

// What a run over component `component` of a plan alone (a plan of its
// own, numbered 0) reported, added to `profile` as that component's.
void addComponentProfile(ExecutionProfile& profile, uint32_t component, const ExecutionProfile& part);

// Counts of solutions: beyond 2^63 - 1 (the largest integer the engine
// writes) a count is a QueryError, never a wrapped number.
uint64_t checkedAdd(uint64_t a, uint64_t b);
uint64_t checkedMultiply(uint64_t a, uint64_t b);
// For profiles, where a bound is enough.
inline uint64_t saturatingAdd(uint64_t a, uint64_t b) { return b > UINT64_MAX - a ? UINT64_MAX : a + b; }

}  // namespace gsparql::engine
