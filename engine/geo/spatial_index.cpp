#include "engine/geo/spatial_index.h"

#include <algorithm>
#include <list>
#include <mutex>

#include "engine/geo/geometry.h"
#include "engine/geo/operations.h"

namespace gsparql::engine::geo {

std::optional<Box> boxOfTerm(std::string_view term) {
  std::optional<Geometry> g = readTerm(term);
  if (!g || GEOSisEmpty_r(context(), g->get()) == 1) return std::nullopt;
  return boxOfGeometry(g->get());
}

namespace {

GeometryPtr rectangle(const Box& b) {
  return own(GEOSGeom_createRectangle_r(context(), b.minX, b.minY, b.maxX, b.maxY));
}

}  // namespace

// GEOS's STRtree of the envelopes, each item its literal's id.
struct SpatialIndex::Tree {
  GEOSSTRtree* tree = GEOSSTRtree_create_r(context(), 10);
  std::vector<GeometryPtr> envelopes;  // the tree points into them
  Tree() = default;
  Tree(const Tree&) = delete;
  Tree& operator=(const Tree&) = delete;
  ~Tree() { GEOSSTRtree_destroy_r(context(), tree); }
};

SpatialIndex::SpatialIndex(const std::function<void(const Visit&)>& forEachTerm) : tree_(std::make_unique<Tree>()) {
  forEachTerm([&](uint32_t id, std::string_view term) {
    // An ill-typed literal makes every spatial function an error, and an
    // empty geometry meets nothing: no filter keeps either.
    if (std::optional<Box> b = boxOfTerm(term)) boxes_.emplace_back(id, *b);
  });
  std::sort(boxes_.begin(), boxes_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [id, b] : boxes_) {
    tree_->envelopes.push_back(rectangle(b));
    GEOSSTRtree_insert_r(context(), tree_->tree, tree_->envelopes.back().get(), reinterpret_cast<void*>(uintptr_t{id}));
  }
  // GEOS builds the tree on its first query: done here, under the cache's
  // lock, so that later queries from any thread only read it.
  GeometryPtr nowhere = own(GEOSGeom_createEmptyPoint_r(context()));
  GEOSSTRtree_query_r(context(), tree_->tree, nowhere.get(), [](void*, void*) {}, nullptr);
}

SpatialIndex::~SpatialIndex() = default;

std::vector<uint32_t> SpatialIndex::candidates(const Box& box) const {
  std::vector<uint32_t> out;
  GeometryPtr envelope = rectangle(box);
  GEOSSTRtree_query_r(
      context(), tree_->tree, envelope.get(),
      [](void* item, void* found) {
        static_cast<std::vector<uint32_t>*>(found)->push_back(static_cast<uint32_t>(reinterpret_cast<uintptr_t>(item)));
      },
      &out);
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<Box> SpatialIndex::box(uint32_t id) const {
  auto it = std::lower_bound(boxes_.begin(), boxes_.end(), id, [](const auto& e, uint32_t v) { return e.first < v; });
  if (it == boxes_.end() || it->first != id) return std::nullopt;
  return it->second;
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
  // Never destroyed: at exit the main thread's GEOS context goes before
  // static objects, and the indexes' geometries need one to be freed.
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
