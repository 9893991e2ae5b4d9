#include "engine/planner/planner.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <utility>

#include "engine/bgp/bound_bgp.h"
#include "engine/logical/logical_plan.h"
#include "engine/physical/bgp_count.h"
#include "engine/physical/bgp_group_count.h"
#include "engine/physical/bgp_scan.h"
#include "engine/physical/degree_count.h"
#include "engine/physical/distinct.h"
#include "engine/physical/exists_adjacency.h"
#include "engine/physical/optional_adjacency.h"
#include "engine/physical/exists_join.h"
#include "engine/physical/extend.h"
#include "engine/physical/filter.h"
#include "engine/physical/group_by.h"
#include "engine/physical/hash_join.h"
#include "engine/physical/left_join.h"
#include "engine/physical/minus.h"
#include "engine/physical/order_by.h"
#include "engine/physical/path_scan.h"
#include "engine/physical/project.h"
#include "engine/physical/service_join.h"
#include "engine/physical/slice.h"
#include "engine/physical/spatial_join.h"
#include "engine/physical/text_score.h"
#include "engine/physical/union_all.h"
#include "engine/physical/values_scan.h"
#include "engine/optimizer/operator_join_order.h"
#include "engine/planner/count_plan.h"
#include "engine/planner/exists_join_plan.h"
#include "engine/planner/path_estimate.h"
#include "engine/planner/spatial_filter.h"
#include "engine/planner/spatial_join_plan.h"
#include "engine/planner/spatial_nearest_plan.h"
#include "engine/planner/value_narrowing.h"
#include "gsparql/error.h"
#include "parser/print.h"
#include "rdf/term.h"
#include "storage/graph_store.h"

namespace gsparql::engine {
namespace {

using sparql::Op;

bool isRequired(const Required& required, const std::string& name) {
  return !required || required->contains(name);
}

Required withVariables(Required required, const std::vector<std::string>& names) {
  if (required) required->insert(names.begin(), names.end());
  return required;
}

Required withExpressions(Required required, const std::vector<sparql::Expr>& exprs) {
  for (const auto& e : exprs) {
    if (containsExists(e)) return std::nullopt;  // substitution reads any variable
    std::vector<std::string> names;
    expressionVariables(e, names);
    required = withVariables(std::move(required), names);
  }
  return required;
}

std::vector<std::string> sharedVariables(const Op& a, const Op& b) {
  std::vector<std::string> left = patternVariables(a), right = patternVariables(b), shared;
  for (const auto& v : left) {
    if (std::find(right.begin(), right.end(), v) != right.end()) shared.push_back(v);
  }
  return shared;
}

std::string joined(const std::vector<sparql::Expr>& exprs) {
  std::string text;
  for (const auto& e : exprs) text += (text.empty() ? "" : " && ") + sparql::toSparql(e);
  return text;
}

// `?x = <iri>`, `<iri> = ?x` or `sameTerm(?x, c)`: the variable and constant.
// IRIs only for `=`, whose value comparison of literals differs from identity.
std::optional<std::pair<std::string, std::string>> fixedByEquality(const sparql::Expr& e) {
  const bool sameTerm = e.kind == sparql::Expr::Kind::Call && e.name == "SAMETERM";
  if (e.kind != sparql::Expr::Kind::Call || (e.name != "=" && !sameTerm) || e.args.size() != 2) return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    const sparql::Expr& var = e.args[i];
    const sparql::Expr& constant = e.args[1 - i];
    if (var.kind != sparql::Expr::Kind::Term || var.term.kind != sparql::Term::Kind::Variable) continue;
    if (constant.kind != sparql::Expr::Kind::Term || !constant.term.isConstant()) continue;
    if (!sameTerm && rdf::termKind(constant.term.value) != rdf::TermKind::Iri) continue;
    return std::make_pair(var.term.value, constant.term.value);
  }
  return std::nullopt;
}

// At most this many constants become one BGP each (beyond, a filter or a
// hash join is cheaper than many small BGP runs).
constexpr size_t kMaxConstantsInBgp = 64;
// At most this many distinct constants limit one variable of a BGP (beyond,
// looking their terms up costs more than a hash join saves).
constexpr size_t kMaxConstantsInSet = 4096;

// A variable of the BGP that names vertices only (not a predicate variable,
// not a blank node): one that a constant can replace.
bool isVertexVariable(const Op& bgp, const std::string& name) {
  bool vertex = false;
  for (const auto& t : bgp.triples) {
    if (t.predicate.kind == sparql::Term::Kind::Variable && t.predicate.value == name) return false;
    for (const auto* end : {&t.subject, &t.object}) {
      vertex = vertex || (end->kind == sparql::Term::Kind::Variable && end->value == name);
    }
  }
  return vertex;
}

// `?x IN (<a>, <b>, ...)` with IRIs only: the variable and the IRIs.
std::optional<std::pair<std::string, std::vector<std::string>>> fixedByIn(const sparql::Expr& e) {
  if (e.kind != sparql::Expr::Kind::Call || e.name != "IN" || e.args.size() < 2) return std::nullopt;
  const sparql::Expr& var = e.args[0];
  if (var.kind != sparql::Expr::Kind::Term || var.term.kind != sparql::Term::Kind::Variable) return std::nullopt;
  std::vector<std::string> constants;
  for (size_t i = 1; i < e.args.size(); ++i) {
    const sparql::Expr& c = e.args[i];
    if (c.kind != sparql::Expr::Kind::Term || !c.term.isConstant() || rdf::termKind(c.term.value) != rdf::TermKind::Iri) {
      return std::nullopt;
    }
    constants.push_back(c.term.value);
  }
  // A filter keeps each row once: a repeated IRI must not repeat its rows.
  std::sort(constants.begin(), constants.end());
  constants.erase(std::unique(constants.begin(), constants.end()), constants.end());
  if (constants.size() > kMaxConstantsInBgp) return std::nullopt;
  return std::make_pair(var.term.value, std::move(constants));
}

// VALUES of one variable, every row bound: the variable and its values.
std::optional<std::pair<std::string, std::vector<std::string>>> singleVariableValues(const Op& values) {
  if (values.kind != Op::Kind::Values || values.table.vars.size() != 1) return std::nullopt;
  if (values.table.rows.empty() || values.table.rows.size() > kMaxConstantsInSet) return std::nullopt;
  std::vector<std::string> constants;
  for (const auto& row : values.table.rows) {
    if (!row[0]) return std::nullopt;
    constants.push_back(*row[0]);
  }
  return std::make_pair(values.table.vars[0], std::move(constants));
}

// The BGP columns the operators above read, and their variable names; a
// variable that is both a vertex and a predicate is read from its vertex column.
void readColumns(const BoundBgp& bgp, const Required& required, std::vector<uint32_t>& columns,
                 std::vector<std::string>& names) {
  for (uint32_t c = 0; c < bgp.columnCount(); ++c) {
    std::string name;
    if (c < bgp.vertices.size()) {
      const BoundVertex& v = bgp.vertices[c];
      if (v.name.empty()) continue;
      name = v.isBlank ? "_:" + v.name : v.name;
    } else {
      name = bgp.predicateVariables[c - bgp.vertices.size()];
    }
    if (!isRequired(required, name) || std::find(names.begin(), names.end(), name) != names.end()) continue;
    columns.push_back(c);
    names.push_back(std::move(name));
  }
}

// FILTER(A && B) keeps the rows FILTER(A) FILTER(B) keeps (an error on
// either side rejects the row either way): separate conditions can each go
// into the BGP or be decided on the value column.
void splitConjunction(const sparql::Expr& e, std::vector<sparql::Expr>& out) {
  if (e.kind == sparql::Expr::Kind::Call && e.name == "&&" && e.args.size() == 2) {
    splitConjunction(e.args[0], out);
    splitConjunction(e.args[1], out);
    return;
  }
  out.push_back(e);
}

// Whether `graph` has every constant predicate of the BGP.
bool hasEveryPredicate(const Op& bgp, const NamedGraphs& graphs, uint32_t graph) {
  return std::all_of(bgp.triples.begin(), bgp.triples.end(), [&](const sparql::TriplePattern& t) {
    return !t.predicate.isConstant() || graphs.predicate(graph, t.predicate.value).has_value();
  });
}

// A pattern that matches nothing: its variables, no rows.
OperatorPtr noSolutions(const Op& pattern) {
  sparql::Table none;
  none.vars = patternVariables(pattern);
  return std::make_unique<ValuesScan>(none);
}

// The single empty solution, which joins with anything unchanged.
OperatorPtr joinIdentity() {
  sparql::Table one;
  one.rows.emplace_back();
  return std::make_unique<ValuesScan>(one);
}

// SERVICE `service` joined with `rows`, which it sends along (a bind join).
OperatorPtr serviceJoin(OperatorPtr rows, const Op& service) {
  return std::make_unique<ServiceJoin>(std::move(rows),
                                       ServicePattern{service.graph, service.children[0], service.silent, service.pos});
}

// `left` UNION ALL `right`, one operator for a chain of them; `right` alone
// while there is no `left`.
OperatorPtr unionAll(OperatorPtr left, OperatorPtr right) {
  if (!left) return right;
  std::vector<OperatorPtr> inputs = UnionAll::inputsOf(std::move(left));
  for (OperatorPtr& input : UnionAll::inputsOf(std::move(right))) inputs.push_back(std::move(input));
  return std::make_unique<UnionAll>(std::move(inputs));
}

// `op` with only the `required` variables where it binds others: a union's
// rows are as wide as all its inputs' variables together (a text search's
// literal variable per branch, say).
OperatorPtr onlyRequired(OperatorPtr op, const Required& required) {
  if (!required) return op;
  std::vector<std::string> kept;
  for (const std::string& v : op->variables()) {
    if (required->contains(v)) kept.push_back(v);
  }
  if (kept.size() == op->variables().size()) return op;
  return std::make_unique<Project>(std::move(op), std::move(kept));
}

// Whether an operator's rows are distinct by construction: a BGP's
// solutions are (the graph is a set of triples) while every variable of it
// is read, and so is a projection that keeps all of them. Then DISTINCT has
// nothing to remove, and hashing tens of millions of rows to find that out
// cost more than finding them (LUBM's Q14 at a billion triples).
bool rowsAreDistinct(const Operator& op) {
  if (const auto* project = dynamic_cast<const Project*>(&op)) {
    const Operator& child = *project->children().front();
    std::vector<std::string> kept = project->variables(), below = child.variables();
    std::sort(kept.begin(), kept.end());
    std::sort(below.begin(), below.end());
    return kept == below && rowsAreDistinct(child);
  }
  const auto* scan = dynamic_cast<const BgpScan*>(&op);
  if (scan == nullptr) return false;
  const std::vector<std::string>& read = scan->variables();
  auto isRead = [&](const std::string& name) { return std::find(read.begin(), read.end(), name) != read.end(); };
  const BoundBgp& bgp = scan->bgp();
  return std::all_of(bgp.vertices.begin(), bgp.vertices.end(),
                     [&](const BoundVertex& v) { return !v.isVariable || isRead(v.isBlank ? "_:" + v.name : v.name); }) &&
         std::all_of(bgp.predicateVariables.begin(), bgp.predicateVariables.end(), isRead);
}

// Whether `e` reads one of `names` (EXISTS, by substitution, reads any).
bool readsAnyOf(const sparql::Expr& e, const std::vector<std::string>& names) {
  std::vector<std::string> read;
  expressionVariables(e, read);
  return containsExists(e) || std::any_of(read.begin(), read.end(), [&](const std::string& v) {
           return std::find(names.begin(), names.end(), v) != names.end();
         });
}

// The variables a chain of Extends, from `op` down, binds.
std::vector<std::string> boundByExtends(const Op& op) {
  std::vector<std::string> bound;
  for (const Op* e = &op; e->kind == Op::Kind::Extend; e = e->children[0].get()) bound.push_back(e->bindings[0].var);
  return bound;
}

bool isTextScore(const Op& op) {
  return op.kind == Op::Kind::Extend && op.bindings[0].expr.kind == sparql::Expr::Kind::Function &&
         op.bindings[0].expr.name == kTextScoreFunction;
}

bool callsBnode(const sparql::Expr& e) {
  if (e.kind == sparql::Expr::Kind::Call && e.name == "BNODE") return true;
  return std::any_of(e.args.begin(), e.args.end(), callsBnode);
}

// Whether a BIND of the chain of Extends from `op` down calls BNODE.
bool makesBlankNodes(const Op& op) {
  for (const Op* e = &op; e->kind == Op::Kind::Extend; e = e->children[0].get()) {
    if (callsBnode(e->bindings[0].expr)) return true;
  }
  return false;
}

// Whether `e` reads no variable but `names` (and no EXISTS, which reads any).
bool readsOnly(const sparql::Expr& e, const std::vector<std::string>& names) {
  std::vector<std::string> read;
  expressionVariables(e, read);
  return !containsExists(e) && std::all_of(read.begin(), read.end(), [&](const std::string& v) {
    return std::find(names.begin(), names.end(), v) != names.end();
  });
}

// Whether every solution of `pattern` binds every variable `e` reads: a
// BGP binds all of its variables.
bool readsOnlyBoundBy(const sparql::Expr& e, const Op& pattern) {
  return pattern.kind == Op::Kind::Bgp && !pattern.triples.empty() && readsOnly(e, patternVariables(pattern));
}

// A BGP's conditions and those that only narrow it (Planner::planConditions).
std::vector<sparql::Expr> withNarrowing(std::vector<sparql::Expr> conditions, const std::vector<sparql::Expr>& narrowing) {
  conditions.insert(conditions.end(), narrowing.begin(), narrowing.end());
  return conditions;
}

// `input` under a Filter of `conditions`, or alone when there are none.
OperatorPtr filtered(OperatorPtr input, const std::vector<sparql::Expr>& conditions) {
  if (conditions.empty()) return input;
  const double rows = input->estimatedRows() / 2, cost = input->estimatedCost() + input->estimatedRows();
  return std::make_unique<Filter>(std::move(input), conditions, joined(conditions), rows, cost);
}

}  // namespace

std::string expressionText(const sparql::Expr& e) { return sparql::toSparql(e); }

namespace {

// The BINDs of a chain of Extends from `op` down to a text search's score
// or another pattern, innermost first, and that pattern.
std::pair<std::vector<ExtendBinding>, const Op*> bindsOf(const Op& op) {
  std::vector<ExtendBinding> bindings;
  const Op* below = &op;
  for (; below->kind == Op::Kind::Extend && !isTextScore(*below); below = below->children[0].get()) {
    const sparql::Binding& b = below->bindings[0];
    bindings.push_back({b.var, b.expr, expressionText(b.expr)});
  }
  std::reverse(bindings.begin(), bindings.end());
  return {std::move(bindings), below};
}

// What the pattern below `bindings` must bind for them and for `required` above them.
Required readBelow(const std::vector<ExtendBinding>& bindings, Required required) {
  for (auto it = bindings.rbegin(); it != bindings.rend(); ++it) {
    if (required) required->erase(it->variable);
    required = withExpressions(std::move(required), {it->expression});
  }
  return required;
}

OperatorPtr extendedBy(OperatorPtr child, const std::vector<ExtendBinding>& bindings) {
  if (bindings.empty()) return child;
  const double rows = child->estimatedRows(), cost = child->estimatedCost() + rows;
  return std::make_unique<Extend>(std::move(child), bindings, rows, cost);
}

// The BGP every row of `op` extends, as Planner::planLimited reads `op`, if any.
const Op* rowsExtend(const Op& op) {
  switch (op.kind) {
    case Op::Kind::Bgp: return &op;
    case Op::Kind::Filter:
    case Op::Kind::LeftJoin: return rowsExtend(*op.children[0]);
    case Op::Kind::Extend: return isTextScore(op) ? nullptr : rowsExtend(*bindsOf(op).second);
    default: return nullptr;
  }
}

// `child` sorted by the keys of ORDER BY `order`.
OperatorPtr orderedBy(OperatorPtr child, const Op& order) {
  std::string text;
  for (const auto& k : order.order) {
    text += (text.empty() ? "" : " ") + std::string(k.descending ? "DESC(" : "ASC(") + expressionText(k.expr) + ")";
  }
  return std::make_unique<OrderBy>(std::move(child), order.order, text);
}

// DISTINCT (or REDUCED) over `child`, or `child` alone where its rows are distinct already.
OperatorPtr distinctOf(OperatorPtr child, bool reduced) {
  if (rowsAreDistinct(*child)) return child;
  const double rows = child->estimatedRows(), cost = child->estimatedCost() + rows;
  return std::make_unique<Distinct>(std::move(child), reduced, rows, cost);
}

// The ORDER BY under DISTINCT's projection, when its keys read only
// projected variables: then removing duplicates before the stable sort
// gives the same rows in the same order (rows of equal keys stay in the
// order of their first occurrences), and leaves fewer to sort (WatDiv S1:
// 145 genres instead of 58,898 rows).
const Op* orderUnderProjection(const Op& distinct) {
  const Op& project = *distinct.children[0];
  if (project.kind != Op::Kind::Project || project.children[0]->kind != Op::Kind::OrderBy) return nullptr;
  const Op& order = *project.children[0];
  for (const auto& k : order.order) {
    if (!readsOnly(k.expr, project.vars)) return nullptr;
  }
  return &order;
}

}  // namespace

namespace {

// Limits a vertex to `limit` (vertex ids, ascending), within what it is
// limited to already: one id makes it a constant that keeps its name, so its
// column is still read; none leaves the BGP without solutions.
void limitToIds(BoundVertex& v, const std::vector<uint32_t>& limit, bool& absent) {
  std::vector<uint32_t> ids;
  if (!v.isVariable) {
    if (std::binary_search(limit.begin(), limit.end(), v.id)) ids.push_back(v.id);
  } else if (v.isConstantSet()) {
    std::set_intersection(v.constants.begin(), v.constants.end(), limit.begin(), limit.end(), std::back_inserter(ids));
  } else {
    ids = limit;
  }
  if (ids.size() > 1) {
    v.constants = std::move(ids);
    return;
  }
  v.constants.clear();
  v.isVariable = false;
  v.id = ids.empty() ? kNoId : ids.front();
  absent |= ids.empty();
}

// Limits a variable to the vertices of `constants` (terms) the data has.
void limitTo(BoundVertex& v, const std::vector<std::string>& constants, const Dictionary& dictionary,
             bool& absent) {
  std::vector<uint32_t> ids;
  for (const std::string& c : constants) {
    if (auto id = dictionary.id(TermSpace::Vertex, c)) ids.push_back(*id);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  limitToIds(v, ids, absent);
}

}  // namespace

std::pair<BoundBgp, BgpPlan> Planner::bindAndOrder(const Op& op, const Substitution& fixed, PlanUse use,
                                                   const IdLimits& ids) const {
  BoundBgp bgp = bindBgp(*op.queryGraph, store_, graph_.empty() ? NamedGraphs::kNoGraph : graph_[0]);
  for (const auto& [name, constants] : fixed) {
    for (BoundVertex& v : bgp.vertices) {
      if (v.isVariable && !v.isBlank && v.name == name) limitTo(v, constants, store_.dictionary(), bgp.hasAbsentConstant);
    }
  }
  for (BoundVertex& v : bgp.vertices) {
    if (v.isBlank) continue;
    if (const auto text = texts_->find(v.name); text != texts_->end()) {
      limitToIds(v, text->second.literals, bgp.hasAbsentConstant);
    }
    for (const auto& [name, limit] : ids) {
      if (name == v.name) limitToIds(v, limit, bgp.hasAbsentConstant);
    }
  }
  BgpPlan plan = bgp.hasAbsentConstant ? BgpPlan{} : orderer_.plan(bgp, store_.catalog(), use);
  return {std::move(bgp), std::move(plan)};
}

OperatorPtr Planner::planBgp(const Op& op, const Required& required, const Substitution& fixed,
                             const IdLimits& ids, const std::vector<sparql::Expr>& conditions) const {
  if (op.triples.empty()) {  // the join identity: one solution that binds nothing
    sparql::Table identity;
    identity.rows.emplace_back();
    return std::make_unique<ValuesScan>(identity);
  }
  if (inMergedGraph()) {
    if (hasTextVariable(op, *texts_)) {
      throw QueryError("text:query over the merge of several FROM graphs is not supported", op.pos.line, op.pos.column);
    }
    return planMergedBgp(op, required);
  }
  auto [bgp, plan] = bindAndOrder(op, fixed, PlanUse::Rows, ids);
  std::string limits = narrowByValues(bgp, plan, conditions);
  if (!limits.empty()) plan = bgp.hasAbsentConstant ? BgpPlan{} : orderer_.plan(bgp, store_.catalog(), PlanUse::Rows);
  std::vector<uint32_t> columns;
  std::vector<std::string> names;
  readColumns(bgp, required, columns, names);
  return std::make_unique<BgpScan>(std::move(bgp), std::move(plan), std::move(columns), std::move(names),
                                   std::move(limits));
}

namespace {

// Where the plan expects fewer rows of the BGP than this per term of a
// variable's domain, deciding every term costs more than the filter saves
// (which decides each term its rows reach, once, and looks it up per row).
constexpr double kRowsPerDecidedTerm = 4;
// At most this many terms are decided while planning.
constexpr size_t kMostDecidedTerms = size_t{1} << 16;

}  // namespace

std::string Planner::narrowByValues(BoundBgp& bgp, const BgpPlan& plan,
                                    const std::vector<sparql::Expr>& conditions) const {
  std::string narrowed;
  StopCheck stop(limits_);
  for (const sparql::Expr& e : conditions) {
    const std::optional<std::string> variable = singleVariableOf(e);
    if (!variable || bgp.hasAbsentConstant) continue;
    for (uint32_t v = 0; v < bgp.vertices.size(); ++v) {
      BoundVertex& vertex = bgp.vertices[v];
      if (!vertex.isVariable || vertex.isBlank || vertex.name != *variable) continue;
      const Domain domain = domainOf(bgp, v, store_);
      const size_t terms = domain.size();
      if (terms == 0 || terms > kMostDecidedTerms || plan.estimatedRows() < kRowsPerDecidedTerm * static_cast<double>(terms)) {
        continue;
      }
      const auto passing = idsPassing(e, *variable, domain, kMaxConstantsInSet, store_, stop);
      if (!passing || passing->size() == terms) continue;
      limitToIds(vertex, *passing, bgp.hasAbsentConstant);
      narrowed += (narrowed.empty() ? "" : ", ") + ("?" + *variable) + " limited to " + std::to_string(passing->size()) +
                  " of " + std::to_string(terms) + " terms by FILTER(" + expressionText(e) + ")";
    }
  }
  return narrowed;
}

OperatorPtr Planner::planFilter(const Op& op, const Required& required) const {
  const Op& child = *op.children[0];
  std::vector<sparql::Expr> conditions, rest;
  for (const auto& e : op.exprs) splitConjunction(e, conditions);
  std::vector<ExistsAsJoin> joins;
  Required below = required;
  for (auto& e : conditions) {
    if (auto join = existsAsJoin(e, child)) {
      below = withVariables(std::move(below), join->keys);
      joins.push_back(std::move(*join));
    } else {
      rest.push_back(std::move(e));
    }
  }
  OperatorPtr input = planConditions(child, rest, below);
  for (const auto& join : joins) input = planExistsJoin(std::move(input), join);
  return input;
}

OperatorPtr Planner::planExistsJoin(OperatorPtr input, const ExistsAsJoin& join) const {
  if (join.byAdjacency && !inMergedGraph() && !hasTextVariable(*join.pattern, *texts_)) {
    return planExistsAdjacency(std::move(input), join);
  }
  OperatorPtr pattern = plan(*join.pattern, Required(std::set<std::string>(join.keys.begin(), join.keys.end())));
  const double rows = input->estimatedRows() / 2;
  const double cost = input->estimatedCost() + pattern->estimatedCost() + input->estimatedRows();
  return std::make_unique<ExistsJoin>(std::move(input), std::move(pattern), join.negated, rows, cost);
}

const PredicateAdjacency* Planner::adjacencyFrom(const Op& bgp, const std::string& key) const {
  const BoundBgp bound = bindBgp(*bgp.queryGraph, store_, graph_.empty() ? NamedGraphs::kNoGraph : graph_[0]);
  const BoundEdge& edge = bound.edges.at(0);
  const BoundVertex& subject = bound.vertices[edge.from];
  const bool fromSubject = !subject.isBlank && subject.name == key;
  const AdjacencyFile& file = store_.adjacency(fromSubject ? pcsr::Direction::Out : pcsr::Direction::In);
  // An absent predicate (kNoId) is none of the file's: the pattern has no solutions.
  return edge.predicate < file.predicateCount() ? &file.predicate(edge.predicate) : nullptr;
}

OperatorPtr Planner::planOptionalAdjacency(OperatorPtr input, const OptionalAsAdjacency& optional) const {
  const PredicateAdjacency* adjacency = adjacencyFrom(*optional.pattern, optional.key);
  // Each row meets its key's neighbours, or none: the keys' mean degree, at least one.
  const double degree = adjacency == nullptr || adjacency->keyCount() == 0
                            ? 1.0
                            : static_cast<double>(adjacency->edgeCount()) / adjacency->keyCount();
  const double rows = input->estimatedRows() * std::max(degree, 1.0);
  const double cost = input->estimatedCost() + rows;
  return std::make_unique<OptionalAdjacency>(std::move(input), optional.key, optional.added, adjacency, rows, cost);
}

OperatorPtr Planner::planExistsAdjacency(OperatorPtr input, const ExistsAsJoin& join) const {
  const PredicateAdjacency* adjacency = adjacencyFrom(*join.pattern, join.keys[0]);
  // MINUS estimates its left's rows, as the Minus operator does.
  const double rows = input->estimatedRows() / (join.minus ? 1 : 2);
  const double cost = input->estimatedCost() + input->estimatedRows();
  const auto test = join.minus ? AdjacencyTest::Minus : join.negated ? AdjacencyTest::NotExists : AdjacencyTest::Exists;
  return std::make_unique<ExistsAdjacency>(std::move(input), join.keys[0], adjacency, test, rows, cost);
}

OperatorPtr Planner::planConditions(const Op& child, const std::vector<sparql::Expr>& conditions,
                                    const Required& required, const std::vector<sparql::Expr>& narrowing,
                                    const IdLimits& limits) const {
  if (child.kind == Op::Kind::Extend) {
    // A condition that reads no variable the BINDs make holds alike below
    // them: applied first, they evaluate their expressions only on the rows kept.
    const std::vector<std::string> bound = boundByExtends(child);
    std::vector<sparql::Expr> below, above;
    for (const auto& e : conditions) (readsAnyOf(e, bound) ? above : below).push_back(e);
    // Those reading them narrow the BGP below, read through the BINDs.
    const bool splits = !isTextScore(child) && !makesBlankNodes(child);
    std::vector<sparql::Expr> narrower = narrowing;
    for (const auto& e : splits ? above : std::vector<sparql::Expr>{}) {
      if (auto read = throughBinds(e, child)) narrower.push_back(std::move(*read));
    }
    if (!above.empty() && splits) return planBelowLastBind(child, std::move(below), std::move(above), required, narrower);
    return filtered(planExtend(child, withExpressions(required, above), below, narrower), above);
  }
  if (auto split = spatialJoinSplit(child, conditions)) return planSpatialJoin(*split, required);
  if (child.kind != Op::Kind::Bgp || inMergedGraph()) {
    const Required read = withExpressions(required, conditions);
    OperatorPtr rows = planSpatiallyLimited(child, conditions, read);
    return filtered(rows ? std::move(rows) : plan(child, read), conditions);
  }
  if (OperatorPtr joined = planConstantSpatialJoin(child, conditions, required)) return joined;
  std::vector<sparql::Expr> rest;
  Substitution fixed;
  IdLimits spatial;
  std::optional<std::pair<std::string, std::vector<std::string>>> in;
  for (const auto& e : conditions) {
    auto alreadyFixed = [&](const std::string& name) {
      return std::any_of(fixed.begin(), fixed.end(), [&](const auto& f) { return f.first == name; }) ||
             std::any_of(spatial.begin(), spatial.end(), [&](const auto& l) { return l.first == name; });
    };
    if (auto equality = fixedByEquality(e);
        equality && isVertexVariable(child, equality->first) && !alreadyFixed(equality->first)) {
      fixed.push_back({equality->first, {equality->second}});
    } else if (auto list = fixedByIn(e); list && !in && isVertexVariable(child, list->first) && !alreadyFixed(list->first)) {
      in = std::move(list);
    } else if (auto indexed = indexedSpatialCondition(e, store_);
               indexed && indexed->candidates.size() <= kMaxConstantsInSet && isVertexVariable(child, indexed->variable) &&
               !alreadyFixed(indexed->variable)) {
      spatial.emplace_back(indexed->variable, std::move(indexed->candidates));  // the filter still decides
      rest.push_back(e);
    } else {
      rest.push_back(e);
    }
  }
  const Required below = withExpressions(required, rest);
  IdLimits ids = narrowedByText(child, rest);
  ids.insert(ids.end(), spatial.begin(), spatial.end());
  ids.insert(ids.end(), limits.begin(), limits.end());
  OperatorPtr input = in ? planBgpPerConstant(child, below, fixed, ids, in->first, in->second)
                         : planBgp(child, below, fixed, ids, withNarrowing(rest, narrowing));
  return filtered(std::move(input), rest);
}

Planner::IdLimits Planner::narrowedByText(const Op& bgp, const std::vector<sparql::Expr>& conditions) const {
  IdLimits limits;
  const TextIndex* index = store_.text();
  if (index == nullptr) return limits;
  // Beyond a quarter of the indexed literals, limiting costs more than the condition alone.
  const auto cap = static_cast<size_t>(index->literals() / 4);
  StopCheck stop(limits_);
  for (const auto& e : conditions) {
    const auto condition = substringCondition(e);
    if (!condition || !isVertexVariable(bgp, condition->variable)) continue;
    if (auto literals = text::literalsWithWordsHolding(condition->part, store_, cap, stop)) {
      limits.emplace_back(condition->variable, std::move(*literals));
    }
  }
  return limits;
}

OperatorPtr Planner::planBgpPerConstant(const Op& op, const Required& required, const Substitution& fixed,
                                        const IdLimits& ids, const std::string& variable,
                                        const std::vector<std::string>& constants) const {
  OperatorPtr result;
  for (const auto& constant : constants) {
    Substitution one = fixed;
    one.push_back({variable, {constant}});
    result = unionAll(std::move(result), planBgp(op, required, one, ids));
  }
  return result;
}

const std::optional<SearchedPath>& Planner::searched(const Op& path) const {
  auto [it, added] = searchedPaths_->try_emplace(std::pair(&path, graph_));
  if (added) it->second = searchPath(store_, path.subject, path.path, path.object, graph_, kMaxConstantsInSet, limits_);
  return it->second;
}

std::optional<std::pair<std::string, std::vector<std::string>>> Planner::constantsFor(const Op& bgp,
                                                                                     const Op& other) const {
  std::optional<std::pair<std::string, std::vector<std::string>>> constants;
  if (other.kind == Op::Kind::Path) {
    // Searched only for a variable the BGP has.
    std::string variable = variableEnd(other.subject, other.object);
    if (variable.empty() || !isVertexVariable(bgp, variable)) return std::nullopt;
    const auto& path = searched(other);
    if (path && !path->endTerms.empty()) constants.emplace(std::move(variable), path->endTerms);
  } else {
    constants = singleVariableValues(other);
  }
  if (!constants || !isVertexVariable(bgp, constants->first)) return std::nullopt;
  return constants;
}

namespace {

// A path that is an alternative of links, `?x (<p>|<q>) ?y`, with an end
// that is a vertex variable of `bgp`.
bool isAlternativeBeside(const Op& bgp, const Op& other) {
  if (other.kind != Op::Kind::Path) return false;
  const sparql::Path& path = other.path;
  const bool links = path.kind == sparql::Path::Kind::Alternative &&
                     std::ranges::all_of(path.args, [](const sparql::Path& p) { return p.kind == sparql::Path::Kind::Link; });
  auto sharedEnd = [&](const sparql::Term& end) {
    return end.kind == sparql::Term::Kind::Variable && isVertexVariable(bgp, end.value);
  };
  return links && (sharedEnd(other.subject) || sharedEnd(other.object));
}

// What the operands marked in `group` must keep: what is required above, and
// every variable they share with an operand outside it.
Required requiredOfGroup(const std::vector<const Op*>& operands, const std::vector<bool>& group,
                         const Required& required) {
  Required below = required;
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!group[i]) continue;
    for (size_t k = 0; k < operands.size(); ++k) {
      if (!group[k]) below = withVariables(std::move(below), sharedVariables(*operands[i], *operands[k]));
    }
  }
  return below;
}

}  // namespace

// Constants (VALUES of one variable, the ends of a path from a constant)
// limit the BGP's variable they bind, so its plan can start from them. Where
// they repeat (a bag: a path's term reached twice), the BGP is limited to them
// all the same and the operand stays a join input, which repeats the rows.
// An alternative of links beside the BGP, `?x (<p>|<q>) ?y`, becomes per link
// the BGP with that triple, all unioned (the join distributes over the
// alternative's union, bags kept), so each part is ordered from its bound
// ends instead of scanning every edge of the links first.
OperatorPtr Planner::planFoldedBgp(const std::vector<const Op*>& operands, size_t bgp, std::vector<bool>& used,
                                   const Required& required) const {
  const Op& pattern = *operands[bgp];
  std::vector<bool> group(operands.size(), false);
  group[bgp] = true;
  Substitution limits;
  const Op* alternative = nullptr;
  for (size_t k = 0; k < operands.size(); ++k) {
    if (used[k] || k == bgp) continue;
    if (auto constants = constantsFor(pattern, *operands[k])) {
      // Named, not a structured binding: clang 14 does not let lambdas capture those.
      const auto& variable = constants->first;
      auto& terms = constants->second;
      if (std::any_of(limits.begin(), limits.end(), [&](const auto& l) { return l.first == variable; })) continue;
      const size_t rows = terms.size();
      std::sort(terms.begin(), terms.end());
      terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
      const bool bag = terms.size() < rows;
      limits.push_back(std::move(*constants));
      if (bag) continue;
    } else if (!alternative && isAlternativeBeside(pattern, *operands[k])) {
      alternative = operands[k];
    } else {
      continue;
    }
    group[k] = used[k] = true;
  }
  used[bgp] = true;
  const Required below = requiredOfGroup(operands, group, required);
  if (!alternative) return planBgp(pattern, below, limits);
  OperatorPtr parts;
  for (const sparql::Path& link : alternative->path.args) {
    std::vector<sparql::TriplePattern> triples = pattern.triples;
    triples.push_back({alternative->subject, sparql::Term::constant(link.iri), alternative->object, alternative->pos});
    parts = unionAll(std::move(parts), planBgp(*bgpOf(std::move(triples), pattern), below, limits));
  }
  return parts;
}

namespace {

OperatorPtr hashJoin(OperatorPtr left, OperatorPtr right) {
  // The right side is collected and indexed: make it the smaller one.
  if (right->estimatedRows() > left->estimatedRows()) std::swap(left, right);
  const double rows = hashJoinRows(left->estimatedRows(), right->estimatedRows());
  const double cost = left->estimatedCost() + right->estimatedCost() + rows;
  return std::make_unique<HashJoin>(std::move(left), std::move(right), rows, cost);
}

// The operands of a chain of joins, however the algebra nested them.
void collectJoinInputs(const Op& op, std::vector<const Op*>& inputs) {
  if (op.kind != Op::Kind::Join) return inputs.push_back(&op);
  for (const auto& child : op.children) collectJoinInputs(*child, inputs);
}

// What input `i` must keep: what is required above, and every variable it
// shares with another input.
Required requiredOfInput(const std::vector<const Op*>& inputs, size_t i, const Required& required) {
  Required below = required;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (k != i) below = withVariables(std::move(below), sharedVariables(*inputs[i], *inputs[k]));
  }
  return below;
}

struct JoinInput {
  OperatorPtr plan;
  std::vector<std::string> variables;
};

// The inputs joined in the optimizer's order (optimizer/operator_join_order.h).
OperatorPtr joinInOrder(std::vector<JoinInput> inputs, const ExecutorCosts& costs) {
  std::vector<JoinOperand> operands;
  for (const JoinInput& input : inputs) operands.push_back({input.plan->estimatedRows(), input.variables});
  OperatorPtr result;
  for (size_t i : operatorJoinOrder(operands, costs)) {
    result = result ? hashJoin(std::move(result), std::move(inputs[i].plan)) : std::move(inputs[i].plan);
  }
  return result;
}

}  // namespace

namespace {

std::set<std::string> blankLabels(const Op& bgp) {
  std::set<std::string> labels;
  for (const auto& t : bgp.triples) {
    for (const auto* term : {&t.subject, &t.predicate, &t.object}) {
      if (term->kind == sparql::Term::Kind::Blank) labels.insert(term->value);
    }
  }
  return labels;
}

// The BGPs among `operands` as one BGP of all their triples, first in place
// of them (the join of BGPs is that BGP); nullptr, operands unchanged, where
// there are fewer than two or two share a blank node label (each BGP's own).
sparql::OpPtr mergeBgps(std::vector<const Op*>& operands) {
  std::vector<sparql::TriplePattern> triples;
  std::set<std::string> labels;
  size_t bgps = 0;
  for (const Op* op : operands) {
    if (op->kind != Op::Kind::Bgp || op->triples.empty()) continue;
    for (const std::string& label : blankLabels(*op)) {
      if (!labels.insert(label).second) return nullptr;
    }
    triples.insert(triples.end(), op->triples.begin(), op->triples.end());
    ++bgps;
  }
  if (bgps < 2) return nullptr;
  auto isBgp = [](const Op* op) { return op->kind == Op::Kind::Bgp && !op->triples.empty(); };
  const auto first = std::find_if(operands.begin(), operands.end(), isBgp);
  sparql::OpPtr merged = bgpOf(std::move(triples), **first);
  *first = merged.get();
  operands.erase(std::remove_if(first + 1, operands.end(), isBgp), operands.end());
  return merged;
}

}  // namespace

OperatorPtr Planner::planSpatialJoin(const SpatialJoinSplit& split, const Required& required) const {
  const Required below = withExpressions(withExpressions(required, split.above), {split.condition});
  OperatorPtr left = plan(*split.left, below), right = plan(*split.right, below);
  const double rows = std::max(left->estimatedRows(), right->estimatedRows());
  const double cost = left->estimatedCost() + right->estimatedCost() + left->estimatedRows() + right->estimatedRows();
  OperatorPtr joined = std::make_unique<SpatialJoin>(std::move(left), std::move(right), split.condition,
                                                     expressionText(split.condition), storedEnvelopes(store_), rows, cost);
  for (const auto& other : split.others) joined = hashJoin(std::move(joined), plan(*other, below));
  return filtered(std::move(joined), split.above);
}

// Beyond kMaxConstantsInSet candidates the BGP is not limited to them, and
// the function on each row would read the constant's relation with every
// row's geometry afresh: a join with a one-row VALUES of the constant
// prepares it once, skips rows by their stored envelopes, and locates points
// on the executor's device where it can (physical/spatial_join.h). The rows
// are the filter's; the constant's column, under a name no query can write,
// is projected away.
OperatorPtr Planner::planConstantSpatialJoin(const Op& child, const std::vector<sparql::Expr>& conditions,
                                             const Required& required) const {
  static const std::string kConstant = " spatial constant";
  for (size_t c = 0; c < conditions.size(); ++c) {
    const std::optional<IndexedSpatialCondition> indexed = indexedSpatialCondition(conditions[c], store_);
    if (!indexed || indexed->candidates.size() <= kMaxConstantsInSet || !isVertexVariable(child, indexed->variable)) {
      continue;
    }
    std::vector<sparql::Expr> rest = conditions;
    rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(c));
    OperatorPtr input = planConditions(child, rest, withExpressions(required, {conditions[c]}));
    const std::vector<std::string> variables = input->variables();
    sparql::Expr relation = conditions[c];
    sparql::Term& constant = relation.args[indexed->constantArgument].term;
    auto values = std::make_unique<ValuesScan>(sparql::Table{{kConstant}, {{constant.value}}});
    constant = sparql::Term::variable(kConstant);
    const double share = static_cast<double>(indexed->candidates.size()) /
                         static_cast<double>(std::max<size_t>(1, storeSpatialIndex(store_)->size()));
    const double rows = input->estimatedRows() * std::min(1.0, share);
    const double cost = input->estimatedCost() + input->estimatedRows();
    OperatorPtr joined = std::make_unique<SpatialJoin>(std::move(input), std::move(values), relation,
                                                       expressionText(conditions[c]), storedEnvelopes(store_), rows, cost);
    return std::make_unique<Project>(std::move(joined), variables);
  }
  return nullptr;
}

OperatorPtr Planner::planJoin(const Op& op, const Required& required) const {
  std::vector<const Op*> operands;
  collectJoinInputs(op, operands);
  // SERVICE patterns join last, as bind joins: the rows of all the other
  // operands go to the endpoint with them (and bind SERVICE ?e's variable).
  std::vector<const Op*> services;
  std::erase_if(operands, [&](const Op* o) {
    if (o->kind == Op::Kind::Service) services.push_back(o);
    return o->kind == Op::Kind::Service;
  });
  if (services.empty()) return planJoinOf(std::move(operands), required);
  Required local = required;
  for (const Op* s : services) {
    local = withVariables(std::move(local), sparql::inScopeVariables(*s->children[0]));
    if (s->graph.kind == sparql::Term::Kind::Variable) local = withVariables(std::move(local), {s->graph.value});
  }
  OperatorPtr rows = operands.empty() ? joinIdentity() : planJoinOf(std::move(operands), local);
  for (const Op* s : services) rows = serviceJoin(std::move(rows), *s);
  return rows;
}

OperatorPtr Planner::planJoinOf(std::vector<const Op*> operands, const Required& required) const {
  // One plan orders all the BGPs' triples, and VALUES, paths from constants
  // and alternatives of links fold into it.
  const sparql::OpPtr merged = inMergedGraph() ? nullptr : mergeBgps(operands);
  std::vector<JoinInput> inputs;
  std::vector<bool> used(operands.size(), false);
  for (size_t i = 0; i < operands.size() && !inMergedGraph(); ++i) {
    if (used[i] || operands[i]->kind != Op::Kind::Bgp || operands[i]->triples.empty()) continue;
    OperatorPtr folded = planFoldedBgp(operands, i, used, required);
    inputs.push_back({std::move(folded), patternVariables(*operands[i])});
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!used[i]) inputs.push_back({plan(*operands[i], requiredOfInput(operands, i, required)), patternVariables(*operands[i])});
  }
  return joinInOrder(std::move(inputs), orderer_.operatorCosts());
}

// A triple pattern matches the merge of graphs where it matches one of them,
// once however many hold the triple. Patterns whose predicate only one of
// the graphs has are matched in that graph, together as one BGP (its
// executor's fast path); each other pattern is the union of its matches in
// the graphs that have its predicate, made distinct over all its variables
// (blank nodes too: they join the parts as they join a BGP's patterns).
OperatorPtr Planner::planMergedBgp(const Op& op, const Required& required) const {
  const NamedGraphs& graphs = store_.graphs();
  std::map<uint32_t, std::vector<sparql::TriplePattern>> inOneGraph;
  std::vector<std::pair<sparql::TriplePattern, std::vector<uint32_t>>> inSeveral;
  for (const sparql::TriplePattern& t : op.triples) {
    std::vector<uint32_t> holding;
    std::copy_if(graph_.begin(), graph_.end(), std::back_inserter(holding), [&](uint32_t g) {
      return !t.predicate.isConstant() || graphs.predicate(g, t.predicate.value).has_value();
    });
    if (holding.empty()) return noSolutions(op);
    if (holding.size() == 1) {
      inOneGraph[holding[0]].push_back(t);
    } else {
      inSeveral.emplace_back(t, std::move(holding));
    }
  }
  std::vector<sparql::OpPtr> parts;
  for (auto& [graph, triples] : inOneGraph) parts.push_back(bgpOf(std::move(triples), op));
  for (auto& [triple, holding] : inSeveral) parts.push_back(bgpOf({triple}, op));
  std::vector<const Op*> operands;
  for (const auto& part : parts) operands.push_back(part.get());
  std::vector<JoinInput> inputs;
  auto graphOf = inOneGraph.begin();
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i < inOneGraph.size()) {
      inputs.push_back({planInGraph(*parts[i], (graphOf++)->first, requiredOfInput(operands, i, required)),
                        patternVariables(*parts[i])});
      continue;
    }
    OperatorPtr matches;
    for (uint32_t g : inSeveral[i - inOneGraph.size()].second) {
      matches = unionAll(std::move(matches), planInGraph(*parts[i], g, std::nullopt));
    }
    const double rows = matches->estimatedRows(), cost = matches->estimatedCost() + rows;
    inputs.push_back({std::make_unique<Distinct>(std::move(matches), false, rows, cost), patternVariables(*parts[i])});
  }
  return joinInOrder(std::move(inputs), orderer_.operatorCosts());
}

// OPTIONAL { BGP FILTER(c) }: a conjunct of c that reads only the BGP's
// variables sees the same values on a merged row as on the BGP's row, so it
// filters the BGP's rows before the join (fewer to index, none to merge
// for the check); the others are the join's condition.
OperatorPtr Planner::planLeftJoin(const Op& op, const Required& required, const IdLimits& leftLimits) const {
  const Op& optional = *op.children[1];
  const auto planLeft = [&](const Required& read) {
    return leftLimits.empty() ? plan(*op.children[0], read) : planLimited(*op.children[0], read, leftLimits);
  };
  if (auto byAdjacency = optionalByAdjacency(op);
      byAdjacency && !inMergedGraph() && !hasTextVariable(optional, *texts_)) {
    OperatorPtr left = planLeft(withVariables(required, {byAdjacency->key}));
    return left ? planOptionalAdjacency(std::move(left), *byAdjacency) : nullptr;
  }
  std::vector<sparql::Expr> conditions, onOptional, onMerged;
  for (const auto& e : op.exprs) splitConjunction(e, conditions);
  for (auto& e : conditions) (readsOnlyBoundBy(e, optional) ? onOptional : onMerged).push_back(std::move(e));
  const Required below =
      withExpressions(withVariables(required, sharedVariables(*op.children[0], optional)), onMerged);
  OperatorPtr left = planLeft(below);
  if (!left) return nullptr;
  OperatorPtr right = onOptional.empty() ? plan(optional, below) : planConditions(optional, onOptional, below);
  const double rows = std::max(left->estimatedRows(), right->estimatedRows());
  const double cost = left->estimatedCost() + right->estimatedCost() + rows;
  return std::make_unique<LeftJoin>(std::move(left), std::move(right), onMerged, rows, cost);
}

OperatorPtr Planner::planSpatiallyLimited(const Op& op, const std::vector<sparql::Expr>& conditions,
                                          const Required& required) const {
  const Op* bgp = rowsExtend(op);
  if (!bgp || inMergedGraph()) return nullptr;
  IdLimits limits;
  for (const auto& e : conditions) {
    std::optional<IndexedSpatialCondition> condition = indexedSpatialCondition(e, store_);
    if (!condition || condition->candidates.size() > kMaxConstantsInSet || !isVertexVariable(*bgp, condition->variable)) {
      continue;
    }
    const bool limited = std::any_of(limits.begin(), limits.end(), [&](const auto& l) { return l.first == condition->variable; });
    if (!limited) limits.emplace_back(condition->variable, std::move(condition->candidates));
  }
  return limits.empty() ? nullptr : planLimited(op, required, limits);
}

OperatorPtr Planner::planLimited(const Op& op, const Required& required, const IdLimits& limits) const {
  if (inMergedGraph()) return nullptr;
  switch (op.kind) {
    case Op::Kind::Bgp: return planBgp(op, required, {}, limits);
    case Op::Kind::Filter: {
      std::vector<sparql::Expr> conditions;
      for (const auto& e : op.exprs) splitConjunction(e, conditions);
      if (std::any_of(conditions.begin(), conditions.end(), [](const auto& e) { return containsExists(e); })) {
        return nullptr;
      }
      const Op& child = *op.children[0];
      if (child.kind == Op::Kind::Bgp) return planConditions(child, conditions, required, {}, limits);
      OperatorPtr rows = planLimited(child, withExpressions(required, conditions), limits);
      return rows ? filtered(std::move(rows), conditions) : nullptr;
    }
    case Op::Kind::LeftJoin: return planLeftJoin(op, required, limits);
    case Op::Kind::Extend: {
      if (isTextScore(op) || makesBlankNodes(op)) return nullptr;
      const auto [bindings, below] = bindsOf(op);
      OperatorPtr rows = planLimited(*below, readBelow(bindings, required), limits);
      return rows ? extendedBy(std::move(rows), bindings) : nullptr;
    }
    default: return nullptr;
  }
}

OperatorPtr Planner::planMinus(const Op& op, const Required& required) const {
  const auto shared = sharedVariables(*op.children[0], *op.children[1]);
  OperatorPtr left = plan(*op.children[0], withVariables(required, shared));
  // No variable in common: no solution of the left shares a bound variable
  // with one of the right, so MINUS removes none (section 18.5), and the
  // right is never evaluated.
  if (shared.empty()) return left;
  if (auto byAdjacency = minusByAdjacency(op); byAdjacency && !inMergedGraph()) {
    return planExistsAdjacency(std::move(left), *byAdjacency);
  }
  OperatorPtr right = plan(*op.children[1], Required(std::set<std::string>(shared.begin(), shared.end())));
  const double rows = left->estimatedRows(), cost = left->estimatedCost() + right->estimatedCost() + rows;
  return std::make_unique<Minus>(std::move(left), std::move(right), rows, cost);
}

// A chain of Extends is one operator: its bindings evaluated in order per
// row, over its input under `conditions` (FILTERs that read none of them).
OperatorPtr Planner::planTextScore(const Op& op, const Required& required,
                                   const std::vector<sparql::Expr>& conditions) const {
  const sparql::Binding& score = op.bindings[0];
  const std::string& literal = score.expr.args[0].term.value;
  Required read = required;
  if (read) read->erase(score.var);
  read = withVariables(std::move(read), {literal});
  const Op& below = *op.children[0];
  OperatorPtr child = conditions.empty() ? plan(below, read) : planConditions(below, conditions, read);
  const text::TextMatches& matches = texts_->at(literal);
  return std::make_unique<TextScore>(std::move(child), literal, score.var, matches.literals, matches.scores);
}

// Conditions that read an earlier BIND's variable but not the last BIND's go
// below the last one, which then computes only on the rows they keep
// (BIND(xsd:date(?d) AS ?date) BIND(YEAR(?date) AS ?y) FILTER(MONTH(?date) = 2)).
// Not where a BIND makes blank nodes: BNODE(label) is one node per row across
// consecutive BINDs, which one Extend operator keeps.
OperatorPtr Planner::planBelowLastBind(const Op& extend, std::vector<sparql::Expr> below,
                                       std::vector<sparql::Expr> above, const Required& required,
                                       const std::vector<sparql::Expr>& narrowing) const {
  const sparql::Binding& last = extend.bindings[0];
  std::vector<sparql::Expr> atTop, lower;
  for (auto& e : above) (readsAnyOf(e, {last.var}) ? atTop : lower).push_back(std::move(e));
  if (lower.empty()) return filtered(planExtend(extend, withExpressions(required, atTop), below, narrowing), atTop);
  below.insert(below.end(), std::make_move_iterator(lower.begin()), std::make_move_iterator(lower.end()));
  Required read = withExpressions(required, atTop);
  if (read) read->erase(last.var);
  read = withExpressions(std::move(read), {last.expr});
  OperatorPtr input = planConditions(*extend.children[0], below, read, narrowing);
  const double rows = input->estimatedRows(), cost = input->estimatedCost() + rows;
  std::vector<ExtendBinding> binding{{last.var, last.expr, expressionText(last.expr)}};
  return filtered(std::make_unique<Extend>(std::move(input), binding, rows, cost), atTop);
}

OperatorPtr Planner::planExtend(const Op& op, const Required& required, const std::vector<sparql::Expr>& conditions,
                                const std::vector<sparql::Expr>& narrowing) const {
  if (isTextScore(op)) return planTextScore(op, required, conditions);
  const auto [bindings, below] = bindsOf(op);
  const Required read = readBelow(bindings, required);
  OperatorPtr child = conditions.empty() && narrowing.empty() ? plan(*below, read)
                                                               : planConditions(*below, conditions, read, narrowing);
  return extendedBy(std::move(child), bindings);
}

// COUNT(*), or COUNT(?v) of a variable every solution binds, without
// DISTINCT: the number of the group's solutions.
bool countsSolutions(const sparql::Expr& e, const Op& pattern) {
  if (e.kind != sparql::Expr::Kind::Aggregate || e.name != "COUNT" || e.distinct) return false;
  if (e.star) return true;
  if (e.args.size() != 1 || e.args[0].kind != sparql::Expr::Kind::Term) return false;
  const sparql::Term& t = e.args[0].term;
  if (t.kind != sparql::Term::Kind::Variable) return false;
  const std::vector<std::string> bound = patternVariables(pattern);
  return std::find(bound.begin(), bound.end(), t.value) != bound.end();
}

// COUNT(DISTINCT ?v) of a vertex variable of the BGP: its name.
std::optional<std::string> countsDistinctVertices(const sparql::Expr& e, const Op& pattern) {
  if (e.kind != sparql::Expr::Kind::Aggregate || e.name != "COUNT" || !e.distinct || e.star) return std::nullopt;
  if (e.args.size() != 1 || e.args[0].kind != sparql::Expr::Kind::Term) return std::nullopt;
  const sparql::Term& t = e.args[0].term;
  if (t.kind != sparql::Term::Kind::Variable || !isVertexVariable(pattern, t.value)) return std::nullopt;
  return t.value;
}

// The BGP's column of vertex variable `name`.
uint32_t vertexColumn(const BoundBgp& bgp, const std::string& name) {
  for (uint32_t c = 0; c < bgp.vertices.size(); ++c) {
    if (bgp.vertices[c].isVariable && !bgp.vertices[c].isBlank && bgp.vertices[c].name == name) return c;
  }
  throw std::logic_error("no vertex column ?" + name);
}

// One group of a BGP whose aggregates all count its solutions, or all the
// distinct values of one vertex variable: a BgpCount, which counts where the
// rows are instead of handing them up.
OperatorPtr Planner::planCountOfBgp(const Op& group) const {
  const Op& pattern = *group.children[0];
  if (!group.bindings.empty() || pattern.kind != Op::Kind::Bgp || pattern.triples.empty() || inMergedGraph()) {
    return nullptr;
  }
  std::vector<std::string> names;
  std::optional<std::string> distinct;
  for (const auto& a : group.aggregates) {
    if (const std::optional<std::string> values = countsDistinctVertices(a.expr, pattern)) {
      if (!names.empty() && distinct != values) return nullptr;  // COUNT(*), or another variable, before
      distinct = values;
    } else if (distinct || !countsSolutions(a.expr, pattern)) {
      return nullptr;
    }
    names.push_back(a.var);
  }
  // COUNT(DISTINCT) marks values, and injective matching sees every row:
  // neither multiplies leaves, so they are planned as rows.
  const bool leaves = !distinct && !injective_;
  auto [bgp, plan] = bindAndOrder(pattern, {}, leaves ? PlanUse::Count : PlanUse::Rows);
  if (leaves) plan = planForCount(std::move(plan), bgp);
  std::optional<uint32_t> column;
  if (distinct) column = vertexColumn(bgp, *distinct);
  return std::make_unique<BgpCount>(std::move(bgp), std::move(plan), std::move(names), column);
}

// GROUP BY ?x of one pattern `?x <p> ?y` (?y another variable) whose
// aggregates all count its solutions: each group's count is ?x's degree
// through p, a DegreeCount. Injective matching would leave out `a p a`,
// which the degree counts: it groups rows.
OperatorPtr Planner::planDegreeCount(const Op& group) const {
  const Op& pattern = *group.children[0];
  if (group.bindings.size() != 1 || pattern.kind != Op::Kind::Bgp || pattern.triples.size() != 1 ||
      inMergedGraph() || injective_ || hasTextVariable(pattern, *texts_)) {
    return nullptr;
  }
  const sparql::Binding& key = group.bindings[0];
  const sparql::TriplePattern& t = pattern.triples[0];
  const auto isVariable = [](const sparql::Term& term) { return !term.isConstant(); };
  if (key.expr.kind != sparql::Expr::Kind::Term || key.expr.term.kind != sparql::Term::Kind::Variable ||
      key.var != key.expr.term.value || !isVariable(t.subject) || !isVariable(t.object) || t.subject == t.object ||
      isVariable(t.predicate)) {
    return nullptr;
  }
  const bool keyIsSubject = t.subject == key.expr.term;
  if (!keyIsSubject && t.object != key.expr.term) return nullptr;
  std::vector<std::string> counts;
  for (const auto& a : group.aggregates) {
    if (!countsSolutions(a.expr, pattern)) return nullptr;
    counts.push_back(a.var);
  }
  const BoundBgp bgp = bindBgp(*pattern.queryGraph, store_, graph_.empty() ? NamedGraphs::kNoGraph : graph_[0]);
  const std::optional<uint32_t> predicate =
      bgp.hasAbsentConstant ? std::nullopt : std::optional<uint32_t>(bgp.edges.at(0).predicate);
  const pcsr::Direction direction = keyIsSubject ? pcsr::Direction::Out : pcsr::Direction::In;
  const double groups = predicate ? static_cast<double>(store_.adjacency(direction).predicate(*predicate).keyCount()) : 0;
  return std::make_unique<DegreeCount>(key.var, std::move(counts), predicate, direction, sparql::toSparql(t.predicate),
                                       groups);
}

// The leaves a count's plan marks, less the step that binds vertex `column`
// and those before it: a group's count needs that vertex's rows made.
void countLeavesAfter(BgpPlan& plan, uint32_t column) {
  for (ComponentPlan& component : plan.components) {
    for (size_t s = 0; s < component.steps.size(); ++s) {
      if (component.steps[s].vertex != column || !component.countedLeavesFrom || *component.countedLeavesFrom > s) {
        continue;
      }
      component.countedLeavesFrom = s + 1 < component.steps.size() ? std::optional<size_t>(s + 1) : std::nullopt;
    }
  }
}

// GROUP BY ?v of a vertex variable of a BGP whose aggregates all count its
// solutions: a BgpGroupCount, which counts the rows per value of ?v where the
// executor finds them (on the GPU, beside the rows on the device), instead
// of handing every row up to a GroupBy.
OperatorPtr Planner::planGroupCountOfBgp(const Op& group) const {
  const Op& pattern = *group.children[0];
  if (group.bindings.size() != 1 || pattern.kind != Op::Kind::Bgp || pattern.triples.empty() || inMergedGraph()) {
    return nullptr;
  }
  const sparql::Binding& key = group.bindings[0];
  if (key.expr.kind != sparql::Expr::Kind::Term || key.expr.term.kind != sparql::Term::Kind::Variable ||
      key.var != key.expr.term.value || !isVertexVariable(pattern, key.var)) {
    return nullptr;
  }
  std::vector<std::string> counts;
  for (const auto& a : group.aggregates) {
    if (!countsSolutions(a.expr, pattern)) return nullptr;
    counts.push_back(a.var);
  }
  // As for a count, the leaves after the step that binds ?v are counted as
  // products (where the executor counts so: the CPU's).
  auto [bgp, plan] = bindAndOrder(pattern, {}, injective_ ? PlanUse::Rows : PlanUse::Count);
  const uint32_t column = vertexColumn(bgp, key.var);
  if (!injective_) {
    plan = planForCount(std::move(plan), bgp);
    countLeavesAfter(plan, column);
  }
  return std::make_unique<BgpGroupCount>(std::move(bgp), std::move(plan), column, key.var, std::move(counts));
}

OperatorPtr Planner::planGroup(const Op& op) const {
  if (OperatorPtr count = planCountOfBgp(op)) return count;
  if (OperatorPtr degrees = planDegreeCount(op)) return degrees;
  if (OperatorPtr groups = planGroupCountOfBgp(op)) return groups;
  Required below = std::set<std::string>{};
  std::string text;
  for (const auto& k : op.bindings) {
    below = withExpressions(std::move(below), {k.expr});
    text += (text.empty() ? "" : " ") + expressionText(k.expr);
  }
  text = text.empty() ? "(one group)" : "by " + text;
  for (const auto& a : op.aggregates) {
    if (a.expr.star && a.expr.distinct) below = std::nullopt;  // COUNT(DISTINCT *) reads whole solutions
    below = withExpressions(std::move(below), a.expr.args);
    text += ", ?" + a.var + " := " + expressionText(a.expr);
  }
  OperatorPtr child = plan(*op.children[0], below);
  const double rows = op.bindings.empty() ? 1 : std::max(1.0, child->estimatedRows() / 10);
  const double cost = child->estimatedCost() + child->estimatedRows();
  return std::make_unique<GroupBy>(std::move(child), op.bindings, op.aggregates, text, rows, cost);
}

OperatorPtr Planner::planInGraph(const Op& pattern, uint32_t graph, const Required& required) const {
  return Planner(*this, GraphMerge{graph}).plan(pattern, required);
}

OperatorPtr Planner::planGraph(const Op& op, const Required& required) const {
  const Op& pattern = *op.children[0];
  const NamedGraphs& graphs = store_.graphs();
  auto inDataset = [&](uint32_t g) {
    return std::find(dataset_.namedGraphs.begin(), dataset_.namedGraphs.end(), g) != dataset_.namedGraphs.end();
  };
  std::vector<uint32_t> matched;
  if (op.graph.isConstant()) {
    if (auto g = graphs.find(op.graph.value); g && inDataset(*g)) matched.push_back(*g);
  } else {
    // A BGP with a predicate a graph lacks has no solutions there: such
    // graphs get no branch, which keeps GRAPH ?g over many graphs small.
    std::copy_if(dataset_.namedGraphs.begin(), dataset_.namedGraphs.end(), std::back_inserter(matched),
                 [&](uint32_t g) { return pattern.kind != Op::Kind::Bgp || hasEveryPredicate(pattern, graphs, g); });
  }
  const std::string variable = op.graph.isConstant() ? "" : PathScan::variableOf(op.graph).value_or("");
  OperatorPtr result;
  for (uint32_t g : matched) {
    OperatorPtr branch;
    if (variable.empty()) {
      branch = planInGraph(pattern, g, required);
    } else {
      // The pattern joined with VALUES ?g { <name> }: the planner puts the
      // name into a BGP that reads ?g.
      sparql::Table name{{variable}, {{graphs.name(g)}}};
      auto values = std::make_shared<Op>();
      values->kind = Op::Kind::Values;
      values->table = std::move(name);
      Op join;
      join.kind = Op::Kind::Join;
      join.children = {op.children[0], values};
      branch = planInGraph(join, g, required);
    }
    result = unionAll(std::move(result), std::move(branch));
  }
  if (result) return result;
  return noSolutions(op);
}

OperatorPtr Planner::planOrderBy(const Op& op, const Required& required, std::optional<uint64_t> wanted) const {
  std::vector<sparql::Expr> keys;
  for (const auto& k : op.order) keys.push_back(k.expr);
  const Op& child = *op.children[0];
  const Required read = withExpressions(required, keys);
  if (!wanted || makesBlankNodes(child)) return orderedBy(plan(child, read), op);
  // k-nearest: the rows below the BINDs narrowed by the first key read
  // through them, so the BINDs run only on the rows kept.
  const auto [bindings, below] = bindsOf(child);
  const Required readThere = readBelow(bindings, read);
  sparql::OrderKey first = op.order[0];
  if (!bindings.empty()) {
    std::optional<sparql::Expr> through = throughBinds(first.expr, child);
    if (!through) return orderedBy(plan(child, read), op);
    first.expr = std::move(*through);
  }
  // The input with the distance's variable limited to the literals nearest
  // first; also planned while the query runs (a copy of this planner, which
  // may be a GRAPH's, lives as long as the plan; the algebra while it runs).
  auto planner = std::make_shared<const Planner>(*this);
  LimitedInput limited = [planner, below, readThere](const std::string& variable, const std::vector<uint32_t>& ids) {
    return planner->planLimited(*below, readThere, {{variable, ids}});
  };
  const uint32_t graph = graph_.empty() ? NamedGraphs::kNoGraph : graph_[0];
  OperatorPtr rows =
      nearestCandidates(plan(*below, readThere), first, rowsExtend(*below), *wanted, store_, graph, std::move(limited));
  return orderedBy(extendedBy(std::move(rows), bindings), op);
}

OperatorPtr Planner::planSliced(const Op& slice, const Required& required) const {
  const Op& below = *slice.children[0];
  const bool projected = below.kind == Op::Kind::Project;
  const Op& order = projected ? *below.children[0] : below;
  if (!slice.limit || order.kind != Op::Kind::OrderBy) return plan(below, required);
  const uint64_t wanted = slice.offset + *slice.limit;
  if (!projected) return planOrderBy(order, required, wanted);
  return std::make_unique<Project>(planOrderBy(order, std::set<std::string>(below.vars.begin(), below.vars.end()), wanted),
                                   below.vars);
}

OperatorPtr Planner::plan(const Op& op, const Required& required) const {
  switch (op.kind) {
    case Op::Kind::Bgp: return planBgp(op, required, {});
    case Op::Kind::Path: {
      const std::string text = sparql::toSparql(op.subject) + " " + sparql::toSparql(op.path) + " " +
                               sparql::toSparql(op.object);
      const auto& path = searched(op);
      return std::make_unique<PathScan>(op.subject, op.path, op.object, text,
                                        path ? path->rows : static_cast<double>(store_.catalog().vertexCount), graph_);
    }
    case Op::Kind::Join: return planJoin(op, required);
    case Op::Kind::LeftJoin: return planLeftJoin(op, required);
    case Op::Kind::Minus: return planMinus(op, required);
    case Op::Kind::Union:
      return unionAll(onlyRequired(plan(*op.children[0], required), required),
                      onlyRequired(plan(*op.children[1], required), required));
    case Op::Kind::Filter: return planFilter(op, required);
    case Op::Kind::Extend: return planExtend(op, required);
    case Op::Kind::Values: return std::make_unique<ValuesScan>(op.table);
    case Op::Kind::Group: return planGroup(op);
    case Op::Kind::OrderBy: return planOrderBy(op, required, std::nullopt);
    case Op::Kind::Project:
      return std::make_unique<Project>(plan(*op.children[0], std::set<std::string>(op.vars.begin(), op.vars.end())),
                                       op.vars);
    case Op::Kind::Distinct:
    case Op::Kind::Reduced: {
      const bool reduced = op.kind == Op::Kind::Reduced;
      if (const Op* order = orderUnderProjection(op)) {
        const Op& project = *op.children[0];
        OperatorPtr rows = plan(*order->children[0], std::set<std::string>(project.vars.begin(), project.vars.end()));
        return orderedBy(distinctOf(std::make_unique<Project>(std::move(rows), project.vars), reduced), *order);
      }
      return distinctOf(plan(*op.children[0], std::nullopt), reduced);
    }
    case Op::Kind::Slice: return std::make_unique<Slice>(planSliced(op, required), op.offset, op.limit);
    case Op::Kind::Graph: return planGraph(op, required);
    case Op::Kind::Service: return serviceJoin(joinIdentity(), op);
  }
  throw std::logic_error("the planner met an operator kind it does not know");
}

}  // namespace gsparql::engine
