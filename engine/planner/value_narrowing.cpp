#include "engine/planner/value_narrowing.h"

#include <algorithm>

#include "engine/expr/expression.h"
#include "engine/logical/logical_plan.h"
#include "engine/value/term_codec.h"
#include "storage/graph_store.h"

namespace gsparql::engine {
namespace {

// The one variable of an expression, bound to a data vertex.
class VertexSolution final : public expr::Solution {
 public:
  explicit VertexSolution(TermCodec& terms) : terms_(terms) {}
  void moveTo(uint32_t vertex) { vertex_ = vertex; }
  std::optional<std::string_view> term(size_t) const override { return terms_.term(terms_.fromVertex(vertex_)); }
  std::optional<uint64_t> key(size_t) const override { return vertex_; }

 private:
  TermCodec& terms_;
  uint32_t vertex_ = 0;
};

}  // namespace

std::optional<std::string> singleVariableOf(const sparql::Expr& e) {
  std::vector<std::string> read;
  expressionVariables(e, read);
  std::sort(read.begin(), read.end());
  read.erase(std::unique(read.begin(), read.end()), read.end());
  if (read.size() != 1 || containsExists(e)) return std::nullopt;
  // keySlot: the whole value a pure function of that one variable's term.
  if (!expr::Expression(e, read).keySlot()) return std::nullopt;
  return read.front();
}

std::span<const uint32_t> domainOf(const BoundBgp& bgp, uint32_t vertex, const GraphStore& store) {
  if (bgp.vertices[vertex].isConstantSet()) return bgp.vertices[vertex].constants;
  std::span<const uint32_t> smallest;
  bool found = false;
  for (const BoundEdge& e : bgp.edges) {
    if (e.predicateIsVariable || e.predicate == kNoId || (e.from != vertex && e.to != vertex)) continue;
    // The keys of the direction whose keys are this end: subjects (Out) or objects (In).
    const auto direction = e.from == vertex ? pcsr::Direction::Out : pcsr::Direction::In;
    const std::span<const uint32_t> keys = store.adjacency(direction).predicate(e.predicate).keys();
    if (!found || keys.size() < smallest.size()) smallest = keys;
    found = true;
  }
  return smallest;
}

std::vector<uint32_t> idsPassing(const sparql::Expr& condition, const std::string& variable,
                                 std::span<const uint32_t> domain, const GraphStore& store, StopCheck& stop) {
  const expr::Expression expression(condition, {variable});
  expr::Environment environment;
  TermCodec terms(store);
  VertexSolution solution(terms);
  std::vector<uint32_t> passing;
  for (uint32_t vertex : domain) {
    stop(static_cast<int64_t>(expression.cost()));
    solution.moveTo(vertex);
    if (expression.holds(solution, environment)) passing.push_back(vertex);
  }
  return passing;
}

}  // namespace gsparql::engine
