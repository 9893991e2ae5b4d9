#include "parser/query_graph.h"

#include <algorithm>
#include <numeric>

namespace gsparql::sparql {

std::uint32_t QueryGraph::addVertex(const Term& t) {
  if (auto existing = vertexOf(t)) return *existing;
  vertices_.push_back({t});
  return static_cast<std::uint32_t>(vertices_.size() - 1);
}

std::optional<std::uint32_t> QueryGraph::vertexOf(const Term& t) const {
  auto it = std::find_if(vertices_.begin(), vertices_.end(), [&](const QueryVertex& v) { return v.term == t; });
  if (it == vertices_.end()) return std::nullopt;
  return static_cast<std::uint32_t>(it - vertices_.begin());
}

QueryGraph QueryGraph::fromBgp(const std::vector<TriplePattern>& triples) {
  QueryGraph g;
  std::vector<TriplePattern> distinct;
  for (const auto& t : triples) {
    if (std::none_of(distinct.begin(), distinct.end(), [&](const TriplePattern& u) { return u.sameAs(t); })) {
      distinct.push_back(t);
    }
  }
  for (const auto& t : distinct) {
    std::uint32_t from = g.addVertex(t.subject);
    std::uint32_t to = g.addVertex(t.object);
    g.edges_.push_back({from, to, t.predicate, std::nullopt, t.pos});
  }
  // Resolved after all vertices exist: `?p` may become a vertex in a later pattern.
  for (auto& e : g.edges_) {
    if (!e.predicate.isConstant()) e.predicateVertex = g.vertexOf(e.predicate);
  }
  return g;
}

std::vector<std::vector<std::uint32_t>> QueryGraph::components() const {
  std::vector<std::uint32_t> parent(vertices_.size());
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](std::uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  auto unite = [&](std::uint32_t a, std::uint32_t b) { parent[find(a)] = find(b); };
  std::vector<std::pair<std::string, std::uint32_t>> predicateVariables;  // name -> a vertex of its edge
  for (const auto& e : edges_) {
    unite(e.from, e.to);
    if (e.predicateVertex) unite(e.from, *e.predicateVertex);  // a shared variable joins them too
    if (e.predicate.kind != Term::Kind::Variable) continue;
    auto seen = std::find_if(predicateVariables.begin(), predicateVariables.end(),
                             [&](const auto& p) { return p.first == e.predicate.value; });
    if (seen == predicateVariables.end()) {
      predicateVariables.emplace_back(e.predicate.value, e.from);
    } else {
      unite(e.from, seen->second);  // two edges with one predicate variable are joined on it
    }
  }
  std::vector<std::vector<std::uint32_t>> out;
  std::vector<int> index(vertices_.size(), -1);
  for (std::uint32_t v = 0; v < vertices_.size(); ++v) {
    std::uint32_t root = find(v);
    if (index[root] < 0) {
      index[root] = static_cast<int>(out.size());
      out.emplace_back();
    }
    out[static_cast<std::size_t>(index[root])].push_back(v);
  }
  return out;
}

std::vector<std::string> QueryGraph::predicateOnlyVariables() const {
  std::vector<std::string> out;
  for (const auto& e : edges_) {
    if (e.predicate.kind == Term::Kind::Variable && !e.predicateVertex &&
        std::find(out.begin(), out.end(), e.predicate.value) == out.end()) {
      out.push_back(e.predicate.value);
    }
  }
  return out;
}

namespace {

void collectBgps(const Op& op, std::vector<const Op*>& out);

void collectFromExpr(const Expr& e, std::vector<const Op*>& out) {
  if (e.pattern) collectBgps(*e.pattern, out);
  for (const auto& a : e.args) collectFromExpr(a, out);
}

void collectBgps(const Op& op, std::vector<const Op*>& out) {
  if (op.kind == Op::Kind::Bgp) out.push_back(&op);
  for (const auto& e : op.exprs) collectFromExpr(e, out);
  for (const auto& b : op.bindings) collectFromExpr(b.expr, out);
  for (const auto& c : op.children) collectBgps(*c, out);
}

}  // namespace

std::vector<const Op*> basicGraphPatterns(const Op& root) {
  std::vector<const Op*> out;
  collectBgps(root, out);
  return out;
}

}  // namespace gsparql::sparql
