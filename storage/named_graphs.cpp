#include "storage/named_graphs.h"

#include <algorithm>

#include "storage/dictionary.h"
#include "storage/system_error.h"

namespace gsparql {

std::string graphPredicateKey(std::string_view predicate, std::string_view graph) {
  std::string key(predicate);
  if (!graph.empty()) key.append(" ").append(graph);
  return key;
}

GraphPredicate splitGraphPredicateKey(std::string_view key) {
  const size_t end = key.find("> ");
  if (end == std::string_view::npos) return {key, {}};
  return {key.substr(0, end + 1), key.substr(end + 2)};
}

NamedGraphs::NamedGraphs(const Dictionary& dictionary, const std::vector<uint64_t>& triples)
    : graphOfPredicate_(triples.size()), terms_(triples.size()), canonical_(triples.size()) {
  const auto predicateCount = static_cast<uint32_t>(triples.size());
  uint32_t seen = 0;
  dictionary.forEach(TermSpace::Predicate, [&](uint32_t id, std::string_view key) {
    if (id >= predicateCount) throw StorageError("corrupt database: a predicate id beyond the catalog's count");
    ++seen;
    const GraphPredicate parts = splitGraphPredicateKey(key);
    auto [graph, added] = graphIndex_.try_emplace(std::string(parts.graph), size());
    if (parts.graph.empty()) graph->second = kDefaultGraph;
    if (added && !parts.graph.empty()) graphs_.push_back(Graph{std::string(parts.graph), {}});
    if (parts.graph == kUnionGraphName) union_ = graph->second;
    graphs_[graph->second].predicates.push_back(id);
    graphs_[graph->second].triples += triples[id];
    graphOfPredicate_[id] = graph->second;
    terms_[id] = std::string(parts.predicate);
    byGraphAndTerm_.emplace(std::string(key), id);
  });
  if (seen != predicateCount) throw StorageError("corrupt database: the dictionary lacks predicates of the catalog");
  for (uint32_t id = 0; id < predicateCount; ++id) {
    canonical_[id] = canonicalByTerm_.try_emplace(terms_[id], id).first->second;
  }
  for (Graph& g : graphs_) std::sort(g.predicates.begin(), g.predicates.end());
}

std::vector<uint32_t> NamedGraphs::named() const {
  std::vector<uint32_t> graphs;
  for (uint32_t g = 1; g < size(); ++g) {
    if (graphs_[g].triples > 0 && !isUnion(g)) graphs.push_back(g);
  }
  return graphs;
}

std::optional<uint32_t> NamedGraphs::find(std::string_view name) const {
  if (name.empty()) return std::nullopt;
  auto it = graphIndex_.find(std::string(name));
  if (it == graphIndex_.end() || graphs_[it->second].triples == 0 || isUnion(it->second)) return std::nullopt;
  return it->second;
}

std::span<const uint32_t> NamedGraphs::predicates(uint32_t graph) const {
  if (graph == kNoGraph) return {};
  return graphs_.at(graph).predicates;
}

std::optional<uint32_t> NamedGraphs::predicate(uint32_t graph, std::string_view predicate) const {
  if (graph == kNoGraph) return std::nullopt;
  auto it = byGraphAndTerm_.find(graphPredicateKey(predicate, name(graph)));
  return it == byGraphAndTerm_.end() ? std::nullopt : std::optional<uint32_t>(it->second);
}

std::optional<uint32_t> NamedGraphs::canonicalPredicate(std::string_view predicate) const {
  auto it = canonicalByTerm_.find(std::string(predicate));
  return it == canonicalByTerm_.end() ? std::nullopt : std::optional<uint32_t>(it->second);
}

}  // namespace gsparql
