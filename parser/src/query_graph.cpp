#include "parser/query_graph.h"

#include <map>
#include <numeric>
#include <set>

#include "parser/src/triple_set.h"

namespace gsparql::sparql {

std::uint32_t QueryGraph::addVertex(const Term& t) {
  auto [it, inserted] = vertexIndex_.emplace(t, static_cast<std::uint32_t>(vertices_.size()));
  if (inserted) vertices_.push_back({t});
  return it->second;
}

std::optional<std::uint32_t> QueryGraph::vertexOf(const Term& t) const {
  auto it = vertexIndex_.find(t);
  if (it == vertexIndex_.end()) return std::nullopt;
  return it->second;
}

QueryGraph QueryGraph::fromBgp(const std::vector<TriplePattern>& triples) {
  QueryGraph g;
  TripleSet seen;
  for (const auto& t : triples) {
    if (!seen.insert(t)) continue;
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
  std::map<std::string, std::uint32_t> predicateVariables;  // name -> a vertex of its first edge
  for (const auto& e : edges_) {
    unite(e.from, e.to);
    if (e.predicateVertex) unite(e.from, *e.predicateVertex);  // a shared variable joins them too
    if (e.predicate.kind != Term::Kind::Variable) continue;
    auto [first, inserted] = predicateVariables.emplace(e.predicate.value, e.from);
    if (!inserted) unite(e.from, first->second);  // two edges with one predicate variable are joined on it
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
  std::set<std::string> listed;
  for (const auto& e : edges_) {
    if (e.predicate.kind == Term::Kind::Variable && !e.predicateVertex && listed.insert(e.predicate.value).second) {
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
