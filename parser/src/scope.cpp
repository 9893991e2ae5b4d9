// In-scope variables, section 18.2.1 of the recommendation.
#include "parser/src/variables.h"

namespace gsparql::sparql {
namespace {

void addTerm(Variables& out, const Term& t) {
  if (t.kind == Term::Kind::Variable) out.add(t.value);
}

}  // namespace

void addInScopeVariables(const Op& op, Variables& out) {
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
      addInScopeVariables(*op.children[0], out);
      addInScopeVariables(*op.children[1], out);
      return;
    case Op::Kind::Graph:
    case Op::Kind::Service:
      addTerm(out, op.graph);
      addInScopeVariables(*op.children[0], out);
      return;
    case Op::Kind::Extend:
      addInScopeVariables(*op.children[0], out);
      out.add(op.bindings[0].var);
      return;
    case Op::Kind::Values:
      for (const auto& v : op.table.vars) out.add(v);
      return;
    case Op::Kind::Group:
      for (const auto& b : op.bindings) out.add(b.var);
      for (const auto& b : op.aggregates) out.add(b.var);
      return;
    case Op::Kind::Project:
      for (const auto& v : op.vars) out.add(v);
      return;
    case Op::Kind::Minus:  // the right side only removes solutions
    case Op::Kind::Filter:
    case Op::Kind::OrderBy:
    case Op::Kind::Distinct:
    case Op::Kind::Reduced:
    case Op::Kind::Slice:
      addInScopeVariables(*op.children[0], out);
      return;
  }
}

std::vector<std::string> inScopeVariables(const Op& op) {
  Variables out;
  addInScopeVariables(op, out);
  return std::move(out).release();
}

bool isExtensionAggregate(std::string_view iri) {
  static constexpr std::string_view kGeof = "<http://www.opengis.net/def/function/geosparql/";
  if (!iri.starts_with(kGeof) || !iri.ends_with('>')) return false;
  const std::string_view local = iri.substr(kGeof.size(), iri.size() - kGeof.size() - 1);
  return local == "aggBoundingBox" || local == "aggBoundingCircle" || local == "aggCentroid" ||
         local == "aggConvexHull" || local == "aggUnion";
}

}  // namespace gsparql::sparql
