#include "engine/geo/query_rewrite.h"

#include <memory>
#include <string>

#include "engine/geo/geometry.h"
#include "engine/geo/operations.h"
#include "parser/parse.h"
#include "parser/rewrite.h"
#include "parser/query_graph.h"

namespace gsparql::engine::geo {
namespace {

using sparql::Op;
using sparql::OpPtr;
using sparql::Term;
using sparql::TriplePattern;

const Relation* relationOf(const TriplePattern& t) {
  if (!t.predicate.isConstant()) return nullptr;
  const std::string& p = t.predicate.value;
  std::string prefix = "<" + std::string(kGeoNs);
  if (!p.starts_with(prefix) || !p.ends_with('>')) return nullptr;
  return findRelation(std::string_view(p).substr(prefix.size(), p.size() - prefix.size() - 1));
}

bool rewritable(const TriplePattern& t) {
  return relationOf(t) && t.subject.kind != Term::Kind::Blank && t.object.kind != Term::Kind::Blank;
}

// The replacement of one pattern (sparql::distinctMatches).
OpPtr derived(const TriplePattern& t, size_t index) {
  const std::string geo = "<" + std::string(kGeoNs);
  const std::string name(relationOf(t)->name);
  const std::string w1 = "?__geo_w" + std::to_string(index) + "a", w2 = "?__geo_w" + std::to_string(index) + "b";
  const std::string path = " (" + geo + "hasDefaultGeometry>?)/(" + geo + "asWKT>|" + geo + "asGML>) ";
  const std::string s = sparql::termText(t.subject), o = sparql::termText(t.object);
  return sparql::distinctMatches(
      t, "{ " + s + " " + geo + name + "> " + o + " } UNION { " + s + path + w1 + " . " + o + path + w2 +
             " FILTER(<http://www.opengis.net/def/function/geosparql/" + name + ">(" + w1 + ", " + w2 + ")) }");
}

OpPtr rewriteBgp(const OpPtr& bgp, size_t& counter) {
  std::vector<TriplePattern> rest;
  std::vector<OpPtr> spatial;
  for (const TriplePattern& t : bgp->triples) {
    try {
      if (rewritable(t)) {
        spatial.push_back(derived(t, counter++));
        continue;
      }
    } catch (const sparql::SyntaxError&) {
      // A constant the template cannot spell: the pattern matches stored triples only.
    }
    rest.push_back(t);
  }
  if (spatial.empty()) return bgp;
  OpPtr out;
  if (!rest.empty()) {
    auto kept = std::make_shared<Op>(*bgp);
    kept->triples = rest;
    kept->queryGraph = std::make_shared<sparql::QueryGraph>(sparql::QueryGraph::fromBgp(rest));
    out = kept;
  }
  for (OpPtr& s : spatial) out = sparql::joined(out, std::move(s));
  return out;
}

OpPtr rewrite(const OpPtr& op, size_t& counter) {
  if (!op) return op;
  if (op->kind == Op::Kind::Bgp) return rewriteBgp(op, counter);
  std::vector<OpPtr> children;
  bool changed = false;
  for (const OpPtr& c : op->children) {
    children.push_back(rewrite(c, counter));
    changed |= children.back() != c;
  }
  if (!changed) return op;
  auto copy = std::make_shared<Op>(*op);
  copy->children = std::move(children);
  return copy;
}

}  // namespace

OpPtr rewriteSpatialPredicates(const OpPtr& pattern) {
  size_t counter = 0;
  return rewrite(pattern, counter);
}

}  // namespace gsparql::engine::geo
