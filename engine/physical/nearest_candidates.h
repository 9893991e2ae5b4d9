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
// Where the planner could make them, `nearer` inputs are tried first, in
// turn: the same rows with ?g limited to the literals of least bounds (more
// in each), every other literal `cutoff` away at least, and ?g's values all
// indexed literals. When one's `wanted`-th value is below its cutoff, no
// row it left out can come first, and the whole input is never read. Where
// none is, `wider` plans more of them as they are needed, while the query
// runs, limited to more literals each: a FILTER that keeps few rows is
// answered without reading the whole input.
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
    double cutoff;
  };
  struct Wider {
    std::vector<size_t> counts;  // of the literals nearest, ascending
    // The input with ?g limited to `ids` (ascending); nullptr where it cannot be.
    std::function<OperatorPtr(const std::vector<uint32_t>& ids)> plan;
  };
  NearestCandidates(OperatorPtr child, std::vector<Nearer> nearer, Wider wider, const std::string& variable,
                    const sparql::Expr& key, std::string text, geo::NearestBounds bounds, uint64_t wanted);
  std::string describe() const override;
  std::vector<const Operator*> children() const override;

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext&) override { return cursor_.next(); }
  // Plans the next of `wider_`'s inputs into `nearer_`; false where none is left.
  bool planWider();
  // The rows of `rows` to keep, ascending, and the `wanted`-th least value
  // among them (infinity where there are fewer).
  std::pair<std::vector<size_t>, double> kept(const Table& rows, ExecutionContext& context) const;

  OperatorPtr child_;
  std::vector<Nearer> nearer_;
  Wider wider_;
  size_t widened_ = 0;  // of wider_.counts, planned or given up
  size_t column_;
  expr::Expression key_;
  std::string text_;
  geo::NearestBounds bounds_;
  uint64_t wanted_;
  BatchCursor cursor_;
};

}  // namespace gsparql::engine
