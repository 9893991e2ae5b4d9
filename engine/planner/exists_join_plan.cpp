#include "engine/planner/exists_join_plan.h"

#include <algorithm>

#include "engine/logical/logical_plan.h"

namespace gsparql::engine {
namespace {

using sparql::Op;

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Whether every filter in `op` reads only variables that its own child
// binds or that `input` cannot bind, and holds no EXISTS of its own.
bool filtersAreLocal(const Op& op, const std::vector<std::string>& input) {
  if (op.kind == Op::Kind::Filter) {
    const auto bound = patternVariables(*op.children[0]);
    for (const auto& e : op.exprs) {
      if (containsExists(e)) return false;
      std::vector<std::string> read;
      expressionVariables(e, read);
      if (std::any_of(read.begin(), read.end(),
                      [&](const std::string& v) { return contains(input, v) && !contains(bound, v); })) {
        return false;
      }
    }
  }
  return std::all_of(op.children.begin(), op.children.end(),
                     [&](const auto& child) { return filtersAreLocal(*child, input); });
}

// Whether each solution of `op` binds every variable of it.
bool bindsEveryVariable(const Op& op) {
  switch (op.kind) {
    case Op::Kind::Bgp: return true;
    case Op::Kind::Join:
    case Op::Kind::Filter:
      return std::all_of(op.children.begin(), op.children.end(),
                         [](const auto& child) { return bindsEveryVariable(*child); });
    default: return false;
  }
}

// `?k <p> ?x` or `?x <p> ?k`: ?k the one key, ?x another variable or a blank node.
bool isOneEdgeFromKey(const Op& pattern, const std::vector<std::string>& keys) {
  if (pattern.kind != Op::Kind::Bgp || pattern.triples.size() != 1 || keys.size() != 1) return false;
  const sparql::TriplePattern& t = pattern.triples[0];
  auto isKey = [&](const sparql::Term& end) {
    return end.kind == sparql::Term::Kind::Variable && end.value == keys[0];
  };
  auto isOther = [&](const sparql::Term& end) { return !end.isConstant() && !isKey(end); };
  return t.predicate.isConstant() && ((isKey(t.subject) && isOther(t.object)) || (isKey(t.object) && isOther(t.subject)));
}

// The variables of `pattern` that `input` has. Blank nodes are scoped to
// their BGP: they never join with the input.
std::vector<std::string> sharedVariables(const Op& pattern, const std::vector<std::string>& input) {
  std::vector<std::string> shared;
  for (const auto& v : patternVariables(pattern)) {
    if (!v.starts_with("_:") && contains(input, v)) shared.push_back(v);
  }
  return shared;
}

}  // namespace

std::optional<ExistsAsJoin> existsAsJoin(const sparql::Expr& condition, const Op& input) {
  using Kind = sparql::Expr::Kind;
  if (condition.kind != Kind::Exists && condition.kind != Kind::NotExists) return std::nullopt;
  const Op& pattern = *condition.pattern;
  const auto inputVariables = patternVariables(input);
  if (!bindsEveryVariable(pattern) || !filtersAreLocal(pattern, inputVariables)) return std::nullopt;
  ExistsAsJoin join{condition.kind == Kind::NotExists, &pattern, sharedVariables(pattern, inputVariables)};
  join.byAdjacency = isOneEdgeFromKey(pattern, join.keys);
  return join;
}

std::optional<OptionalAsAdjacency> optionalByAdjacency(const Op& leftJoin) {
  const Op& right = *leftJoin.children[1];
  auto keys = sharedVariables(right, patternVariables(*leftJoin.children[0]));
  if (!leftJoin.exprs.empty() || !isOneEdgeFromKey(right, keys)) return std::nullopt;
  const sparql::TriplePattern& t = right.triples[0];
  const sparql::Term& other = t.subject.kind == sparql::Term::Kind::Variable && t.subject.value == keys[0] ? t.object
                                                                                                         : t.subject;
  if (other.kind != sparql::Term::Kind::Variable) return std::nullopt;
  return OptionalAsAdjacency{&right, keys[0], other.value};
}

std::optional<ExistsAsJoin> minusByAdjacency(const Op& minus) {
  const Op& right = *minus.children[1];
  auto keys = sharedVariables(right, patternVariables(*minus.children[0]));
  if (!isOneEdgeFromKey(right, keys)) return std::nullopt;
  return ExistsAsJoin{true, &right, std::move(keys), true, true};
}

}  // namespace gsparql::engine
