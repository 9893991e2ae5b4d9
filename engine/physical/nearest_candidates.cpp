#include "engine/physical/nearest_candidates.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <stdexcept>

#include "engine/expr/numeric.h"
#include "engine/physical/row_solution.h"

namespace gsparql::engine {
namespace {

constexpr double kFirst = -std::numeric_limits<double>::infinity();

// The number a key's value sorts by: kFirst for an error (unbound sorts
// first); nullopt for anything but a number (not geof:distance's results),
// kept whatever it is, and not counted among the nearest.
std::optional<double> sortValue(const expr::Result& value) {
  if (!value) return kFirst;
  const std::optional<expr::Number> number = expr::parseNumber(expr::parseTerm(*value));
  if (!number) return std::nullopt;
  const double v = number->toDouble();
  if (v != v) return std::nullopt;
  return v;
}

}  // namespace

NearestCandidates::NearestCandidates(OperatorPtr child, std::optional<Nearer> nearer, Wider wider,
                                     const std::string& variable, const sparql::Expr& key, std::string text,
                                     geo::NearestBounds bounds, uint64_t wanted)
    : Operator(child->variables(), std::min(child->estimatedRows(), static_cast<double>(wanted)),
               nearer ? nearer->rows->estimatedCost() : child->estimatedCost() + child->estimatedRows()),
      child_(std::move(child)), wider_(std::move(wider)), key_(key, variables()), text_(std::move(text)),
      bounds_(std::move(bounds)), wanted_(wanted) {
  const auto column = child_->columnOf(variable);
  if (!column) throw std::logic_error("NearestCandidates: ?" + variable + " is not bound below");
  if (nearer) {
    if (nearer->rows->variables() != variables()) throw std::logic_error("NearestCandidates: inputs differ");
    nearer_.push_back(std::move(*nearer));
  }
  column_ = *column;
}

std::vector<const Operator*> NearestCandidates::children() const {
  std::vector<const Operator*> children;
  for (const Nearer& n : nearer_) children.push_back(n.rows.get());
  children.push_back(child_.get());
  return children;
}

std::string NearestCandidates::describe() const {
  return "NearestCandidates " + text_ + ", the first " + std::to_string(wanted_) + " through the spatial index";
}

void NearestCandidates::openImpl(ExecutionContext& context) {
  size_t given = 0;  // rows by the last input tried
  for (size_t i = 0; i < nearer_.size() || (i > 0 && planWider(given)); ++i) {
    const Nearer& n = nearer_[i];
    Table rows = runToEnd(*n.rows, context);
    auto [keep, last] = kept(rows, context);
    if (last < n.cutoff || n.cutoff == std::numeric_limits<double>::infinity()) {
      cursor_.reset(gatherRows(rows, keep));
      return;  // every row left out is farther than the last one kept
    }
    given = rows.rows;
  }
  Table rows = runToEnd(*child_, context);
  cursor_.reset(gatherRows(rows, kept(rows, context).first));
}

bool NearestCandidates::planWider(size_t rows) {
  const double growth = rows == 0 ? 8 : std::max(2.0, 1.5 * static_cast<double>(wanted_) / static_cast<double>(rows));
  const double literals = std::ceil(growth * static_cast<double>(nearer_.back().literals));
  if (!wider_.plan || literals > static_cast<double>(wider_.most)) return false;
  auto [ids, cutoff] = bounds_.nearest(static_cast<size_t>(literals));
  OperatorPtr input = wider_.plan(ids);
  if (!input || input->variables() != variables()) return false;
  nearer_.push_back({std::move(input), ids.size(), cutoff});
  return true;
}

std::pair<std::vector<size_t>, double> NearestCandidates::kept(const Table& rows, ExecutionContext& context) const {
  if (wanted_ == 0) return {{}, -std::numeric_limits<double>::infinity()};
  StopCheck stop(context.run.limits);
  std::vector<std::pair<double, size_t>> order(rows.rows);  // (bound, row): ties in input order
  for (size_t r = 0; r < rows.rows; ++r) {
    stop();
    const ValueId id = rows.at(r, column_);
    order[r] = {spaceOf(id) == ValueSpace::Vertex ? bounds_.lowerBound(indexOf(id)) : kFirst, r};
  }
  // Most searches end within the few nearest: those are picked out in
  // linear time and sorted, the rest sorted only when the search gets there.
  const size_t first = std::min<size_t>(order.size(), std::max<uint64_t>(64, 4 * wanted_));
  std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(first), order.end());
  std::sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(first));
  expr::Environment environment = context.environmentFor(variables());
  RowSolution solution(rows, context.terms);
  std::priority_queue<double> nearest;  // the `wanted` least values so far, the greatest on top
  std::vector<std::pair<size_t, std::optional<double>>> tried;
  for (size_t i = 0; i < order.size(); ++i) {
    if (i == first) std::sort(order.begin() + static_cast<std::ptrdiff_t>(first), order.end());
    const auto [bound, r] = order[i];
    if (nearest.size() == wanted_ && bound > nearest.top()) break;  // no row left comes before them
    stop(static_cast<int64_t>(key_.cost()));
    solution.moveTo(r);
    const std::optional<double> value = sortValue(key_.evaluate(solution, environment));
    tried.emplace_back(r, value);
    if (!value) continue;
    nearest.push(*value);
    if (nearest.size() > wanted_) nearest.pop();
  }
  const double last = nearest.size() == wanted_ ? nearest.top() : std::numeric_limits<double>::infinity();
  std::vector<size_t> keep;
  for (const auto& [r, value] : tried) {
    if (!value || *value <= last) keep.push_back(r);  // ties with the last kept: ORDER BY's own tie-break decides
  }
  std::sort(keep.begin(), keep.end());
  return {std::move(keep), last};
}

}  // namespace gsparql::engine
