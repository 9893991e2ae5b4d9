#pragma once
// A spatial index over the geometry literals of one store snapshot: an R-tree
// of their envelopes in CRS84 order, packed sort-tile-recursive, mapping to
// their vertex ids. The planner asks it for the literals whose envelopes meet a constant
// geometry's, to limit a BGP variable that a spatial FILTER tests against
// that constant (docs/geosparql.md); the filter is still applied, so the
// index only has to keep every row that could pass, never decide one.
// GEOS stays behind this header.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/geo/box.h"

namespace gsparql::engine::geo {

// What the index keeps of a literal: its envelope, and whether it is a
// single point (whose coordinates are then the envelope's corner).
struct StoredEnvelope {
  Box box;
  bool point = false;
};

class SpatialIndex {
 public:
  using Visit = std::function<void(uint32_t id, std::string_view term)>;
  // Reads every vertex term (rdf/term.h form) that `forEachTerm` visits and
  // keeps the geometry literals that read and are not empty.
  explicit SpatialIndex(const std::function<void(const Visit&)>& forEachTerm);
  ~SpatialIndex();
  SpatialIndex(const SpatialIndex&) = delete;
  SpatialIndex& operator=(const SpatialIndex&) = delete;

  // The ids (sorted) of the literals whose envelopes intersect `box`.
  std::vector<uint32_t> candidates(const Box& box) const;
  // The envelope of literal `id`; nullopt where it is not indexed (no
  // geometry, an ill-typed or empty one).
  std::optional<Box> box(uint32_t id) const;
  // The same with whether literal `id` is a single POINT.
  std::optional<StoredEnvelope> envelope(uint32_t id) const;
  // Whether every id of `ids` (ascending) is a literal it holds.
  bool holdsAll(std::span<const uint32_t> ids) const;
  // The envelopes it holds, by id.
  const std::vector<std::pair<uint32_t, Box>>& boxes() const { return boxes_; }
  size_t size() const { return boxes_.size(); }

  // A lower bound of a distance from any envelope within the box it is
  // given: it may not grow from a box to one inside it.
  using Bound = std::function<double(const Box&)>;
  // The `count` literals of the least bounds (ids ascending), and the least
  // bound of those left out (infinity where none is): a best-first search of
  // the tree's nodes, whose bounds are below their literals'.
  std::pair<std::vector<uint32_t>, double> leastBounded(size_t count, const Bound& bound) const;
  // The same for each of `counts` (ascending) in one search.
  std::vector<std::pair<std::vector<uint32_t>, double>> leastBounded(std::span<const size_t> counts,
                                                                     const Bound& bound) const;

 private:
  // A node of the search's tree: the envelope of its children, which are
  // [begin, end) of the level below (of leafOrder_ on the lowest level).
  struct Node {
    Box box;
    uint32_t begin = 0, end = 0;
  };
  void packLevels();
  void indexPositions();
  // The position in boxes_ of literal `id`'s envelope.
  std::optional<uint32_t> position(uint32_t id) const;

  std::vector<std::pair<uint32_t, Box>> boxes_;  // by id
  std::vector<bool> isPoint_;                    // by position in boxes_: a single POINT
  static constexpr uint32_t kAbsent = UINT32_MAX;
  std::vector<uint32_t> positionOf_;             // by id, where not empty: the position in boxes_ (or kAbsent)
  std::vector<uint32_t> leafOrder_;              // positions in boxes_, tile by tile
  std::vector<std::vector<Node>> levels_;        // the lowest first; the last is the root's children
};

// The index of the snapshot named `key`, built on its first use and kept
// for the few snapshots asked last.
std::shared_ptr<const SpatialIndex> spatialIndex(const std::string& key,
                                                 const std::function<void(const SpatialIndex::Visit&)>& forEachTerm);

// Whether `name` (a geof: function IRI term, "<...sfWithin>") holds only
// between geometries that share a point, so that an index of envelopes can
// narrow its candidates.
bool impliesIntersection(std::string_view functionIri);

}  // namespace gsparql::engine::geo
