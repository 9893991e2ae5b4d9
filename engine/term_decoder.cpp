#include "engine/term_decoder.h"

#include <algorithm>
#include <numeric>

#include "storage/dictionary.h"

namespace gsparql::engine {

void TermDecoder::Terms::prepare(uint32_t maxId, size_t cells) {
  if (cells * 8 >= maxId) dense_.assign(size_t{maxId} + 1, kAbsent);
}

const std::string* TermDecoder::Terms::find(uint32_t id) const {
  if (!dense_.empty()) return dense_[id] == kAbsent ? nullptr : &terms_[dense_[id]];
  auto it = sparse_.find(id);
  return it == sparse_.end() ? nullptr : &terms_[it->second];
}

void TermDecoder::Terms::add(uint32_t id, std::string term) {
  const auto slot = static_cast<uint32_t>(terms_.size());
  terms_.push_back(std::move(term));
  if (!dense_.empty()) {
    dense_[id] = slot;
  } else {
    sparse_.emplace(id, slot);
  }
}

TermDecoder::TermDecoder(const Dictionary& dictionary, const QueryOutcome& outcome)
    : dictionary_(dictionary), outcome_(outcome) {
  uint32_t maxVertex = 0, maxPredicate = 0;
  size_t vertexCells = 0, predicateCells = 0;
  for (uint32_t c = 0; c < outcome.kinds.size(); ++c) {
    bool vertex = outcome.kinds[c] == ColumnKind::Vertex;
    if (!vertex && outcome.kinds[c] != ColumnKind::Predicate) continue;
    for (size_t r = 0; r < outcome.rows.rows(); ++r) {
      (vertex ? maxVertex : maxPredicate) = std::max(vertex ? maxVertex : maxPredicate, outcome.rows.at(r, c));
    }
    (vertex ? vertexCells : predicateCells) += outcome.rows.rows();
  }
  if (vertexCells > 0) vertices_.prepare(maxVertex, vertexCells);
  if (predicateCells > 0) predicates_.prepare(maxPredicate, predicateCells);
}

void TermDecoder::fetch(size_t begin, size_t end, const std::vector<uint32_t>& columns) {
  for (ColumnKind kind : {ColumnKind::Vertex, ColumnKind::Predicate}) {
    Terms& known = termsOf(kind);
    std::vector<uint32_t> missing;
    for (size_t r = begin; r < end; ++r) {
      for (uint32_t c : columns) {
        if (outcome_.kinds[c] == kind && known.find(outcome_.rows.at(r, c)) == nullptr) {
          missing.push_back(outcome_.rows.at(r, c));
        }
      }
    }
    if (missing.empty()) continue;
    std::sort(missing.begin(), missing.end());
    missing.erase(std::unique(missing.begin(), missing.end()), missing.end());
    auto terms = dictionary_.terms(kind == ColumnKind::Vertex ? TermSpace::Vertex : TermSpace::Predicate, missing);
    for (size_t i = 0; i < missing.size(); ++i) known.add(missing[i], std::move(terms[i]));
  }
}

std::optional<std::string_view> TermDecoder::cell(size_t row, uint32_t column) const {
  uint32_t id = outcome_.rows.at(row, column);
  switch (outcome_.kinds[column]) {
    case ColumnKind::Vertex: return *vertices_.find(id);
    case ColumnKind::Predicate: return *predicates_.find(id);
    case ColumnKind::Computed: return outcome_.computed.at(id);
    case ColumnKind::Unbound: return std::nullopt;
  }
  return std::nullopt;
}

void TermDecoder::decode(size_t begin, size_t end, std::vector<std::optional<std::string_view>>& cells) {
  std::vector<uint32_t> all(outcome_.rows.width());
  std::iota(all.begin(), all.end(), 0u);
  fetch(begin, end, all);
  cells.clear();
  for (size_t r = begin; r < end; ++r) {
    for (uint32_t c : all) cells.push_back(cell(r, c));
  }
}

std::vector<std::optional<std::string_view>> TermDecoder::column(uint32_t c) {
  fetch(0, outcome_.rows.rows(), {c});
  std::vector<std::optional<std::string_view>> out;
  out.reserve(outcome_.rows.rows());
  for (size_t r = 0; r < outcome_.rows.rows(); ++r) out.push_back(cell(r, c));
  return out;
}

}  // namespace gsparql::engine
