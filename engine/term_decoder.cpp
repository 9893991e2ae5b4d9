#include "engine/term_decoder.h"

#include <numeric>

#include "storage/dictionary.h"

namespace gsparql::engine {

void TermDecoder::fetch(size_t begin, size_t end, const std::vector<uint32_t>& columns) {
  std::vector<uint32_t> missingVertices, missingPredicates;
  for (size_t r = begin; r < end; ++r) {
    for (uint32_t c : columns) {
      uint32_t id = outcome_.rows.at(r, c);
      if (outcome_.kinds[c] == ColumnKind::Vertex && !vertices_.count(id)) {
        vertices_[id];
        missingVertices.push_back(id);
      } else if (outcome_.kinds[c] == ColumnKind::Predicate && !predicates_.count(id)) {
        predicates_[id];
        missingPredicates.push_back(id);
      }
    }
  }
  auto fill = [&](TermSpace space, const std::vector<uint32_t>& ids, auto& cache) {
    if (ids.empty()) return;
    auto terms = dictionary_.terms(space, ids);
    for (size_t i = 0; i < ids.size(); ++i) cache[ids[i]] = std::move(terms[i]);
  };
  fill(TermSpace::Vertex, missingVertices, vertices_);
  fill(TermSpace::Predicate, missingPredicates, predicates_);
}

std::optional<std::string_view> TermDecoder::cell(size_t row, uint32_t column) const {
  uint32_t id = outcome_.rows.at(row, column);
  switch (outcome_.kinds[column]) {
    case ColumnKind::Vertex: return vertices_.at(id);
    case ColumnKind::Predicate: return predicates_.at(id);
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
