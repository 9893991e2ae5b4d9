#include "engine/logical/logical_plan.h"

#include <algorithm>

#include "gsparql/error.h"

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

[[noreturn]] void notSupported(const std::string& what, sparql::Position pos) {
  throw QueryError(what + " at " + std::to_string(pos.line) + ":" + std::to_string(pos.column) +
                       " is not supported yet",
                   pos.line, pos.column);
}

void checkSupported(const Op& op);

void checkExpression(const sparql::Expr& e) {
  if (e.pattern) checkSupported(*e.pattern);
  for (const auto& a : e.args) checkExpression(a);
}

void checkSupported(const Op& op) {
  if (op.kind == Op::Kind::Graph) notSupported("GRAPH (named graphs)", op.pos);
  if (op.kind == Op::Kind::Service) notSupported("SERVICE", op.pos);
  for (const auto& e : op.exprs) checkExpression(e);
  for (const auto& b : op.bindings) checkExpression(b.expr);
  for (const auto& b : op.aggregates) checkExpression(b.expr);
  for (const auto& k : op.order) checkExpression(k.expr);
  for (const auto& child : op.children) checkSupported(*child);
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
    default:
      for (const auto& child : op.children) {
        for (const auto& v : patternVariables(*child)) addUnique(names, v);
      }
      return names;
  }
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
  if (!query.fromGraphs.empty() || !query.fromNamedGraphs.empty()) notSupported("FROM (named graphs)", query.pos);
  checkSupported(*query.pattern);
  LogicalPlan plan;
  plan.form = query.form;
  plan.root = query.pattern;
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
