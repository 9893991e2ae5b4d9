// In-scope variables, section 18.2.1 of the recommendation.
#include <algorithm>

#include "parser/algebra.h"

namespace gsparql::sparql {
namespace {

void add(std::vector<std::string>& out, const std::string& var) {
  if (!var.empty() && std::find(out.begin(), out.end(), var) == out.end()) out.push_back(var);
}

void addTerm(std::vector<std::string>& out, const Term& t) {
  if (t.kind == Term::Kind::Variable) add(out, t.value);
}

void collect(const Op& op, std::vector<std::string>& out) {
  switch (op.kind) {
    case Op::Kind::Bgp:
      for (const auto& t : op.triples) {
        addTerm(out, t.subject);
        addTerm(out, t.predicate);
        addTerm(out, t.object);
      }
      return;
    case Op::Kind::Path:
      addTerm(out, op.subject);
      addTerm(out, op.object);
      return;
    case Op::Kind::Join:
    case Op::Kind::LeftJoin:
    case Op::Kind::Union:
      collect(*op.children[0], out);
      collect(*op.children[1], out);
      return;
    case Op::Kind::Graph:
    case Op::Kind::Service:
      addTerm(out, op.graph);
      collect(*op.children[0], out);
      return;
    case Op::Kind::Extend:
      collect(*op.children[0], out);
      add(out, op.bindings[0].var);
      return;
    case Op::Kind::Values:
      for (const auto& v : op.table.vars) add(out, v);
      return;
    case Op::Kind::Group:
      for (const auto& b : op.bindings) add(out, b.var);
      for (const auto& b : op.aggregates) add(out, b.var);
      return;
    case Op::Kind::Project:
      for (const auto& v : op.vars) add(out, v);
      return;
    case Op::Kind::Minus:  // the right side only removes solutions
    case Op::Kind::Filter:
    case Op::Kind::OrderBy:
    case Op::Kind::Distinct:
    case Op::Kind::Reduced:
    case Op::Kind::Slice:
      collect(*op.children[0], out);
      return;
  }
}

}  // namespace

std::vector<std::string> inScopeVariables(const Op& op) {
  std::vector<std::string> out;
  collect(op, out);
  return out;
}

}  // namespace gsparql::sparql
