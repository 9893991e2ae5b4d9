#include "engine/value/term_codec.h"

#include <algorithm>

#include "engine/bgp/bound_bgp.h"
#include "rdf/term.h"
#include "storage/graph_store.h"
#include "storage/value_column.h"

namespace gsparql::engine {
TermCodec::TermCodec(const GraphStore& store) : store_(store), termColumn_(store.terms()) {}

ValueId TermCodec::idOf(std::string_view term) { return numbered(term, true); }

ValueId TermCodec::idOfAbsent(std::string_view term) { return numbered(term, false); }

ValueId TermCodec::numbered(std::string_view term, bool mayBeData) {
  std::string key = rdf::termKey(term);
  if (auto it = byKey_.find(key); it != byKey_.end()) return it->second;
  ValueId id;
  if (auto known = mayBeData ? dataId(term) : std::nullopt) {
    id = *known;
  } else {
    id = makeValueId(ValueSpace::Local, static_cast<uint32_t>(local_.size()));
    local_.emplace_back(term);
  }
  byKey_.emplace(std::move(key), id);
  return id;
}

std::optional<ValueId> TermCodec::knownId(std::string_view term) const {
  if (auto it = byKey_.find(rdf::termKey(term)); it != byKey_.end()) return it->second;
  return dataId(term);
}

std::optional<ValueId> TermCodec::dataId(std::string_view term) const {
  if (auto v = store_.dictionary().id(TermSpace::Vertex, term)) return fromVertex(*v);
  if (auto p = store_.graphs().canonicalPredicate(term)) return makeValueId(ValueSpace::Predicate, *p);
  return std::nullopt;
}

const std::vector<uint32_t>& TermCodec::predicateVertices() {
  if (!predicateVertices_) predicateVertices_ = predicateVertexIds(store_);
  return *predicateVertices_;
}

ValueId TermCodec::fromPredicate(uint32_t predicate) {
  const uint32_t vertex = predicateVertices().at(predicate);
  return vertex == kNoId ? makeValueId(ValueSpace::Predicate, store_.graphs().canonical(predicate)) : fromVertex(vertex);
}

ValueId TermCodec::freshBlankNode() {
  for (;;) {
    std::string term = "_:g" + std::to_string(blankCounter_++);
    if (byKey_.contains(term) || store_.dictionary().id(TermSpace::Vertex, term)) continue;
    return idOf(term);
  }
}

bool TermCodec::isQueryBlankNode(std::string_view term) {
  if (!term.starts_with("_:g") || term.size() == 3) return false;
  return std::all_of(term.begin() + 3, term.end(), [](char c) { return c >= '0' && c <= '9'; });
}

const std::string_view* TermCodec::cached(ValueId id) const {
  if (!denseVertices_.empty() && spaceOf(id) == ValueSpace::Vertex) {
    const uint32_t slot = denseVertices_[indexOf(id)];
    return slot == kNotDecoded ? nullptr : &views_[slot];
  }
  auto it = decodedIndex_.find(id);
  return it == decodedIndex_.end() ? nullptr : &views_[it->second];
}

void TermCodec::remember(ValueId id, std::string term) {
  const auto slot = static_cast<uint32_t>(decoded_.size());
  decoded_.push_back(std::move(term));
  views_.push_back(decoded_.back());
  if (!denseVertices_.empty() && spaceOf(id) == ValueSpace::Vertex) {
    denseVertices_[indexOf(id)] = slot;
  } else {
    decodedIndex_.emplace(id, slot);
  }
}

void TermCodec::indexVerticesDensely() {
  denseVertices_.assign(store_.catalog().vertexCount, kNotDecoded);
  for (auto it = decodedIndex_.begin(); it != decodedIndex_.end();) {
    if (spaceOf(it->first) != ValueSpace::Vertex) {
      ++it;
      continue;
    }
    denseVertices_[indexOf(it->first)] = it->second;
    it = decodedIndex_.erase(it);
  }
}

void TermCodec::expectDecoding(size_t cells) {
  // Large results: an array as long as the vertices pays for itself.
  if (termColumn_ == nullptr && denseVertices_.empty() && cells * 8 >= store_.catalog().vertexCount) indexVerticesDensely();
}

void TermCodec::prefetch(std::span<const ValueId> ids, std::span<const uint32_t> vertices) {
  expectDecoding(ids.size() + vertices.size());
  std::vector<uint32_t> missingVertices, missingPredicates;
  for (ValueId id : ids) {
    const ValueSpace space = spaceOf(id);
    if (space == ValueSpace::Vertex && termColumn_ != nullptr) continue;
    if ((space == ValueSpace::Vertex || space == ValueSpace::Predicate) && cached(id) == nullptr) {
      (space == ValueSpace::Vertex ? missingVertices : missingPredicates).push_back(indexOf(id));
    }
  }
  if (termColumn_ == nullptr) {
    for (uint32_t v : vertices) {
      if (cached(fromVertex(v)) == nullptr) missingVertices.push_back(v);
    }
  }
  decode(ValueSpace::Vertex, std::move(missingVertices));
  decode(ValueSpace::Predicate, std::move(missingPredicates));
}

void TermCodec::decode(ValueSpace space, std::vector<uint32_t> missing) {
  if (missing.empty()) return;
  std::sort(missing.begin(), missing.end());
  missing.erase(std::unique(missing.begin(), missing.end()), missing.end());
  if (space == ValueSpace::Predicate) {  // few, and in memory
    for (uint32_t p : missing) remember(makeValueId(space, p), store_.graphs().predicateTerm(p));
    return;
  }
  auto terms = store_.dictionary().terms(TermSpace::Vertex, missing);
  for (size_t i = 0; i < missing.size(); ++i) remember(makeValueId(space, missing[i]), std::move(terms[i]));
}

std::string_view TermCodec::term(ValueId id) {
  if (spaceOf(id) == ValueSpace::Local) return local_.at(indexOf(id));
  if (spaceOf(id) == ValueSpace::Vertex && termColumn_ != nullptr) return termColumn_->term(indexOf(id));
  if (const std::string_view* known = cached(id)) return *known;
  prefetch(std::span<const ValueId>(&id, 1));
  return *cached(id);
}

const rdf::TypedValue* TermCodec::typedValue(ValueId id) const {
  const ValueColumn* values = store_.values();
  if (values == nullptr || spaceOf(id) != ValueSpace::Vertex) return nullptr;
  return &values->at(indexOf(id));
}

std::optional<uint32_t> TermCodec::vertexOf(ValueId id) const {
  if (spaceOf(id) != ValueSpace::Vertex) return std::nullopt;
  return indexOf(id);
}

std::optional<uint32_t> TermCodec::predicateOf(ValueId id, uint32_t graph) {
  if (spaceOf(id) == ValueSpace::Local) return std::nullopt;
  return store_.graphs().predicate(graph, term(id));
}

}  // namespace gsparql::engine
