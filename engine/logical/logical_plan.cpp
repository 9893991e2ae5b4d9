#include "engine/logical/logical_plan.h"

#include <algorithm>

#include "engine/logical/optional_left_bgp.h"
#include "parser/query_graph.h"

namespace gsparql::engine {
namespace {

using sparql::Op;

void addUnique(std::vector<std::string>& names, const std::string& name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

void addTerm(std::vector<std::string>& names, const sparql::Term& t) {
  if (t.kind == sparql::Term::Kind::Variable) addUnique(names, t.value);
  if (t.kind == sparql::Term::Kind::Blank) addUnique(names, "_:" + t.value);
}

sparql::OpPtr scopeExistsToGraph(const sparql::OpPtr& op, const sparql::Term* graph);

// `e` with each EXISTS pattern under GRAPH `graph` (nullptr: as it is).
sparql::Expr scopeExistsToGraph(const sparql::Expr& e, const sparql::Term* graph) {
  sparql::Expr scoped = e;
  for (auto& arg : scoped.args) arg = scopeExistsToGraph(arg, graph);
  if (!scoped.pattern) return scoped;
  scoped.pattern = scopeExistsToGraph(scoped.pattern, graph);
  if (graph != nullptr) {
    auto wrapped = std::make_shared<Op>();
    wrapped->kind = Op::Kind::Graph;
    wrapped->pos = scoped.pattern->pos;
    wrapped->graph = *graph;
    wrapped->children.push_back(scoped.pattern);
    scoped.pattern = std::move(wrapped);
  }
  return scoped;
}

bool hasExists(const Op& op) {
  auto inExpressions = [](const std::vector<sparql::Binding>& bindings) {
    return std::any_of(bindings.begin(), bindings.end(), [](const auto& b) { return containsExists(b.expr); });
  };
  return std::any_of(op.exprs.begin(), op.exprs.end(), containsExists) || inExpressions(op.bindings) ||
         inExpressions(op.aggregates) ||
         std::any_of(op.order.begin(), op.order.end(), [](const auto& k) { return containsExists(k.expr); }) ||
         std::any_of(op.children.begin(), op.children.end(), [](const auto& c) { return hasExists(*c); });
}

// The tree with the EXISTS patterns inside each GRAPH wrapped in it; shared
// where nothing changes.
sparql::OpPtr scopeExistsToGraph(const sparql::OpPtr& op, const sparql::Term* graph) {
  if (!hasExists(*op)) return op;
  auto scoped = std::make_shared<Op>(*op);
  const sparql::Term* inner = op->kind == Op::Kind::Graph ? &op->graph : graph;
  for (auto& child : scoped->children) child = scopeExistsToGraph(child, inner);
  for (auto& e : scoped->exprs) e = scopeExistsToGraph(e, graph);
  for (auto& b : scoped->bindings) b.expr = scopeExistsToGraph(b.expr, graph);
  for (auto& b : scoped->aggregates) b.expr = scopeExistsToGraph(b.expr, graph);
  for (auto& k : scoped->order) k.expr = scopeExistsToGraph(k.expr, graph);
  return scoped;
}

}  // namespace

std::vector<std::string> patternVariables(const Op& op) {
  std::vector<std::string> names;
  switch (op.kind) {
    case Op::Kind::Bgp:
      for (const auto& t : op.triples) {
        addTerm(names, t.subject);
        addTerm(names, t.predicate);
        addTerm(names, t.object);
      }
      return names;
    case Op::Kind::Path:
      addTerm(names, op.subject);
      addTerm(names, op.object);
      return names;
    case Op::Kind::Values: return op.table.vars;
    case Op::Kind::Project: return op.vars;
    case Op::Kind::Group:
      for (const auto& k : op.bindings) {
        if (!k.var.empty()) addUnique(names, k.var);
      }
      for (const auto& a : op.aggregates) addUnique(names, a.var);
      return names;
    case Op::Kind::Minus: return patternVariables(*op.children[0]);
    case Op::Kind::Extend:
      names = patternVariables(*op.children[0]);
      addUnique(names, op.bindings[0].var);
      return names;
    case Op::Kind::Service:  // its blank nodes are the remote query's, its endpoint is the input's
      return sparql::inScopeVariables(*op.children[0]);
    case Op::Kind::Graph:
      addTerm(names, op.graph);
      for (const auto& v : patternVariables(*op.children[0])) addUnique(names, v);
      return names;
    default:
      for (const auto& child : op.children) {
        for (const auto& v : patternVariables(*child)) addUnique(names, v);
      }
      return names;
  }
}

sparql::OpPtr bgpOf(std::vector<sparql::TriplePattern> triples, const Op& from) {
  auto bgp = std::make_shared<Op>();
  bgp->kind = Op::Kind::Bgp;
  bgp->pos = from.pos;
  bgp->triples = std::move(triples);
  bgp->queryGraph = std::make_shared<const sparql::QueryGraph>(sparql::QueryGraph::fromBgp(bgp->triples));
  return bgp;
}

void expressionVariables(const sparql::Expr& e, std::vector<std::string>& out) {
  if (e.kind == sparql::Expr::Kind::Term) addTerm(out, e.term);
  if (e.pattern) {
    for (const auto& v : patternVariables(*e.pattern)) addUnique(out, v);
  }
  for (const auto& a : e.args) expressionVariables(a, out);
}

bool containsExists(const sparql::Expr& e) {
  if (e.kind == sparql::Expr::Kind::Exists || e.kind == sparql::Expr::Kind::NotExists) return true;
  return std::any_of(e.args.begin(), e.args.end(), containsExists);
}

LogicalPlan buildLogicalPlan(const sparql::Query& query) {
  LogicalPlan plan;
  plan.form = query.form;
  plan.root = moveBgpsIntoOptionalLeft(scopeExistsToGraph(query.pattern, nullptr));
  plan.fromGraphs = query.fromGraphs;
  plan.fromNamedGraphs = query.fromNamedGraphs;
  plan.constructTemplate = query.constructTemplate;
  plan.describeTerms = query.describeTerms;
  using Form = sparql::Query::Form;
  if (query.form == Form::Select) plan.formVariables = patternVariables(*query.pattern);
  if (query.form == Form::Construct) {
    for (const auto& t : query.constructTemplate) {
      for (const auto* term : {&t.subject, &t.predicate, &t.object}) {
        if (term->kind == sparql::Term::Kind::Variable) addUnique(plan.formVariables, term->value);
      }
    }
  }
  if (query.form == Form::Describe) {
    if (query.describeTerms.empty()) {
      for (const auto& v : sparql::inScopeVariables(*query.pattern)) plan.formVariables.push_back(v);
    }
    for (const auto& t : query.describeTerms) {
      if (t.kind == sparql::Term::Kind::Variable) addUnique(plan.formVariables, t.value);
    }
  }
  return plan;
}

}  // namespace gsparql::engine
