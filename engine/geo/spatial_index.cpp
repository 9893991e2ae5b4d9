#include "engine/geo/spatial_index.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <list>
#include <mutex>
#include <queue>

#include "engine/geo/geometry.h"
#include "engine/geo/geos_library.h"
#include "engine/geo/operations.h"

namespace gsparql::engine::geo {

std::optional<Box> boxOfTerm(std::string_view term) {
  std::optional<Geometry> g = readTerm(term);
  if (!g || geos().GEOSisEmpty_r(context(), g->get()) == 1) return std::nullopt;
  return boxOfGeometry(g->get());
}

SpatialIndex::SpatialIndex(const std::function<void(const Visit&)>& forEachTerm) {
  std::vector<uint32_t> points;
  forEachTerm([&](uint32_t id, std::string_view term) {
    // An ill-typed literal makes every spatial function an error, and an
    // empty geometry meets nothing: no filter keeps either.
    std::optional<Geometry> g = readTerm(term);
    if (!g || geos().GEOSisEmpty_r(context(), g->get()) == 1) return;
    boxes_.emplace_back(id, boxOfGeometry(g->get()));
    if (geos().GEOSGeomTypeId_r(context(), g->get()) == GEOS_POINT) points.push_back(id);
  });
  std::sort(boxes_.begin(), boxes_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::sort(points.begin(), points.end());
  isPoint_.resize(boxes_.size());
  for (size_t i = 0, p = 0; i < boxes_.size() && p < points.size(); ++i) {
    if (boxes_[i].first != points[p]) continue;
    isPoint_[i] = true;
    ++p;
  }
  indexPositions();
  packLevels();
}

SpatialIndex::~SpatialIndex() = default;

namespace {

constexpr size_t kFanout = 16;

Box unite(const Box& a, const Box& b) {
  return {std::min(a.minX, b.minX), std::min(a.minY, b.minY), std::max(a.maxX, b.maxX), std::max(a.maxY, b.maxY)};
}

// Sort-tile-recursive packing (Leutenegger et al. 1997): the order of
// `boxes` that puts each tile of kFanout neighbours together: vertical
// slices by centre x, each sorted by centre y.
std::vector<uint32_t> tileOrder(const std::vector<Box>& boxes) {
  std::vector<uint32_t> order(boxes.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto centre = [&](uint32_t i, bool y) {
    return y ? boxes[i].minY + boxes[i].maxY : boxes[i].minX + boxes[i].maxX;
  };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return centre(a, false) < centre(b, false); });
  const auto tiles = static_cast<size_t>(std::ceil(static_cast<double>(boxes.size()) / kFanout));
  const size_t slice = kFanout * static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(tiles))));
  for (size_t begin = 0; begin < order.size(); begin += slice) {
    const auto end = order.begin() + static_cast<std::ptrdiff_t>(std::min(order.size(), begin + slice));
    std::sort(order.begin() + static_cast<std::ptrdiff_t>(begin), end,
              [&](uint32_t a, uint32_t b) { return centre(a, true) < centre(b, true); });
  }
  return order;
}

// One level up: a node per kFanout consecutive boxes.
template <typename Node>
std::vector<Node> nodesOver(const std::vector<Box>& ordered) {
  std::vector<Node> nodes;
  for (size_t begin = 0; begin < ordered.size(); begin += kFanout) {
    const size_t end = std::min(ordered.size(), begin + kFanout);
    Node node{ordered[begin], static_cast<uint32_t>(begin), static_cast<uint32_t>(end)};
    for (size_t i = begin + 1; i < end; ++i) node.box = unite(node.box, ordered[i]);
    nodes.push_back(node);
  }
  return nodes;
}

}  // namespace

void SpatialIndex::packLevels() {
  std::vector<Box> boxes;
  for (const auto& entry : boxes_) boxes.push_back(entry.second);
  leafOrder_ = tileOrder(boxes);
  std::vector<Box> ordered;
  for (uint32_t i : leafOrder_) ordered.push_back(boxes[i]);
  while (ordered.size() > kFanout) {
    std::vector<Node> level = nodesOver<Node>(ordered);
    // The nodes tiled in turn, so that the level above groups neighbours.
    std::vector<Box> nodeBoxes;
    for (const Node& n : level) nodeBoxes.push_back(n.box);
    std::vector<Node> tiled;
    ordered.clear();
    for (uint32_t i : tileOrder(nodeBoxes)) tiled.push_back(level[i]), ordered.push_back(level[i].box);
    levels_.push_back(std::move(tiled));
  }
  if (levels_.empty() || levels_.back().size() > 1) levels_.push_back(nodesOver<Node>(ordered));
}

std::pair<std::vector<uint32_t>, double> SpatialIndex::leastBounded(size_t count, const Bound& bound) const {
  const size_t counts[] = {count};
  return std::move(leastBounded(counts, bound).front());
}

std::vector<std::pair<std::vector<uint32_t>, double>> SpatialIndex::leastBounded(std::span<const size_t> counts,
                                                                                 const Bound& bound) const {
  struct Entry {
    double bound;
    size_t level;  // levels_.size() for a literal
    uint32_t index;
    bool operator>(const Entry& other) const { return bound > other.bound; }
  };
  const size_t literal = levels_.size();
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  const auto pushChildren = [&](size_t level, uint32_t begin, uint32_t end) {
    for (uint32_t i = begin; i < end; ++i) {
      queue.push(level == literal ? Entry{bound(boxes_[leafOrder_[i]].second), literal, i}
                                  : Entry{bound(levels_[level][i].box), level, i});
    }
  };
  pushChildren(levels_.size() - 1, 0, static_cast<uint32_t>(levels_.back().size()));
  std::vector<std::pair<std::vector<uint32_t>, double>> sets;
  std::vector<uint32_t> ids;  // in the order of their bounds
  const auto take = [&](double next) {
    std::vector<uint32_t> set(ids);
    std::sort(set.begin(), set.end());
    sets.emplace_back(std::move(set), next);
  };
  while (sets.size() < counts.size()) {
    if (queue.empty()) {
      take(std::numeric_limits<double>::infinity());
      continue;
    }
    const Entry top = queue.top();
    if (top.level == literal && ids.size() == counts[sets.size()]) {
      take(top.bound);
      continue;
    }
    queue.pop();
    if (top.level == literal) {
      ids.push_back(boxes_[leafOrder_[top.index]].first);
    } else {
      const Node& node = levels_[top.level][top.index];
      pushChildren(top.level == 0 ? literal : top.level - 1, node.begin, node.end);
    }
  }
  return sets;
}

std::vector<uint32_t> SpatialIndex::candidates(const Box& box) const {
  const auto meets = [&](const Box& b) {
    return b.minX <= box.maxX && box.minX <= b.maxX && b.minY <= box.maxY && box.minY <= b.maxY;
  };
  std::vector<uint32_t> out;
  std::vector<std::pair<size_t, uint32_t>> todo;  // (level, node)
  for (uint32_t i = 0; i < levels_.back().size(); ++i) todo.emplace_back(levels_.size() - 1, i);
  while (!todo.empty()) {
    const auto [level, index] = todo.back();
    todo.pop_back();
    const Node& node = levels_[level][index];
    if (!meets(node.box)) continue;
    for (uint32_t i = node.begin; i < node.end; ++i) {
      if (level > 0) {
        todo.emplace_back(level - 1, i);
      } else if (const auto& [id, b] = boxes_[leafOrder_[i]]; meets(b)) {
        out.push_back(id);
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A table by id where it takes little more room than the envelopes: a
// join probes an envelope per row, and a binary search over millions of
// them was most of a large join's time.
void SpatialIndex::indexPositions() {
  constexpr size_t kMostSlotsPerEnvelope = 16;
  if (boxes_.empty() || boxes_.back().first / kMostSlotsPerEnvelope >= boxes_.size()) return;
  positionOf_.assign(size_t{boxes_.back().first} + 1, kAbsent);
  for (uint32_t i = 0; i < boxes_.size(); ++i) positionOf_[boxes_[i].first] = i;
}

std::optional<uint32_t> SpatialIndex::position(uint32_t id) const {
  if (!positionOf_.empty() || boxes_.empty()) {
    if (id >= positionOf_.size() || positionOf_[id] == kAbsent) return std::nullopt;
    return positionOf_[id];
  }
  auto it = std::lower_bound(boxes_.begin(), boxes_.end(), id, [](const auto& e, uint32_t v) { return e.first < v; });
  if (it == boxes_.end() || it->first != id) return std::nullopt;
  return static_cast<uint32_t>(it - boxes_.begin());
}

std::optional<Box> SpatialIndex::box(uint32_t id) const {
  const std::optional<uint32_t> at = position(id);
  if (!at) return std::nullopt;
  return boxes_[*at].second;
}

std::optional<StoredEnvelope> SpatialIndex::envelope(uint32_t id) const {
  const std::optional<uint32_t> at = position(id);
  if (!at) return std::nullopt;
  return StoredEnvelope{boxes_[*at].second, isPoint_[*at]};
}

bool SpatialIndex::holdsAll(std::span<const uint32_t> ids) const {
  auto held = boxes_.begin();
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i > 0 && ids[i] <= ids[i - 1]) return false;  // not ascending: not known
    while (held != boxes_.end() && held->first < ids[i]) ++held;
    if (held == boxes_.end() || held->first != ids[i]) return false;
  }
  return true;
}

std::shared_ptr<const SpatialIndex> spatialIndex(const std::string& key,
                                                 const std::function<void(const SpatialIndex::Visit&)>& forEachTerm) {
  constexpr size_t kKept = 4;
  // Never destroyed: a thread may still plan a query while the process exits.
  static std::mutex& mutex = *new std::mutex;
  static auto& kept = *new std::list<std::pair<std::string, std::shared_ptr<const SpatialIndex>>>;  // most recent first
  std::lock_guard lock(mutex);
  auto it = std::find_if(kept.begin(), kept.end(), [&](const auto& e) { return e.first == key; });
  if (it != kept.end()) {
    kept.splice(kept.begin(), kept, it);
    return kept.front().second;
  }
  kept.emplace_front(key, std::make_shared<const SpatialIndex>(forEachTerm));
  if (kept.size() > kKept) kept.pop_back();
  return kept.front().second;
}

bool impliesIntersection(std::string_view functionIri) {
  constexpr std::string_view kGeof = "<http://www.opengis.net/def/function/geosparql/";
  if (!functionIri.starts_with(kGeof) || !functionIri.ends_with('>')) return false;
  const Relation* r = findRelation(functionIri.substr(kGeof.size(), functionIri.size() - kGeof.size() - 1));
  if (!r || r->name == "sfDisjoint") return false;
  if (r->predicate) return true;  // sfEquals, sfIntersects, sfTouches, ...: each needs a common point
  // A T where an interior or boundary meets an interior or boundary.
  return r->pattern[0] == 'T' || r->pattern[1] == 'T' || r->pattern[3] == 'T' || r->pattern[4] == 'T';
}

}  // namespace gsparql::engine::geo
