#pragma once
// The one contract of every physical operator (QLever's Operation, DuckDB's
// PhysicalOperator): its children, the variables it binds (the columns of its
// tables, in order), estimated rows and cost, a one-line description for
// EXPLAIN, and execution in batches of rows. The planner, EXPLAIN and the
// plan-shape tests treat all operators alike through it.
//
// Execution is pull-based: open() prepares (and may be called again to run
// the operator anew, as EXISTS does), next() returns the next batch or
// nullopt when done. Operators that must see all their input first (sort,
// group, the build side of a join) collect it in open() or in their first
// next(); the others work batch by batch, so LIMIT stops the work early.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/physical/execution_context.h"
#include "engine/physical/table.h"

namespace gsparql::engine {

inline constexpr size_t kBatchRows = 1 << 16;

// What EXPLAIN reports of a run.
struct OperatorProfile {
  uint64_t actualRows = 0;
  uint64_t batches = 0;
  double milliseconds = 0;  // inclusive of children
  bool ran = false;
};

// How far an estimate was off: max(estimated/actual, actual/estimated), both
// taken as at least 1 row (the join-order literature's q-error); 1 is exact.
inline double qError(double estimated, double actual) {
  const double e = std::max(estimated, 1.0), a = std::max(actual, 1.0);
  return std::max(e / a, a / e);
}

// EXPLAIN's numbers: "estimated E, actual A, q-error Q, T ms", or
// "estimated E, not run" where nothing ran.
std::string rowNumbers(double estimated, std::optional<uint64_t> actual, double milliseconds);

class Operator {
 public:
  virtual ~Operator() = default;

  virtual std::string describe() const = 0;
  virtual std::vector<const Operator*> children() const = 0;
  const std::vector<std::string>& variables() const { return variables_; }
  double estimatedRows() const { return estimatedRows_; }
  double estimatedCost() const { return estimatedCost_; }
  // Extra lines for EXPLAIN (a BGP's join steps), empty for most operators.
  virtual std::vector<std::string> details(const GraphStore&) const { return {}; }

  void open(ExecutionContext& context);
  std::optional<Table> next(ExecutionContext& context);
  const OperatorProfile& profile() const { return profile_; }

  // The column of a variable, if this operator binds it.
  std::optional<size_t> columnOf(const std::string& variable) const;

  // Its consumer reads at most `rows` rows (LIMIT, ASK): operators that pass
  // every input row on tell their inputs, and a BGP leaf lets its executor
  // stop once it has them. The others need all their input and ignore it.
  virtual void readAtMost(uint64_t rows) { (void)rows; }

 protected:
  Operator(std::vector<std::string> variables, double estimatedRows, double estimatedCost)
      : variables_(std::move(variables)), estimatedRows_(estimatedRows), estimatedCost_(estimatedCost) {}

  virtual void openImpl(ExecutionContext& context) = 0;
  virtual std::optional<Table> nextImpl(ExecutionContext& context) = 0;

 private:
  std::vector<std::string> variables_;
  double estimatedRows_ = 0;
  double estimatedCost_ = 0;
  OperatorProfile profile_;
};

using OperatorPtr = std::unique_ptr<Operator>;

// Runs an operator to the end and returns all its rows in one table.
Table runToEnd(Operator& op, ExecutionContext& context);
// Runs an operator, told that one row will do, until a batch holds a row:
// that batch, or an empty table where it has no row (EXISTS needs no more).
Table runToFirstRow(Operator& op, ExecutionContext& context);

// Hands out a table in batches of at most kBatchRows (for operators that
// computed their whole result at once).
class BatchCursor {
 public:
  void reset(Table table) {
    table_ = std::move(table);
    position_ = 0;
  }
  std::optional<Table> next();

 private:
  Table table_;
  size_t position_ = 0;
};

}  // namespace gsparql::engine
