#include "engine/solution_modifiers.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <unordered_set>

#include "engine/term_decoder.h"
#include "engine/term_order.h"
#include "rdf/term.h"

namespace gsparql::engine {
namespace {

std::optional<uint32_t> columnOf(const QueryOutcome& outcome, const std::string& variable) {
  auto it = std::find(outcome.variables.begin(), outcome.variables.end(), variable);
  if (it == outcome.variables.end()) return std::nullopt;
  return static_cast<uint32_t>(it - outcome.variables.begin());
}

IdTable selectRows(const IdTable& table, const std::vector<size_t>& rows) {
  IdTable out(table.width());
  out.reserveRows(rows.size());
  for (size_t r : rows) out.appendRow(table.row(r));
  if (table.width() == 0) out.setZeroWidthRows(rows.size());
  return out;
}

struct RowHash {
  size_t operator()(std::span<const uint32_t> row) const {
    size_t h = 0;
    for (uint32_t v : row) h = h * 1000003u ^ v;
    return h;
  }
};

struct RowEqual {
  bool operator()(std::span<const uint32_t> a, std::span<const uint32_t> b) const {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
};

}  // namespace

std::string columnName(const BoundBgp& bgp, uint32_t column) {
  if (column >= bgp.vertices.size()) return bgp.predicateVariables[column - bgp.vertices.size()];
  const BoundVertex& v = bgp.vertices[column];
  return v.isBlank ? "_:" + v.name : v.name;
}

QueryOutcome bgpOutcome(const BoundBgp& bgp, IdTable table, const std::vector<uint32_t>& columns) {
  QueryOutcome out;
  for (uint32_t c : columns) {
    out.variables.push_back(columnName(bgp, c));
    out.kinds.push_back(c < bgp.vertices.size() ? ColumnKind::Vertex : ColumnKind::Predicate);
  }
  out.rows = std::move(table);
  return out;
}

void orderBy(QueryOutcome& outcome, const std::vector<SortKey>& keys, const Dictionary& dictionary) {
  TermDecoder decoder(dictionary, outcome);
  std::vector<std::vector<std::optional<std::string_view>>> columns;
  std::vector<bool> descending;
  for (const auto& key : keys) {
    auto c = columnOf(outcome, key.variable);
    if (!c) continue;  // never bound: every row ties
    columns.push_back(decoder.column(*c));
    descending.push_back(key.descending);
  }
  std::vector<size_t> order(outcome.rows.rows());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    for (size_t k = 0; k < columns.size(); ++k) {
      int c = compareTerms(columns[k][a], columns[k][b]);
      if (c != 0) return descending[k] ? c > 0 : c < 0;
    }
    return false;
  });
  outcome.rows = selectRows(outcome.rows, order);
}

QueryOutcome project(QueryOutcome outcome, const std::vector<std::string>& variables) {
  if (outcome.variables == variables) return outcome;  // the executor already gave these columns
  QueryOutcome out;
  std::vector<std::optional<uint32_t>> sources;
  for (const auto& v : variables) {
    auto c = columnOf(outcome, v);
    sources.push_back(c);
    out.variables.push_back(v);
    out.kinds.push_back(c ? outcome.kinds[*c] : ColumnKind::Unbound);
  }
  const size_t rows = outcome.rows.rows(), width = variables.size(), inWidth = outcome.rows.width();
  out.rows = IdTable(static_cast<uint32_t>(width));
  std::vector<uint32_t>& data = out.rows.data();
  data.resize(rows * width);
  const uint32_t* in = outcome.rows.data().data();
  for (size_t i = 0; i < width; ++i) {
    for (size_t r = 0; r < rows; ++r) data[r * width + i] = sources[i] ? in[r * inWidth + *sources[i]] : kNoId;
  }
  if (variables.empty()) out.rows.setZeroWidthRows(outcome.rows.rows());
  out.computed = outcome.computed;
  return out;
}

void keepFirstOfEachRow(QueryOutcome& outcome) {
  std::unordered_set<std::span<const uint32_t>, RowHash, RowEqual> seen;
  std::vector<size_t> keep;
  for (size_t r = 0; r < outcome.rows.rows(); ++r) {
    if (seen.insert(outcome.rows.row(r)).second) keep.push_back(r);
  }
  if (outcome.rows.width() == 0 && outcome.rows.rows() > 0) keep = {0};
  outcome.rows = selectRows(outcome.rows, keep);
}

void slice(QueryOutcome& outcome, uint64_t offset, std::optional<uint64_t> limit) {
  const size_t total = outcome.rows.rows();
  const size_t begin = std::min<uint64_t>(offset, total);
  const size_t end = limit ? std::min<uint64_t>(total, begin + *limit) : total;
  std::vector<size_t> keep(end - begin);
  std::iota(keep.begin(), keep.end(), begin);
  outcome.rows = selectRows(outcome.rows, keep);
}

QueryOutcome count(const QueryOutcome& outcome, const CountAggregate& aggregate) {
  uint64_t n = outcome.rows.rows();
  if (aggregate.argument) {
    auto c = columnOf(outcome, *aggregate.argument);
    if (!c) {
      n = 0;
    } else if (aggregate.distinct) {
      std::set<uint32_t> values;
      for (size_t r = 0; r < outcome.rows.rows(); ++r) values.insert(outcome.rows.at(r, *c));
      n = values.size();
    }
  } else if (aggregate.distinct) {
    QueryOutcome named = project(outcome, [&] {
      std::vector<std::string> names;
      for (const auto& v : outcome.variables) {
        if (!v.starts_with("_:")) names.push_back(v);
      }
      return names;
    }());
    keepFirstOfEachRow(named);
    n = named.rows.rows();
  }
  QueryOutcome out;
  out.variables = {aggregate.resultVariable};
  out.kinds = {ColumnKind::Computed};
  out.computed = {rdf::literalTerm(std::to_string(n), {}, "http://www.w3.org/2001/XMLSchema#integer")};
  out.rows = IdTable(1);
  out.rows.appendRow(std::vector<uint32_t>{0});
  return out;
}

}  // namespace gsparql::engine
