#include "engine/physical/spatial_join.h"

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <unordered_map>

#include "engine/geo/host_point_locator.h"
#include "engine/geo/point_locator.h"

namespace gsparql::engine {
namespace {

std::vector<std::string> concatenated(const Operator& left, const Operator& right) {
  std::vector<std::string> names = left.variables();
  names.insert(names.end(), right.variables().begin(), right.variables().end());
  return names;
}

const std::string& variableOf(const sparql::Expr& argument) {
  if (argument.kind != sparql::Expr::Kind::Term || argument.term.kind != sparql::Term::Kind::Variable) {
    throw std::logic_error("SpatialJoin: an argument that is not a variable");
  }
  return argument.term.value;
}

// A probe batch with fewer points than this is placed by GEOS alone: below,
// a trip to the device (or the host's threads) costs more than it saves.
constexpr size_t kLocateAtLeast = 1024;

}  // namespace

SpatialJoin::SpatialJoin(OperatorPtr left, OperatorPtr right, const sparql::Expr& condition, std::string text,
                         StoredEnvelope stored, double rows, double cost)
    : Operator(concatenated(*left, *right), rows, cost), left_(std::move(left)), right_(std::move(right)),
      text_(std::move(text)), functionIri_(condition.name), stored_(std::move(stored)),
      indexLeft_(left_->estimatedRows() <= right_->estimatedRows()) {
  const Operator& indexed = indexLeft_ ? *left_ : *right_;
  const Operator& probe = indexLeft_ ? *right_ : *left_;
  const std::string& first = variableOf(condition.args.at(0));
  const std::string& second = variableOf(condition.args.at(1));
  indexedFirst_ = indexed.columnOf(first).has_value();
  const auto indexedColumn = indexed.columnOf(indexedFirst_ ? first : second);
  const auto probeColumn = probe.columnOf(indexedFirst_ ? second : first);
  if (!indexedColumn || !probeColumn) throw std::logic_error("SpatialJoin: a variable its inputs do not bind");
  indexedColumn_ = *indexedColumn;
  probeColumn_ = *probeColumn;
}

std::string SpatialJoin::describe() const {
  std::string text = "SpatialJoin " + text_ + " (the " + (indexLeft_ ? "left" : "right") + " input indexed";
  if (locatedPoints_ > 0) {
    char took[32];
    std::snprintf(took, sizeof took, "%.3g ms", locateMilliseconds_);
    text += "; " + std::to_string(locatedPoints_) + " points located " +
            (locatedOnDevice_ ? "on the executor's device" : "on the host's cores") + " in " + took + ", " +
            std::to_string(undecidedPairs_) + " pairs left to GEOS";
  }
  return text + ")";
}

void SpatialJoin::openImpl(ExecutionContext& context) {
  (indexLeft_ ? right_ : left_)->open(context);
  indexed_ = runToEnd(indexLeft_ ? *left_ : *right_, context);  // opens it
  matcher_.emplace(functionIri_, indexedFirst_);
  rowsOfItem_.clear();
  matches_ = {};
  probe_.reset();
  probeRow_ = 0;
  pointOfRow_.clear();
  locatedPoints_ = undecidedPairs_ = 0;
  locateMilliseconds_ = 0;
  // One item per distinct term: a geometry shared by many rows is read and indexed once.
  std::unordered_map<ValueId, uint32_t> itemOf;
  for (size_t r = 0; r < indexed_.rows; ++r) {
    const ValueId id = indexed_.at(r, indexedColumn_);
    if (!isBound(id)) continue;
    auto [it, added] = itemOf.try_emplace(id, static_cast<uint32_t>(rowsOfItem_.size()));
    if (added) {
      if (!matcher_->add(it->second, context.terms.term(id))) {
        it->second = UINT32_MAX;  // no geometry: in no pair
        continue;
      }
      rowsOfItem_.emplace_back();
    }
    if (it->second != UINT32_MAX) rowsOfItem_[it->second].push_back(r);
  }
  locator_.reset();
  if (std::optional<geo::RingSet> shapes = matcher_->pointShapes()) {
    locator_ = context.bgpExecutor.pointLocator(*shapes);
    locatedOnDevice_ = locator_ != nullptr;
    if (!locator_) locator_ = geo::makeHostPointLocator(*shapes);
  }
}

SpatialJoin::BatchPoints SpatialJoin::batchPoints() {
  // A point per row whose value the spatial index knows as a point (a value
  // repeated is located again: cheaper than finding the repeats).
  BatchPoints points;
  pointOfRow_.assign(probe_->rows, kNotLocated);
  for (size_t r = 0; r < probe_->rows; ++r) {
    const ValueId id = probe_->at(r, probeColumn_);
    if (!isBound(id) || spaceOf(id) != ValueSpace::Vertex) continue;
    const std::optional<geo::StoredEnvelope> stored = stored_(indexOf(id));
    if (!stored || !stored->point) continue;
    pointOfRow_[r] = static_cast<uint32_t>(points.values.size());
    points.x.push_back(stored->box.minX);
    points.y.push_back(stored->box.minY);
    points.values.push_back(id);
  }
  return points;
}

void SpatialJoin::locateBatch(ExecutionContext& context) {
  const BatchPoints points = batchPoints();
  std::optional<std::vector<geo::PlacedPoint>> placed;
  if (points.values.size() >= kLocateAtLeast) placed = locate(points);
  if (!placed) {  // GEOS places them all
    pointOfRow_.assign(probe_->rows, kNotLocated);
    return;
  }
  keepMatches(points.values, *placed, context);
  locatedPoints_ += points.values.size();
}

std::optional<std::vector<geo::PlacedPoint>> SpatialJoin::locate(const BatchPoints& points) {
  try {
    const auto start = std::chrono::steady_clock::now();
    std::vector<geo::PlacedPoint> placed = locator_->locate(points.x, points.y);
    locateMilliseconds_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return placed;
  } catch (const ExecutorDeclined&) {  // no room on its device, for this batch or the next
    locator_.reset();
    return std::nullopt;
  }
}

void SpatialJoin::keepMatches(const std::vector<ValueId>& values, const std::vector<geo::PlacedPoint>& placed,
                              ExecutionContext& context) {
  matchStarts_.assign(1, 0);
  pointMatches_.clear();
  size_t next = 0;
  for (uint32_t p = 0; p < values.size(); ++p) {
    for (; next < placed.size() && placed[next].point == p; ++next) {
      const geo::PlacedPoint& pair = placed[next];
      if (pair.place == geo::PointPlace::Undecided) ++undecidedPairs_;
      if (matcher_->holdsForPoint(pair.shape, pair.place, [&] { return context.terms.term(values[p]); })) {
        pointMatches_.push_back(matcher_->itemOfShape(pair.shape));
      }
    }
    matchStarts_.push_back(static_cast<uint32_t>(pointMatches_.size()));
  }
}

std::span<const uint32_t> SpatialJoin::matchesOf(size_t probeRow, ExecutionContext& context) {
  if (probeRow < pointOfRow_.size() && pointOfRow_[probeRow] != kNotLocated) {
    const uint32_t p = pointOfRow_[probeRow];
    return std::span<const uint32_t>(pointMatches_).subspan(matchStarts_[p], matchStarts_[p + 1] - matchStarts_[p]);
  }
  const ValueId probe = probe_->at(probeRow, probeColumn_);
  if (const std::vector<uint32_t>* known = matches_.find(probe)) return *known;
  probed_.clear();
  const std::optional<geo::StoredEnvelope> stored =
      spaceOf(probe) == ValueSpace::Vertex ? stored_(indexOf(probe)) : std::nullopt;
  if (!stored || matcher_->mayMatch(stored->box)) {
    matcher_->probe(context.terms.term(probe), [&](uint32_t item) { probed_.push_back(item); });
  }
  const std::vector<uint32_t>* kept = matches_.remember(probe, probed_);
  return kept ? *kept : probed_;
}

void SpatialJoin::appendPairs(size_t probeRow, Table& out, ExecutionContext& context) {
  const ValueId id = probe_->at(probeRow, probeColumn_);
  if (!isBound(id)) return;
  const Table& left = indexLeft_ ? indexed_ : *probe_;
  const Table& right = indexLeft_ ? *probe_ : indexed_;
  for (uint32_t item : matchesOf(probeRow, context)) {
    for (size_t r : rowsOfItem_[item]) {
      const size_t l = indexLeft_ ? r : probeRow, k = indexLeft_ ? probeRow : r;
      for (size_t c = 0; c < left.width(); ++c) out.columns[c].push_back(left.columns[c][l]);
      for (size_t c = 0; c < right.width(); ++c) out.columns[left.width() + c].push_back(right.columns[c][k]);
      ++out.rows;
    }
  }
}

std::optional<Table> SpatialJoin::nextImpl(ExecutionContext& context) {
  Operator& probe = indexLeft_ ? *right_ : *left_;
  StopCheck stop(context.run.limits);
  Table out(variables().size());
  while (out.rows < kBatchRows) {
    if (!probe_ || probeRow_ == probe_->rows) {
      probe_ = probe.next(context);
      probeRow_ = 0;
      if (!probe_) break;
      pointOfRow_.clear();
      if (locator_) locateBatch(context);
      continue;
    }
    stop();
    appendPairs(probeRow_++, out, context);
  }
  if (out.rows == 0) return std::nullopt;
  return out;
}

}  // namespace gsparql::engine
