#include "engine/geo/spatial_matcher.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/geo/geos_library.h"
#include "engine/geo/operations.h"
#include "engine/geo/spatial_index.h"

namespace gsparql::engine::geo {
namespace {

using Prepared = char (*)(GEOSContextHandle_t, const GEOSPreparedGeometry*, const GEOSGeometry*);

// GEOS's prepared predicate that answers `name` with the added geometry
// prepared: first when the added term is the relation's first argument,
// second when it is the second (sfWithin(probe, added) is added contains
// probe). Prepared geometries index their segments once, so a polygon
// tested against many points is not walked for each; nullptr where GEOS has
// no prepared form (sfEquals, the DE-9IM patterns).
struct PreparedForm {
  std::string_view name;
  Prepared GeosLibrary::*addedFirst;
  Prepared GeosLibrary::*addedSecond;
};
constexpr PreparedForm kPrepared[] = {
    {"sfIntersects", &GeosLibrary::GEOSPreparedIntersects_r, &GeosLibrary::GEOSPreparedIntersects_r},
    {"sfWithin", &GeosLibrary::GEOSPreparedWithin_r, &GeosLibrary::GEOSPreparedContains_r},
    {"sfContains", &GeosLibrary::GEOSPreparedContains_r, &GeosLibrary::GEOSPreparedWithin_r},
    {"sfTouches", &GeosLibrary::GEOSPreparedTouches_r, &GeosLibrary::GEOSPreparedTouches_r},
    {"ehMeet", &GeosLibrary::GEOSPreparedTouches_r, &GeosLibrary::GEOSPreparedTouches_r},
    {"sfOverlaps", &GeosLibrary::GEOSPreparedOverlaps_r, &GeosLibrary::GEOSPreparedOverlaps_r},
    {"sfCrosses", &GeosLibrary::GEOSPreparedCrosses_r, &GeosLibrary::GEOSPreparedCrosses_r},
};

Prepared preparedFor(std::string_view name, bool addedFirst) {
  for (const PreparedForm& p : kPrepared) {
    if (p.name == name) return geos().*(addedFirst ? p.addedFirst : p.addedSecond);
  }
  return nullptr;
}

const Relation& relationOf(std::string_view functionIri) {
  constexpr std::string_view kGeof = "<http://www.opengis.net/def/function/geosparql/";
  if (!impliesIntersection(functionIri)) throw std::logic_error("not a relation that needs a common point");
  return *findRelation(functionIri.substr(kGeof.size(), functionIri.size() - kGeof.size() - 1));
}

bool isCollection(const Geometry& g) { return geos().GEOSGeomTypeId_r(context(), g.get()) == GEOS_GEOMETRYCOLLECTION; }

struct PreparedDeleter {
  void operator()(const GEOSPreparedGeometry* p) const { geos().GEOSPreparedGeom_destroy_r(context(), p); }
};

struct Added {
  Geometry geometry;
  uint32_t item;
  std::unique_ptr<const GEOSPreparedGeometry, PreparedDeleter> prepared;  // made on its first candidate
};

}  // namespace

struct SpatialMatcher::Impl {
  const Relation& relation;
  bool addedFirst;
  Prepared prepared;
  std::vector<std::unique_ptr<Added>> added;  // the tree points into them
  std::vector<Added*> empties;
  std::vector<Added*> nonEmpty;  // shape s of pointShapes() is nonEmpty[s]
  GEOSSTRtree* tree = nullptr;
  bool built = false;
  std::optional<Box> extent;  // of the non-empty added geometries: a test in plain numbers first
  // The probe holdsForPoint read last: a point's undecided pairs come one
  // after another, and its term is read once for them.
  std::string lastProbe;
  std::optional<Geometry> lastGeometry;

  Impl(std::string_view functionIri, bool first)
      : relation(relationOf(functionIri)), addedFirst(first), prepared(preparedFor(relation.name, first)),
        tree(geos().GEOSSTRtree_create_r(context(), 10)) {}
  ~Impl() { geos().GEOSSTRtree_destroy_r(context(), tree); }

  void extend(const Box& b) {
    if (!extent) extent = b;
    extent->minX = std::min(extent->minX, b.minX);
    extent->minY = std::min(extent->minY, b.minY);
    extent->maxX = std::max(extent->maxX, b.maxX);
    extent->maxY = std::max(extent->maxY, b.maxY);
  }

  // The relation between an added geometry and a probe, in argument order.
  // GEOS 3.11's relate refuses a GEOMETRYCOLLECTION where the prepared
  // predicates may not: those go the function's way, to its error.
  bool holdsFor(Added& a, const Geometry& probe) {
    try {
      if (!prepared || isCollection(a.geometry) || isCollection(probe)) {
        return addedFirst ? holds(relation, a.geometry, probe) : holds(relation, probe, a.geometry);
      }
      if (!a.prepared) a.prepared.reset(geos().GEOSPrepare_r(context(), a.geometry.get()));
      if (!a.prepared) return false;  // GEOS could not prepare it: as an error of the function
      const char answer = prepared(context(), a.prepared.get(), probe.get());
      return answer == 1;  // 2: GEOS failed, an error of the function
    } catch (const GeoError&) {
      return false;
    }
  }
};

SpatialMatcher::SpatialMatcher(std::string_view functionIri, bool addedFirst)
    : impl_(std::make_unique<Impl>(functionIri, addedFirst)) {}

SpatialMatcher::~SpatialMatcher() = default;

bool SpatialMatcher::add(uint32_t item, std::string_view term) {
  if (impl_->built) throw std::logic_error("SpatialMatcher::add after a probe");
  std::optional<Geometry> g = readTerm(term);
  if (!g) return false;
  impl_->added.push_back(std::make_unique<Added>(Added{std::move(*g), item, nullptr}));
  Added* a = impl_->added.back().get();
  if (geos().GEOSisEmpty_r(context(), a->geometry.get()) == 1) {
    impl_->empties.push_back(a);
  } else {
    impl_->nonEmpty.push_back(a);
    geos().GEOSSTRtree_insert_r(context(), impl_->tree, a->geometry.get(), a);
    impl_->extend(boxOfGeometry(a->geometry.get()));
  }
  return true;
}

bool SpatialMatcher::mayMatch(const Box& box) {
  impl_->built = true;
  const std::optional<Box>& e = impl_->extent;
  if (!e || box.maxX < e->minX || box.minX > e->maxX || box.maxY < e->minY || box.minY > e->maxY) return false;
  GeometryPtr envelope = own(geos().GEOSGeom_createRectangle_r(context(), box.minX, box.minY, box.maxX, box.maxY));
  bool any = false;
  geos().GEOSSTRtree_query_r(context(), impl_->tree, envelope.get(), [](void*, void* found) { *static_cast<bool*>(found) = true; },
                      &any);
  return any;
}

void SpatialMatcher::probe(std::string_view term, const std::function<void(uint32_t item)>& match) {
  impl_->built = true;
  std::optional<Geometry> g = readTerm(term);
  if (!g) return;
  if (geos().GEOSisEmpty_r(context(), g->get()) == 1) {
    for (Added* a : impl_->empties) {
      if (impl_->holdsFor(*a, *g)) match(a->item);
    }
    return;
  }
  std::vector<Added*> candidates;
  geos().GEOSSTRtree_query_r(
      context(), impl_->tree, g->get(),
      [](void* item, void* found) { static_cast<std::vector<Added*>*>(found)->push_back(static_cast<Added*>(item)); },
      &candidates);
  // In item order, whatever the tree's: a join's rows come in the same
  // order as where a PointLocator placed the points.
  std::sort(candidates.begin(), candidates.end(), [](const Added* a, const Added* b) { return a->item < b->item; });
  for (Added* a : candidates) {
    if (impl_->holdsFor(*a, *g)) match(a->item);
  }
}

namespace {

// Whether where a point lies decides the relation between it and a
// polygonal added geometry (nullopt where it does not), and if so whether a
// point on the boundary is in the relation too.
std::optional<bool> decidedByPlace(std::string_view relation, bool addedFirst) {
  if (relation == "sfIntersects") return true;
  if ((relation == "sfWithin" && !addedFirst) || (relation == "sfContains" && addedFirst)) return false;
  return std::nullopt;
}

void addRing(RingSet& rings, const GEOSGeometry* ring) {
  const GEOSCoordSequence* coordinates = geos().GEOSGeom_getCoordSeq_r(context(), ring);
  unsigned int size = 0;
  geos().GEOSCoordSeq_getSize_r(context(), coordinates, &size);
  for (unsigned int i = 0; i < size; ++i) {
    double x = 0, y = 0;
    geos().GEOSCoordSeq_getXY_r(context(), coordinates, i, &x, &y);
    rings.addVertex(x, y);
  }
  rings.endRing();
}

void addPolygonRings(RingSet& rings, const GEOSGeometry* polygon) {
  addRing(rings, geos().GEOSGetExteriorRing_r(context(), polygon));
  const int holes = geos().GEOSGetNumInteriorRings_r(context(), polygon);
  for (int h = 0; h < holes; ++h) addRing(rings, geos().GEOSGetInteriorRingN_r(context(), polygon, h));
}

}  // namespace

std::optional<RingSet> SpatialMatcher::pointShapes() const {
  if (!decidedByPlace(impl_->relation.name, impl_->addedFirst)) return std::nullopt;
  RingSet rings;
  for (const Added* a : impl_->nonEmpty) {
    const GEOSGeometry* g = a->geometry.get();
    switch (geos().GEOSGeomTypeId_r(context(), g)) {
      case GEOS_POLYGON:
        addPolygonRings(rings, g);
        break;
      case GEOS_MULTIPOLYGON:
        for (int i = 0; i < geos().GEOSGetNumGeometries_r(context(), g); ++i) {
          addPolygonRings(rings, geos().GEOSGetGeometryN_r(context(), g, i));
        }
        break;
      default:
        return std::nullopt;
    }
    rings.endShape(boxOfGeometry(g));
  }
  return rings;
}

uint32_t SpatialMatcher::itemOfShape(uint32_t shape) const { return impl_->nonEmpty.at(shape)->item; }

bool SpatialMatcher::holdsForPoint(uint32_t shape, PointPlace place, const std::function<std::string_view()>& term) {
  impl_->built = true;
  switch (place) {
    case PointPlace::Exterior:
      return false;
    case PointPlace::Interior:
      return true;
    case PointPlace::Boundary:
      return *decidedByPlace(impl_->relation.name, impl_->addedFirst);
    case PointPlace::Undecided:
      break;
  }
  const std::string_view text = term();
  if (text != impl_->lastProbe) {
    impl_->lastGeometry = readTerm(text);
    impl_->lastProbe = text;
  }
  return impl_->lastGeometry && impl_->holdsFor(*impl_->nonEmpty.at(shape), *impl_->lastGeometry);
}

}  // namespace gsparql::engine::geo
