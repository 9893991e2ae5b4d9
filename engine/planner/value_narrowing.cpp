#include "engine/planner/value_narrowing.h"

#include <algorithm>
#include <map>
#include <memory>

#include "engine/expr/expression.h"
#include "engine/logical/logical_plan.h"
#include "engine/optimizer/recent_cache.h"
#include "engine/planner/text_pattern.h"
#include "engine/value/term_codec.h"
#include "parser/print.h"
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

using Substitutions = std::map<std::string, sparql::Expr, std::less<>>;

// `e` with `bound`'s variables replaced; false where it cannot be (BOUND of one, EXISTS).
bool substitute(sparql::Expr& e, const Substitutions& bound) {
  using Kind = sparql::Expr::Kind;
  if (e.kind == Kind::Exists || e.kind == Kind::NotExists) return false;
  if (e.kind == Kind::Term) {
    if (e.term.kind != sparql::Term::Kind::Variable) return true;
    if (const auto it = bound.find(e.term.value); it != bound.end()) e = it->second;
    return true;
  }
  if (e.kind == Kind::Call && e.name == "BOUND") {
    return std::none_of(e.args.begin(), e.args.end(), [&](const sparql::Expr& a) {
      return a.kind == Kind::Term && bound.contains(a.term.value);
    });
  }
  return std::all_of(e.args.begin(), e.args.end(), [&](sparql::Expr& a) { return substitute(a, bound); });
}

}  // namespace

std::optional<sparql::Expr> throughBinds(const sparql::Expr& condition, const sparql::Op& extend) {
  // Outermost first, down to a text search's score (text_pattern.h): the
  // planner's own function, which an expression cannot evaluate.
  std::vector<const sparql::Binding*> chain;
  for (const sparql::Op* e = &extend; e->kind == sparql::Op::Kind::Extend; e = e->children[0].get()) {
    const sparql::Expr& value = e->bindings[0].expr;
    if (value.kind == sparql::Expr::Kind::Function && value.name == kTextScoreFunction) break;
    chain.push_back(&e->bindings[0]);
  }
  Substitutions bound;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {  // a BIND reads those below it
    sparql::Expr expr = (*it)->expr;
    if (!substitute(expr, bound)) return std::nullopt;
    bound.insert_or_assign((*it)->var, std::move(expr));
  }
  sparql::Expr read = condition;
  if (!substitute(read, bound)) return std::nullopt;
  return read;
}

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

Domain domainOf(const BoundBgp& bgp, uint32_t vertex, const GraphStore& store) {
  const std::vector<uint32_t>& constants = bgp.vertices[vertex].constants;
  if (!constants.empty()) {  // named by the ids themselves (at most kMaxConstantsInSet: 16 KB)
    return {constants, nullptr, std::to_string(store.identity()) + " set " +
                           std::string(reinterpret_cast<const char*>(constants.data()), constants.size() * sizeof(uint32_t))};
  }
  Domain smallest;
  bool found = false;
  for (const BoundEdge& e : bgp.edges) {
    if (e.predicateIsVariable || e.predicate == kNoId || (e.from != vertex && e.to != vertex)) continue;
    // The keys of the direction whose keys are this end: subjects (Out) or objects (In).
    const auto direction = e.from == vertex ? pcsr::Direction::Out : pcsr::Direction::In;
    const PredicateAdjacency& keys = store.adjacency(direction).predicate(e.predicate);
    if (found && keys.keyCount() >= smallest.size()) continue;
    smallest = {{}, &keys, std::to_string(store.identity()) + (e.from == vertex ? " out " : " in ") +
                               std::to_string(e.predicate)};
    found = true;
  }
  return smallest;
}

namespace {

std::optional<std::vector<uint32_t>> decide(const sparql::Expr& condition, const std::string& variable,
                                            std::span<const uint32_t> domain, size_t most, const GraphStore& store,
                                            StopCheck& stop) {
  const expr::Expression expression(condition, {variable});
  expr::Environment environment;
  TermCodec terms(store);
  VertexSolution solution(terms);
  auto holds = [&](uint32_t vertex) {
    stop(static_cast<int64_t>(expression.cost()));
    solution.moveTo(vertex);
    return expression.holds(solution, environment);
  };
  // Terms spread evenly over the domain (ids: their order says nothing of their terms).
  constexpr size_t kSampled = 256;
  if (domain.size() > kSampled) {
    size_t passed = 0;
    for (size_t i = 0; i < kSampled; ++i) passed += holds(domain[i * domain.size() / kSampled]);
    if (static_cast<double>(passed) / kSampled * static_cast<double>(domain.size()) > static_cast<double>(most)) {
      return std::nullopt;
    }
  }
  std::vector<uint32_t> passing;
  for (uint32_t vertex : domain) {
    if (!holds(vertex)) continue;
    if (passing.size() == most) return std::nullopt;
    passing.push_back(vertex);
  }
  return passing;
}

// The decisions kept (issue 44: a query sent again decides nothing again).
// Never destroyed: a thread may still plan a query while the process exits.
RecentCache<std::optional<std::vector<uint32_t>>>& kept = *new RecentCache<std::optional<std::vector<uint32_t>>>(64);

}  // namespace

std::optional<std::vector<uint32_t>> idsPassing(const sparql::Expr& condition, const std::string& variable,
                                                const Domain& domain, size_t most, const GraphStore& store,
                                                StopCheck& stop) {
  const std::string key = domain.key + " " + std::to_string(most) + " " + variable + " " + sparql::toSparql(condition);
  if (const auto known = kept.find(key)) return *known;
  return *kept.insert(key, std::make_shared<const std::optional<std::vector<uint32_t>>>(
                               decide(condition, variable, domain.ids(), most, store, stop)));
}

}  // namespace gsparql::engine
