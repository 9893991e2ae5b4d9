#include "engine/query/graph_forms.h"

#include <algorithm>
#include <map>
#include <set>

#include "rdf/term.h"
#include "storage/graph_store.h"

namespace gsparql::engine {
namespace {

bool isBlank(ValueId id, TermCodec& terms) { return rdf::termKind(terms.term(id)) == rdf::TermKind::Blank; }
bool isIri(ValueId id, TermCodec& terms) { return rdf::termKind(terms.term(id)) == rdf::TermKind::Iri; }

// A template term's value in one solution; kUndefined when it has none.
ValueId instantiate(const sparql::Term& t, const Table& rows, size_t row, const std::vector<std::string>& variables,
                    std::map<std::string, ValueId>& blanks, TermCodec& terms) {
  switch (t.kind) {
    case sparql::Term::Kind::Constant:
      return terms.idOf(t.value);
    case sparql::Term::Kind::Blank: {
      auto [it, added] = blanks.try_emplace(t.value, kUndefined);
      if (added) it->second = terms.freshBlankNode();
      return it->second;
    }
    case sparql::Term::Kind::Variable: {
      auto it = std::find(variables.begin(), variables.end(), t.value);
      return it == variables.end() ? kUndefined : rows.at(row, static_cast<size_t>(it - variables.begin()));
    }
  }
  return kUndefined;
}

void addDescription(ValueId resource, TermCodec& terms, std::set<ValueId>& described, std::set<Triple>& out) {
  if (!described.insert(resource).second) return;
  auto vertex = terms.vertexOf(resource);
  if (!vertex) return;
  const AdjacencyFile& adjacency = terms.store().adjacency(pcsr::Direction::Out);
  for (uint32_t p : terms.store().graphs().predicates(NamedGraphs::kDefaultGraph)) {
    for (uint32_t o : adjacency.predicate(p).neighbours(*vertex)) {
      const ValueId object = terms.fromVertex(o);
      out.insert({resource, terms.fromPredicate(p), object});
      if (isBlank(object, terms)) addDescription(object, terms, described, out);
    }
  }
}

}  // namespace

std::vector<GraphTriple> constructQuads(const std::vector<sparql::Quad>& pattern, const Table& rows,
                                        const std::vector<std::string>& variables, TermCodec& terms,
                                        const QueryLimits& limits) {
  std::vector<GraphTriple> quads;
  StopCheck stop(limits);
  for (size_t r = 0; r < rows.rows; ++r) {
    stop(static_cast<int64_t>(pattern.size()));
    std::map<std::string, ValueId> blanks;  // fresh per solution
    for (const auto& q : pattern) {
      const sparql::TriplePattern& t = q.triple;
      const Triple triple{instantiate(t.subject, rows, r, variables, blanks, terms),
                          instantiate(t.predicate, rows, r, variables, blanks, terms),
                          instantiate(t.object, rows, r, variables, blanks, terms)};
      const ValueId graph = q.inDefaultGraph() ? kUndefined : instantiate(q.graph, rows, r, variables, blanks, terms);
      if (isBound(triple[0]) && isBound(triple[1]) && isBound(triple[2]) && (q.inDefaultGraph() || isBound(graph))) {
        quads.emplace_back(triple, graph);
      }
    }
  }
  // A graph is a set; the kinds of subjects, predicates and graph names are
  // checked on the distinct quads, their terms decoded in one batch.
  std::sort(quads.begin(), quads.end());
  quads.erase(std::unique(quads.begin(), quads.end()), quads.end());
  std::vector<ValueId> ids;
  for (const auto& [t, graph] : quads) ids.insert(ids.end(), {t[0], t[1], graph});
  std::erase(ids, kUndefined);
  terms.prefetch(ids);
  std::erase_if(quads, [&](const GraphTriple& q) {
    const auto& [t, graph] = q;
    return !(isIri(t[0], terms) || isBlank(t[0], terms)) || !isIri(t[1], terms) ||
           (isBound(graph) && !isIri(graph, terms));
  });
  return quads;
}

std::vector<Triple> constructTriples(const std::vector<sparql::TriplePattern>& pattern, const Table& rows,
                                     const std::vector<std::string>& variables, TermCodec& terms,
                                     const QueryLimits& limits) {
  std::vector<sparql::Quad> quads;
  for (const auto& t : pattern) quads.push_back({t, {}});
  std::vector<Triple> triples;
  for (const auto& quad : constructQuads(quads, rows, variables, terms, limits)) triples.push_back(quad.first);
  return triples;
}

std::vector<Triple> describeResources(const std::vector<sparql::Term>& resources, const Table& rows,
                                      const std::vector<std::string>& variables, TermCodec& terms) {
  std::set<ValueId> targets;
  for (const auto& t : resources) {
    if (t.isConstant()) targets.insert(terms.idOf(t.value));
  }
  for (size_t c = 0; c < variables.size(); ++c) {
    const bool described = resources.empty() || std::any_of(resources.begin(), resources.end(), [&](const auto& t) {
                             return t.kind == sparql::Term::Kind::Variable && t.value == variables[c];
                           });
    if (!described) continue;
    for (size_t r = 0; r < rows.rows; ++r) {
      if (isBound(rows.at(r, c))) targets.insert(rows.at(r, c));
    }
  }
  std::set<ValueId> seen;
  std::set<Triple> triples;
  for (ValueId resource : targets) addDescription(resource, terms, seen, triples);
  return {triples.begin(), triples.end()};
}

}  // namespace gsparql::engine
