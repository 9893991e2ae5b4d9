#include "engine/query/graph_forms.h"

#include <tbb/parallel_sort.h>

#include <algorithm>
#include <array>
#include <set>

#include "rdf/term.h"
#include "storage/graph_store.h"

namespace gsparql::engine {
namespace {

bool isBlank(ValueId id, TermCodec& terms) { return rdf::termKind(terms.term(id)) == rdf::TermKind::Blank; }

// A template term resolved once for all solutions: a constant's id, a
// variable's column, or a blank node label's number (a fresh node per
// solution). Unbound: a variable the solutions do not have, or a constant
// that cannot stand where it stands (a literal subject), so the quad is
// never made.
struct TemplateTerm {
  enum class Source : uint8_t { Fixed, Column, Blank, Unbound };
  Source source = Source::Unbound;
  ValueId id = kUndefined;  // Fixed
  size_t index = 0;         // Column: its column; Blank: the label's number
};

// Whether a term may stand as subject (0), predicate (1), object (2) or graph name (3).
bool fitsRole(rdf::TermKind kind, size_t role) {
  if (role == 2) return true;
  return kind == rdf::TermKind::Iri || (role == 0 && kind == rdf::TermKind::Blank);
}

class ResolvedTemplate {
 public:
  ResolvedTemplate(const std::vector<sparql::Quad>& pattern, const std::vector<std::string>& variables,
                   TermCodec& terms) {
    for (const auto& q : pattern) {
      const sparql::TriplePattern& t = q.triple;
      std::array<TemplateTerm, 4> quad{resolve(t.subject, 0, variables, terms), resolve(t.predicate, 1, variables, terms),
                                       resolve(t.object, 2, variables, terms), {TemplateTerm::Source::Fixed}};
      if (!q.inDefaultGraph()) quad[3] = resolve(q.graph, 3, variables, terms);
      if (std::none_of(quad.begin(), quad.end(), [](const TemplateTerm& x) {
            return x.source == TemplateTerm::Source::Unbound;
          })) {
        quads_.push_back(quad);
      }
    }
  }

  size_t blankLabels() const { return blankLabels_.size(); }
  const std::vector<std::array<TemplateTerm, 4>>& quads() const { return quads_; }

  // Whether a variable stands as subject, predicate or graph name, where
  // some of its values may not.
  bool checksColumns() const {
    return std::any_of(quads_.begin(), quads_.end(), [](const auto& quad) {
      return std::any_of(quad.begin(), quad.end(), [&](const TemplateTerm& t) {
        return &t != &quad[2] && t.source == TemplateTerm::Source::Column;
      });
    });
  }

 private:
  TemplateTerm resolve(const sparql::Term& t, size_t role, const std::vector<std::string>& variables,
                       TermCodec& terms) {
    switch (t.kind) {
      case sparql::Term::Kind::Constant: {
        const ValueId id = terms.idOf(t.value);
        if (!fitsRole(rdf::termKind(terms.term(id)), role)) return {};
        return {TemplateTerm::Source::Fixed, id};
      }
      case sparql::Term::Kind::Blank: {
        if (!fitsRole(rdf::TermKind::Blank, role)) return {};
        const auto it = std::find(blankLabels_.begin(), blankLabels_.end(), t.value);
        const size_t number = static_cast<size_t>(it - blankLabels_.begin());
        if (it == blankLabels_.end()) blankLabels_.push_back(t.value);
        return {TemplateTerm::Source::Blank, kUndefined, number};
      }
      case sparql::Term::Kind::Variable: {
        const auto it = std::find(variables.begin(), variables.end(), t.value);
        if (it == variables.end()) return {};
        return {TemplateTerm::Source::Column, kUndefined, static_cast<size_t>(it - variables.begin())};
      }
    }
    return {};
  }

  std::vector<std::string> blankLabels_;  // in order of first appearance
  std::vector<std::array<TemplateTerm, 4>> quads_;
};

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

// Decodes the subjects, predicates and graph names of `quads` in one batch.
void prefetchNames(const std::vector<GraphTriple>& quads, TermCodec& terms) {
  std::vector<ValueId> ids;
  ids.reserve(3 * quads.size());
  for (const auto& [t, graph] : quads) ids.insert(ids.end(), {t[0], t[1], graph});
  std::erase(ids, kUndefined);
  terms.prefetch(ids);
}

}  // namespace

std::vector<GraphTriple> constructQuads(const std::vector<sparql::Quad>& pattern, const Table& rows,
                                        const std::vector<std::string>& variables, TermCodec& terms,
                                        const QueryLimits& limits) {
  const ResolvedTemplate resolved(pattern, variables, terms);
  std::vector<GraphTriple> quads;
  quads.reserve(rows.rows * resolved.quads().size());
  std::vector<ValueId> blanks(resolved.blankLabels());
  StopCheck stop(limits);
  for (size_t r = 0; r < rows.rows; ++r) {
    stop(static_cast<int64_t>(pattern.size()));
    for (ValueId& blank : blanks) blank = terms.freshBlankNode();  // fresh per solution
    for (const auto& quad : resolved.quads()) {
      std::array<ValueId, 4> ids;
      bool made = true;
      for (size_t role = 0; role < 4 && made; ++role) {
        const TemplateTerm& t = quad[role];
        switch (t.source) {
          case TemplateTerm::Source::Fixed:
            ids[role] = t.id;
            break;
          case TemplateTerm::Source::Blank:
            ids[role] = blanks[t.index];
            break;
          default:  // a variable's column: resolved quads have no Unbound term
            ids[role] = rows.at(r, t.index);
            made = isBound(ids[role]);
        }
      }
      if (made) quads.emplace_back(Triple{ids[0], ids[1], ids[2]}, ids[3]);
    }
  }
  // A graph is a set. A variable's values are checked where they stand as
  // subject, predicate or graph name on the distinct quads, in the order of
  // their ids (which is the order of their terms in memory).
  tbb::parallel_sort(quads.begin(), quads.end(), [&limits](const GraphTriple& a, const GraphTriple& b) {
    countOnThisThread(limits);
    return a < b;
  });
  quads.erase(std::unique(quads.begin(), quads.end()), quads.end());
  if (resolved.checksColumns()) {
    if (!terms.readsVerticesInPlace()) prefetchNames(quads, terms);
    std::array<ValueId, 4> lastFitting{kUndefined, kUndefined, kUndefined, kUndefined};
    const auto fits = [&](ValueId id, size_t role) {
      if (id == lastFitting[role] || (role == 3 && !isBound(id))) return true;
      if (!fitsRole(rdf::termKind(terms.term(id)), role)) return false;
      lastFitting[role] = id;
      return true;
    };
    std::erase_if(quads, [&](const GraphTriple& q) {
      stop();
      return !fits(q.first[0], 0) || !fits(q.first[1], 1) || !fits(q.second, 3);
    });
  }
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
