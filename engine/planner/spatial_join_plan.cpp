#include "engine/planner/spatial_join_plan.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "engine/geo/spatial_index.h"
#include "engine/logical/logical_plan.h"
#include "parser/query_graph.h"

namespace gsparql::engine {
namespace {

using sparql::Op;
using sparql::OpPtr;


// Groups of operands linked by shared variables: each operand's group number.
std::vector<size_t> linkedGroups(const std::vector<std::vector<std::string>>& variables) {
  std::vector<size_t> group(variables.size());
  std::iota(group.begin(), group.end(), 0);
  auto root = [&](size_t i) {
    while (group[i] != i) i = group[i] = group[group[i]];
    return i;
  };
  for (size_t i = 0; i < variables.size(); ++i) {
    for (size_t k = i + 1; k < variables.size(); ++k) {
      const bool shared = std::any_of(variables[i].begin(), variables[i].end(), [&](const std::string& v) {
        return std::find(variables[k].begin(), variables[k].end(), v) != variables[k].end();
      });
      if (shared) group[root(i)] = root(k);
    }
  }
  for (size_t i = 0; i < group.size(); ++i) group[i] = root(i);
  return group;
}

// The names that link a triple to others of its BGP: variables, and blank
// nodes (marked, as they link within their BGP alone).
std::vector<std::string> linkNames(const sparql::TriplePattern& t) {
  std::vector<std::string> names;
  for (const sparql::Term* term : {&t.subject, &t.predicate, &t.object}) {
    if (term->kind == sparql::Term::Kind::Variable) names.push_back(term->value);
    if (term->kind == sparql::Term::Kind::Blank) names.push_back("_:" + term->value);
  }
  return names;
}

// The parts of a BGP that no variable or blank node links, each a BGP.
void bgpParts(const OpPtr& bgp, std::vector<OpPtr>& out) {
  std::vector<std::vector<std::string>> names;
  for (const auto& t : bgp->triples) names.push_back(linkNames(t));
  const std::vector<size_t> group = linkedGroups(names);
  for (size_t g = 0; g < group.size(); ++g) {
    std::vector<sparql::TriplePattern> triples;
    for (size_t i = 0; i < group.size(); ++i) {
      if (group[i] == g) triples.push_back(bgp->triples[i]);
    }
    if (triples.size() == bgp->triples.size()) return out.push_back(bgp);
    if (triples.empty()) continue;
    auto part = std::make_shared<Op>(*bgp);
    part->triples = std::move(triples);
    part->queryGraph = std::make_shared<const sparql::QueryGraph>(sparql::QueryGraph::fromBgp(part->triples));
    out.push_back(part);
  }
}

// The operands of a chain of joins, the parts of each BGP apart.
void collectOperands(const OpPtr& op, std::vector<OpPtr>& out) {
  if (op->kind == Op::Kind::Bgp && !op->triples.empty()) return bgpParts(op, out);
  if (op->kind != Op::Kind::Join) return out.push_back(op);
  for (const auto& child : op->children) collectOperands(child, out);
}

// The two variables of a relation that needs a common point, or nullopt.
std::optional<std::pair<std::string, std::string>> relatedVariables(const sparql::Expr& e) {
  if (e.kind != sparql::Expr::Kind::Function || e.args.size() != 2 || !geo::impliesIntersection(e.name)) {
    return std::nullopt;
  }
  for (const auto& a : e.args) {
    if (a.kind != sparql::Expr::Kind::Term || a.term.kind != sparql::Term::Kind::Variable) return std::nullopt;
  }
  return std::make_pair(e.args[0].term.value, e.args[1].term.value);
}

// The operands of `group` joined, under the conditions that read only their variables.
OpPtr sideOf(const std::vector<OpPtr>& operands, const std::vector<size_t>& group, size_t which,
             std::vector<sparql::Expr>& conditions) {
  OpPtr side;
  std::vector<std::string> names;
  for (size_t i = 0; i < operands.size(); ++i) {
    if (group[i] != which) continue;
    for (const auto& v : patternVariables(*operands[i])) names.push_back(v);
    if (!side) {
      side = operands[i];
      continue;
    }
    auto join = std::make_shared<Op>();
    join->kind = Op::Kind::Join;
    join->pos = operands[i]->pos;
    join->children = {side, operands[i]};
    side = join;
  }
  std::vector<sparql::Expr> own;
  std::erase_if(conditions, [&](const sparql::Expr& e) {
    std::vector<std::string> read;
    expressionVariables(e, read);
    const bool mine = !containsExists(e) && std::all_of(read.begin(), read.end(), [&](const std::string& v) {
      return std::find(names.begin(), names.end(), v) != names.end();
    });
    if (mine) own.push_back(e);
    return mine;
  });
  if (own.empty()) return side;
  auto filter = std::make_shared<Op>();
  filter->kind = Op::Kind::Filter;
  filter->pos = side->pos;
  filter->children = {side};
  filter->exprs = std::move(own);
  return filter;
}

}  // namespace

std::optional<SpatialJoinSplit> spatialJoinSplit(const Op& pattern, const std::vector<sparql::Expr>& conditions) {
  if (std::none_of(conditions.begin(), conditions.end(), [](const auto& e) { return relatedVariables(e).has_value(); })) {
    return std::nullopt;
  }
  std::vector<OpPtr> operands;
  if (pattern.kind == Op::Kind::Bgp) {
    bgpParts(std::make_shared<Op>(pattern), operands);
  } else if (pattern.kind == Op::Kind::Join) {
    for (const auto& child : pattern.children) collectOperands(child, operands);
  }
  if (operands.size() < 2) return std::nullopt;
  if (std::any_of(operands.begin(), operands.end(), [](const OpPtr& o) { return o->kind == Op::Kind::Service; })) {
    return std::nullopt;  // SERVICE joins last, as a bind join (Planner::planJoin)
  }
  std::vector<std::vector<std::string>> variables;
  for (const auto& o : operands) variables.push_back(patternVariables(*o));
  const std::vector<size_t> group = linkedGroups(variables);
  auto groupOf = [&](const std::string& v) -> std::optional<size_t> {
    for (size_t i = 0; i < operands.size(); ++i) {
      if (std::find(variables[i].begin(), variables[i].end(), v) != variables[i].end()) return group[i];
    }
    return std::nullopt;
  };
  for (size_t c = 0; c < conditions.size(); ++c) {
    const auto related = relatedVariables(conditions[c]);
    if (!related) continue;
    const auto a = groupOf(related->first), b = groupOf(related->second);
    if (!a || !b || *a == *b) continue;
    SpatialJoinSplit split;
    split.condition = conditions[c];
    split.above = conditions;
    split.above.erase(split.above.begin() + static_cast<std::ptrdiff_t>(c));
    split.left = sideOf(operands, group, *a, split.above);
    split.right = sideOf(operands, group, *b, split.above);
    for (size_t i = 0; i < operands.size(); ++i) {
      if (group[i] != *a && group[i] != *b) split.others.push_back(operands[i]);
    }
    return split;
  }
  return std::nullopt;
}

}  // namespace gsparql::engine
