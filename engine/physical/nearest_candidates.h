#pragma once
// The rows that can be among the first `wanted` of ORDER BY
// geof:distance(?g, constant, unit) (docs/geosparql.md#k-nearest), in
// input order: the ORDER BY and LIMIT above then give the rows they give
// on all of them. Rows are tried nearest envelope first (geo::NearestBounds),
// each by the order key itself; once `wanted` of them are no farther than
// the next row's lower bound, no row left can come before them. A row whose
// literal the index lacks (unbound, ill-typed, empty, computed) has no
// bound: it is tried, and an error sorts first, as ORDER BY puts unbound first.
//
// Where the planner could make one, a `nearer` input is tried first: the
// same rows with ?g limited to the literals of least bounds, every other
// literal `cutoff` away at least, and ?g's values all indexed literals. When
// its `wanted`-th value is below its cutoff, no row it left out can come
// first, and the whole input is never read. Where it gives too few rows (a
// FILTER or the BGP's other patterns drop most), `wider` plans another while
// the query runs, limited to more of the nearest literals: as many as would
// give `wanted` rows at the rate the last one gave, and half again (the
// `wanted`-th must lie within the cutoff), at least twice as many, and 8
// times as many where it gave none; the whole input is read once that would
// be more than `wider.most`.
#include <functional>
#include <optional>
#include <vector>

#include "engine/expr/expression.h"
#include "engine/geo/nearest.h"
#include "engine/physical/operator.h"

namespace gsparql::engine {

class NearestCandidates final : public Operator {
 public:
  struct Nearer {
    OperatorPtr rows;
    size_t literals;  // ?g is limited to, the nearest
    double cutoff;    // the least bound of those left out
  };
  struct Wider {
    size_t most = 0;  // the literals a wider input may take
    // The input with ?g limited to `ids` (ascending); nullptr where it cannot be.
    std::function<OperatorPtr(const std::vector<uint32_t>& ids)> plan;
  };
  NearestCandidates(OperatorPtr child, std::optional<Nearer> nearer, Wider wider, const std::string& variable,
                    const sparql::Expr& key, std::string text, geo::NearestBounds bounds, uint64_t wanted);
  std::string describe() const override;
  std::vector<const Operator*> children() const override;

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext&) override { return cursor_.next(); }
  // Plans a wider input into `nearer_` after the last, which gave `rows` rows
  // (too few); false where it would take more than `wider_.most` literals.
  bool planWider(size_t rows);
  // The rows of `rows` to keep, ascending, and the `wanted`-th least value
  // among them (infinity where there are fewer).
  std::pair<std::vector<size_t>, double> kept(const Table& rows, ExecutionContext& context) const;

  OperatorPtr child_;
  std::vector<Nearer> nearer_;
  Wider wider_;
  size_t column_;
  expr::Expression key_;
  std::string text_;
  geo::NearestBounds bounds_;
  uint64_t wanted_;
  BatchCursor cursor_;
};

}  // namespace gsparql::engine
