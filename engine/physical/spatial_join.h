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
// Where the indexed geometries are polygons and the relation is decided by
// where a point lies, a probe batch's points (as the spatial index knows
// them) are placed in bulk by the query's executor's device where it has
// one (Executor::pointLocator: the GPU's), else on the host's cores
// (geo/host_point_locator.h), GEOS deciding only the pairs left undecided;
// the rows are the same, in the same order (a probe row's matches in the
// order of the indexed terms).
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "engine/expr/expression_memo.h"
#include "engine/geo/spatial_index.h"
#include "engine/geo/spatial_matcher.h"
#include "engine/physical/operator.h"
#include "parser/algebra.h"

namespace gsparql::engine {

class SpatialJoin final : public Operator {
 public:
  // `condition`: the relation's call, one argument a variable of `left`,
  // the other of `right`; its rows are left's variables then right's.
  // The envelope of a vertex's literal, where the store's spatial index has one.
  using StoredEnvelope = std::function<std::optional<geo::StoredEnvelope>(uint32_t vertex)>;
  SpatialJoin(OperatorPtr left, OperatorPtr right, const sparql::Expr& condition, std::string text,
              StoredEnvelope stored, double rows, double cost);
  std::string describe() const override;
  std::vector<const Operator*> children() const override { return {left_.get(), right_.get()}; }

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;
  // The items (distinct terms of the indexed input) in the relation with a probe row's value.
  std::span<const uint32_t> matchesOf(size_t probeRow, ExecutionContext& context);
  void appendPairs(size_t probeRow, Table& out, ExecutionContext& context);
  // The matches of the probe batch's points, placed by locator_.
  void locateBatch(ExecutionContext& context);
  struct BatchPoints {
    std::vector<double> x, y;
    std::vector<ValueId> values;
  };
  BatchPoints batchPoints();  // and pointOfRow_
  // locator_'s places, or nullopt where its device has no room (it is dropped).
  std::optional<std::vector<geo::PlacedPoint>> locate(const BatchPoints& points);
  // Each point's matches from its places (GEOS deciding the undecided), in pointMatches_.
  void keepMatches(const std::vector<ValueId>& values, const std::vector<geo::PlacedPoint>& placed,
                   ExecutionContext& context);

  OperatorPtr left_, right_;
  std::string text_;
  std::string functionIri_;
  StoredEnvelope stored_;
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
  // The batch's located points: the point of each probe row (kNotLocated:
  // none), and each point's matches, items ascending.
  static constexpr uint32_t kNotLocated = UINT32_MAX;
  std::shared_ptr<geo::PointLocator> locator_;
  std::vector<uint32_t> pointOfRow_;
  std::vector<uint32_t> matchStarts_, pointMatches_;
  size_t locatedPoints_ = 0, undecidedPairs_ = 0;  // for EXPLAIN
  bool locatedOnDevice_ = false;                    // by the executor's locator, not the host's
  double locateMilliseconds_ = 0;                  // in the locator's calls, copies included
};

}  // namespace gsparql::engine
