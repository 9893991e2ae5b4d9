#include "storage/delta_overlay.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "rdf/term.h"
#include "rdf/typed_value.h"
#include "storage/adjacency_writer.h"
#include "storage/named_graphs.h"

namespace gsparql {
namespace {

// One predicate's net change: edges as (subject, object).
struct PredicateEdits {
  std::vector<Edge> inserted, deleted;
};

bool isStored(const AdjacencyFile& out, uint32_t p, uint32_t s, uint32_t o) {
  if (p >= out.predicateCount()) return false;
  const std::span<const uint32_t> objects = out.predicate(p).neighbours(s);
  return std::binary_search(objects.begin(), objects.end(), o);
}

// Ids for the delta's terms: the stored ones, or new ones numbered after them.
class TermIds {
 public:
  TermIds(const Dictionary& dictionary, TermSpace space, uint32_t storedCount)
      : dictionary_(dictionary), space_(space), storedCount_(storedCount) {}

  std::optional<uint32_t> stored(const std::string& term) const { return dictionary_.id(space_, term); }
  uint32_t idOf(const std::string& term) {
    if (auto id = stored(term)) return *id;
    // Vertex terms match by key ("a"@EN is "a"@en), predicate keys exactly, as the dictionary does.
    const std::string key = space_ == TermSpace::Vertex ? rdf::termKey(term) : term;
    auto [it, added] = added_.try_emplace(key, storedCount_ + static_cast<uint32_t>(terms_.size()));
    if (added) terms_.push_back(term);
    return it->second;
  }
  std::vector<std::string>& added() { return terms_; }

 private:
  const Dictionary& dictionary_;
  TermSpace space_;
  uint32_t storedCount_;
  std::unordered_map<std::string, uint32_t> added_;
  std::vector<std::string> terms_;
};

// The stored edges of one direction (`stored` null: none) with the edits,
// as (key, neighbour) sorted and unique.
std::vector<Edge> editedEdges(const PredicateAdjacency* stored, const PredicateEdits& edits, pcsr::Direction direction) {
  auto oriented = [&](std::vector<Edge> edges) {
    if (direction == pcsr::Direction::In) {
      for (Edge& e : edges) std::swap(e.key, e.neighbour);
    }
    std::sort(edges.begin(), edges.end());
    return edges;
  };
  const std::vector<Edge> deleted = oriented(edits.deleted);
  const std::vector<Edge> inserted = oriented(edits.inserted);
  // The stored edges come in (key, neighbour) order already: one merge, no sort of the whole predicate.
  std::vector<Edge> kept;
  if (stored != nullptr) {
    for (size_t k = 0; k < stored->keys().size(); ++k) {
      for (uint32_t n : stored->neighboursAt(k)) {
        const Edge e{stored->keys()[k], n};
        if (!std::binary_search(deleted.begin(), deleted.end(), e)) kept.push_back(e);
      }
    }
  }
  std::vector<Edge> edges;
  edges.reserve(kept.size() + inserted.size());
  std::set_union(kept.begin(), kept.end(), inserted.begin(), inserted.end(), std::back_inserter(edges));
  return edges;
}

using TripleStates = std::map<TermTriple, bool>;  // triple -> held after the delta

// The named graphs of the generation and of the delta, by predicate IRI.
std::map<std::string, std::set<std::string>> namedGraphsByPredicate(const Dictionary& dictionary,
                                                                    const TripleStates& last) {
  std::map<std::string, std::set<std::string>> graphs;
  auto add = [&](std::string_view key) {
    const GraphPredicate parts = splitGraphPredicateKey(key);
    if (!parts.graph.empty() && parts.graph != kUnionGraphName) {
      graphs[std::string(parts.predicate)].emplace(parts.graph);
    }
  };
  dictionary.forEach(TermSpace::Predicate, [&](uint32_t, std::string_view key) { add(key); });
  for (const auto& entry : last) add(entry.first[1]);
  return graphs;
}

// The union of the named graphs (storage/named_graphs.h) follows them: for
// each triple a named graph gains or loses, the union holds it after the
// delta if some named graph does.
void addUnionChanges(TripleStates& last, const Dictionary& dictionary, const AdjacencyFile& out) {
  std::set<TermTriple> touched;
  for (const auto& [t, insert] : last) {
    const GraphPredicate parts = splitGraphPredicateKey(t[1]);
    if (!parts.graph.empty() && parts.graph != kUnionGraphName) {
      touched.insert({t[0], std::string(parts.predicate), t[2]});
    }
  }
  if (touched.empty()) return;
  const auto graphs = namedGraphsByPredicate(dictionary, last);
  for (const TermTriple& t : touched) {
    bool held = false;
    for (const std::string& graph : graphs.at(t[1])) {
      const TermTriple named{t[0], graphPredicateKey(t[1], graph), t[2]};
      const auto change = last.find(named);
      held = held || (change != last.end() ? change->second : holdsTriple(dictionary, out, named));
    }
    last[{t[0], graphPredicateKey(t[1], kUnionGraphName), t[2]}] = held;
  }
}

// The net change per predicate id: a record changes the store only where
// it inserts a triple the generation lacks or deletes one it holds.
std::map<uint32_t, PredicateEdits> resolve(const std::vector<DeltaRecord>& records, const AdjacencyFile& out,
                                           TermIds& vertices, TermIds& predicates, const Dictionary& dictionary) {
  TripleStates last;
  for (const DeltaRecord& r : records) last[r.triple] = r.insert;
  addUnionChanges(last, dictionary, out);
  std::map<uint32_t, PredicateEdits> edits;
  for (const auto& [t, insert] : last) {
    const auto p = predicates.stored(t[1]);
    const auto s = vertices.stored(t[0]);
    const auto o = vertices.stored(t[2]);
    const bool stored = p && s && o && isStored(out, *p, *s, *o);
    if (!insert && stored) edits[*p].deleted.push_back({*s, *o});
    if (insert && !stored) {
      const uint32_t subject = vertices.idOf(t[0]), object = vertices.idOf(t[2]);
      edits[predicates.idOf(t[1])].inserted.push_back({subject, object});
    }
  }
  return edits;
}

// Predicate `p`'s adjacency and statistics made again with its edits.
void applyEdits(uint32_t p, const PredicateEdits& edits, GenerationParts& parts, bool counted) {
  auto rebuilt = [&](AdjacencyFile& file) {
    const PredicateAdjacency* stored = p < file.predicateCount() ? &file.predicate(p) : nullptr;
    auto section = std::make_shared<const AdjacencySection>(editedEdges(stored, edits, file.direction()));
    file.replace(p, section);
    return section;
  };
  const auto out = rebuilt(parts.out);
  const auto in = rebuilt(parts.in);
  PredicateStatistics& statistics = parts.catalog.predicates.at(p);
  if (counted) parts.catalog.tripleCount = parts.catalog.tripleCount - statistics.triples + out->edgeCount();
  statistics = {out->edgeCount(), out->keyCount(), in->keyCount(), out->maxDegree(), in->maxDegree()};
}

}  // namespace

bool holdsTriple(const Dictionary& dictionary, const AdjacencyFile& out, const TermTriple& triple) {
  const auto p = dictionary.id(TermSpace::Predicate, triple[1]);
  const auto s = dictionary.id(TermSpace::Vertex, triple[0]);
  const auto o = dictionary.id(TermSpace::Vertex, triple[2]);
  return p && s && o && isStored(out, *p, *s, *o);
}

void applyDelta(const std::vector<DeltaRecord>& records, uint32_t deltaFiles, GenerationParts parts) {
  Catalog& catalog = parts.catalog;
  const auto storedVertices = static_cast<uint32_t>(catalog.vertexCount);
  const auto storedPredicates = static_cast<uint32_t>(catalog.predicates.size());
  TermIds vertices(parts.dictionary, TermSpace::Vertex, storedVertices);
  TermIds predicates(parts.dictionary, TermSpace::Predicate, storedPredicates);
  const std::map<uint32_t, PredicateEdits> edits = resolve(records, parts.out, vertices, predicates, parts.dictionary);

  catalog.vertexCount += vertices.added().size();
  catalog.predicates.resize(storedPredicates + predicates.added().size());
  catalog.inputFiles += deltaFiles;  // each update's blank nodes their own scope (graph_changes.h)
  if (parts.values != nullptr) {
    std::vector<rdf::TypedValue> values;
    for (const std::string& term : vertices.added()) values.push_back(rdf::typedValueOf(term));
    parts.values->extend(std::move(values));
  }
  if (parts.terms != nullptr) parts.terms->extend(vertices.added());
  if (parts.text != nullptr) parts.text->extend(storedVertices, vertices.added());
  for (const auto& [p, change] : edits) {
    const std::string key = p < storedPredicates ? parts.dictionary.term(TermSpace::Predicate, p)
                                                 : predicates.added()[p - storedPredicates];
    applyEdits(p, change, parts, splitGraphPredicateKey(key).graph != kUnionGraphName);
  }
  parts.dictionary.extend(TermSpace::Vertex, storedVertices, std::move(vertices.added()));
  parts.dictionary.extend(TermSpace::Predicate, storedPredicates, std::move(predicates.added()));
}

}  // namespace gsparql
