#pragma once
// A join of two inputs that share no variable, on a geof: relation that
// needs a common point between a variable of each (sfWithin(?a, ?b), ...;
// docs/geosparql.md#spatial-joins): the rows of the FILTER over their cross
// product, without forming it. The smaller input is collected and its
// geometries indexed (geo::SpatialMatcher: an STRtree of envelopes, the
// exact relation after); each row of the other input meets the rows whose
// geometries stand in the relation with its own. Rows where either variable
// is unbound, or no geometry, are in no pair: the function is an error there.
// A probe value whose envelope the store's spatial index holds is tested on
// that envelope before its term is read (most points of a map are far from
// one country).
#include <functional>
#include <optional>
#include <vector>

#include "engine/expr/expression_memo.h"
#include "engine/geo/spatial_matcher.h"
#include "engine/physical/operator.h"
#include "parser/algebra.h"

namespace gsparql::engine {

class SpatialJoin final : public Operator {
 public:
  // `condition`: the relation's call, one argument a variable of `left`,
  // the other of `right`; its rows are left's variables then right's.
  // The envelope of a vertex's literal, where the store's spatial index has one.
  using StoredBox = std::function<std::optional<geo::Box>(uint32_t vertex)>;
  SpatialJoin(OperatorPtr left, OperatorPtr right, const sparql::Expr& condition, std::string text, StoredBox stored,
              double rows, double cost);
  std::string describe() const override;
  std::vector<const Operator*> children() const override { return {left_.get(), right_.get()}; }

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;
  // The items (distinct terms of the indexed input) in the relation with a probe row's value.
  const std::vector<uint32_t>& matchesOf(ValueId probe, ExecutionContext& context);
  void appendPairs(size_t probeRow, Table& out, ExecutionContext& context);

  OperatorPtr left_, right_;
  std::string text_;
  std::string functionIri_;
  StoredBox stored_;
  bool indexLeft_;                // the left input is collected and indexed
  size_t indexedColumn_ = 0, probeColumn_ = 0;
  bool indexedFirst_ = false;     // the indexed variable is the relation's first argument
  std::optional<geo::SpatialMatcher> matcher_;
  Table indexed_;
  std::vector<std::vector<size_t>> rowsOfItem_;  // an item's rows in indexed_
  // By probe value, so that a term repeated on the probe side is probed
  // once; bounded, and given up on mostly distinct terms (expr::KeyedValues).
  expr::KeyedValues<std::vector<uint32_t>> matches_;
  std::vector<uint32_t> probed_;  // the matches of a term not kept
  std::optional<Table> probe_;
  size_t probeRow_ = 0;
};

}  // namespace gsparql::engine
